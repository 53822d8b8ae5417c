"""The types of the seat draw: what to draw (:class:`DrawRequest`, :class:`Group`), what a
draw returns (:class:`Plan` with its :class:`Quality` and :class:`DrawStats`), and
:class:`ImpossibleField` for a field that cannot be seated."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass

Player = Hashable
Rounds = list[list[list[int]]]


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
    effort: ``time_limit x solver.WORK_PER_SECOND`` work units, about that many seconds on a
    laptop. A machine slower or busier than that takes longer for the same plan; only past
    ``CLOCK_SAFETY_FACTOR x time_limit + CLOCK_SAFETY_SECONDS`` does the clock stop it.

    ``plan`` is the whole plan of the previous draw (all its rounds, as it returned them).
    When the fixed rounds were played as it drew them, the draw continues it: its next round
    is kept and the search only improves the rounds after it, so drawing one round at a time
    reaches what drawing every round at once reaches (see :func:`.starts.planned_start`).
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
