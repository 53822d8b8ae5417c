"""What each seat of a finished table brings into the standings: game points, penalty points,
games played and the Pflichtsolo count (TSR 4.2, 7.3). One function, used when a closed round's
results are stored and when they are checked against the games."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from .ledger import PlayedGame, walk
from .profiles import RuleProfile


@dataclass(frozen=True)
class SeatResult:
    points: int  # game points of the seat, without penalties
    penalties: int  # the counting penalty rows' points at the seat
    games: int  # games the seat's player took part in (at a 5-table the dealer sits out)
    pflichtsoli: int  # Pflichtsoli (vorgeführte included) the player played
    pflichtsoli_missing: int  # Pflichtsoli still owed at the end (TSR 4.2.3)


@dataclass(frozen=True)
class TableGame:
    """One game row: its kind and soloist, and the points of positions 1 to 5 (None where
    nobody sits)."""

    game: PlayedGame
    points: Sequence[int | None]


def table_results(
    profile: RuleProfile,
    size: int,
    games: Sequence[TableGame],
    penalties: Sequence[Sequence[int | None]],
    *,
    time_limit_from: int | None = None,
) -> dict[int, SeatResult]:
    """Position -> its result at a table of ``size`` with ``games`` in the order played and
    the points of the counting ``penalties``. At a five-player table the dealer of each game
    sits out (TSR 3.3.1); who deals follows from the games before (:func:`ledger.walk`)."""
    points: Counter[int] = Counter()
    fined: Counter[int] = Counter()
    soli: Counter[int] = Counter()
    for row in games:
        for position, value in enumerate(row.points, start=1):
            points[position] += value or 0
        if row.game.kind.is_pflichtsolo and row.game.soloist is not None:
            soli[row.game.soloist] += 1
    for values in penalties:
        for position, value in enumerate(values, start=1):
            fined[position] += value or 0
    sat_out: Counter[int] = Counter()
    if size == 5 and games:
        played = [row.game for row in games]
        steps = walk(profile, size, played, time_limit_from=time_limit_from)[: len(games)]
        sat_out = Counter(step.sitter for step in steps if step.sitter is not None)
    required = profile.pflichtsoli_per_round
    return {
        position: SeatResult(
            points=points[position],
            penalties=fined[position],
            games=len(games) - sat_out[position],
            pflichtsoli=soli[position],
            pflichtsoli_missing=max(0, required - soli[position]),
        )
        for position in range(1, size + 1)
    }
