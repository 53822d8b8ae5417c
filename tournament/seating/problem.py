"""The draw's problem in player indices 0..n-1 (:class:`Problem`): the fixed rounds folded in
(meetings, five-table and position counts), every player's fair range of five-table rounds,
and the lower bound of repeats where the search stops."""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field

from .measures import meetings
from .types import Group, Player
from .wishes import never_mates


@dataclass
class Problem:
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
    repaired: bool = False  # the start's five-table seats were repaired (starts._repair_fives)
    # never-together groups (seat wishes, fixed-table players as one more group) in indices,
    # and per player the players it must never sit with; the same in every new round
    apart: list[list[int]] = field(default_factory=list)
    never: list[frozenset[int]] | None = None

    @classmethod
    def build(
        cls,
        players: list[Player],
        index: dict[Player, int],
        fixed: list[list[list[Player]]],
        sizes: list[int],
        new: int,
        groups: Sequence[Group],
        apart: Sequence[Sequence[int]] = (),
    ) -> Problem:
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
        fixed_repeats = sum(k - 1 for k in meetings(fixed).values())
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
        problem.apart = [list(g) for g in apart]
        problem.never = never_mates(n, problem.apart)
        problem.first_lo, problem.first_hi = _first_bounds(problem)
        return problem

    def loosened(self, up: int, down: int) -> Problem:
        """This problem with every fair range of five-table rounds widened by ``up`` above
        and ``down`` below, and the first round free: for seat wishes that the fair shares
        rule out (e.g. 17 players with four teams of four kept apart: one of each team sits
        at the five-table, so the 17th sits there every round). The wishes come first."""
        return dataclasses.replace(
            self,
            lo=[max(0, lo - down) for lo in self.lo],
            hi=[min(self.new, hi + up) for hi in self.hi],
            first_lo=[0] * self.n,
            first_hi=[1] * self.n,
        )

    def widened_by(self, other: Problem) -> bool:
        """Are this problem's fair ranges at least as wide as ``other``'s for every player
        (so that a plan fair under ``other`` is fair under this one)?"""
        return all(
            lo <= o_lo and hi >= o_hi
            for lo, hi, o_lo, o_hi in zip(self.lo, self.hi, other.lo, other.hi, strict=True)
        )

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
        # pairs that may never meet (seat wishes) are no room for new meetings
        never = self.never or [frozenset[int]()] * self.n
        unmet = [sum(1 for q in range(self.n)
                     if q != p and not self.met[p][q] and q not in never[p])
                 for p in range(self.n)]  # fmt: skip
        slots = sum(s * (s - 1) // 2 for s in self.sizes) * self.new
        by_pairs = slots - sum(unmet) // 2
        over = [3 * self.new - u for u in unmet]
        extra_seats = 5 * self.sizes.count(5) * self.new
        room = sum(min(self.new, -o) for o in over if o < 0)
        by_players = sum(o for o in over if o > 0) + max(0, extra_seats - room)
        return max(0, by_pairs, (by_players + 1) // 2, self.pigeonhole)


def widening_steps(new: int) -> list[tuple[int, int]]:
    """The steps (up, down) of :meth:`Problem.loosened` tried in turn where the seat wishes
    rule out fair five-table shares, the smallest first: one or two more five-table rounds
    for some, then two fewer for others as well; then as many more as there are rounds (a
    player the wishes put at the five-table every round, e.g. the 17th of 17 players with
    four teams of four apart) with the lower bounds kept as long as possible, and only last
    no bounds at all."""
    steps: list[tuple[int, int]] = []
    for up, down in ((1, 0), (2, 0), (2, 2), (new, 0), (new, 1), (new, 2), (new, new)):
        step = (min(up, new), min(down, new))
        if step not in steps:
            steps.append(step)
    return steps


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


def _first_bounds(problem: Problem) -> tuple[list[int], list[int]]:
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
    # a never-together group with more players who must sit at five-tables than there are
    # five-tables (or more who may not than there are four-tables) would break its wish
    fives = problem.sizes.count(5)
    fours = len(problem.sizes) - fives
    clash = clash or any(
        sum(lo[p] for p in group) > fives or sum(1 - hi[p] for p in group) > fours
        for group in problem.apart
    )
    return free if clash else (lo, hi)
