"""Search fair plans for mixed fields and write tournament/seating/mixed.py.

Run: .venv/bin/python -m tools.seating_plans.make_mixed [--effort 240] [FIELD ...]

For the mixed fields (four- and five-tables) where the literature shows that a plan
without repeat encounters exists, the draw's own search is run far longer than a draw
at the desk may take: the same tabu search, five-table shares fair all along, only with
``--effort`` seconds' worth of work instead of a few (counted in work units, so the same
effort gives the same file on every machine). The best plan of the SEEDS is kept, its
rounds ordered so that every prefix is as fair as possible (the director who draws round
by round sees fair five-table counts after every round), and stored with its number of
repeats. Fields where keeping the five-tables fair forces repeats are stored too, with as
few repeats as the search found: with five tables (21, 22 and 23 players) the five
players of a five-table must sit at five different tables in every later round, so every
two rounds' five-tables must share exactly one player per pair of five-tables - fair
shares give far fewer such overlaps (21 players in 5 rounds: 4 instead of 10, and every
two rounds without one force two repeats, so at least 12).

The stored file was made with ``--effort 30`` for 21-27, 41-43 players and ``--effort
200`` for the others.

With FIELD arguments (e.g. 29x7) only those fields are searched; the others keep their
stored plans. A field's plan is replaced only by one with at most as many repeats.

``--anneal`` runs, for the fields of ANNEALED, the simulated annealing of
``anneal_mixed.c`` instead (built by ``make``; needs a C compiler, nothing else): a
compiled loop makes a few hundred million moves in minutes, which the tabu search in Python
cannot. Its seed and number of moves are stored below, so it gives the same plan again
(with the same C library: the acceptance test uses ``exp``). The stored plan of 25x6 came
from it. Twelve of its fields are now built repeat-free by make_symmetric: 29x7, 33x8,
37x9 and 45x11, where it left one repeat, 30x7 (it left 5; that run stays in ANNEALED as
the generator's quick check in the tests), 35x8 (it left 6), 38x9 (3), 39x9 (5), 34x8 (4),
46x11 (3), 47x11 (4) and 31x7 (6; the tabu search 9).
"""

import argparse
import os
import shutil
import subprocess
import sys
from collections import Counter
from collections.abc import Hashable
from pathlib import Path

from tournament.seating import DrawRequest, Plan, draw, evaluate, mixed, table_sizes
from tournament.seating.construct import ALPHABET

Rounds = list[list[list[int]]]

ROOT = Path(__file__).resolve().parents[2]
OUTPUT = ROOT / "tournament" / "seating" / "mixed.py"
ANNEAL_SOURCE = Path(__file__).resolve().parent / "anneal_mixed.c"
# Where the Makefile's plans target puts the built C searches.
BUILD = Path(__file__).resolve().parent / "build"

# The fields of Miller, Valkov & Abel (2026) with N mod 4 five-tables: players x rounds.
FIELDS = [
    (21, 5), (22, 5), (23, 5), (25, 5), (26, 5), (27, 5),
    (29, 7), (30, 7), (31, 7), (33, 8), (34, 8), (35, 8),
    (37, 9), (38, 9), (39, 9), (41, 9), (42, 8), (43, 8),
    (45, 11), (46, 11), (47, 11),
]  # fmt: skip
SEEDS = (1,)
# --anneal: field -> (seed, moves, temperature) of the run that found the stored plan.
ANNEALED: dict[tuple[int, int], tuple[int, int, float]] = {
    (25, 6): (1, 33_368_120, 0.22),  # not of the literature: the tabu search left 3 repeats
    (30, 7): (51, 3_413_742, 0.2),  # 5 repeats; stored now: make_symmetric's plan
}


def fair_order(rounds: Rounds) -> Rounds:
    """The rounds in an order where as many prefixes as possible share the five-tables
    fairly (spread at most 1): depth-first, most fair prefixes first, ties by index."""
    best: list[int] = []
    best_score = -1

    players = [p for t in rounds[0] for p in t]  # everybody plays every round
    at_five = [[p for t in r if len(t) == 5 for p in t] for r in rounds]

    def spread(order: list[int]) -> int:  # as evaluate(...).five_table_spread, faster
        count = Counter(p for r in order for p in at_five[r])
        return max(count[p] for p in players) - min(count[p] for p in players)

    def extend(order: list[int], score: int, budget: list[int]) -> None:
        nonlocal best, best_score
        if budget[0] <= 0:
            return
        budget[0] -= 1
        if len(order) == len(rounds):
            if score > best_score:
                best, best_score = order[:], score
            return
        if score + len(rounds) - len(order) <= best_score:
            return
        for r in range(len(rounds)):
            if r not in order:
                order.append(r)
                extend(order, score + (spread(order) <= 1), budget)
                order.pop()

    extend([], 0, [20_000])
    return [rounds[r] for r in best]


def draw_by_round(points: list[int], rounds: int, seed: int, effort: float) -> Plan:
    """Draw round by round: each draw plans every remaining round and keeps the next one,
    whose five-table seats go to those with fewest so far. Unlike the site, no draw gets
    the previous draw's plan, so every round is chosen afresh. The plan is fair after every
    round, so the director who draws round by round can follow it."""
    played: list[list[list[Hashable]]] = []
    for number in range(1, rounds + 1):
        request = DrawRequest(points, rounds, fixed=played, seed=seed + number, time_limit=effort)
        plan = draw(request, stored=False)
        played = plan.rounds[:number]
    return plan


def search(n: int, rounds: int, effort: float, by_round: bool = False) -> tuple[int, Rounds]:
    found = None
    points: list[int] = list(range(n))
    number: dict[Hashable, int] = {p: p for p in points}  # the plan's players are 0..n-1
    for seed in SEEDS:
        if by_round:
            plan = draw_by_round(points, rounds, seed, effort)
        else:
            plan = draw(DrawRequest(points, rounds, seed=seed, time_limit=effort), stored=False)
        repeats = plan.quality.repeat_pairs
        print(
            f"{n}x{rounds} seed {seed}: {repeats} repeats, {plan.stats.seconds:.0f} s", flush=True
        )
        if found is None or repeats < found[0]:
            found = (repeats, [[[number[p] for p in t] for t in r] for r in plan.rounds])
        if repeats == 0:
            break
    assert found is not None
    repeats, plan_rounds = found
    ordered = fair_order(plan_rounds)
    quality = evaluate(ordered)
    assert quality.repeat_pairs == repeats and quality.five_table_spread <= 1
    for round_ in ordered:
        assert sorted(len(t) for t in round_) == sorted(table_sizes(n))
    return repeats, ordered


def run_c(source: Path, n: int, arguments: list[object]) -> tuple[int, Rounds]:
    """Run one of our C searches for a field of ``n`` players: the repeats it reports and
    its plan (a line per round, the tables one after the other). ``make`` builds the program
    first if it is missing or older than its source (see the Makefile's plans target: every
    warning an error)."""
    compiler = os.environ.get("CC", "cc")
    if shutil.which(compiler) is None or shutil.which("make") is None:
        raise SystemExit(
            f"{source.name} needs make and a C compiler ({compiler}), e.g. apt-get install gcc"
        )
    program = BUILD / source.stem
    build = ["make", "--silent", "-C", str(ROOT), str(program.relative_to(ROOT))]
    subprocess.run(build, check=True)  # noqa: S603 (our own Makefile, fixed arguments)
    command = [str(program), str(n), *(str(v) for v in arguments)]
    lines = subprocess.run(command, check=True, stdout=subprocess.PIPE, text=True).stdout  # noqa: S603
    repeats, *rows = lines.splitlines()
    plan = []
    for row in rows:
        players = [int(p) for p in row.split()]
        tables, start = [], 0
        for size in table_sizes(n):
            tables.append(players[start : start + size])
            start += size
        plan.append(tables)
    return int(repeats), plan


def anneal(n: int, rounds: int) -> tuple[int, Rounds]:
    """The plan of ``anneal_mixed.c`` for a field of ANNEALED, its rounds in a fair order."""
    seed, moves, temperature = ANNEALED[n, rounds]
    repeats, plan = run_c(ANNEAL_SOURCE, n, [rounds, seed, moves, temperature])
    ordered = fair_order(plan)
    quality = evaluate(ordered)
    assert quality.repeat_pairs == repeats and quality.five_table_spread <= 1
    print(f"{n}x{rounds} annealed (seed {seed}, {moves:,} moves): {repeats} repeats", flush=True)
    return repeats, ordered


def encode_round(tables: list[list[int]]) -> str:
    """A round as one string: the points of its five-tables, then of its four-tables
    (the inverse of :func:`tournament.seating.construct.decode_round`)."""
    ordered = sorted(tables, key=lambda t: -len(t))
    return "".join(ALPHABET[p] for table in ordered for p in table)


def write(plans: dict[tuple[int, int], tuple[int, list[str]]]) -> None:
    lines = [
        '"""Fair plans for mixed fields (see tools/seating_plans/make_mixed.py).',
        "",
        "Generated by python -m tools.seating_plans.make_mixed -- do not edit by hand.",
        "(players, rounds) -> (repeat encounters, rounds): each round is one string, a",
        "character per player (construct.ALPHABET), five-tables first, then four-tables.",
        '"""',
        "",
        "MIXED_PLANS: dict[tuple[int, int], tuple[int, list[str]]] = {",
    ]
    for (n, rounds), (repeats, encoded) in sorted(plans.items()):  # as ruff formats it
        lines += [f"    ({n}, {rounds}): (", f"        {repeats},", "        ["]
        lines += [f'            "{text}",' for text in encoded]
        lines += ["        ],", "    ),"]
    lines.append("}")
    OUTPUT.write_text("\n".join(lines) + "\n")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--effort", type=float, default=240.0, help="seconds' worth of work")
    parser.add_argument(
        "--by-round", action="store_true", help="draw round by round (fair after every round)"
    )
    parser.add_argument(
        "--anneal", action="store_true", help="the fields of ANNEALED by anneal_mixed.c"
    )
    parser.add_argument("fields", nargs="*", help="e.g. 29x7 (default: all)")
    args = parser.parse_args()
    wanted = [tuple(int(v) for v in f.split("x")) for f in args.fields] or (
        list(ANNEALED) if args.anneal else FIELDS
    )
    plans = dict(mixed.MIXED_PLANS)
    for n, rounds in wanted:
        if args.anneal:
            repeats, ordered = anneal(n, rounds)
        else:
            repeats, ordered = search(n, rounds, args.effort, args.by_round)
        old = plans.get((n, rounds))
        if old is None or repeats <= old[0]:  # at equal repeats the newer (fairer) plan
            plans[n, rounds] = (repeats, [encode_round(r) for r in ordered])
        write(plans)  # after every field, so that an interrupted run keeps what it found
    print(f"wrote {OUTPUT.name} with {len(plans)} plans")
    return 0


if __name__ == "__main__":
    sys.exit(main())
