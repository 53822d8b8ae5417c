"""Repeat-free *and* fair plans for mixed fields, built with a symmetry; they go into
tournament/seating/mixed.py next to the searched ones.

Run: .venv/bin/python -m tools.seating_plans.make_symmetric [FIELD ...]

The searches of make_mixed (tabu search, annealing) never got below one repeat on the
fields with one five-table (4R + 1 players in R rounds) and left 5 and 6 on 30 and 35
players in 7 and 8 rounds. A plan that a symmetry maps onto itself is found exactly
instead, because the symmetry makes the problem small:

* CYCLIC fields: the players are points (c, x) of classes c over Z_n plus fixed points;
  some rounds are mapped onto themselves by the shift x -> x + 1, the others are base
  rounds shifted n times. Two players then meet in a shifted round exactly when the base
  round holds a pair of the same *orbit*, so the plan is free of repeats when every
  orbit of pairs is met at most once: an exact cover (every player and every five-table
  of the chosen pattern once per base round, every pair orbit at most once), which
  Algorithm X (make_plans.exact_cover) solves in seconds, in pure Python. The pattern of
  the five-tables (which classes sit there) is chosen so that the seats come out fair.
  - 4R + 1 players (33x8, 37x9, 45x11): four classes over Z_(R-1) and five fixed points
    that share the one round the shift keeps, see _rotational.
  - 30 players in 7 rounds: six classes over Z_5; two rounds the shift keeps, each with
    two whole classes as its five-tables.
  - 35 players in 8 rounds: five classes over Z_7, one base round, and one round without
    the symmetry at the end, made of pairs that have not met (extra_rounds, a second
    exact cover) and seating 15 players at a five-table a fourth time.
* SYMMETRIC fields: a symmetry of order ``order`` moves the players in cycles (the last
  ``fixed`` players stay), the first ``fixed_rounds`` rounds onto themselves (their tables
  permuted by ``cycles``) and the other rounds in cycles. 29 players in 7 rounds have no
  rotational plan (proven by the same model with CP-SAT) but one of order 3. These are
  solved with Google's CP-SAT solver, one worker, the stored seed: ``pip install ortools``
  first (it is needed for nothing else). Same version, same seed, same plan.
* MULTIPLIER fields (34 players in 8 rounds, 38 and 39 in 9): the players are (a, i) with
  a class a in Z_m and an offset i in Z_n (34 = 17 x 2, 38 = 19 x 2, 39 = 13 x 3). The
  shift of the offsets maps every round onto itself, so a round is a partition of the m
  classes into groups with an offset per class, and two classes meet with a *difference*
  of their offsets; the multiplier a -> 3a (mod 13) or 7a (mod 19), of order 3, takes
  three base rounds through all nine. Repeat-free means: every class pair with a
  difference, together with its images under the multiplier, is met at most once. Class 0
  stays put, so it sits at a five-table in three rounds or none: fair needs exactly one
  base round. CP-SAT on the classes (a few hundred variables) finds both in about 10
  seconds; the plain model with only a symmetry of order 3 got no answer in 10 minutes.
  34 players: the multiplier -1 (of order 2) takes three base rounds through six, and two
  more rounds are *kept* by it (each group holds classes with their negatives). There the
  five-table group is kept too, so it holds class 0, which then sits at a five-table in
  these two rounds and in no base round. CP-SAT finds it in about 90 seconds; four base
  rounds and no kept round got no answer in 15 minutes.
* SEARCHED fields (31 players in 7 rounds, 46 and 47 in 11): the same kind of symmetry as
  SYMMETRIC, of order 3, but the plan is found by a tabu search over the symmetric plans
  (tabu_symmetric.c, built by ``make``): every move changes a base round together with
  its images, or a kept round together with its turned copies, so the plan stays symmetric.
  It finds 46x11 in about 14,000 moves (six seconds), 47x11 in about 180,000 (two minutes)
  and 31x7 in about 2.3 million (twenty minutes; seeds 1 to 3 and six other shapes stopped
  at 3 or more). Without the symmetry, a tabu search of the same kind and the annealing of
  make_mixed stopped at 3 to 6 repeats; CP-SAT on a multiplier shape for 46x11 (23 classes
  of 2) got no answer in 50 minutes.

The rounds are stored in a fair order (make_mixed.fair_order): as many rounds as possible
keep everybody's five-table count within one after them.
"""

import argparse
import sys
from dataclasses import dataclass
from itertools import combinations, product
from pathlib import Path
from typing import Any

from tournament.seating import evaluate, mixed, table_sizes

from .make_mixed import Rounds, encode_round, fair_order, run_c, write
from .make_plans import Orbits, exact_cover, repeats

SEARCH_SOURCE = Path(__file__).resolve().parent / "tabu_symmetric.c"


@dataclass(frozen=True)
class Cyclic:
    """A plan that the shift x -> x + 1 (mod ``order``) maps onto itself.

    The players are the points (c, x) = c * order + x for the ``classes`` classes c and x in
    Z_order, then ``fixed`` points that the shift keeps. ``fixed_rounds`` are given by one
    table of each shift orbit (the shift maps each such round onto itself); then come
    ``base_rounds`` rounds, each shifted ``order`` times. ``fives`` gives, per base round,
    the classes of the points of each five-table (-1 - i for the fixed point i): with the fixed
    rounds that decides how often everybody sits at a five-table, so it is chosen fair.
    """

    order: int
    classes: int
    fixed: int
    fixed_rounds: tuple[tuple[tuple[int, ...], ...], ...]
    base_rounds: int
    fives: tuple[tuple[tuple[int, ...], ...], ...]
    seed: int
    extra_rounds: int = 0  # rounds without the symmetry, found last (see _extra_round)

    def shifted(self, p: int, by: int) -> int:
        finite = self.classes * self.order
        return p if p >= finite else p - p % self.order + (p + by) % self.order


def _rotational(rounds: int) -> Cyclic:
    """4R + 1 players in R rounds: four classes over Z_(R-1) and five fixed points, which
    share the fixed round's five-table; there the classes sit (0, x), (1, x), (2, x), (3, x).
    The base round's five-table has two points of class 0 and one of each other class."""
    n = rounds - 1
    fixed_round = (tuple(range(4 * n, 4 * n + 5)), (0, n, 2 * n, 3 * n))
    return Cyclic(n, 4, 5, (fixed_round,), 1, (((0, 0, 1, 2, 3),),), seed=1)


# (players, rounds) -> the cyclic plan's shape and the seed of its exact-cover search.
CYCLIC: dict[tuple[int, int], Cyclic] = {
    # Z_5 on six classes: two fixed rounds whose five-tables are whole classes.
    (30, 7): Cyclic(
        5, 6, 0,
        (((0, 1, 2, 3, 4), (5, 6, 7, 8, 9), (10, 15, 20, 25)),
         ((10, 11, 12, 13, 14), (15, 16, 17, 18, 19), (0, 5, 20, 26))),
        1, (((0, 1, 2, 4, 4), (0, 2, 3, 5, 5)),), seed=1,
    ),
    (33, 8): _rotational(8),
    # Z_7 on five classes: one base round whose three five-tables hold a point of each
    # class (everybody three times), then a round of pairs not met yet, which seats 15
    # players at a five-table a fourth time.
    (35, 8): Cyclic(7, 5, 0, (), 1, (((0, 1, 2, 3, 4),) * 3,), seed=3, extra_rounds=1),
    (37, 9): _rotational(9),
    (45, 11): _rotational(11),
}  # fmt: skip


@dataclass(frozen=True)
class Shape:
    """The symmetry of a SYMMETRIC field, and the seed and time limit of its CP-SAT run."""

    order: int
    fixed: int  # players the symmetry keeps in place: the last ones
    fixed_rounds: int  # rounds the symmetry maps onto themselves: the first ones
    cycles: tuple[tuple[int, ...], ...]  # how it permutes the tables of those rounds
    pinned: tuple[tuple[int, int, int], ...]  # (round, table, player) fixed in advance
    seed: int
    seconds: float


SYMMETRIC: dict[tuple[int, int], Shape] = {
    # The fixed round seats the two fixed players with the first cycle of three at the
    # five-table; its four-tables come in two cycles of three.
    (29, 7): Shape(3, 2, 1, ((1, 2, 3), (4, 5, 6)), ((0, 0, 27), (0, 0, 28), (0, 0, 0)), 1, 600),
}


@dataclass(frozen=True)
class Multiplier:
    """A plan kept by two symmetries of the players (a, i) = a * offsets + i, a in
    Z_classes, i in Z_offsets: the shift (a, i) -> (a, i + 1) maps every round onto itself,
    and the multiplier (a, i) -> (multiplier * a, i) takes each base round through
    ``order`` rounds (class 0 stays where it is). A round is then a partition of the
    classes into groups, each group with an offset per class: the group's tables are its
    classes with offsets shifted 0, 1, ... (all ``offsets`` tables of one size), and with
    two offsets one four-table may hold two whole classes instead.
    """

    classes: int
    offsets: int
    multiplier: int
    seed: int
    seconds: float
    kept: int = 0  # rounds the multiplier (of order 2) maps onto themselves, after the base ones

    @property
    def order(self) -> int:
        return next(k for k in range(1, self.classes) if pow(self.multiplier, k, self.classes) == 1)

    def times(self, a: int, k: int) -> int:
        """Class a multiplied k times."""
        return pow(self.multiplier, k, self.classes) * a % self.classes


# (players, rounds) -> the shape, CP-SAT's seed and time limit (found in 10 to 90 s).
MULTIPLIER: dict[tuple[int, int], Multiplier] = {
    # 13 classes of 3 over Z_13, multiplier 3 (3^3 = 27 = 1 mod 13): three base rounds.
    (39, 9): Multiplier(13, 3, 3, 1, 600),
    # 19 classes of 2 over Z_19, multiplier 7 (7^3 = 343 = 1 mod 19): three base rounds.
    (38, 9): Multiplier(19, 2, 7, 1, 600),
    # 17 classes of 2 over Z_17, multiplier -1: three base rounds and two kept rounds.
    (34, 8): Multiplier(17, 2, 16, 1, 600, kept=2),
}


@dataclass(frozen=True)
class Searched:
    """A plan kept by a symmetry of the prime order ``order``: the players order * i, ...,
    order * i + order - 1 go round in a cycle, the last ``fixed`` players stay. The first
    rounds come in groups of ``order`` (a base round and its images); each of the last
    rounds (``kept``) is mapped onto itself, its tables given as tabu_symmetric.c reads
    them: "c4" for ``order`` four-tables that the symmetry turns round, "f5.1.2" for a
    five-table that it keeps, holding one whole cycle and two fixed players. The tabu search
    of tabu_symmetric.c finds the plan (it needs a C compiler, nothing else); it stops at 0
    repeats or after ``moves`` moves, so ``seed`` and ``moves`` give the same plan again."""

    order: int
    fixed: int
    kept: tuple[str, ...]
    seed: int
    moves: int


SEARCHED: dict[tuple[int, int], Searched] = {
    # 14 cycles of three and four fixed players: three groups of three rounds, then two kept
    # rounds whose five-tables each hold a cycle and two fixed players. So the fixed players
    # sit at a five-table in these two rounds and in no other (fair: 2 or 3 times).
    (46, 11): Searched(3, 4, ("f5.1.2,f5.1.2,c4,c4,c4",) * 2, seed=1, moves=20_000),
    # 15 cycles of three and two fixed players: two groups of three rounds, then five kept
    # rounds that seat each fixed player at a four-table with a cycle; its five-tables and
    # the other four-tables are turned round. So the fixed players sit at a five-table in
    # one group of rounds (three times), the cycles three or four times.
    (47, 11): Searched(3, 2, ("c5,c4,c4,f4.1.1,f4.1.1",) * 5, seed=1, moves=200_000),
    # 10 cycles of three and one fixed player: two groups of three rounds and a kept round
    # that seats the fixed player at a four-table with a cycle; so the fixed player sits at
    # a five-table in one group (three times). Seeds 1 to 3 stopped at 3 repeats.
    (31, 7): Searched(3, 1, ("c5,f4.1.1,c4",), seed=5, moves=2_400_000),
}


def cyclic(players: int, rounds: int, shape: Cyclic) -> Rounds:
    """The plan of a CYCLIC field: the fixed rounds developed, then base rounds found by an
    exact cover (each player once per base round, each five-table of ``fives`` once, each
    orbit of pairs under the shift at most once in all rounds)."""
    n, finite = shape.order, shape.classes * shape.order
    symmetric_rounds = len(shape.fixed_rounds) + n * shape.base_rounds
    if finite + shape.fixed != players or symmetric_rounds + shape.extra_rounds != rounds:
        raise ValueError(f"the shape does not fit {players} players in {rounds} rounds")
    orbits = Orbits(n, shape.classes, shape.fixed)
    fixed_rounds = [
        sorted({tuple(sorted(shape.shifted(p, by) for p in t)) for t in tables for by in range(n)})
        for tables in shape.fixed_rounds
    ]
    taken = {orbits.of[p][q] for r in fixed_rounds for t in r for p, q in combinations(t, 2)} - {
        Orbits.FORBIDDEN
    }

    rows, placed, primary, columns = _cover(players, shape, orbits, taken)
    chosen = exact_cover(rows, columns, shape.seed, primary=primary)
    if chosen is None:
        raise ValueError(f"{players} players in {rounds} rounds have no plan of this shape")
    plan = [[list(t) for t in r] for r in fixed_rounds]
    for b in range(shape.base_rounds):
        base = sorted((list(t) for c, t in (placed[r] for r in chosen) if c == b), key=len)
        plan += [[[shape.shifted(p, by) for p in t] for t in base[::-1]] for by in range(n)]
    if shape.extra_rounds:
        extra = _extra_rounds(players, plan, shape.extra_rounds)
        if extra is None:
            raise ValueError(f"{players} players in {rounds} rounds: no fair rounds are left")
        plan += extra
    return [sorted(r, key=lambda t: (-len(t), t)) for r in plan]


def _fair_range(players: int, rounds: int) -> tuple[int, int]:
    """The floor and ceiling of the fair number of five-table seats per player."""
    seats = 5 * table_sizes(players).count(5) * rounds
    return seats // players, -(-seats // players)


def _extra_rounds(players: int, plan: Rounds, count: int) -> Rounds | None:
    """``count`` more rounds of pairs that have not met yet, sharing the five-table seats
    fairly: one exact cover (seed 1) of every player and five-table in every round, every
    pair at most once. Fair means here that a player sits at a five-table in all of these
    rounds, in exactly one, in at most one or in none: the shapes are chosen so."""
    fives = table_sizes(players).count(5)
    total = len(plan) + count
    low, high = _fair_range(players, total)
    met = {pair for r in plan for t in r for pair in combinations(sorted(t), 2)}
    seats = [sum(p in t for r in plan for t in r if len(t) == 5) for p in range(players)]
    always = {p for p in range(players) if low - seats[p] == count}
    never = {p for p in range(players) if high - seats[p] <= 0}
    once = {p for p in range(players) if low - seats[p] == 1 == high - seats[p]}
    at_most_once = {p for p in range(players) if low - seats[p] <= 0 and high - seats[p] == 1}
    if len(always | never | once | at_most_once) < players or count > 1 and once & always:
        raise ValueError("these rounds cannot share the five-tables in this simple way")
    column: dict[tuple[int, ...], int] = {
        (r, p): r * players + p for r in range(count) for p in range(players)
    }
    column |= {(r, -1 - i): len(column) + r * fives + i for r in range(count) for i in range(fives)}
    column |= {(-1, p): len(column) + k for k, p in enumerate(sorted(once))}
    primary = len(column)

    def at(key: tuple[int, ...]) -> int:
        return column.setdefault(key, len(column))

    rows: list[list[int]] = []
    tables: list[tuple[int, tuple[int, ...]]] = []
    for size in (4, 5):
        for table in combinations(range(players), size):
            pairs = list(combinations(table, 2))
            if not met.isdisjoint(pairs) or (always if size == 4 else never).intersection(table):
                continue
            marks = [at((-1, p)) for p in table if size == 5 and p in once | at_most_once]
            for r in range(count):
                cover = [at((r, p)) for p in table] + marks + [at((-2, *pair)) for pair in pairs]
                for i in range(fives if size == 5 else 1):
                    rows.append(cover + ([at((r, -1 - i))] if size == 5 else []))
                    tables.append((r, table))
    chosen = exact_cover(rows, len(column), seed=1, primary=primary)
    if chosen is None:
        return None
    return [[list(t) for r, t in (tables[k] for k in chosen) if r == j] for j in range(count)]


def _cover(
    players: int, shape: Cyclic, orbits: Orbits, taken: set[int]
) -> tuple[list[list[int]], list[tuple[int, tuple[int, ...]]], int, int]:
    """The exact cover of the base rounds: rows (the columns each covers), the base round
    and table of each row, the number of primary columns and of all columns. ``taken``:
    the pair orbits the kept rounds already meet."""

    def pair_orbits(table: tuple[int, ...]) -> set[int] | None:
        seen: set[int] = set()
        for p, q in combinations(table, 2):
            orbit = orbits.of[p][q]
            if orbit == Orbits.FORBIDDEN or orbit in taken or orbit in seen:
                return None
            seen.add(orbit)
        return seen

    column: dict[tuple[int, ...], int] = {}
    for b, fives in enumerate(shape.fives):
        for p in range(players):
            column[b, p] = len(column)
        for i in range(len(fives)):
            column[b, players + i] = len(column)  # the base round's i-th five-table
    primary = len(column)
    rows: list[list[int]] = []
    placed: list[tuple[int, tuple[int, ...]]] = []
    for b, fives in enumerate(shape.fives):
        candidates = [(i, t) for i, classes in enumerate(fives) for t in _tables(shape, classes)]
        candidates += [(-1, t) for t in combinations(range(players), 4)]
        for i, table in candidates:
            seen = pair_orbits(table)
            if seen is None:
                continue
            cover = [column[b, p] for p in table] + ([column[b, players + i]] if i >= 0 else [])
            cover += [column.setdefault((-1, o), len(column)) for o in sorted(seen)]
            rows.append(cover)
            placed.append((b, table))
    return rows, placed, primary, len(column)


def _tables(shape: Cyclic, classes: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Every five-table with points of these classes (-1 - i: the fixed point i)."""
    n, finite = shape.order, shape.classes * shape.order
    choices = []
    for c in sorted(set(classes)):
        points = [finite - c - 1] if c < 0 else range(c * n, c * n + n)
        choices.append(list(combinations(points, classes.count(c))))
    return [tuple(sorted(p for part in parts for p in part)) for parts in product(*choices)]


def _cp_sat() -> Any:
    """Google's CP-SAT module (``pip install ortools``: only these generators need it)."""
    try:
        from ortools.sat.python import cp_model
    except ImportError:
        raise SystemExit("needs Google's CP-SAT solver: pip install ortools") from None
    return cp_model


def _solve(model: Any, field: str, seed: int, seconds: float) -> Any:
    """The solver that solved ``model``: one worker and a fixed seed, so the same version
    gives the same plan on every machine; ValueError when it found none in time."""
    cp_model = _cp_sat()
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.random_seed = seed
    solver.parameters.max_time_in_seconds = seconds
    status = solver.Solve(model)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        raise ValueError(f"{field}: CP-SAT says {solver.StatusName(status)}")
    return solver


def symmetric(players: int, rounds: int, shape: Shape) -> Rounds:
    """A fair plan without repeats that has the symmetry ``shape`` (CP-SAT)."""
    cp_model = _cp_sat()
    sizes = table_sizes(players)
    fives = sizes.count(5)
    moving = players - shape.fixed
    low, high = _fair_range(players, rounds)

    def image(p: int) -> int:
        return p if p >= moving else p - p % shape.order + (p + 1) % shape.order

    def next_round(r: int) -> int:
        if r < shape.fixed_rounds:
            return r
        first = r - (r - shape.fixed_rounds) % shape.order
        return first + (r - first + 1) % shape.order

    table_image = list(range(len(sizes)))
    for cycle in shape.cycles:
        for i, t in enumerate(cycle):
            table_image[t] = cycle[(i + 1) % len(cycle)]
    model = cp_model.CpModel()
    seat = {
        (r, p, t): model.NewBoolVar(f"{r}.{p}.{t}")
        for r in range(rounds)
        for p in range(players)
        for t in range(len(sizes))
    }
    for r in range(rounds):
        for p in range(players):
            model.AddExactlyOne(seat[r, p, t] for t in range(len(sizes)))
            for t in range(len(sizes)):
                moved = table_image[t] if r < shape.fixed_rounds else t
                model.Add(seat[next_round(r), image(p), moved] == seat[r, p, t])
        for t, size in enumerate(sizes):
            model.Add(sum(seat[r, p, t] for p in range(players)) == size)
    for r, t, p in shape.pinned:
        model.Add(seat[r, p, t] == 1)
    for p, q in combinations(range(players), 2):
        met = [model.NewBoolVar(f"{p}-{q}@{r}") for r in range(rounds)]
        for r in range(rounds):
            for t in range(len(sizes)):
                model.AddBoolOr([seat[r, p, t].Not(), seat[r, q, t].Not(), met[r]])
        model.AddAtMostOne(met)
    for p in range(players):
        count = sum(seat[r, p, t] for r in range(rounds) for t in range(fives))
        model.Add(count >= low)
        model.Add(count <= high)
    solver = _solve(model, f"{players}x{rounds}", shape.seed, shape.seconds)
    return [
        [[p for p in range(players) if solver.Value(seat[r, p, t])] for t in range(len(sizes))]
        for r in range(rounds)
    ]


def multiplied(players: int, rounds: int, shape: Multiplier) -> Rounds:
    """A fair plan without repeats that has the symmetries of ``shape`` (CP-SAT on the
    classes: which group each class joins in each base round, and its offset there).

    A kept round (multiplier of order 2 only) has every group mapped onto itself: a group
    holds a class together with its image, and the image's offset is the class's offset
    plus the group's *flip* (0 in the group of class 0). Both pairs of an orbit then meet in
    that one round, which counts as one meeting of the orbit."""
    cp_model = _cp_sat()
    m, n, order = shape.classes, shape.offsets, shape.order
    sizes = table_sizes(players)
    fives, fours = sizes.count(5), sizes.count(4)
    whole = fours % n  # the four-table of two whole classes (two offsets only)
    base = (rounds - shape.kept) // order
    if (m * n != players or base * order + shape.kept != rounds or fives % n
            or (whole and (n, whole) != (2, 1)) or (shape.kept and order != 2)):  # fmt: skip
        raise ValueError(f"the shape does not fit {players} players in {rounds} rounds")
    groups = [5] * (fives // n) + [4] * (fours // n) + [2] * whole  # classes per group
    low, high = _fair_range(players, rounds)

    def orbit(a: int, b: int, d: int) -> set[tuple[int, int, int]]:
        """The pairs (a, i), (b, i + d) and their images under the multiplier."""
        images = set()
        for k in range(order):
            x, y = shape.times(a, k), shape.times(b, k)
            images.add((x, y, d % n) if x < y else (y, x, -d % n))
        return images

    model = cp_model.CpModel()
    all_rounds = range(base + shape.kept)
    group = {(r, a, g): model.NewBoolVar(f"{r}.{a}.{g}")
             for r in all_rounds for a in range(m) for g in range(len(groups))}  # fmt: skip
    offset = {(r, a, v): model.NewBoolVar(f"{r}.{a}+{v}")
              for r in all_rounds for a in range(m) for v in range(n)}  # fmt: skip
    met: dict[tuple[int, int, int], list[Any]] = {}  # pair orbit -> when its pairs meet
    own: dict[int, list[Any]] = {}  # class orbit -> when a class's own pair meets
    for r in all_rounds:
        is_kept = r >= base
        for a in range(m):
            model.AddExactlyOne(group[r, a, g] for g in range(len(groups)))
            model.AddExactlyOne(offset[r, a, v] for v in range(n))
        for g, count in enumerate(groups):
            model.Add(sum(group[r, a, g] for a in range(m)) == count)
        if is_kept:
            _keep_round(model, shape, group, offset, r, len(groups))
        if whole:
            model.Add(group[r, 0, len(groups) - 1] == 0)  # class 0 would meet itself again
            for a in range(m):
                key = min(shape.times(a, k) for k in range(order))
                if not is_kept or a == key:
                    own.setdefault(key, []).append(group[r, a, len(groups) - 1])
        for a, b in combinations(range(m), 2):
            for d in range(n):
                meets = model.NewBoolVar(f"{r}:{a}-{b}+{d}")
                images = orbit(a, b, d)
                if len(images) < order and not is_kept:  # its pairs would meet twice
                    model.Add(meets == 0)
                if not is_kept or (a, b, d % n) == min(images):
                    met.setdefault(min(images), []).append(meets)
                for g in range(len(groups) - whole):
                    for v in range(n):
                        model.AddBoolOr([group[r, a, g].Not(), group[r, b, g].Not(),
                                         offset[r, a, v].Not(), offset[r, b, (v + d) % n].Not(),
                                         meets])  # fmt: skip
                if whole:
                    model.AddBoolOr([group[r, a, len(groups) - 1].Not(),
                                     group[r, b, len(groups) - 1].Not(), meets])  # fmt: skip
    for when in [*met.values(), *own.values()]:
        model.AddAtMostOne(when)
    at_five = range(fives // n)
    for a in range(m):  # class a sits at a five-table in round (r, k) if a / mu^k does in r
        count = sum(group[r, shape.times(a, order - k), g]
                    for r in range(base) for k in range(order) for g in at_five)  # fmt: skip
        count += sum(group[r, a, g] for r in range(base, base + shape.kept) for g in at_five)
        model.Add(count >= low)
        model.Add(count <= high)
    model.Add(offset[0, 0, 0] == 1)
    solver = _solve(model, f"{players}x{rounds}", shape.seed, shape.seconds)
    plan = []
    developed = [(r, k) for r in range(base) for k in range(order)]
    for r, k in developed + [(r, 0) for r in range(base, base + shape.kept)]:
        tables = []
        for g, count in enumerate(groups):
            members = [a for a in range(m) if solver.Value(group[r, a, g])]
            moved = [shape.times(a, k) for a in members]
            if count == 2:
                tables.append(sorted(a * n + j for a in moved for j in range(n)))
                continue
            start = [next(v for v in range(n) if solver.Value(offset[r, a, v])) for a in members]
            for j in range(n):
                tables.append(
                    sorted(a * n + (v + j) % n for a, v in zip(moved, start, strict=True))
                )
        plan.append(sorted(tables, key=len, reverse=True))
    return plan


def _keep_round(
    model: Any, shape: Multiplier, group: dict[Any, Any], offset: dict[Any, Any], r: int, count: int
) -> None:
    """Round r is mapped onto itself by the multiplier mu (of order 2): each group that holds
    class a holds mu * a too, and mu * a's offset is a's plus the group's flip (no flip in
    the group of class 0, which mu keeps)."""
    for g in range(count):
        flip = model.NewBoolVar(f"{r}.flip{g}")
        model.AddImplication(group[r, 0, g], flip.Not())
        for a in range(1, shape.classes):
            image = shape.times(a, 1)
            model.Add(group[r, image, g] == group[r, a, g])
            for v in range(shape.offsets):
                for f, moved in ((flip, (v + 1) % shape.offsets), (flip.Not(), v)):
                    model.AddBoolOr([group[r, a, g].Not(), f.Not(), offset[r, a, v].Not(),
                                     offset[r, image, moved]])  # fmt: skip


def searched(players: int, rounds: int, shape: Searched) -> Rounds:
    """A fair plan without repeats that has the symmetry ``shape`` (tabu_symmetric.c)."""
    settings = [rounds, shape.order, shape.fixed, shape.seed, shape.moves, *shape.kept]
    left, plan = run_c(SEARCH_SOURCE, players, settings)
    if left:
        raise ValueError(f"{players}x{rounds}: the search left {left} repeats")
    return plan


def build(players: int, rounds: int) -> Rounds:
    """The plan of a CYCLIC, SYMMETRIC, MULTIPLIER or SEARCHED field, checked, in a fair
    order."""
    if (players, rounds) in CYCLIC:
        plan = cyclic(players, rounds, CYCLIC[players, rounds])
    elif (players, rounds) in MULTIPLIER:
        plan = multiplied(players, rounds, MULTIPLIER[players, rounds])
    elif (players, rounds) in SEARCHED:
        plan = searched(players, rounds, SEARCHED[players, rounds])
    else:
        plan = symmetric(players, rounds, SYMMETRIC[players, rounds])
    ordered = fair_order(plan)
    quality = evaluate(ordered)
    if repeats(ordered) or quality.repeat_pairs or quality.five_table_spread > 1:
        raise AssertionError(f"{players}x{rounds}: not repeat-free and fair")
    for round_ in ordered:
        assert sorted(p for t in round_ for p in t) == list(range(players))
        assert [len(t) for t in round_] == sorted(table_sizes(players), reverse=True)
    return ordered


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("fields", nargs="*", help="e.g. 33x8 (default: all)")
    args = parser.parse_args()
    known = [*CYCLIC, *SYMMETRIC, *MULTIPLIER, *SEARCHED]
    wanted = [tuple(int(v) for v in f.split("x")) for f in args.fields] or known
    plans = dict(mixed.MIXED_PLANS)
    for players, rounds in wanted:
        if (players, rounds) not in known:
            parser.error(f"{players}x{rounds} is not CYCLIC, SYMMETRIC, MULTIPLIER or SEARCHED")
        ordered = build(players, rounds)
        plans[players, rounds] = (0, [encode_round(r) for r in ordered])
        print(f"{players}x{rounds}: repeat-free and fair", flush=True)
        write(plans)
    return 0


if __name__ == "__main__":
    sys.exit(main())
