"""The measures of a seat plan: the table sizes of a field (:func:`table_sizes`), the lower
bound of its repeats (:func:`lower_bound`) and the quality of a plan (:func:`evaluate`)."""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence

from .types import Group, ImpossibleField, Player, Quality

# --- field sizes and bounds ---------------------------------------------------------------


def _seatable(n: int) -> bool:
    return n >= 4 and 5 * (n % 4) <= n


def table_sizes(n: int) -> list[int]:
    """Table sizes for ``n`` players: ``n mod 4`` five-tables first, then four-tables.

    Raises :class:`ImpossibleField` for 1, 2, 3, 6, 7 and 11 players (and for none).
    """
    if not _seatable(n):
        add = next(k for k in itertools.count(1) if _seatable(n + k))
        remove = next((k for k in range(1, n) if _seatable(n - k)), None)
        raise ImpossibleField(n, add, remove)
    fives = n % 4
    return [5] * fives + [4] * ((n - 5 * fives) // 4)


def _pairs_per_round(n: int) -> int:
    return sum(size * (size - 1) // 2 for size in table_sizes(n))


def lower_bound(n: int, rounds: int) -> int:
    """max(0, rounds x pairs seated per round - n(n-1)/2): each pair beyond the number of
    distinct pairs is a repeat."""
    return max(0, rounds * _pairs_per_round(n) - n * (n - 1) // 2)


# --- evaluation ---------------------------------------------------------------------------


def meetings(rounds: Iterable[Iterable[Sequence[Player]]]) -> dict[frozenset[Player], int]:
    met: dict[frozenset[Player], int] = {}
    for round_ in rounds:
        for table in round_:
            for a, b in itertools.combinations(table, 2):
                key = frozenset((a, b))
                met[key] = met.get(key, 0) + 1
    return met


def _club_violations(rounds: Sequence[Sequence[Sequence[Player]]], groups: Sequence[Group]) -> int:
    count = 0
    for number, round_ in enumerate(rounds, start=1):
        active = [g.members for g in groups if g.active(number)]
        for table in round_:
            for a, b in itertools.combinations(table, 2):
                count += any(a in members and b in members for members in active)
    return count


def _wish_violations(
    rounds: Sequence[Sequence[Sequence[Player]]], apart: Sequence[frozenset[Player]]
) -> int:
    count = 0
    for round_ in rounds:
        for table in round_:
            for a, b in itertools.combinations(table, 2):
                count += sum(1 for members in apart if a in members and b in members)
    return count


def evaluate(
    rounds: Sequence[Sequence[Sequence[Player]]],
    players: Sequence[Player] | None = None,
    separate: Sequence[Group] = (),
    apart: Sequence[frozenset[Player]] = (),
) -> Quality:
    """The quality of a plan (rounds of tables of players in position order).

    * ``repeat_pairs``: sum over pairs of (times at one table - 1), all rounds as played;
    * ``lower_bound``: max(0, pairs seated - distinct pairs of all players in the plan);
    * ``five_table_spread``: max - min of the five-table counts over ``players``;
    * ``position_balance``: max over ``players`` of (max - min) of the counts of positions
      1-4 (position 5 exists at five-tables only and is left out);
    * ``club_violations``: pairs of one group at one table in a round the group is active;
    * ``wish_violations``: pairs of one never-together group of ``apart`` at one table, over
      all rounds given (a pair in two groups counts twice).

    ``players`` defaults to everybody who appears in the plan.
    """
    if players is None:
        players = list(dict.fromkeys(p for round_ in rounds for table in round_ for p in table))
    met = meetings(rounds)
    everybody = {p for round_ in rounds for table in round_ for p in table} | set(players)
    seated = sum(len(t) * (len(t) - 1) // 2 for round_ in rounds for t in round_)
    bound = max(0, seated - len(everybody) * (len(everybody) - 1) // 2)
    fives = dict.fromkeys(players, 0)
    positions = {p: [0, 0, 0, 0] for p in players}
    for round_ in rounds:
        for table in round_:
            for index, p in enumerate(table):
                if p in fives:
                    fives[p] += len(table) == 5
                    if index < 4:
                        positions[p][index] += 1
    return Quality(
        repeat_pairs=sum(k - 1 for k in met.values()),
        lower_bound=bound,
        five_table_spread=max(fives.values()) - min(fives.values()) if fives else 0,
        position_balance=max((max(c) - min(c) for c in positions.values()), default=0),
        club_violations=_club_violations(rounds, separate),
        wish_violations=_wish_violations(rounds, apart) if apart else 0,
    )
