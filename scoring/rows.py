"""A Spielliste row from what the list keeper taps: the kind, the winners (or the soloist
and whether the solo was won) and the game value (TSR 7.2, 7.3.3, 10.1.1).

The sheet checks (:mod:`scoring.sheet`) accept exactly the rows this module derives, so a
row entered this way never shows a pattern finding.
"""

from __future__ import annotations

from collections.abc import Iterable

from .errors import InvalidFacts
from .kinds import Kind
from .profiles import Scoring

MAX_VALUE = 999  # a game's value
# A cell of a row, in points: far beyond any real game, but keeps typos like 40000 out.
MAX_POINTS = 9999
# Lines of one Spielliste (games and penalty rows): twice the longest round.
MAX_LINES = 60


def derive_points(
    scoring: Scoring,
    table_size: int,
    sitter: int | None,
    kind: Kind,
    value: int,
    *,
    winners: Iterable[int] = (),
    soloist: int | None = None,
    soloist_won: bool | None = None,
) -> tuple[int, ...]:
    """The points per position 1..``table_size``; the sitter of a 5-table gets 0.

    Plus-minus: a normal game gives each winner +v and each loser -v; a solo gives the
    soloist +3v (won) or -3v (lost) and each opponent the opposite v. Plus points: the
    winners get v (a won solo 3v), the losers 0. Raises :class:`InvalidFacts` when the taps
    describe no row (wrong number of winners, no soloist, the sitter playing).
    """
    if not kind.is_game:
        raise InvalidFacts("bad-kind", value=str(kind))
    if not 0 <= value <= MAX_VALUE:
        raise InvalidFacts("value-out-of-range", value=value, maximum=MAX_VALUE)
    active = [p for p in range(1, table_size + 1) if p != sitter]
    plus_minus = scoring is Scoring.PLUS_MINUS
    if kind.is_solo:
        if soloist is None or not 1 <= soloist <= table_size:
            raise InvalidFacts("soloist-missing")
        if soloist not in active:
            raise InvalidFacts("sitter-chosen", position=soloist)
        if soloist_won is None:
            raise InvalidFacts("solo-result-missing")
        won = soloist_won
        own = (3 * value if won else -3 * value) if plus_minus else (3 * value if won else 0)
        each = (-own // 3) if plus_minus else (0 if won else value)
        return tuple(
            0 if p == sitter else own if p == soloist else each for p in range(1, table_size + 1)
        )
    chosen = set(winners)
    if not chosen <= set(range(1, table_size + 1)):
        raise InvalidFacts("winner-count", given=len(chosen))
    if not chosen <= set(active):
        raise InvalidFacts("sitter-chosen", position=min(chosen - set(active)))
    if len(chosen) != 2:
        raise InvalidFacts("winner-count", given=len(chosen))
    lose = -value if plus_minus else 0
    return tuple(
        0 if p == sitter else value if p in chosen else lose for p in range(1, table_size + 1)
    )
