"""A tournament hall on loopback: `make loadtest`.

    python bench/loadtest.py [--database sqlite|postgres] [--duration 120] [--server hall]

The site under gunicorn (4 workers), or with ``--server hall`` as `manage.py hall` serves
the tournament day (waitress, one process with threads), with 150 tables (600 players, round
1 played and closed, round 2 running). For ``--duration`` seconds, open-loop and bounded in time:

* 60 requests per second for the public standings (five of six as the phones' htmx poll,
  every sixth as a full page),
* 2 Spielliste row saves per second through the list keepers' links, with a burst of 20 saves
  per second for 10 seconds in the middle.

Prints p50/p95/p99 latency and the errors of each kind. Targets: standings p95 < 300 ms,
row saves p95 < 500 ms, 0 errors (exit code 1 when missed).
"""

from __future__ import annotations

import argparse
import random
import shutil
import statistics
import sys
import tempfile
import threading
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from harness import Phone, Server, database_url, drop, percentile, setup_django

TABLES, STANDINGS_RATE, SAVE_RATE, BURST_RATE, BURST_SECONDS = 150, 60, 2, 20, 10
TARGETS = {"standings": 0.300, "save": 0.500}
NAME = "kreuzdame_load"


def prepare(url: str, kind: str, table_count: int = TABLES) -> list[str]:
    setup_django(url, kind, NAME)
    from django.utils import timezone

    from tournament.demo_games import play_sheet
    from tournament.models import Entry, Game, Player, Round, Seat, Sheet, Table, Tournament

    tournament = Tournament.objects.create(
        name="Hallenturnier", slug="halle", date="2026-12-05", is_public=True,
        standings_live=True, planned_rounds=2,
    )  # fmt: skip
    players = Player.objects.bulk_create(
        Player(first_name="Spieler", last_name=f"Nr{n}", club=f"Club {n % 40}")
        for n in range(1, 4 * table_count + 1)
    )
    entries = Entry.objects.bulk_create(
        Entry(tournament=tournament, player=p, start_number=n)
        for n, p in enumerate(players, start=1)
    )
    rng = random.Random(1)
    profile = tournament.profile
    tokens = []
    for number, status in ((1, "closed"), (2, "released")):
        round_ = Round.objects.create(
            tournament=tournament, number=number, status=status, started_at=timezone.now()
        )
        order = entries[:]
        rng.shuffle(order)
        tables = Table.objects.bulk_create(
            Table(round=round_, number=t, size=4) for t in range(1, table_count + 1)
        )
        Sheet.objects.bulk_create(Sheet(table=table) for table in tables)
        seats, games = [], []
        for index, table in enumerate(tables):
            for position, entry in enumerate(order[4 * index : 4 * index + 4], start=1):
                seats.append(Seat(round=round_, table=table, entry=entry, position=position))
            if status == "closed":
                for game_number, row in enumerate(play_sheet(profile, 4, rng), start=1):
                    points = dict(zip(("p1", "p2", "p3", "p4"), row.points, strict=True))
                    games.append(
                        Game(
                            table=table,
                            number=game_number,
                            kind=row.kind,
                            soloist_position=row.soloist,
                            **points,
                        )
                    )
            else:
                tokens.append(table.token)
        Seat.objects.bulk_create(seats)
        Game.objects.bulk_create(games)
    return tokens


class Results:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.latencies: dict[str, list[float]] = {"standings": [], "save": []}
        self.errors: dict[str, list[str]] = {"standings": [], "save": []}

    def add(self, kind: str, seconds: float, error: str | None) -> None:
        with self.lock:
            self.latencies[kind].append(seconds)
            if error:
                self.errors[kind].append(error)


def get_standings(base: str, index: int, results: Results) -> None:
    headers = {} if index % 6 == 0 else {"HX-Request": "true"}
    request = urllib.request.Request(f"{base}/t/halle/stand/", headers=headers)
    started = time.perf_counter()
    error = None
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            response.read()
            if response.status != 200:
                error = f"status {response.status}"
    except OSError as exc:
        error = str(exc)
    results.add("standings", time.perf_counter() - started, error)


class Keepers:
    """One phone per table of the running round; saves go round the tables in turn."""

    def __init__(self, base: str, tokens: list[str]) -> None:
        self.phones = [Phone(base, token) for token in tokens]
        # A phone sends one game at a time, in order (the page's outbox): a save waits for
        # the answer to the previous one of its table.
        self.sending = [threading.Lock() for _ in tokens]
        self.next_number = [1] * len(tokens)
        self.turn = 0
        self.lock = threading.Lock()

    def save(self, results: Results) -> None:
        with self.lock:
            index = self.turn % len(self.phones)
            self.turn += 1
        error = None
        try:
            with self.sending[index]:
                number = self.next_number[index]
                self.next_number[index] += 1
                status, seconds = self.phones[index].save(number, (1, -1, -1, 1))
            if status != 200:
                error = f"status {status}"
        except OSError as exc:
            seconds, error = 30.0, str(exc)
        results.add("save", seconds, error)


def schedule(duration: float, rate: float = STANDINGS_RATE) -> list[tuple[float, str]]:
    """Open loop: (second, kind) for every request, fixed in advance."""
    events = [(i / rate, "standings") for i in range(int(duration * rate))]
    burst_start = duration / 2
    t = 0.0
    while t < duration:
        events.append((t, "save"))
        in_burst = burst_start <= t < burst_start + BURST_SECONDS
        t += 1 / (BURST_RATE if in_burst else SAVE_RATE)
    return sorted(events)


def run(base: str, tokens: list[str], duration: float, rate: float) -> Results:
    results = Results()
    keepers = Keepers(base, tokens)
    events = schedule(duration, rate)
    with ThreadPoolExecutor(max_workers=64) as pool:
        start = time.perf_counter()
        for index, (at, kind) in enumerate(events):
            delay = start + at - time.perf_counter()
            if delay > 0:
                time.sleep(delay)
            if kind == "standings":
                pool.submit(get_standings, base, index, results)
            else:
                pool.submit(keepers.save, results)
    return results


def report(results: Results, duration: float) -> bool:
    ok = True
    for kind, target in TARGETS.items():
        values = results.latencies[kind]
        p50, p95, p99 = (percentile(values, q) * 1000 for q in (0.5, 0.95, 0.99))
        errors = results.errors[kind]
        met = p95 <= target * 1000 and not errors
        ok = ok and met
        print(f"  {kind:9s}: {len(values)} requests ({len(values) / duration:.1f}/s), "
              f"p50 {p50:.0f} ms, p95 {p95:.0f} ms, p99 {p99:.0f} ms, "
              f"max {max(values) * 1000:.0f} ms, errors {len(errors)} "
              f"(target p95 < {target * 1000:.0f} ms: {'met' if met else 'MISSED'})")  # fmt: skip
        for error in sorted(set(errors))[:3]:
            print(f"    e.g. {error}")
    return ok


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--database", choices=["sqlite", "postgres"], default="sqlite")
    parser.add_argument("--duration", type=float, default=120)
    parser.add_argument("--server", choices=["gunicorn", "hall"], default="gunicorn")
    parser.add_argument("--tables", type=int, default=TABLES)
    parser.add_argument("--standings-rate", type=float, default=STANDINGS_RATE)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="kreuzdame-load-"))
    url = database_url(args.database, work, NAME)
    server_name = "hall mode (waitress)" if args.server == "hall" else "gunicorn 4 workers"
    print(f"loadtest: {args.database}, {server_name}, {args.tables} tables, "
          f"{args.duration:.0f} s: {args.standings_rate:g} standings/s + {SAVE_RATE} saves/s, "
          f"a {BURST_SECONDS} s burst of {BURST_RATE} saves/s")  # fmt: skip
    try:
        tokens = prepare(url, args.database, args.tables)
        server = Server(url, work, "IMMEDIATE", hall=args.server == "hall")
        try:
            results = run(server.base, tokens, args.duration, args.standings_rate)
        finally:
            server.stop()
        ok = report(results, args.duration)
        mean = statistics.mean(results.latencies["standings"]) * 1000
        print(f"  standings mean {mean:.0f} ms; result: {'PASSED' if ok else 'FAILED'}")
    finally:
        drop(args.database, NAME)
        shutil.rmtree(work, ignore_errors=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
