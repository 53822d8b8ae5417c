"""Speed of the rules engine: `make bench` prints the figures against the targets.

Targets (issue 3): checking a complete 30-game 5-table sheet under 5 ms, one game value
under 0.1 ms. Timings are the median of repeated runs on this machine.
"""

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scoring.game import evaluate, parse_facts, possible_eyes
from scoring.kinds import Kind
from scoring.ledger import PlayedGame, walk
from scoring.profiles import DDV
from scoring.sheet import SheetRow, check_sheet, has_errors

EYES = sorted(possible_eyes(DDV.cards))


def random_facts(rng: random.Random, size: int, dealer: int, soloist: int | None) -> dict:
    active = [p for p in range(1, size + 1) if not (size == 5 and p == dealer)]
    announced = [p for p in ("re", "kontra") if rng.random() < 0.4]
    return {
        "table_size": size,
        "dealer": dealer,
        "kind": "normal" if soloist is None else "solo",
        "re": sorted(rng.sample(active, 2)) if soloist is None else [soloist],
        "re_eyes": rng.choice(EYES),
        "announced": announced,
        "absage": {
            p: rng.choice([None, 90, 60]) if p in announced else None for p in ("re", "kontra")
        },
        "sonderpunkte": {"re": rng.randint(0, 2), "kontra": rng.randint(0, 2)}
        if soloist is None
        else {},
    }


def five_table_sheet(seed: int = 1) -> list[SheetRow]:
    """A complete, correct 30-game ddv 5-table sheet with every Pflichtsolo in it."""
    rng = random.Random(seed)
    games: list[PlayedGame] = []
    rows: list[SheetRow] = []
    for number in range(1, 31):
        step = walk(DDV, 5, games)[-1]
        owing = [p for p in step.owing_before if p != step.sitter]
        if step.vorfuehren is not None:
            kind, soloist = Kind.VORGEFUEHRT, step.vorfuehren
        elif owing and rng.random() < 0.25:
            kind, soloist = Kind.PFLICHTSOLO, rng.choice(owing)
        else:
            kind, soloist = Kind.NORMAL, None
        facts = parse_facts(random_facts(rng, 5, step.dealer, soloist))
        rows.append(SheetRow(number, kind, soloist, evaluate(DDV, facts).points))
        games.append(PlayedGame(kind, soloist))
    return rows


def median_seconds(function, repeat: int) -> float:
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def main() -> int:
    sheet = five_table_sheet()
    assert not has_errors(check_sheet(DDV, 5, sheet)), "benchmark sheet must be correct"
    check = median_seconds(lambda: check_sheet(DDV, 5, sheet), 300)
    raw = random_facts(random.Random(7), 4, 1, None)
    value = median_seconds(lambda: evaluate(DDV, parse_facts(raw)), 3000)
    figures = [
        ("check a complete 30-game 5-table sheet", check * 1000, 5.0),
        ("one game value (parse + evaluate)", value * 1000, 0.1),
    ]
    for label, ms, target in figures:
        verdict = "ok" if ms < target else "SLOWER THAN TARGET"
        print(f"{label:42s} {ms:8.3f} ms   (target < {target} ms: {verdict})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
