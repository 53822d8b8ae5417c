"""Repeat-free *and* fair plans for mixed fields, built with a symmetry; they go into
tournament/seating/mixed.py next to the searched ones.

Run: .venv/bin/python -m tournament.seating.make_symmetric [FIELD ...]

The searches of make_mixed (tabu search, annealing) never got below one repeat on the
fields with one five-table, 4R + 1 players in R rounds. A plan with a symmetry is found
exactly instead, because the symmetry makes the problem small:

* ROTATIONAL fields (4R + 1 players, R rounds): the players are the points (c, x), c in
  0..3, x in Z_(R-1), plus five fixed points. Round 0 seats the fixed points at the
  five-table and (0, x), (1, x), (2, x), (3, x) together for every x. The other R - 1
  rounds are one base round shifted by x -> x + 1. The base round's five-table holds
  two points of one class and one of each other class, so the five-table seats come out
  fair by construction: the fixed points once, one class twice, the others once. Every
  orbit of pairs under the shift may be met only once in all rounds: that is an exact
  cover (players and the one five-table exactly once, pair orbits at most once), which
  Algorithm X (make_plans.exact_cover) solves in seconds, pure Python.
* SYMMETRIC fields: a symmetry of order ``order`` moves the players in cycles (the last
  ``fixed`` players stay), the first ``fixed_rounds`` rounds onto themselves (their tables
  permuted by ``cycles``) and the other rounds in cycles. 29 players in 7 rounds have no
  rotational plan (proven by the same model) but one of order 3. These are solved with
  Google's CP-SAT solver, one worker, the stored seed: ``pip install ortools`` first (it
  is needed for nothing else). Same version, same seed, same plan.

The rounds are stored in a fair order (make_mixed.fair_order), so a director who draws
round by round is fair after every round too.
"""

import argparse
import sys
from dataclasses import dataclass
from itertools import combinations

from . import construct, mixed
from .make_mixed import fair_order, write
from .make_plans import Orbits, develop, exact_cover, repeats
from .solver import evaluate, table_sizes

Rounds = list[list[list[int]]]

# Rotational fields: (players, rounds) -> seed of the exact-cover search.
ROTATIONAL: dict[tuple[int, int], int] = {(33, 8): 1, (37, 9): 1, (45, 11): 1}


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


def rotational(players: int, rounds: int, seed: int) -> Rounds:
    """The rotational plan of a 4R + 1 field (see the module's docstring)."""
    shift = rounds - 1
    if players != 4 * rounds + 1 or shift < 2:
        raise ValueError("a rotational plan needs 4R + 1 players")
    orbits, finite = Orbits(shift, 4, 5), 4 * shift
    fixed_round = [list(range(finite, players))] + [
        [c * shift + x for c in range(4)] for x in range(shift)
    ]
    taken = {orbits.of[p][q] for table in fixed_round[1:] for p, q in combinations(table, 2)}

    def pair_orbits(table: tuple[int, ...]) -> set[int] | None:
        seen: set[int] = set()
        for p, q in combinations(table, 2):
            orbit = orbits.of[p][q]
            if orbit == Orbits.FORBIDDEN or orbit in taken or orbit in seen:
                return None
            seen.add(orbit)
        return seen

    five = players  # the column of the base round's one five-table
    primary = players + 1
    column: dict[int, int] = {}
    rows: list[list[int]] = []
    tables: list[tuple[int, ...]] = []
    candidates: list[tuple[int, ...]] = [
        t for t in combinations(range(finite), 5) if _one_class_twice(t, shift)
    ]
    candidates += [t for t in combinations(range(players), 4) if sum(p >= finite for p in t) < 2]
    for table in candidates:
        seen = pair_orbits(table)
        if seen is not None:
            extra = [five] if len(table) == 5 else []
            pairs = [primary + column.setdefault(o, len(column)) for o in sorted(seen)]
            rows.append(list(table) + extra + pairs)
            tables.append(table)
    chosen = exact_cover(rows, primary + len(column), seed, primary=primary)
    if chosen is None:
        raise ValueError(f"{players} players in {rounds} rounds have no rotational plan")
    base = sorted((list(tables[r]) for r in chosen), key=lambda t: (-len(t), t))
    return [fixed_round] + develop(shift, 4, base)


def _one_class_twice(table: tuple[int, ...], shift: int) -> bool:
    """A five-table of the base round: two points of one class, one of each other."""
    return sorted(sum(p // shift == c for p in table) for c in range(4)) == [1, 1, 1, 2]


def symmetric(players: int, rounds: int, shape: Shape) -> Rounds:
    """A fair plan without repeats that has the symmetry ``shape`` (CP-SAT)."""
    try:
        from ortools.sat.python import cp_model
    except ImportError:
        raise SystemExit("needs Google's CP-SAT solver: pip install ortools") from None
    sizes = table_sizes(players)
    fives = sizes.count(5)
    moving = players - shape.fixed
    low, high = (5 * fives * rounds) // players, -(-(5 * fives * rounds) // players)

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
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.random_seed = shape.seed
    solver.parameters.max_time_in_seconds = shape.seconds
    status = solver.Solve(model)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        raise ValueError(f"{players}x{rounds}: CP-SAT says {solver.StatusName(status)}")
    return [
        [[p for p in range(players) if solver.Value(seat[r, p, t])] for t in range(len(sizes))]
        for r in range(rounds)
    ]


def build(players: int, rounds: int) -> Rounds:
    """The plan of a ROTATIONAL or SYMMETRIC field, checked, in a fair order."""
    if (players, rounds) in ROTATIONAL:
        plan = rotational(players, rounds, ROTATIONAL[players, rounds])
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
    known = [*ROTATIONAL, *SYMMETRIC]
    wanted = [tuple(int(v) for v in f.split("x")) for f in args.fields] or known
    plans = dict(mixed.MIXED_PLANS)
    for players, rounds in wanted:
        if (players, rounds) not in known:
            parser.error(f"{players}x{rounds} is neither ROTATIONAL nor SYMMETRIC")
        ordered = build(players, rounds)
        plans[players, rounds] = (0, [construct.encode_round(r) for r in ordered])
        print(f"{players}x{rounds}: repeat-free and fair", flush=True)
        write(plans)
    return 0


if __name__ == "__main__":
    sys.exit(main())
