"""Quality and speed of the seat-draw solver: run `.venv/bin/python bench/seating_bench.py`.

For every field it prints the repeat encounters against the lower bound
L = max(0, R x pairs per round - N(N-1)/2), the five-table spread (max - min of the
five-table counts), the position balance (max over players of max - min of the counts of
positions 1-4) and the wall time of one draw with the default time limit of 5 s.

Targets (all tables of four): 16x5, 24x7, 28x9, 32x10 and 200x8 without a repeat, 16x6 with
24 and 24x8 with 12 repeats (both = L); 200x8 under 1 s, 400x8 under 3 s, every field up
to 48 players under 10 s. `--time-limit` changes the limit, `--seed` the seed.

Then (issue 17) the mixed fields: every field from 13 to 150 players with five-tables in
3 to 8 rounds (a short effort each, summed up: five-table spread and position balance must
stay at most 1), and the fields of the literature with repeat-free plans, drawn at once,
round by round (each draw gets the previous draw's plan, plans all remaining rounds and
keeps the next), and round by round with a withdrawal and a late entry after round 2.
`--quick` leaves those out.

Then (issue 39) the reach of the stored plans: every field from 13 to 49 players in every
round count up to the longest stored plan of it or its neighbours (n - 1, n + 1). Before,
a field used a stored plan only when its first rounds were fair ("construction"), else it
searched from scratch; now such a field plays the stored plan's rounds in the fair order
("cut") or starts from its neighbour's plan ("neighbour"), and the start competes with the
search from scratch. The block counts the methods before and now and sums the repeats of
those fields drawn now against a draw that ignores the stored plans (the search from
scratch; for the neighbour fields exactly the plan drawn before, for the cut fields one of
the same effort on another random stream), at the literature effort. `--no-reach` leaves
it out (two to three minutes).
"""

import argparse
import random
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournament.seating import DrawRequest, ImpossibleField, construct, draw, evaluate, table_sizes
from tournament.seating.problem import Problem
from tournament.seating.starts import _fair_start, reaching_start

TARGETS = {"16x5": 0, "24x7": 0, "28x9": 0, "32x10": 0, "16x6": 24, "24x8": 12, "200x8": 0,
           "40x13": 0, "44x14": 0}  # fmt: skip
SECONDS = {"200x8": 1.0, "400x8": 3.0}
FIELDS = [
    "16x5", "24x7", "28x9", "32x10", "16x6", "24x8", "200x8", "400x8",
    "37x3", "37x6", "45x5", "48x8",
    # mixed fields: one to three five-tables
    "9x2", "13x4", "14x5", "21x5", "25x6", "30x7", "35x8", "41x8", "47x10", "203x8",
    # four-tables near the most rounds the field allows
    "20x5", "36x9", "40x10", "44x11", "40x13", "44x14",
]  # fmt: skip
LITERATURE_EFFORT = 1.0  # per draw: the round-by-round columns draw R times
LITERATURE = [
    "21x5", "22x5", "23x5", "25x5", "26x5", "27x5", "29x7", "30x7", "31x7", "33x8", "34x8",
    "35x8", "37x9", "38x9", "39x9", "41x9", "42x8", "43x8", "45x11", "46x11", "47x11",
]  # fmt: skip


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--time-limit", type=float, default=5.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--quick", action="store_true", help="only the fields, no mixed survey")
    parser.add_argument("--no-reach", action="store_true", help="leave out the stored plans' reach")
    parser.add_argument("fields", nargs="*", default=FIELDS, help="e.g. 24x7 (players x rounds)")
    args = parser.parse_args()
    header = f"{'field':>7} {'tables':>9} {'repeats':>7} {'L':>4} {'gap':>4} {'5-spread':>8} "
    header += f"{'pos-bal':>7} {'seconds':>7}  method        target"
    print(header)
    for name in args.fields:
        n, rounds = (int(v) for v in name.split("x"))
        sizes = table_sizes(n)
        started = time.perf_counter()
        plan = draw(DrawRequest(list(range(1, n + 1)), rounds, seed=args.seed,
                                time_limit=args.time_limit))  # fmt: skip
        seconds = time.perf_counter() - started
        q = plan.quality
        notes = []
        if name in TARGETS:
            notes.append("ok" if q.repeat_pairs <= TARGETS[name] else f"MISS ({TARGETS[name]})")
        limit = SECONDS.get(name, 10.0 if n <= 48 else None)
        if limit is not None and seconds > limit:
            notes.append(f"SLOW (> {limit:g} s)")
        tables = f"{sizes.count(4)}x4+{sizes.count(5)}x5"
        print(
            f"{name:>7} {tables:>9} {q.repeat_pairs:>7} {q.lower_bound:>4} {q.gap:>4} "
            f"{q.five_table_spread:>8} {q.position_balance:>7} {seconds:>7.2f}  "
            f"{plan.stats.method:<13} {' '.join(notes)}",
            flush=True,
        )
    if not args.quick and args.fields == FIELDS:
        mixed_survey(args.seed)
        literature(args.seed, LITERATURE_EFFORT)
        if not args.no_reach:
            reach(args.seed, LITERATURE_EFFORT)
    return 0


def mixed_survey(seed: int) -> None:
    """Every mixed field 13..150 in 3..8 rounds with an effort of 0.3 s."""
    print("\nmixed fields 13..150 players x 3..8 rounds (effort 0.3 s each)")
    print(f"{'rounds':>6} {'fields':>6} {'max 5-spread':>12} {'max pos-bal':>11} "
          f"{'repeat-free':>11} {'L = 0 but repeats':>17}  seconds")  # fmt: skip
    for rounds in range(3, 9):
        started = time.perf_counter()
        spreads, balances, free, missed = [], [], 0, []
        for n in range(13, 151):
            if n % 4 == 0 or 5 * (n % 4) > n:
                continue
            plan = draw(DrawRequest(list(range(n)), rounds, seed=seed, time_limit=0.3))
            q = plan.quality
            spreads.append(q.five_table_spread)
            balances.append(q.position_balance)
            free += q.repeat_pairs == 0
            if q.repeat_pairs and not q.lower_bound:
                missed.append(f"{n}:{q.repeat_pairs}")
        print(f"{rounds:>6} {len(spreads):>6} {max(spreads):>12} {max(balances):>11} {free:>11} "
              f"{len(missed):>17}  {time.perf_counter() - started:.0f}  {' '.join(missed)}",
              flush=True)  # fmt: skip


def round_by_round(n: int, rounds: int, seed: int, limit: float, change: bool) -> list:
    """As the site draws: each draw gets the previous draw's plan and keeps the next round;
    the first draw has the seed of the draw at once."""
    field = list(range(n))
    played: list = []
    plan: list = []
    for number in range(1, rounds + 1):
        if change and number == 3:
            field = field[1:] + [n]  # one withdrawal, one late entry
        request = DrawRequest(field, rounds, fixed=played, seed=seed + number - 1,
                              time_limit=limit, plan=plan)  # fmt: skip
        plan = draw(request).rounds
        played = plan[:number]
    return played


def literature(seed: int, limit: float) -> None:
    """The fields with repeat-free plans in the literature: at once, round by round and
    round by round with a withdrawal and a late entry after round 2."""
    print(f"\nliterature fields (effort {limit:g} s per draw): repeats / 5-spread")
    print(f"{'field':>6} {'at once':>9} {'seconds':>7} {'unfair':>9} {'by round':>9} "
          f"{'changed':>9}")  # fmt: skip
    for name in LITERATURE:
        n, rounds = (int(v) for v in name.split("x"))
        started = time.perf_counter()
        plan = draw(DrawRequest(list(range(n)), rounds, seed=seed, time_limit=limit))
        seconds = time.perf_counter() - started
        q, unfair = plan.quality, plan.stats.unfair
        without = f"{unfair.repeat_pairs}/{unfair.five_table_spread}" if unfair else "-"
        cells = [f"{q.repeat_pairs}/{q.five_table_spread}", f"{seconds:.2f}", without]
        for change in (False, True):
            played = round_by_round(n, rounds, seed, limit, change)
            last = sorted({p for t in played[-1] for p in t})
            rq = evaluate(played, last)
            cells.append(f"{rq.repeat_pairs}/{rq.five_table_spread}")
        print(
            f"{name:>6} {cells[0]:>9} {cells[1]:>7} {cells[2]:>9} {cells[3]:>9} {cells[4]:>9}",
            flush=True,
        )


def reach_fields() -> list[tuple[int, int, str, str]]:
    """(players, rounds, method before, start now) for every field 13..49 in 2 rounds up to
    the longest stored plan of the field or a neighbour; pure, no search."""
    fields = []
    for n in range(13, 50):
        try:
            sizes = table_sizes(n)
        except ImpossibleField:
            continue
        plans = [plan for m in (n - 1, n, n + 1) for plan in construct.full_plans(m, 1)]
        for rounds in range(2, max(map(len, plans), default=0) + 1):
            problem = Problem.build(list(range(n)), {p: p for p in range(n)}, [], sizes,
                                    rounds, [])  # fmt: skip
            own = construct.constructed_plans(n, rounds)
            first_fair = bool(own) and _fair_start(own[0], problem) is not None
            _, now = reaching_start(problem, [], random.Random(1), 1)
            fields.append((n, rounds, "construction" if first_fair else "search", now))
    return fields


def reach(seed: int, limit: float) -> None:
    """Issue 39, item 6: the method counts before and now over the whole matrix, and the
    repeats of the fields whose method changed, against a search from scratch."""
    started = time.perf_counter()
    fields = reach_fields()
    before = Counter(method for *_, method, _now in fields)
    changed = [(n, rounds) for n, rounds, old, now in fields if now != old]
    print(f"\nreach of the stored plans: {len(fields)} fields 13..49 players (effort {limit:g} s)")
    print("before: " + ", ".join(f"{k} {v}" for k, v in sorted(before.items())))
    drawn: Counter = Counter()
    scratch_sum = now_sum = worse = 0
    gains = []
    for n, rounds in changed:
        request = DrawRequest(list(range(n)), rounds, seed=seed, time_limit=limit)
        scratch, now = draw(request, stored=False), draw(request)
        drawn[now.stats.method] += 1
        a, b = scratch.quality.repeat_pairs, now.quality.repeat_pairs
        scratch_sum, now_sum = scratch_sum + a, now_sum + b
        worse += b > a
        gains.append((b - a, f"{n}x{rounds} {a}->{b} ({now.stats.method})"))
    after = Counter(old for n, rounds, old, now in fields if now == old) + drawn
    print("now (after the competition): " + ", ".join(f"{k} {v}" for k, v in sorted(after.items())))
    print(f"the {len(changed)} fields searched before: repeats {scratch_sum} from scratch, "
          f"{now_sum} now; worse than from scratch: {worse}")  # fmt: skip
    print("largest gains: " + ", ".join(text for _, text in sorted(gains)[:8]))
    print(f"seconds: {time.perf_counter() - started:.0f}", flush=True)


if __name__ == "__main__":
    sys.exit(main())
