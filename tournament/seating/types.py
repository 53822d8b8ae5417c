"""The types of the seat draw: what to draw (:class:`DrawRequest`, :class:`Group`), what a
draw returns (:class:`Plan` with its :class:`Quality` and :class:`DrawStats`),
:class:`ImpossibleField` for a field that cannot be seated and :class:`ImpossibleWishes` for
seat wishes that cannot all hold."""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field

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


class ImpossibleWishes(ValueError):
    """The seat wishes of a request cannot all hold in a round of this field.

    ``reason`` says why: "group_too_large" (a never-together group has more members than
    the field has tables), "too_many_groups" (the groups together do not fit the tables),
    "table_missing" (a fixed table number above the field's tables), "same_table" (two
    players fixed to one table) or "not_found" (the search found no plan keeping them: a
    bug, since the checks above are exact). ``players`` are the players concerned (in the
    request's order), ``tables`` the number of tables of the field. ``also`` holds the
    other wishes found impossible in the same check (each an ImpossibleWishes without
    ``also``), so that the director can mend them all at once.
    """

    def __init__(
        self,
        reason: str,
        players: Sequence[Player],
        tables: int,
        also: Sequence[ImpossibleWishes] = (),
    ) -> None:
        self.reason, self.players, self.tables = reason, tuple(players), tables
        self.also = tuple(also)
        super().__init__(f"seat wishes cannot hold ({reason}): {list(self.players)}")

    @property
    def all(self) -> tuple[ImpossibleWishes, ...]:
        """This wish and the others found impossible with it, in the order of the check."""
        return (self, *self.also)


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

    ``apart`` lists the never-together groups: no two members of one group ever share a table
    in a new round (a hard wish, unlike ``separate``; team-mates kept apart are such groups).
    ``at_table`` fixes players to a table number (1 = the first table) in every new round;
    players fixed to different tables are also never together. A wish that cannot hold raises
    :class:`ImpossibleWishes` before any search.

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
    apart: Sequence[frozenset[Player]] = ()
    at_table: Mapping[Player, int] = field(default_factory=dict)

    @property
    def wishes(self) -> bool:
        """Whether the request has seat wishes (``apart`` or ``at_table``)."""
        return bool(self.apart or self.at_table)


@dataclass(frozen=True)
class Quality:
    """The objectives of a plan; see :func:`evaluate`."""

    repeat_pairs: int
    lower_bound: int
    five_table_spread: int
    position_balance: int
    club_violations: int = 0
    # pairs of one never-together group at one table, counted per round (0 unless a manual
    # swap or a plan drawn before the wish broke one)
    wish_violations: int = 0

    @property
    def gap(self) -> int:
        """Repeats above the lower bound (0 means provably optimal for the repeats)."""
        return self.repeat_pairs - self.lower_bound


@dataclass(frozen=True)
class DrawStats:
    """How the plan was found: ``method`` is "plan" (the previous draw's plan continued),
    "construction", "cut" (a longer stored plan's rounds in the fair order), "neighbour"
    (the plan of n - 1 or n + 1 players), "search" or "fixed"."""

    method: str
    seconds: float
    iterations: int
    timed_out: bool
    # repeats the search aimed for: a lower bound that also counts the fixed rounds and the
    # repeats the seat wishes force (pairs that may never meet leave less room)
    target: int
    # When fair five-tables cost repeats: the quality of the best plan a search found that
    # shares the five-tables unfairly (fewer repeats, a larger spread); else None.
    unfair: Quality | None = None
    # When the request has seat wishes: the quality of the best plan a search found without
    # them (clubs kept; a fair plan even where the wishes widened the five-table shares), to
    # show what the wishes cost; None without wishes, or when the clock cut that search
    # (that cut is not ``timed_out``: the plan drawn is complete).
    without: Quality | None = None


@dataclass(frozen=True)
class Plan:
    """All rounds (the fixed ones unchanged, then the new ones), each a list of tables,
    each table a list of players in position order (position 1 first)."""

    rounds: list[list[list[Player]]]
    quality: Quality
    stats: DrawStats
