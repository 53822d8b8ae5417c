"""Quality and speed of the seat-draw solver: run `.venv/bin/python bench/seating_bench.py`.

For every field it prints the repeat encounters against the lower bound
L = max(0, R x pairs per round - N(N-1)/2), the five-table spread (max - min of the
five-table counts), the position balance (max over players of max - min of the counts of
positions 1-4) and the wall time of one draw with the default time limit of 5 s.

Targets (all tables of four): 16x5, 24x7, 28x9, 32x10 and 200x8 without a repeat, 16x6 with
24 and 24x8 with 12 repeats (both = L); 200x8 under 1 s, 400x8 under 3 s, every field up
to 48 players under 10 s. `--time-limit` changes the limit, `--seed` the seed.
"""

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournament.seating import DrawRequest, draw, table_sizes

TARGETS = {"16x5": 0, "24x7": 0, "28x9": 0, "32x10": 0, "16x6": 24, "24x8": 12, "200x8": 0}
SECONDS = {"200x8": 1.0, "400x8": 3.0}
FIELDS = [
    "16x5", "24x7", "28x9", "32x10", "16x6", "24x8", "200x8", "400x8",
    "37x3", "37x6", "45x5", "48x8",
    # mixed fields: one to three five-tables
    "9x2", "13x4", "14x5", "21x5", "25x6", "30x7", "35x8", "41x8", "47x10", "203x8",
    # four-tables near the most rounds the field allows
    "20x5", "36x9", "40x10", "44x11",
]  # fmt: skip


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--time-limit", type=float, default=5.0)
    parser.add_argument("--seed", type=int, default=1)
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
    return 0


if __name__ == "__main__":
    sys.exit(main())
