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

``--hostile`` adds 16 anonymous clients on the hall's Wi-Fi that loop, each as fast as the
server answers it, over every public URL: pages, downloads, the projector's data, series
player pages, with random sort keys, made-up clubs, junk parameters and made-up player
numbers. The report adds the keepers' saves max, the answers the flood got (429 "busy" is
the gate doing its work; 5xx and no answer are errors), "database is locked" in the server's
log, and the peak memory (VmHWM) of the server and its children. Targets: saves p95 <= 500
ms and max <= 2 s, no error, nothing locked, peak memory <= 400 MB.
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
import urllib.error
import urllib.parse
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from harness import Phone, Server, database_url, drop, percentile, setup_django

TABLES, STANDINGS_RATE, SAVE_RATE, BURST_RATE, BURST_SECONDS = 150, 60, 2, 20, 10
TARGETS = {"standings": 0.300, "save": 0.500}
HOSTILE_CLIENTS, SAVE_MAX, PEAK_MB = 16, 2.0, 400
NAME = "kreuzdame_load"


def prepare(url: str, kind: str, table_count: int = TABLES) -> list[str]:
    setup_django(url, kind, NAME)
    from django.utils import timezone

    from tournament.domain import results
    from tournament.management.demo_games import play_sheet
    from tournament.models import Entry, Game, Player, Round, Seat, Series, Sheet, Table, Tournament

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
    # As closing the round does: its results stored (the rows above were written directly).
    results.store_rounds(tournament.rounds.filter(status="closed"))
    cup = Series.objects.create(name="Hallen-Cup", slug="cup", is_public=True)
    cup.tournaments.add(tournament)
    return tokens


class Results:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.latencies: dict[str, list[float]] = {"standings": [], "save": []}
        self.errors: dict[str, list[str]] = {"standings": [], "save": []}
        self.shed = 0  # standings polls the gate turned away (429, or 204 for a page's poll)

    def add(self, kind: str, seconds: float, error: str | None, shed: bool = False) -> None:
        with self.lock:
            self.latencies[kind].append(seconds)
            self.shed += shed
            if error:
                self.errors[kind].append(error)


def get_standings(base: str, index: int, results: Results) -> None:
    headers = {} if index % 6 == 0 else {"HX-Request": "true"}
    request = urllib.request.Request(f"{base}/t/halle/stand/", headers=headers)
    started = time.perf_counter()
    error, shed = None, False
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            response.read()
            shed = response.status == 204  # the gate: the page keeps what it shows
            if response.status not in (200, 204):
                error = f"status {response.status}"
    except urllib.error.HTTPError as exc:
        shed = exc.code == 429  # the gate: "busy, try again"
        error = None if shed else f"status {exc.code}"
    except OSError as exc:
        error = str(exc)
    results.add("standings", time.perf_counter() - started, error, shed)


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


def hostile_url(rng: random.Random, players: int) -> tuple[str, dict]:
    """A public URL as a flood asks for it: any page, junk and made-up keys, downloads."""
    junk = "".join(rng.choice("abcxyz<>'\"0123456789") for _ in range(8))
    choices = [
        ("/", {}),
        ("/t/halle/", {}),
        ("/t/halle/stand/", {"sort": f"-r{rng.randint(1, 99)}"}),
        ("/t/halle/stand/", {"sort": rng.choice(["name", "-total", "club", "r1", "-r2"])}),
        ("/t/halle/stand/", {"club": f"Club {rng.randint(0, 60)}", "x": junk}),
        ("/t/halle/stand/", {"x": junk}),
        ("/t/halle/tischplan/", {"y": junk}),
        ("/t/halle/wo-sitze-ich/", {"q": rng.choice(["Nr1", "Spieler", junk, "17"])}),
        ("/t/halle/leinwand/daten/", {}),
        ("/t/halle/rechner/", {}),
        ("/serie/cup/", {"z": junk}),
        (f"/serie/cup/spieler/{rng.randint(1, players * 2)}/", {}),
        ("/serie/cup/export.pdf", {"v": junk}),
        ("/serie/cup/export.xlsx", {}),
    ]
    return rng.choice(choices)


class Flood:
    """Anonymous clients in a closed loop: each asks again as soon as it has an answer."""

    def __init__(self, base: str, clients: int, players: int) -> None:
        self.base, self.players = base, players
        self.stop = threading.Event()
        self.lock = threading.Lock()
        self.answers: dict[str, int] = {}
        self.threads = [
            threading.Thread(target=self.loop, args=(random.Random(n),), daemon=True)
            for n in range(clients)
        ]

    def count(self, answer: str) -> None:
        with self.lock:
            self.answers[answer] = self.answers.get(answer, 0) + 1

    def loop(self, rng: random.Random) -> None:
        while not self.stop.is_set():
            path, query = hostile_url(rng, self.players)
            url = self.base + path + ("?" + urllib.parse.urlencode(query) if query else "")
            headers = {"HX-Request": "true"} if rng.random() < 0.3 else {}
            try:
                request = urllib.request.Request(url, headers=headers)
                with urllib.request.urlopen(request, timeout=60) as response:
                    response.read()
                    self.count(str(response.status))
            except urllib.error.HTTPError as exc:
                exc.read()
                self.count(str(exc.code))
            except OSError:
                self.count("no answer")

    def start(self) -> None:
        for thread in self.threads:
            thread.start()

    def finish(self) -> None:
        self.stop.set()
        for thread in self.threads:
            thread.join(70)


def peak_memory_mb(pid: int) -> float:
    """The peak resident memory (VmHWM) of a process and all its descendants, in MB."""
    total, todo = 0, [pid]
    while todo:
        current = todo.pop()
        try:
            status = Path(f"/proc/{current}/status").read_text()
            total += next(int(line.split()[1]) for line in status.splitlines()
                          if line.startswith("VmHWM:"))  # fmt: skip
            for task in Path(f"/proc/{current}/task").iterdir():
                todo += [int(c) for c in (task / "children").read_text().split()]
        except (OSError, StopIteration):
            continue
    return total / 1024


def report_hostile(results: Results, flood: Flood, log: Path, peak_mb: float) -> bool:
    saves = results.latencies["save"]
    worst = max(saves) if saves else 0.0
    locked = log.read_text(errors="replace").count("database is locked") if log.exists() else 0
    answers = flood.answers
    failed = sum(
        n for answer, n in answers.items() if answer.startswith("5") or answer == "no answer"
    )
    ok = worst <= SAVE_MAX and not failed and not locked and peak_mb <= PEAK_MB
    shown = ", ".join(f"{answer}: {n}" for answer, n in sorted(answers.items()))
    clients, total = len(flood.threads), sum(answers.values())
    print(f"  flood of {clients} anonymous clients: {total} answers ({shown})")
    verdict = "met" if ok else "MISSED"
    print(f"  saves max {worst * 1000:.0f} ms (target <= {SAVE_MAX * 1000:.0f} ms), "
          f"5xx or no answer {failed}, 'database is locked' in the log {locked}, "
          f"peak memory {peak_mb:.0f} MB (target <= {PEAK_MB} MB): {verdict}")  # fmt: skip
    return ok


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


def run(
    base: str, tokens: list[str], duration: float, rate: float, flood: Flood | None = None
) -> Results:
    results = Results()
    if flood is not None:
        flood.start()
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
    if flood is not None:
        flood.finish()
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
    if results.shed:
        print(f"  standings polls turned away by the gate (429 or 204): {results.shed}")
    return ok


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--database", choices=["sqlite", "postgres"], default="sqlite")
    parser.add_argument("--duration", type=float, default=120)
    parser.add_argument("--server", choices=["gunicorn", "hall"], default="gunicorn")
    parser.add_argument("--tables", type=int, default=TABLES)
    parser.add_argument("--standings-rate", type=float, default=STANDINGS_RATE)
    parser.add_argument("--hostile", action="store_true", help="add 16 anonymous flooders")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="kreuzdame-load-"))
    url = database_url(args.database, work, NAME)
    server_name = "hall mode (waitress)" if args.server == "hall" else "gunicorn 4 workers"
    print(f"loadtest: {args.database}, {server_name}, {args.tables} tables, "
          f"{args.duration:.0f} s: {args.standings_rate:g} standings/s + {SAVE_RATE} saves/s, "
          f"a {BURST_SECONDS} s burst of {BURST_RATE} saves/s"
          + (f", {HOSTILE_CLIENTS} anonymous flooders" if args.hostile else ""))  # fmt: skip
    try:
        tokens = prepare(url, args.database, args.tables)
        server = Server(url, work, "IMMEDIATE", hall=args.server == "hall")
        flood = Flood(server.base, HOSTILE_CLIENTS, 4 * args.tables) if args.hostile else None
        try:
            results = run(server.base, tokens, args.duration, args.standings_rate, flood)
            peak_mb = peak_memory_mb(server.process.pid)
        finally:
            server.stop()
        ok = report(results, args.duration)
        if flood is not None:
            ok = report_hostile(results, flood, server.log, peak_mb) and ok
        mean = statistics.mean(results.latencies["standings"]) * 1000
        print(f"  standings mean {mean:.0f} ms; result: {'PASSED' if ok else 'FAILED'}")
    finally:
        drop(args.database, NAME)
        shutil.rmtree(work, ignore_errors=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
