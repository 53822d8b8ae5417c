"""Seat draws for card tournaments: who sits at which table, in which seat, in every round.

This is the social golfer problem with tables of four and five. A field of N players sits
at ``N mod 4`` five-tables and four-tables for the rest. Plans are compared
lexicographically by

(a) five-table exposure: everybody sits at a five-table floor or ceil of the fair share
    (a five-table means a longer round with a game off in every five: nobody accepts
    one player there four times and another never),
(b) repeat encounters: a pair at the same table k > 1 times counts k - 1,
(c) seat positions: everybody gets every position about equally often,
(d) club separation: players of one group should not share a table (in the given rounds).

How: who sits at five-tables in which round is decided first (fair shares, spread so that
few pairs share a five-table twice). The grouping starts from an algebraic repeat-free plan
or a stored plan where we have one (:mod:`tournament.seating.construct`) or from a greedy
draw; a tabu search then swaps players between the tables of a round to remove repeats,
then club conflicts, keeping the five-table shares fair all along (swaps across table
sizes only where both players stay in their fair range, or as trades that swap back in
another round). Where repeats are left in a mixed field, a shorter search that ignores
fairness shows what (a) cost: ``Plan.stats.unfair``. Positions do not touch (a), (b) or
(d), so they are assigned last: an edge colouring gives every player each position
equally often.

Pure Python without Django, so the solver can be used and tested on its own. The draw is
reproducible: the same request with the same seed gives the same plan on every machine and
under any load, because the search budget is counted in work units, not seconds. The clock
is only a safety net far beyond the budget (``Plan.stats.timed_out`` says when it cut a
search: then the seed may give another plan elsewhere).
"""

from __future__ import annotations

import itertools
import random
import time
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from . import construct

Player = Hashable
Rounds = list[list[list[int]]]
# (round, player, table) -> the step until which the player may not return to that table
Tabu = dict[tuple[int, int, int], int]

# The search keeps the five-table shares fair (a) and minimises one number: REPEAT_WEIGHT x
# repeats + club conflicts, so that one repeat (b) outweighs any club conflicts (d).
REPEAT_WEIGHT = 1 << 60
# Search work units (about one list element computed, ~0.5 us in CPython) per second of time
# limit: some 60-70 % of what the development machine does, so the budget, not the clock,
# normally ends the search and the draw stays reproducible.
WORK_PER_SECOND = 1_800_000
# The wall clock stops a search only this far beyond its budget (a machine several times
# slower than the development laptop, or one drowning in other work): normal draws never
# reach it, so their plans depend on the inputs alone.
CLOCK_SAFETY_FACTOR = 4
CLOCK_SAFETY_SECONDS = 5.0
# Larger than any real change of the search cost: marks swaps that are not possible.
BLOCKED = 1 << 100
# Trades (see _Search._trades) priced per hot player and round.
TRADES_PER_PLAYER = 3
# Work units charged for the bookkeeping of one search step.
STEP_WORK = 200


class ImpossibleField(ValueError):
    """``players`` cannot be split into tables of four and five.

    ``add`` and ``remove`` say how many players to add or remove to reach the nearest
    field that can be seated (``remove`` is None when no smaller field exists).
    """

    def __init__(self, players: int, add: int, remove: int | None) -> None:
        self.players, self.add, self.remove = players, add, remove
        hint = f"add {add}" + (f" or remove {remove}" if remove else "")
        super().__init__(f"{players} players cannot sit at tables of four and five: {hint}")


@dataclass(frozen=True)
class Group:
    """Players who should not share a table, e.g. one club.

    ``rounds`` holds round numbers counted from 1 (the first round of the tournament);
    None means every round.
    """

    members: frozenset[Player]
    rounds: frozenset[int] | None = None

    def active(self, number: int) -> bool:
        return self.rounds is None or number in self.rounds


@dataclass(frozen=True)
class DrawRequest:
    """What to draw.

    ``players`` are the players of the new rounds. ``rounds`` is the total number of rounds
    including the ``fixed`` ones (played rounds: per round, per table, players in position
    order); fixed rounds may hold players who left and lack newcomers. ``separate`` lists the
    groups to keep apart. ``seed`` makes the draw reproducible; ``time_limit`` sets the
    effort: ``time_limit x WORK_PER_SECOND`` work units, about that many seconds on a
    laptop. A machine slower or busier than that takes longer for the same plan; only past
    ``CLOCK_SAFETY_FACTOR x time_limit + CLOCK_SAFETY_SECONDS`` does the clock stop it.

    ``plan`` is the whole plan of the previous draw (all its rounds, as it returned them).
    When the fixed rounds were played as it drew them, the draw continues it: its next round
    is kept and the search only improves the rounds after it, so drawing one round at a time
    reaches what drawing every round at once reaches (see :func:`_planned_start`).
    """

    players: Sequence[Player]
    rounds: int
    fixed: Sequence[Sequence[Sequence[Player]]] = ()
    separate: Sequence[Group] = ()
    seed: int = 0
    time_limit: float = 5.0
    plan: Sequence[Sequence[Sequence[Player]]] = ()


@dataclass(frozen=True)
class Quality:
    """The objectives of a plan; see :func:`evaluate`."""

    repeat_pairs: int
    lower_bound: int
    five_table_spread: int
    position_balance: int
    club_violations: int = 0

    @property
    def gap(self) -> int:
        """Repeats above the lower bound (0 means provably optimal for the repeats)."""
        return self.repeat_pairs - self.lower_bound


@dataclass(frozen=True)
class DrawStats:
    """How the plan was found: ``method`` is "plan" (the previous draw's plan continued),
    "construction", "search" or "fixed"."""

    method: str
    seconds: float
    iterations: int
    timed_out: bool
    target: int  # repeats the search aimed for (a lower bound that also counts fixed rounds)
    # When fair five-tables cost repeats: the quality of the best plan a search found that
    # shares the five-tables unfairly (fewer repeats, a larger spread); else None.
    unfair: Quality | None = None


@dataclass(frozen=True)
class Plan:
    """All rounds (the fixed ones unchanged, then the new ones), each a list of tables,
    each table a list of players in position order (position 1 first)."""

    rounds: list[list[list[Player]]]
    quality: Quality
    stats: DrawStats


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


def _meetings(rounds: Iterable[Iterable[Sequence[Player]]]) -> dict[frozenset[Player], int]:
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


def evaluate(
    rounds: Sequence[Sequence[Sequence[Player]]],
    players: Sequence[Player] | None = None,
    separate: Sequence[Group] = (),
) -> Quality:
    """The quality of a plan (rounds of tables of players in position order).

    * ``repeat_pairs``: sum over pairs of (times at one table - 1), all rounds as played;
    * ``lower_bound``: max(0, pairs seated - distinct pairs of all players in the plan);
    * ``five_table_spread``: max - min of the five-table counts over ``players``;
    * ``position_balance``: max over ``players`` of (max - min) of the counts of positions
      1-4 (position 5 exists at five-tables only and is left out);
    * ``club_violations``: pairs of one group at one table in a round the group is active.

    ``players`` defaults to everybody who appears in the plan.
    """
    if players is None:
        players = list(dict.fromkeys(p for round_ in rounds for table in round_ for p in table))
    met = _meetings(rounds)
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
    )


# --- the draw -----------------------------------------------------------------------------


def draw(request: DrawRequest, *, stored: bool = True) -> Plan:
    """Seat ``request.players`` for the rounds after the fixed ones.

    Returns all ``request.rounds`` rounds: the fixed rounds unchanged, then the new ones.
    Raises :class:`ImpossibleField` when the players cannot be seated and ``ValueError``
    for a malformed request (duplicate players, more fixed rounds than rounds, a player
    twice in a fixed round). ``stored=False`` ignores constructions and stored plans (for
    the generator of the stored plans).
    """
    started = time.perf_counter()
    players = list(request.players)
    n = len(players)
    index = {p: i for i, p in enumerate(players)}
    if len(index) != n:
        raise ValueError("players must be distinct")
    fixed = [[list(t) for t in round_] for round_ in request.fixed]
    for number, round_ in enumerate(fixed, start=1):
        in_round = [p for t in round_ for p in t]
        if len(in_round) != len(set(in_round)):
            raise ValueError(f"fixed round {number} seats a player twice")
    new = request.rounds - len(fixed)
    if new < 0:
        raise ValueError("more fixed rounds than rounds")
    sizes = table_sizes(n)
    if new == 0:
        quality = evaluate(fixed, players, request.separate)
        return Plan(fixed, quality, DrawStats("fixed", 0.0, 0, False, quality.repeat_pairs))

    rng = random.Random(request.seed)
    deadline = started + CLOCK_SAFETY_FACTOR * request.time_limit + CLOCK_SAFETY_SECONDS
    problem = _Problem.build(players, index, fixed, sizes, new, request.separate)
    five_sets = _five_table_sets(problem, rng)
    # in indices; players of the fixed rounds who left get stand-ins n, n + 1, ...
    gone: dict[Player, int] = {}
    fixed_indices = [
        [[index[p] if p in index else gone.setdefault(p, n + len(gone)) for p in t] for t in r]
        for r in fixed
    ]
    start = _planned_start(request.plan, fixed, players, problem) if fixed else None
    method = "plan"
    if start is None:
        start = _constructed_start(problem, fixed_indices, rng) if stored else None
        method = "construction" if start is not None else "search"
    budget = int(max(request.time_limit, 0.01) * WORK_PER_SECOND)
    fresh, timed_out = None, False
    if problem.repaired:  # a repaired plan may start worse than none: search afresh first
        fresh = _Search(problem, five_sets, None, rng)
        timed_out = fresh.run(budget, deadline)
    # A continued plan or construction keeps its next round as it is: the round kept by a
    # round-by-round draw stays a round of that plan, and the next draw continues it.
    search = _Search(problem, five_sets, start, rng, frozen=1 if fixed and start else 0)
    timed_out = search.run(budget, deadline) or timed_out
    if fresh is not None and fresh.best_cost < search.best_cost:
        search, method = fresh, "search"
    ordered = _fair_prefixes(search.best_rounds(), problem, search.frozen)
    seated = _assign_positions(ordered, problem, rng)
    plan_rounds = fixed + [[[players[p] for p in t] for t in r] for r in seated]
    quality = evaluate(plan_rounds, players, request.separate)
    unfair = None
    if 4 in sizes and 5 in sizes and search.best_repeats > search.target_repeats:
        # What did fairness cost? From the fair plan, a search that may share the
        # five-tables unfairly, with an eighth of the effort. Its result is reported only
        # if it has fewer repeats at an unfair spread, and not if the clock cut it.
        free = _Search(problem, five_sets, search.best_rounds(), rng, fair=False)
        if not free.run(budget // 8, deadline) and free.best_repeats < search.best_repeats:
            other = fixed + [[[players[p] for p in t] for t in r] for r in free.best_rounds()]
            found = evaluate(other, players)
            unfair = found if found.five_table_spread > quality.five_table_spread else None
    stats = DrawStats(
        method=method,
        seconds=time.perf_counter() - started,
        iterations=search.iterations,
        timed_out=timed_out,
        target=problem.fixed_repeats + search.target_repeats,
        unfair=unfair,
    )
    return Plan(plan_rounds, quality, stats)


@dataclass
class _Problem:
    """The request in indices 0..n-1: what the search needs, fixed rounds folded in."""

    n: int
    sizes: list[int]
    new: int  # rounds to draw
    met: list[list[int]]  # meetings so far among current players (fixed rounds)
    mates: list[list[frozenset[int]]] | None  # per new round: club mates of each player
    fives_before: list[int]  # five-table rounds in the fixed rounds
    positions_before: list[list[int]]  # position counts (1-5) in the fixed rounds
    fixed_repeats: int  # repeats in the fixed rounds among *all* players, as played
    lo: list[int] = field(default_factory=list)  # fair new five-table rounds per player
    hi: list[int] = field(default_factory=list)
    pigeonhole: int = 0  # repeats forced in small fields (see _pigeonhole)
    # first_lo[p] = 1: p must, first_hi[p] = 1: p may sit at a five-table in the first new
    # round (see _first_bounds)
    first_lo: list[int] = field(default_factory=list)
    first_hi: list[int] = field(default_factory=list)
    repaired: bool = False  # the start's five-table seats were repaired (_repair_fives)

    @classmethod
    def build(
        cls,
        players: list[Player],
        index: dict[Player, int],
        fixed: list[list[list[Player]]],
        sizes: list[int],
        new: int,
        groups: Sequence[Group],
    ) -> _Problem:
        n = len(players)
        met = [[0] * n for _ in range(n)]
        fives_before = [0] * n
        positions_before = [[0] * 5 for _ in range(n)]
        for round_ in fixed:
            for table in round_:
                ids = [index[p] for p in table if p in index]
                for a, b in itertools.combinations(ids, 2):
                    met[a][b] += 1
                    met[b][a] += 1
                for position, p in enumerate(table):
                    if p in index:
                        fives_before[index[p]] += len(table) == 5
                        positions_before[index[p]][min(position, 4)] += 1
        fixed_repeats = sum(k - 1 for k in _meetings(fixed).values())
        fixed_groups = min(
            (
                sum(1 for t in round_ if any(p in index for p in t))
                + n
                - sum(p in index for t in round_ for p in t)
                for round_ in fixed
            ),
            default=None,
        )
        problem = cls(n, sizes, new, met, _club_mates(players, groups, len(fixed), new),
                      fives_before, positions_before, fixed_repeats)  # fmt: skip
        slots = 5 * sizes.count(5) * new
        problem.lo, problem.hi = _exposure_bounds(fives_before, slots, new)
        problem.pigeonhole = _pigeonhole(sizes, new, fixed_groups)
        problem.first_lo, problem.first_hi = _first_bounds(problem)
        return problem

    def first_round_allows(self, r: int, up: int, down: int) -> bool:
        """May ``up`` move to a five-table and ``down`` to a four-table in new round r?"""
        return r != 0 or (self.first_hi[up] == 1 and self.first_lo[down] == 0)

    @property
    def current_fixed_repeats(self) -> int:
        """Repeats of the fixed rounds among current players: the search counts only these."""
        return sum(max(0, self.met[a][b] - 1) for a in range(self.n) for b in range(a + 1, self.n))

    def repeat_target(self) -> int:
        """A lower bound on the repeats the new rounds add: the search stops when it gets
        there. Every seat pair beyond the pairs that have not met yet is a repeat; per
        player, every tablemate beyond the players one has not met yet (five-table seats
        go to those with most room); and the pigeonhole bound of :func:`_pigeonhole`."""
        unmet = [sum(1 for q in range(self.n) if q != p and not self.met[p][q])
                 for p in range(self.n)]  # fmt: skip
        slots = sum(s * (s - 1) // 2 for s in self.sizes) * self.new
        by_pairs = slots - sum(unmet) // 2
        over = [3 * self.new - u for u in unmet]
        extra_seats = 5 * self.sizes.count(5) * self.new
        room = sum(min(self.new, -o) for o in over if o < 0)
        by_players = sum(o for o in over if o > 0) + max(0, extra_seats - room)
        return max(0, by_pairs, (by_players + 1) // 2, self.pigeonhole)


def _pigeonhole_pairs(size: int, groups: int) -> int:
    """The fewest pairs from one group at a table of ``size`` filled from ``groups`` groups
    (players spread as evenly as possible)."""
    each, left = divmod(size, groups)
    return left * (each + 1) * each // 2 + (groups - left) * each * (each - 1) // 2


def _pigeonhole(sizes: list[int], new: int, fixed_groups: int | None) -> int:
    """Repeats forced by the pigeonhole principle in small fields: a round's table draws
    its players from the G tables of an earlier round, and with G < 4 (or G < 5 for a
    five-table) two of them sat together there. Every new round after the first is
    measured against the first new round (G = number of tables); with fixed rounds,
    every new round also against the fixed round with the fewest groups (its tables
    plus one group per player who was not there). A round's repeats are at least the
    larger of the two counts."""
    total = 0
    for r in range(new):
        groups = [g for g in (fixed_groups, len(sizes) if r else None) if g]
        if groups:
            total += sum(_pigeonhole_pairs(size, min(groups)) for size in sizes)
    return total


def _club_mates(
    players: list[Player], groups: Sequence[Group], played: int, new: int
) -> list[list[frozenset[int]]] | None:
    """Per new round and player: the players of a common active group (None if no group
    applies at all)."""
    result = []
    any_mates = False
    for number in range(played + 1, played + new + 1):
        clubs: list[set[int]] = [set() for _ in players]
        for group in groups:
            if group.active(number):
                ids = [i for i, p in enumerate(players) if p in group.members]
                for i in ids:
                    clubs[i].update(j for j in ids if j != i)
                any_mates |= len(ids) > 1
        result.append([frozenset(c) for c in clubs])
    return result if any_mates else None


def _exposure_bounds(before: list[int], slots: int, rounds: int) -> tuple[list[int], list[int]]:
    """How many of the new rounds each player should sit at a five-table: ``lo[p]..hi[p]``.

    Water-filling: the totals (before + new) end up at a level h or h + 1, as even as the
    fixed rounds allow, and sum(lo) <= slots <= sum(hi), so the bounds can be met.
    """

    def clamp(value: int) -> int:
        return max(0, min(rounds, value))

    if slots == 0:
        return [0] * len(before), [0] * len(before)
    level = 0
    while sum(clamp(level + 1 - b) for b in before) < slots:
        level += 1
    # Now sum(clamp(level - b)) < slots <= sum(clamp(level + 1 - b)) (or level == 0).
    return [clamp(level - b) for b in before], [clamp(level + 1 - b) for b in before]


def _at_five_tables(round_: Sequence[Sequence[int]]) -> set[int]:
    return {p for table in round_ if len(table) == 5 for p in table}


def _fair_prefixes(rounds: Rounds, problem: _Problem, frozen: int = 0) -> Rounds:
    """The new rounds in an order that keeps the five-table counts even after every round,
    not only at the end: a round-by-round draw keeps just the first new round. Greedy: next
    the round after which the counts spread least (then: whose five-table players had
    fewest so far), the earliest among equals. Rounds with different club groups are not
    interchangeable and keep their order; so do the first ``frozen`` rounds."""
    if problem.mates and any(mates != problem.mates[0] for mates in problem.mates):
        return rounds
    counts = problem.fives_before[:]
    fives = [_at_five_tables(round_) for round_ in rounds]

    def after(r: int) -> tuple[int, int]:
        new = [c + (p in fives[r]) for p, c in enumerate(counts)]
        return max(new) - min(new), sum(counts[p] for p in fives[r])

    left = list(range(frozen, len(rounds)))
    order = list(range(frozen))
    for r in order:
        for p in fives[r]:
            counts[p] += 1
    while left:
        r = min(left, key=lambda r: (after(r), r))
        left.remove(r)
        order.append(r)
        for p in fives[r]:
            counts[p] += 1
    return [rounds[r] for r in order]


def _first_bounds(problem: _Problem) -> tuple[list[int], list[int]]:
    """Who must and who may sit at a five-table in the first new round, so that the counts
    stay even after it as well, not only at the end: a round-by-round draw keeps just
    that round. The five-table seats go to the players with the fewest five-table rounds
    so far: below the count where the seats run out everybody must, above it nobody may.
    Where that clashes with the fair range of the whole plan, the first round is free."""
    n, seats = problem.n, 5 * problem.sizes.count(5)
    free = [0] * n, [1] * n
    if seats == 0 or seats >= n:
        return free
    cut = sorted(problem.fives_before)[seats - 1]
    lo = [int(b < cut) for b in problem.fives_before]
    hi = [int(b <= cut) for b in problem.fives_before]
    clash = any(
        (lo[p] and not problem.hi[p]) or (not hi[p] and problem.lo[p] == problem.new)
        for p in range(n)
    )
    return free if clash else (lo, hi)


def _five_table_sets(problem: _Problem, rng: random.Random) -> list[set[int]]:
    """Who sits at five-tables in each new round to start with: 5 x fives players per
    round, every player between ``lo`` and ``hi`` times. Those who still need the most go
    first (as in the Gale-Ryser construction), ties are broken by the seed."""
    seats = 5 * problem.sizes.count(5)
    if seats == 0:
        return [set() for _ in range(problem.new)]
    given = [0] * problem.n
    result = []
    for r in range(problem.new):
        left = problem.new - r
        tie = [rng.random() for _ in range(problem.n)]
        first = (problem.first_lo, problem.first_hi) if r == 0 else None
        order = sorted(
            range(problem.n),
            key=lambda p: (first is not None and -first[0][p], first is not None and -first[1][p],
                           given[p] >= problem.hi[p], -(problem.lo[p] - given[p] >= left),
                           given[p] - problem.lo[p], given[p] - problem.hi[p], tie[p]),
        )  # fmt: skip
        chosen = set(order[:seats])
        for p in chosen:
            given[p] += 1
        result.append(chosen)
    _spread_five_sets(result, problem, rng)
    return result


def _spread_five_sets(sets: list[set[int]], problem: _Problem, rng: random.Random) -> None:
    """Rearrange the five-table sets so that few pairs share one twice (or again after
    meeting in the fixed rounds): with few five-tables per round such a pair is bound to
    repeat. Random moves that keep every player's count, accepted unless they cost more:
    a player trades rounds with another one, or (where the fair range leaves room) a
    player at a five-table hands the round over to one who is not."""
    n, rounds = problem.n, len(sets)
    if 4 not in problem.sizes:
        return  # everybody sits at a five-table every round
    together = [row[:] for row in problem.met]
    count = [0] * n
    for chosen in sets:
        for p in chosen:
            count[p] += 1
            for q in chosen:
                if q != p:
                    together[p][q] += 1

    def change(r: int, p: int, sign: int) -> int:
        # Count p in (sign 1) or out of (-1) set r; returns the change of repeats.
        delta = 0
        for q in sets[r]:
            if q != p:
                before = together[p][q]
                together[p][q] = together[q][p] = before + sign
                delta += max(0, before + sign - 1) - max(0, before - 1)
        return delta

    outside = [[p for p in range(n) if p not in chosen] for chosen in sets]
    # the first round's set is chosen for even counts after it (see _first_bounds)
    keep_first = any(problem.first_lo) or not all(problem.first_hi)
    for _step in range(300 * rounds + 20 * n):
        r = rng.randrange(rounds)
        if r == 0 and keep_first:
            continue
        p = rng.choice(sorted(sets[r]))
        q = rng.choice(outside[r])
        other = None
        if not (count[p] > problem.lo[p] and count[q] < problem.hi[q]):
            choices = [o for o in range(rounds) if q in sets[o] and p not in sets[o]
                       and not (o == 0 and keep_first)]  # fmt: skip
            if not choices:
                continue
            other = rng.choice(choices)
        delta = change(r, p, -1)
        sets[r].remove(p)
        delta += change(r, q, +1)
        sets[r].add(q)
        if other is not None:
            delta += change(other, q, -1)
            sets[other].remove(q)
            delta += change(other, p, +1)
            sets[other].add(p)
        if delta > 0:  # undo
            if other is not None:
                change(other, p, -1)
                sets[other].remove(p)
                change(other, q, +1)
                sets[other].add(q)
            change(r, q, -1)
            sets[r].remove(q)
            change(r, p, +1)
            sets[r].add(p)
            continue
        outside[r][outside[r].index(q)] = p
        if other is not None:
            outside[other][outside[other].index(p)] = q
        else:
            count[p] -= 1
            count[q] += 1


def _constructed_start(problem: _Problem, fixed: Rounds, rng: random.Random) -> Rounds | None:
    """A start from a construction or a stored plan (see :mod:`.construct`).

    Without fixed rounds its points are relabelled by a seeded permutation; with club groups
    the relabelling is then improved by swapping labels while that does not add club
    conflicts. With fixed rounds (a round-by-round draw) the plan is continued when the
    fixed rounds are rounds of the construction under one relabelling: the first fixed round
    decides the labels, every later one must be another round of the construction. Then the
    new rounds are the construction's unused rounds, and drawing one round at a time loses
    nothing against drawing all rounds in advance.

    ``fixed`` is in player indices, from n on for players who left. When as many came late
    as left, the late entries take over the points of those who left: they have met nobody
    yet, so the plan stays as good as it was. A start for a mixed field is used only if it
    shares the five-tables fairly, as (a) comes first; a continued one is repaired where
    late entries need more (:func:`_fair_start`), and draw() then searches afresh as well.
    """
    plans = construct.constructed_plans(problem.n, len(fixed) + problem.new)
    if not plans:
        return None
    if not fixed:
        rounds = plans[0]
        label = list(range(problem.n))
        rng.shuffle(label)
        if problem.mates:
            _separate_clubs(rounds, label, problem.mates, rng)
        start = [[[label[p] for p in t] for t in r] for r in rounds]
    else:  # the first plan the played rounds belong to (see constructed_plans)
        continued = (_continuation(rounds, fixed, problem.n) for rounds in plans)
        start = next((rounds for rounds in continued if rounds), [])
    return _fair_start(start, problem, repair=bool(fixed)) if start else None


def _planned_start(
    plan: Sequence[Sequence[Sequence[Player]]],
    fixed: Sequence[Sequence[Sequence[Player]]],
    players: Sequence[Player],
    problem: _Problem,
) -> Rounds | None:
    """The rounds of the previous draw's ``plan`` after the fixed ones, in player indices;
    None when the fixed rounds were not played as the plan drew them (a swap, another
    draw), the number of rounds changed, or the field changed otherwise than by as many late
    entries as withdrawals. The late entries take the places of those who left, the first
    to come (in the order of ``players``) the place of the first in the plan: they have met
    nobody yet, so the plan keeps its repeats. Like a construction, the rest is used only if
    it shares the five-tables fairly, repaired where late entries need more
    (:func:`_fair_start`)."""
    if not plan or len(plan) != len(fixed) + problem.new:
        return None
    for played, planned in zip(fixed, plan, strict=False):
        if {frozenset(t) for t in played} != {frozenset(t) for t in planned}:
            return None
    rest = plan[len(fixed) :]
    seated = [p for t in rest[0] for p in t]
    present, in_plan = set(players), set(seated)
    gone = [p for p in seated if p not in present]
    late = [p for p in players if p not in in_plan]
    if len(gone) != len(late):
        return None
    index = {p: i for i, p in enumerate(players)}
    index.update({p: index[q] for p, q in zip(gone, late, strict=True)})
    everyone = list(range(problem.n))
    rounds: Rounds = []
    for round_ in rest:
        if sorted(map(len, round_)) != sorted(problem.sizes):
            return None
        if sorted(index.get(p, -1) for t in round_ for p in t) != everyone:
            return None
        rounds.append([[index[p] for p in t] for t in round_])
    return _fair_start(rounds, problem, repair=True)


def _fair_start(rounds: Rounds, problem: _Problem, *, repair: bool = False) -> Rounds | None:
    """``rounds`` if every player sits at a five-table of them within the fair range (or
    there are no five-tables), else None; a round that keeps the counts even after it
    (see :func:`_first_bounds`) is put first where there is one. (A stored plan whose
    rounds cannot all be ordered that way is still followed: its repeats come before even
    counts during the day.) With ``repair`` (a plan continued after a late entry, who took
    over the place of one who left and may need more five-table seats than that place
    has) the counts are first made fair by a few swaps in the later rounds
    (:func:`_repair_fives`) instead of giving up the whole plan."""
    if 5 not in problem.sizes:
        return rounds  # may be shorter than the plan: the search draws the rest
    if len(rounds) != problem.new:
        return None
    fives = [_at_five_tables(round_) for round_ in rounds]
    must = {p for p in range(problem.n) if problem.first_lo[p]}
    barred = {p for p in range(problem.n) if not problem.first_hi[p]}
    first = next((r for r, chosen in enumerate(fives) if must <= chosen and not chosen & barred),
                 None)  # fmt: skip
    if first is not None:
        rounds = [rounds[first], *rounds[:first], *rounds[first + 1 :]]
    count = [0] * problem.n
    for chosen in fives:
        for p in chosen:
            count[p] += 1
    if all(lo <= c <= hi for c, lo, hi in zip(count, problem.lo, problem.hi, strict=True)):
        return rounds
    return _repair_fives(rounds, problem, count) if repair else None


def _repair_fives(rounds: Rounds, problem: _Problem, count: list[int]) -> Rounds | None:
    """``rounds`` with every five-table count brought into the fair range by swaps of a
    player outside it with one who stays inside, in the rounds after the first (the first
    stays as planned: a round-by-round draw keeps it); each time the swap that adds the
    fewest repeats, the earliest among equals. None if no swap is left."""
    rounds = [[t[:] for t in r] for r in rounds]
    met = [row[:] for row in problem.met]
    for round_ in rounds:
        for table in round_:
            for a, b in itertools.combinations(table, 2):
                met[a][b] += 1
                met[b][a] += 1

    def added(table: list[int], leaving: int, coming: int) -> int:
        return sum((met[coming][x] >= 1) - (met[leaving][x] >= 2) for x in table if x != leaving)

    lo, hi = problem.lo, problem.hi
    while True:
        needy = next((p for p in range(problem.n) if not lo[p] <= count[p] <= hi[p]), None)
        if needy is None:
            problem.repaired = True
            return rounds
        up = count[needy] < lo[needy]  # to a five-table, else to a four-table
        best: tuple[int, int, int, int, int] | None = None  # cost, round, two tables, partner
        for r in range(1, len(rounds)):
            own = next(t for t, table in enumerate(rounds[r]) if needy in table)
            if (len(rounds[r][own]) == 5) == up:
                continue
            for t, table in enumerate(rounds[r]):
                if len(table) == len(rounds[r][own]):
                    continue
                for q in table:
                    if not lo[q] <= count[q] + (-1 if up else 1) <= hi[q]:
                        continue
                    cost = added(rounds[r][own], needy, q) + added(table, q, needy)
                    if best is None or cost < best[0]:
                        best = (cost, r, own, t, q)
        if best is None:
            return None
        _, r, own, t, q = best
        for table, leaving, coming in ((rounds[r][own], needy, q), (rounds[r][t], q, needy)):
            for x in table:
                if x != leaving:
                    met[leaving][x] -= 1
                    met[x][leaving] -= 1
                    met[coming][x] += 1
                    met[x][coming] += 1
            table[table.index(leaving)] = coming
        count[needy] += 1 if up else -1
        count[q] -= 1 if up else -1


def _canonical(round_: Sequence[Sequence[int]]) -> list[list[int]]:
    """The tables of a round in a fixed order: five-tables first, each sorted."""
    return sorted((sorted(t) for t in round_), key=lambda t: (-len(t), t))


def _continuation(rounds: Rounds, fixed: Rounds, n: int) -> Rounds | None:
    """The rounds of ``rounds`` not matched by ``fixed`` (see :func:`_constructed_start`),
    relabelled to players; None when the fixed rounds are not rounds of the plan."""
    first = sorted(p for t in fixed[0] for p in t)
    seen_in = [{p for t in r for p in t} for r in fixed]
    # who left, in the order they left, and who came late, in the order they came: the
    # first to come takes over the place of the first to leave
    gone = sorted(
        (p for p in first if p >= n),
        key=lambda p: (max(i for i, seen in enumerate(seen_in) if p in seen), p),
    )
    new = sorted(set(range(n)) - set(first),
                 key=lambda p: (next((i for i, seen in enumerate(seen_in) if p in seen),
                                     len(seen_in)), p))  # fmt: skip
    if len(first) != n or len(gone) != len(new):
        return None
    late = dict(zip(gone, new, strict=True))  # the late entries take over these points
    fixed = [[[late.get(p, p) for p in t] for t in r] for r in fixed]
    if any(sorted(p for t in r for p in t) != list(range(n)) for r in fixed):
        return None
    if any(sorted(map(len, r)) != sorted(map(len, rounds[0])) for r in fixed):
        return None
    # The labels depend on the first fixed round as played (tables and seats in their
    # order), not on the players' indices, which shift when somebody leaves or comes late:
    # every later draw finds the same labels.
    label = [0] * n
    played = sorted(fixed[0], key=len, reverse=True)  # stable: five-tables first
    for points, players in zip(_canonical(rounds[0]), played, strict=True):
        for point, player in zip(points, players, strict=True):
            label[point] = player
    relabelled = [[[label[p] for p in t] for t in r] for r in rounds]
    unused = {i: {frozenset(t) for t in r} for i, r in enumerate(relabelled) if i}
    for round_ in fixed[1:]:
        tables = {frozenset(t) for t in round_}
        match = next((i for i, candidate in unused.items() if candidate == tables), None)
        if match is None:
            return None
        del unused[match]
    return [relabelled[i] for i in sorted(unused)]


def _separate_clubs(
    rounds: Rounds, label: list[int], mates: list[list[frozenset[int]]], rng: random.Random
) -> None:
    """Hill-climb on the labels of a constructed plan: swap the players of two points when
    that does not raise the club conflicts. The plan stays repeat-free."""
    seat = [[0] * len(label) for _ in rounds]  # round -> point -> table index
    for r, tables in enumerate(rounds):
        for t, table in enumerate(tables):
            for p in table:
                seat[r][p] = t

    def conflicts(u: int, player: int, skip: int) -> int:
        # club conflicts of ``player`` sitting on point u (the point ``skip`` left out)
        return sum(
            label[z] in mates[r][player]
            for r, tables in enumerate(rounds)
            for z in tables[seat[r][u]]
            if z != u and z != skip
        )

    for _step in range(40 * len(label)):
        u, v = rng.sample(range(len(label)), 2)
        a, b = label[u], label[v]
        before = conflicts(u, a, v) + conflicts(v, b, u)
        after = conflicts(u, b, v) + conflicts(v, a, u)
        if after <= before:
            label[u], label[v] = b, a


# --- tabu search --------------------------------------------------------------------------


class _Move(NamedTuple):
    """Swap x and y in ``round``; for a trade swap them back in round ``back`` (else -1)."""

    delta: int
    round: int
    x: int
    y: int
    back: int = -1


class _Search:
    """Tabu search over the new rounds: swap two players of different tables of one round.

    ``conf[r][p]`` is what p's table costs p in round r (REPEAT_WEIGHT per tablemate met
    more than once, 1 per club mate), ``hot[r]`` the players with conf > 0. Each step looks
    at every swap of a hot player with anybody at another table of the same round, in
    every round (the neighbourhood of Dotu & Van Hentenryck), and makes the best one that
    is not tabu; a swap between a five- and a four-table must keep both shares fair.
    After a long time without a new best plan, the search goes back to the best plan and
    shakes it with a few random swaps.
    """

    tenure = (4, 14)  # a moved player may not return to its table for this many steps
    patience_base, patience_per_player = 300, 20  # steps without a new best before a kick
    kick = 8  # a kick makes 2 + random(n / kick) random swaps

    def __init__(
        self,
        problem: _Problem,
        five_sets: list[set[int]],
        start: Rounds | None,
        rng: random.Random,
        *,
        fair: bool = True,
        frozen: int = 0,
    ) -> None:
        self.p, self.rng, self.fair = problem, rng, fair
        self.frozen = frozen  # the first rounds the search leaves as they are
        self.n, self.new = problem.n, problem.new
        self.five_sets = five_sets
        self.iterations = 0
        self.work = 0
        self.meet = [row[:] for row in problem.met]
        self.tables: Rounds = []
        for r in range(self.new):
            if start is not None and r < len(start):
                tables = [list(t) for t in start[r]]
            else:
                tables = self._greedy_round(r)
            self.tables.append(tables)
            for table in tables:
                for a, b in itertools.combinations(table, 2):
                    self.meet[a][b] += 1
                    self.meet[b][a] += 1
        self.base_repeats = problem.current_fixed_repeats
        self.target_repeats = problem.repeat_target()
        self._index()
        self.best_cost = self.cost
        self.best_tables = [[t[:] for t in r] for r in self.tables]

    # state ------------------------------------------------------------------------------

    def _mates(self, r: int, p: int) -> frozenset[int]:
        return self.p.mates[r][p] if self.p.mates else frozenset()

    def _greedy_round(self, r: int) -> list[list[int]]:
        """A round drawn player by player: each takes the open table of its size class
        that costs least (met players, club mates), random among equals."""
        sizes = self.p.sizes
        tables: list[list[int]] = [[] for _ in sizes]
        order = list(range(self.n))
        self.rng.shuffle(order)
        five = self.five_sets[r]
        open_tables = {5: [t for t, s in enumerate(sizes) if s == 5],
                       4: [t for t, s in enumerate(sizes) if s == 4]}  # fmt: skip
        for p in order:
            size = 5 if p in five else 4
            candidates = open_tables[size]
            row = self.meet[p]
            mates = self._mates(r, p)
            costs = [
                sum(REPEAT_WEIGHT * (row[q] > 0) + (q in mates) for q in tables[t])
                for t in candidates
            ]
            low = min(costs)
            choice = self.rng.choice([t for t, c in zip(candidates, costs, strict=True)
                                      if c == low])  # fmt: skip
            tables[choice].append(p)
            if len(tables[choice]) == size:
                candidates.remove(choice)
        return tables

    def _index(self) -> None:
        """Rebuild where, conf, hot, the repeats, clubs and five-table totals from tables
        and meet."""
        self.where, self.conf, self.hot = [], [], []
        self.five_total = self.p.fives_before[:]
        self.clubs = 0
        for r, tables in enumerate(self.tables):
            where = [0] * self.n
            conf = [0] * self.n
            for t, table in enumerate(tables):
                for p in table:
                    where[p] = t
                    mates = self._mates(r, p)
                    row = self.meet[p]
                    conf[p] = sum(REPEAT_WEIGHT * (row[q] > 1) + (q in mates)
                                  for q in table if q != p)  # fmt: skip
                    self.clubs += sum(q in mates for q in table if q > p)
                    self.five_total[p] += len(table) == 5
            self.where.append(where)
            self.conf.append(conf)
            self.hot.append({p for p in range(self.n) if conf[p]})
        self.repeats = (
            sum(max(0, self.meet[a][b] - 1) for a in range(self.n) for b in range(a + 1, self.n))
            - self.base_repeats
        )

    @property
    def cost(self) -> int:
        return REPEAT_WEIGHT * self.repeats + self.clubs

    @property
    def target(self) -> int:
        return REPEAT_WEIGHT * self.target_repeats

    @property
    def best_repeats(self) -> int:
        return self.best_cost // REPEAT_WEIGHT

    def best_rounds(self) -> Rounds:
        return [[t[:] for t in r] for r in self.best_tables]

    # moves ------------------------------------------------------------------------------

    def _bump(self, r: int, p: int, amount: int) -> None:
        conf = self.conf[r]
        before = conf[p]
        conf[p] = before + amount
        if before == 0:
            self.hot[r].add(p)
        elif conf[p] == 0:
            self.hot[r].discard(p)

    def _change_meet(self, r: int, a: int, b: int, step: int) -> None:
        """a and b stop (step -1) or start (+1) sharing a table in round r: update meet,
        the repeat count and the conflicts of every other round where they sit together."""
        row_a, row_b = self.meet[a], self.meet[b]
        before = row_a[b]
        after = before + step
        row_a[b] = row_b[a] = after
        self.repeats += max(0, after - 1) - max(0, before - 1)
        if (before > 1) != (after > 1):
            amount = REPEAT_WEIGHT if after > 1 else -REPEAT_WEIGHT
            for other in range(self.new):
                if other != r and self.where[other][a] == self.where[other][b]:
                    self._bump(other, a, amount)
                    self._bump(other, b, amount)

    def _leave(self, r: int, p: int, table: list[int]) -> None:
        mates = self._mates(r, p)
        row = self.meet[p]
        for q in table:
            if q != p:
                club = q in mates
                weight = REPEAT_WEIGHT * (row[q] > 1) + club
                if weight:
                    self._bump(r, p, -weight)
                    self._bump(r, q, -weight)
                self.clubs -= club
                self._change_meet(r, p, q, -1)

    def _join(self, r: int, p: int, table: list[int]) -> None:
        mates = self._mates(r, p)
        row = self.meet[p]
        for q in table:
            club = q in mates
            self._change_meet(r, p, q, +1)
            self.clubs += club
            weight = REPEAT_WEIGHT * (row[q] > 1) + club
            if weight:
                self._bump(r, p, weight)
                self._bump(r, q, weight)

    def swap(self, r: int, x: int, y: int) -> None:
        """Exchange x and y (at different tables) in round r."""
        where, tables = self.where[r], self.tables[r]
        a, b = where[x], where[y]
        table_a, table_b = tables[a], tables[b]
        self._leave(r, x, table_a)
        table_a.remove(x)
        self._leave(r, y, table_b)
        table_b.remove(y)
        self._join(r, x, table_b)
        table_b.append(x)
        where[x] = b
        self._join(r, y, table_a)
        table_a.append(y)
        where[y] = a
        if len(table_a) != len(table_b):
            up, down = (x, y) if len(table_b) == 5 else (y, x)
            self.five_total[up] += 1
            self.five_total[down] -= 1

    def _fair_swap(self, r: int, x: int, y: int, size_b: int) -> bool:
        """Does the swap of x with y (at a table of size_b) in round r keep both
        five-table totals in the fair range (and the first round even)?"""
        up, down = (x, y) if size_b == 5 else (y, x)
        total, before = self.five_total, self.p.fives_before
        return (total[up] - before[up] < self.p.hi[up]
                and total[down] - before[down] > self.p.lo[down]
                and self.p.first_round_allows(r, up, down))  # fmt: skip

    def _join_costs(self, r: int, table: list[int]) -> list[int]:
        """What every player would pay for sitting with all of ``table`` in round r."""
        rows = [self.meet[z] for z in table]
        costs = [REPEAT_WEIGHT * sum(map(bool, column)) for column in zip(*rows, strict=True)]
        if self.p.mates:
            mates = self.p.mates[r]
            for z in table:
                for y in mates[z]:
                    costs[y] += 1
        return costs

    def _best_move(self, r: int, players: Iterable[int], tabu: Tabu) -> _Move | None:
        """The best move in round r that moves one of ``players`` and is not tabu (unless
        it beats the best plan), ties broken at random; None if nothing is allowed.

        With join[t][y] = what y would pay at table t (all of it), swapping x at table a
        with y at table b changes the cost by join[b][x] + join[a][y] - conf[x] - conf[y]
        - 2 x (what the pair x, y costs).
        The deltas of all y are computed in one list (fast in CPython), then searched.
        """
        where, tables, conf = self.where[r], self.tables[r], self.conf[r]
        club = self.p.mates[r] if self.p.mates else None
        n = self.n
        everyone = range(n)
        limit = self.best_cost - self.cost  # a tabu move must beat the best plan
        now = self.iterations
        join = [self._join_costs(r, table) for table in tables]
        sizes = [len(t) for t in tables]
        mixed = 5 in sizes and 4 in sizes
        minus_conf = [-c for c in conf]
        double = 2 * REPEAT_WEIGHT
        self.work += n * len(tables)
        moves: list[_Move] = []
        best_delta = None
        for x in players:
            a = where[x]
            own = join[a]
            at_x = [join[t][x] for t in range(len(tables))]
            at_x[a] = BLOCKED  # a swap within the table changes nothing
            row_x = self.meet[x]
            deltas = [
                at_x[where[y]] + own[y] + minus_conf[y] - double * (row_x[y] > 0) - conf[x]
                for y in everyone
            ]
            if club:
                for y in club[x]:
                    deltas[y] -= 2
            candidates = []
            if mixed and self.fair:
                unfair = self._block_unfair(r, x, where, sizes, deltas)
                candidates = self._trades(r, x, unfair, best_delta)
            self.work += n + 20
            if best_delta is None or min(deltas) <= best_delta:
                for level in sorted(set(deltas)):
                    if level >= BLOCKED // 2 or (best_delta is not None and level > best_delta):
                        break
                    found = [
                        _Move(level, r, x, y)
                        for y in everyone
                        if deltas[y] == level
                        and (level < limit or not (tabu.get((r, x, where[y]), 0) > now
                                                   or tabu.get((r, y, a), 0) > now))
                    ]  # fmt: skip
                    if found:
                        candidates.extend(found)
                        break
            for move in candidates:
                if best_delta is None or move.delta < best_delta:
                    best_delta, moves = move.delta, [move]
                elif move.delta == best_delta:
                    moves.append(move)
        return moves[self.rng.randrange(len(moves))] if moves else None

    def _block_unfair(
        self, r: int, x: int, where: list[int], sizes: list[int], deltas: list[int]
    ) -> list[tuple[int, int]]:
        """Block the swaps of x between a five- and a four-table that would leave the fair
        range; they are returned with their deltas, as candidates for a trade (see
        :meth:`_trades`)."""
        size_a = sizes[where[x]]
        unfair = []
        for y in range(self.n):
            size_b = sizes[where[y]]
            if size_b != size_a and deltas[y] < BLOCKED and not self._fair_swap(r, x, y, size_b):
                unfair.append((deltas[y], y))
                deltas[y] = BLOCKED
        return unfair

    def _trades(
        self, r: int, x: int, unfair: list[tuple[int, int]], best: int | None
    ) -> list[_Move]:
        """Trades for the unfair swaps of x in round r: x and y swap in round r and back in
        another round where their table sizes are the other way round, so both keep
        their five-table totals. Only the few most promising are looked at."""
        unfair.sort()
        moves = []
        five_x = len(self.tables[r][self.where[r][x]]) == 5
        for first, y in unfair[:TRADES_PER_PLAYER]:
            if best is not None and first > best + 2 * REPEAT_WEIGHT:
                break
            for other in range(self.frozen, self.new):
                tables, where = self.tables[other], self.where[other]
                if other == r or (len(tables[where[x]]) == 5) == five_x:
                    continue
                if (len(tables[where[y]]) == 5) != five_x:
                    continue
                up, down = (y, x) if five_x else (x, y)  # in round r; the other way back
                if not (self.p.first_round_allows(r, up, down)
                        and self.p.first_round_allows(other, down, up)):  # fmt: skip
                    continue
                moves.append(_Move(first + self._second_swap_delta(r, other, x, y), r, x, y, other))
                self.work += 40
        return moves

    def _second_swap_delta(self, r: int, other: int, x: int, y: int) -> int:
        """The cost change of swapping x and y in round ``other`` right after they swapped
        in round r (exposure left out): the meetings are taken as they will be then."""
        table_x = self.tables[r][self.where[r][x]]  # x's table in r, y's after the swap
        table_y = self.tables[r][self.where[r][y]]
        club = self.p.mates[other] if self.p.mates else None

        def met(p: int, z: int) -> int:
            # meet[p][z] after the swap in round r
            count = self.meet[p][z]
            own, new = (table_x, table_y) if p == x else (table_y, table_x)
            if z in own:
                count -= 1
            if z in new and z != (y if p == x else x):
                count += 1
            return count

        tables, where = self.tables[other], self.where[other]
        delta = 0
        for p, q in ((x, y), (y, x)):
            mates = club[p] if club else ()
            for z in tables[where[p]]:  # p leaves this table
                if z != p:
                    delta -= REPEAT_WEIGHT * (met(p, z) > 1) + (z in mates)
            for z in tables[where[q]]:  # and joins this one
                if z != q:
                    delta += REPEAT_WEIGHT * (met(p, z) > 0) + (z in mates)
        return delta

    def _perturb(self, swaps: int) -> None:
        for _ in range(swaps):
            r = self.rng.randrange(self.frozen, self.new)
            tables = self.tables[r]
            a, b = self.rng.sample(range(len(tables)), 2)
            x, y = self.rng.choice(tables[a]), self.rng.choice(tables[b])
            if len(tables[a]) == len(tables[b]) or not self.fair:
                self.swap(r, x, y)

    def _restore_best(self) -> None:
        self.tables = [[t[:] for t in r] for r in self.best_tables]
        self.meet = [row[:] for row in self.p.met]
        for tables in self.tables:
            for table in tables:
                for a, b in itertools.combinations(table, 2):
                    self.meet[a][b] += 1
                    self.meet[b][a] += 1
        self._index()

    def _remember_if_best(self) -> None:
        if self.cost < self.best_cost:
            self.best_cost = self.cost
            self.best_tables = [[t[:] for t in r] for r in self.tables]

    def _make(self, move: _Move, tabu: Tabu, short: int, long: int) -> None:
        """Make a move and forbid its players to return to their tables for a while."""
        for r in (move.round, move.back) if move.back >= 0 else (move.round,):
            a, b = self.where[r][move.x], self.where[r][move.y]
            self.swap(r, move.x, move.y)
            tabu[r, move.x, a] = self.iterations + self.rng.randint(short, long)
            tabu[r, move.y, b] = self.iterations + self.rng.randint(short, long)

    def run(self, budget: int, deadline: float) -> bool:
        """Search until the target is reached or the budget is spent; True if the clock
        stopped it first.

        The five-table shares stay fair all along, as (a) comes before (b): a swap across
        table sizes must leave both players within their fair range, or be a trade that
        swaps them back in another round.
        """
        if len(self.p.sizes) < 2:
            return False
        return self._search(budget, deadline)

    def _search(self, budget: int, deadline: float) -> bool:
        tabu: Tabu = {}
        stall = 0
        patience = self.patience_base + self.patience_per_player * self.n
        short, long = self.tenure
        while self.cost > self.target and self.work < budget:
            if self.iterations % 64 == 0 and time.perf_counter() > deadline:
                return True
            self.iterations += 1
            self.work += STEP_WORK + 2 * self.new
            hot_rounds = [r for r in range(self.frozen, self.new) if self.hot[r]]
            if not hot_rounds:
                break
            # The best move over all rounds with conflicts (Dotu & Van Hentenryck's
            # neighbourhood): more work per step than one random round, far better steps.
            moves = [self._best_move(r, sorted(self.hot[r]), tabu) for r in hot_rounds]
            move = min((m for m in moves if m), key=lambda m: m.delta, default=None)
            stall += 1
            if move is not None:
                self._make(move, tabu, short, long)
                if self.cost < self.best_cost:
                    self._remember_if_best()
                    stall = 0
            if stall > patience:
                self._restore_best()
                self._perturb(2 + self.rng.randrange(1 + self.n // self.kick))
                tabu.clear()
                stall = 0
        return False


# --- seat positions -----------------------------------------------------------------------


def _edge_colouring(edges: list[tuple[int, int]], nodes: int, colours: int) -> list[int]:
    """A proper edge colouring of a bipartite graph of maximum degree ``colours`` (Konig):
    colour each edge with a colour free at both ends, flipping an alternating path first
    when needed. Returns the colour of every edge."""
    at: list[dict[int, int]] = [{} for _ in range(nodes)]  # node -> colour -> other end
    for u, v in edges:
        a = next(c for c in range(colours) if c not in at[u])
        b = next(c for c in range(colours) if c not in at[v])
        if a in at[v]:
            # Flip the a/b path that starts at v; in a bipartite graph it cannot end at u.
            path = []
            node, colour = v, a
            while colour in at[node]:
                other = at[node][colour]
                path.append((node, other, colour))
                node, colour = other, b if colour == a else a
            for x, y, c in path:
                del at[x][c]
                del at[y][c]
            for x, y, c in path:
                flipped = b if c == a else a
                at[x][flipped] = y
                at[y][flipped] = x
        at[u][a] = v
        at[v][a] = u
    return [next(c for c, w in at[u].items() if w == v) for u, v in edges]


def _assign_positions(rounds: Rounds, problem: _Problem, rng: random.Random) -> Rounds:
    """Order every table of the new rounds by position.

    At each five-table the player with the fewest position-5 seats so far takes seat 5.
    The other seats are positions 1-4 at every table: split each player's rounds into
    chunks of four and colour the bipartite graph chunk - table with four colours; every
    chunk then has every position once, so every player's counts differ by at most one.
    When fixed rounds brought uneven counts, a local pass evens them out further.
    """
    counts = [row[:] for row in problem.positions_before]
    fifth: dict[tuple[int, int], int] = {}
    for r, tables in enumerate(rounds):
        for t, table in enumerate(tables):
            if len(table) == 5:
                tie = {p: rng.random() for p in table}
                seat5 = min(table, key=lambda p: (counts[p][4], tie[p]))
                fifth[r, t] = seat5
                counts[seat5][4] += 1
    edges: list[tuple[int, int]] = []
    played = [0] * problem.n
    chunk_of: dict[tuple[int, int], int] = {}
    chunk_ids: dict[tuple[int, int], int] = {}
    table_ids: list[tuple[int, int]] = []
    for r, tables in enumerate(rounds):
        for t, table in enumerate(tables):
            table_ids.append((r, t))
            for p in table:
                if fifth.get((r, t)) == p:
                    continue
                chunk = chunk_ids.setdefault((p, played[p] // 4), len(chunk_ids))
                played[p] += 1
                chunk_of[p, r] = chunk
                edges.append((chunk, len(table_ids) - 1))
    offset = len(chunk_ids)
    colours = _edge_colouring([(c, offset + t) for c, t in edges], offset + len(table_ids), 4)
    position: dict[tuple[int, int], int] = {}
    for (chunk, t), colour in zip(edges, colours, strict=True):
        r, _table = table_ids[t]
        player = next(p for p in rounds[r][_table] if chunk_of.get((p, r)) == chunk)
        position[player, r] = colour
    seated: Rounds = []
    for r, tables in enumerate(rounds):
        ordered_round = []
        for t, table in enumerate(tables):
            order = [-1] * len(table)
            for p in table:
                if fifth.get((r, t)) == p:
                    order[4] = p
                else:
                    order[position[p, r]] = p
            ordered_round.append(order)
            for i, p in enumerate(order[:4]):
                counts[p][i] += 1
        seated.append(ordered_round)
    if any(any(row) for row in problem.positions_before):
        _even_out(seated, counts, rng)
    return seated


def _even_out(rounds: Rounds, counts: list[list[int]], rng: random.Random) -> None:
    """Permute positions 1-4 within tables so that nobody gets a position again that they
    already had most often (the fixed rounds may have left some players uneven). Equal
    choices are taken at random, which lets the passes wander along plateaus; the most
    even state is kept."""

    def spread() -> tuple[int, int]:
        gaps = [max(c[:4]) - min(c[:4]) for c in counts]
        return max(gaps), sum(g > 1 for g in gaps)

    best, best_rounds = spread(), [[t[:] for t in r] for r in rounds]
    tables = [table for tables in rounds for table in tables]
    for _pass in range(60):
        if best[0] <= 1:
            break
        for table in tables:
            seats = table[:4]
            for i, p in enumerate(seats):
                counts[p][i] -= 1
            # 4 ** count: one seat more where a player already has many weighs most
            scored = [
                (sum(4 ** counts[p][i] for i, p in enumerate(perm)), perm)
                for perm in itertools.permutations(seats)
            ]
            low = min(score for score, _perm in scored)
            choice = rng.choice([perm for score, perm in scored if score == low])
            table[:4] = choice
            for i, p in enumerate(choice):
                counts[p][i] += 1
        if spread() < best:
            best, best_rounds = spread(), [[t[:] for t in r] for r in rounds]
    rounds[:] = best_rounds
