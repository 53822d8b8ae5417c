"""What seat wishes cost the seat draw: run `.venv/bin/python bench/wishes_bench.py`.

For every field of the literature (the fields with repeat-free plans; see
bench/seating_bench.py) it draws the plan once without wishes and once with a set a director
meets on the day: a couple per 20 players (players i and i + N/2, never at one table), the
last player fixed at table 1, and teams of four (players 4t..4t+3) kept apart in every round.
The couples cross the teams, so a player may be in two groups.

Columns: repeat encounters / five-table spread and seconds without and with the wishes; the
cost (repeats and spread with the wishes minus without); what the draw itself reports as the
plan without the wishes (DrawStats.without, from the wishful plan); the method; the pairs of
one group at one table (must be 0) and the rounds where the fixed player is not at table 1
(must be 0). Then the same wishes drawn round by round as the site does, with a withdrawal and
a late entry after round 2: repeats / spread and the wishes broken (must be 0).

`--effort` sets the time limit of each draw (default 1 s), `--seed` the seed, `--quick` only
the first five fields.
"""

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournament.seating import DrawRequest, draw, evaluate

LITERATURE = [
    "21x5", "22x5", "23x5", "25x5", "26x5", "27x5", "29x7", "30x7", "31x7", "33x8", "34x8",
    "35x8", "37x9", "38x9", "39x9", "41x9", "42x8", "43x8", "45x11", "46x11", "47x11",
]  # fmt: skip


def wishes(field: list[int]) -> tuple[list[frozenset[int]], dict[int, int]]:
    """The bench's wishes for ``field`` (player numbers 0..N-1, perhaps with gaps): couples,
    teams of four and the last player at table 1."""
    n = len(field)
    couples = [frozenset((field[i], field[i + n // 2])) for i in range(max(1, n // 20))]
    teams = [frozenset(field[i : i + 4]) for i in range(0, n, 4)]
    return couples + [t for t in teams if len(t) > 1], {field[-1]: 1}


def broken(rounds, apart, at_table) -> tuple[int, int]:
    """Pairs of one group at one table, and seats of fixed players away from their table."""
    pairs = sum(
        len(group & set(table)) * (len(group & set(table)) - 1) // 2
        for round_ in rounds
        for table in round_
        for group in apart
    )
    away = sum(
        1
        for round_ in rounds
        for player, number in at_table.items()
        if any(player in t for t in round_) and player not in round_[number - 1]
    )
    return pairs, away


def by_round(n: int, rounds: int, seed: int, effort: float) -> tuple[str, int]:
    """Round by round as the site draws (each draw continues the previous plan), with one
    withdrawal and one late entry after round 2; the wishes follow the field."""
    field, played, plan, broke = list(range(n)), [], [], 0
    for number in range(1, rounds + 1):
        if number == 3:
            field = field[1:] + [n]
        apart, at_table = wishes(field)
        request = DrawRequest(field, rounds, fixed=played, seed=seed + number - 1,
                              time_limit=effort, plan=plan, apart=apart,
                              at_table=at_table)  # fmt: skip
        plan = draw(request).rounds
        pairs, away = broken([plan[number - 1]], apart, at_table)
        broke += pairs + away
        played = plan[:number]
    q = evaluate(played, sorted({p for t in played[-1] for p in t}))
    return f"{q.repeat_pairs}/{q.five_table_spread}", broke


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--effort", type=float, default=1.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    fields = LITERATURE[:5] if args.quick else LITERATURE
    print(f"seat wishes: a couple per 20 players, the last player at table 1, teams of 4 apart "
          f"(effort {args.effort:g} s per draw)")  # fmt: skip
    print(f"{'field':>6} {'without':>8} {'s':>5} {'with':>8} {'s':>5} {'cost':>8} {'reported':>8} "
          f"{'method':<12} {'broken':>6} {'by round':>8} {'broken':>6}")  # fmt: skip
    total_cost = [0, 0]
    for name in fields:
        n, rounds = (int(v) for v in name.split("x"))
        field = list(range(n))
        apart, at_table = wishes(field)
        started = time.perf_counter()
        bare = draw(DrawRequest(field, rounds, seed=args.seed, time_limit=args.effort))
        bare_seconds = time.perf_counter() - started
        started = time.perf_counter()
        plan = draw(DrawRequest(field, rounds, seed=args.seed, time_limit=args.effort,
                                apart=apart, at_table=at_table))  # fmt: skip
        seconds = time.perf_counter() - started
        b, q, w = bare.quality, plan.quality, plan.stats.without
        cost = (q.repeat_pairs - b.repeat_pairs, q.five_table_spread - b.five_table_spread)
        total_cost = [total_cost[0] + cost[0], total_cost[1] + cost[1]]
        pairs, away = broken(plan.rounds, apart, at_table)
        rb, rb_broken = by_round(n, rounds, args.seed, args.effort)
        print(
            f"{name:>6} {b.repeat_pairs:>4}/{b.five_table_spread:<3} {bare_seconds:>5.2f} "
            f"{q.repeat_pairs:>4}/{q.five_table_spread:<3} {seconds:>5.2f} "
            f"{cost[0]:>+4}/{cost[1]:<+3} "
            f"{(f'{w.repeat_pairs}/{w.five_table_spread}' if w else '-'):>8} "
            f"{plan.stats.method:<12} {pairs + away:>6} {rb:>8} {rb_broken:>6}",
            flush=True,
        )
    print(f"summed cost: {total_cost[0]:+} repeats, {total_cost[1]:+} spread, {len(fields)} fields")
    return 0


if __name__ == "__main__":
    sys.exit(main())
