"""The results service on a federation day: `make loadtest-service`.

    python bench/service_load.py [--duration 120] [--tournaments 50] [--readers 2000]
                                 [--configs 4:database] [--mode auto|publish|dry]

The service as docs/service.md deploys it: gunicorn (deploy/gunicorn.conf.py, several
workers, threads) with DEBUG off behind a TLS proxy (the requests carry X-Forwarded-Proto
and -For as Caddy sends them), on PostgreSQL (required: `pg_ctlcluster 15 main start`; a
database of its own, kreuzdame_load_<pid>, created and dropped here), with the shared cache
(CACHE_BACKEND=database). For ``--duration`` seconds, open loop:

* **50 tournaments publishing**: generated halls (10 to 30 tables, a regional series over
  all of them); each tournament publishes a new state every ~30 s, as its keepers' confirmed
  sheets arrive: the next table's Spielliste is played and confirmed in the hall, the hall
  builds its public archive (``archive.build``/``pack``), signs it (``protocol.signed_headers``)
  and POSTs it to the service's endpoint with a growing sequence; the club and its key come
  from ``manage.py club``.
* **2,000 readers**: each loads a page every 30 s on average (~67 requests/s), a reader
  following one tournament (a few big ones draw most): standings (half as the page's own
  refresh), table plan, the tournament's page, home, a player's page, the series and a
  player in it; one in five in English.

Prints per kind of page p50/p95/max and errors (5xx, no answer; 429 from the gate counted
apart), publish p50/p95, errors and bytes per publish, the server's peak memory, and
"computations per page state": every worker notes each page it computes
(bench/service_gunicorn.py); a page state computed in more than one worker counts more
than once. ``--configs 1:local,4:local,4:database`` compares workers and caches.

``--mode dry`` (or auto when the archive and the service's endpoint are not in this tree):
the tournaments are written into the service's database directly, and a publish is its
stand-in: the next table played and confirmed there and the versions moved as a restore
moves them (``mark_changed(results=True)``); no HTTP, so no publish figures.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import secrets
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections import Counter, defaultdict
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from harness import PG_HOST, free_port, percentile, postgres
from loadtest import peak_memory_mb

ROOT = Path(__file__).resolve().parent.parent
HOST = "ergebnisse.example.org"
PUBLISH_EVERY = 30.0
READ_EVERY = 30.0
# What a reader opens (weights in %): the standings most, as in the hall.
PAGES = {
    "standings": 35,
    "table plan": 15,
    "tournament": 10,
    "home": 10,
    "player": 15,
    "series": 10,
    "statistics": 5,
}
TARGET_P95 = 0.5  # seconds, every kind of page


# --- the service ----------------------------------------------------------------------


def service_env(work: Path, url: str, cache: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "CACHE_BACKEND"}}
    env.update(
        DJANGO_SETTINGS_MODULE="tournament.settings",
        DEBUG="0",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS=HOST,
        SITE_URL=f"https://{HOST}/",
        BEHIND_TLS_PROXY="1",
        DATABASE_URL=url,
        CACHE_BACKEND=cache,
        STATIC_ROOT=str(work / "static"),
        DOCUMENTS_DIR=str(work / "documents"),
        BACKUP_DIR=str(work / "backups"),
        BACKUP_ON_ROUND_CLOSE="0",
        LOG_LEVEL="ERROR",
        LOADTEST_COUNTS_DIR=str(work / "counts"),
    )
    env.setdefault("STANDINGS_CACHE_SECONDS", "30")  # as deploy/kreuzdame.env sets it
    env.pop("KREUZDAME_HALL", None)
    return env


def manage(env: dict[str, str], *args: str) -> str:
    done = subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True
    )
    if done.returncode:
        raise SystemExit(f"manage.py {' '.join(args)} failed:\n{done.stderr}")
    return done.stdout


class Service:
    """gunicorn with the deployed configuration, ``workers`` processes, on loopback."""

    def __init__(self, env: dict[str, str], workers: int, work: Path) -> None:
        self.port = free_port()
        self.log = work / "server.log"
        env = {**env, "WEB_WORKERS": str(workers), "WEB_BIND": f"127.0.0.1:{self.port}"}
        gunicorn = str(Path(sys.executable).with_name("gunicorn"))
        command = [gunicorn, "-c", "bench/service_gunicorn.py", "tournament.wsgi"]
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(
                command, cwd=ROOT, env=env, stdout=log, stderr=log, start_new_session=True,
                stdin=subprocess.DEVNULL,
            )  # fmt: skip
        self.base = f"http://127.0.0.1:{self.port}"
        deadline = time.time() + 60
        while time.time() < deadline:
            if get(self.base, "/", "10.0.0.1")[0] == 200:
                return
            time.sleep(0.2)
        raise SystemExit("the service did not start; see " + str(self.log))

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def get(base: str, path: str, address: str, headers: dict | None = None) -> tuple[int, bytes]:
    """GET as the proxy forwards it: https, the reader's address appended."""
    sent = {"Host": HOST, "X-Forwarded-Proto": "https", "X-Forwarded-For": address}
    request = urllib.request.Request(base + path, headers={**sent, **(headers or {})})
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read()
    except OSError:
        return 0, b""


# --- the halls ------------------------------------------------------------------------


def generate(count: int, rng: random.Random) -> list[dict]:
    """``count`` public tournaments of 10 to 30 tables in the current database, players drawn
    from one region's pool (so the series counts them in several), round 1 played and closed,
    round 2 released with no games yet; one public series of all of them."""
    from django.utils import timezone

    from tournament.domain import results
    from tournament.management.demo_games import play_sheet
    from tournament.models import Entry, Game, Player, Round, Seat, Series, Sheet, Table, Tournament

    pool = Player.objects.bulk_create(
        Player(first_name=f"Vorname{n}", last_name=f"Spieler{n}", club=f"Club {n % 90}")
        for n in range(1, 2401)
    )
    series = Series.objects.create(
        name="Landesrangliste", slug="landesrangliste", is_public=True, method="average"
    )
    halls = []
    for index in range(count):
        size = rng.choice([10, 15, 20, 20, 25, 30])
        tournament = Tournament.objects.create(
            name=f"Turnier {index + 1}", slug=f"turnier-{index + 1}", date="2026-12-05",
            is_public=True, standings_live=True, planned_rounds=3,
        )  # fmt: skip
        entries = Entry.objects.bulk_create(
            Entry(tournament=tournament, player=p, start_number=n, publish=rng.random() < 0.9)
            for n, p in enumerate(rng.sample(pool, 4 * size), start=1)
        )
        # A player's page exists for those who consented to publication only.
        named = [entry.start_number for entry in entries if entry.publish]
        tables_of = {}
        for number, status in ((1, "closed"), (2, "released")):
            round_ = Round.objects.create(
                tournament=tournament, number=number, status=status, started_at=timezone.now()
            )
            order = entries[:]
            rng.shuffle(order)
            tables = Table.objects.bulk_create(
                Table(round=round_, number=t, size=4) for t in range(1, size + 1)
            )
            Sheet.objects.bulk_create(
                Sheet(table=t, status="confirmed" if status == "closed" else "open") for t in tables
            )
            seats, games = [], []
            for i, table in enumerate(tables):
                for position, entry in enumerate(order[4 * i : 4 * i + 4], start=1):
                    seats.append(Seat(round=round_, table=table, entry=entry, position=position))
                if status == "closed":
                    games += played(table, play_sheet(tournament.profile, 4, rng), Game)
            Seat.objects.bulk_create(seats)
            Game.objects.bulk_create(games)
            tables_of[number] = [t.pk for t in tables]
        results.store_rounds(tournament.rounds.filter(status="closed"))
        series.tournaments.add(tournament)
        halls.append(
            {"pk": tournament.pk, "slug": tournament.slug, "size": size, "next": 0,
             "waiting": tables_of[2], "numbers": named, "sequence": 0,
             "weight": 1 / (index + 1) ** 0.8}
        )  # fmt: skip
    return halls


def played(table, rows, game_model) -> list:
    return [
        game_model(
            table=table,
            number=n,
            kind=row.kind,
            soloist_position=row.soloist,
            **dict(zip(("p1", "p2", "p3", "p4"), row.points, strict=True)),
        )  # fmt: skip
        for n, row in enumerate(rows, start=1)
    ]


def advance(hall: dict, rng: random.Random) -> None:
    """The keepers of the next table of the running round saved and confirmed their sheet."""
    from django.db import transaction
    from django.utils import timezone

    from tournament.base.versions import mark_changed
    from tournament.management.demo_games import play_sheet
    from tournament.models import Game, Sheet, Table

    if hall["next"] >= len(hall["waiting"]):
        return  # every sheet of the round is in: the state stays
    table = Table.objects.select_related("round__tournament").get(pk=hall["waiting"][hall["next"]])
    hall["next"] += 1
    rows = play_sheet(table.round.tournament.profile, 4, rng)
    with transaction.atomic():
        Game.objects.bulk_create(played(table, rows, Game))
        Sheet.objects.filter(table=table).update(
            status="confirmed", confirmed_at=timezone.now(), confirmed_by="Lastprobe"
        )
        mark_changed(hall["pk"], results=True)


class Publisher:
    """The halls' side (``--mode publish``): a club, its key, one archive per new state."""

    def __init__(self, base: str, env: dict[str, str]) -> None:
        from tournament.publishing import protocol

        self.base, self.protocol = base, protocol
        manage(env, "club", "add", "Landesverband Lastprobe", "--slug", "lv")
        printed = manage(env, "club", "key", "lv")
        keys = [protocol.parse_key(word) for word in printed.split()]
        key = next((k for k in keys if k is not None), None)
        if key is None:
            raise SystemExit("manage.py club key printed no key:\n" + printed)
        self.key = key

    def publish(self, hall: dict) -> tuple[int, float, int]:
        """(status, seconds from building the archive to the service's answer, bytes)."""
        from django.db import connection

        from tournament import archive
        from tournament.models import Tournament

        started = time.perf_counter()
        try:
            tournament = Tournament.objects.get(pk=hall["pk"])
            body = archive.pack(archive.build(tournament, profile="public"))
        finally:
            connection.close()
        hall["sequence"] += 1
        headers = self.protocol.signed_headers(
            self.key, str(tournament.uid), hall["sequence"], body
        )
        request = urllib.request.Request(
            self.base + self.protocol.PATH, data=body, method="POST",
            headers={**headers, "Host": HOST, "X-Forwarded-Proto": "https",
                     "X-Forwarded-For": "192.0.2.10"},
        )  # fmt: skip
        try:
            with urllib.request.urlopen(request, timeout=60) as response:
                answer = response.read()
                status = response.status
        except urllib.error.HTTPError as exc:
            answer, status = exc.read(), exc.code
        except OSError:
            answer, status = b"", 0
        if status == 200:
            found = re.search(rb"/t/([-\w]+)/", answer)
            hall["slug"] = found.group(1).decode() if found else hall["slug"]
        return status, time.perf_counter() - started, len(body)


# --- the load ---------------------------------------------------------------------------


class Results:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.latencies: dict[str, list[float]] = defaultdict(list)
        self.errors: dict[str, list[str]] = defaultdict(list)
        self.shed: Counter[str] = Counter()
        self.bytes: list[int] = []

    def add(self, kind: str, seconds: float, status: int, size: int = 0) -> None:
        with self.lock:
            self.latencies[kind].append(seconds)
            if status == 429 or (status == 204 and kind != "publish"):
                self.shed[kind] += 1
            elif status != 200:
                self.errors[kind].append(f"status {status}" if status else "no answer")
            if size:
                self.bytes.append(size)


class Site:
    """What the readers can open, found on the service's own pages."""

    def __init__(self, base: str, halls: list[dict]) -> None:
        self.halls = halls
        status, home = get(base, "/", "10.0.0.1")
        found = re.search(rb'href="/serie/([-\w]+)/"', home)
        self.series = found.group(1).decode() if found else ""
        self.series_players: list[int] = []
        if self.series:
            _, page = get(base, f"/serie/{self.series}/", "10.0.0.1")
            pattern = rf"/serie/{self.series}/spieler/(\d+)/".encode()
            self.series_players = sorted({int(n) for n in re.findall(pattern, page)})

    def path(self, rng: random.Random, hall: dict) -> tuple[str, str, dict]:
        kind = rng.choices(list(PAGES), weights=list(PAGES.values()))[0]
        slug = hall["slug"]
        headers = {"Accept-Language": "en" if rng.random() < 0.2 else "de"}
        if kind == "standings":
            if rng.random() < 0.5:
                headers["HX-Request"] = "true"  # the open page refreshing itself
            return kind, f"/t/{slug}/stand/", headers
        if kind == "table plan":
            return kind, f"/t/{slug}/tischplan/", headers
        if kind == "tournament":
            return kind, f"/t/{slug}/", headers
        if kind == "home":
            return kind, "/", headers
        if kind == "statistics":
            return kind, f"/t/{slug}/statistik/", headers
        if kind == "series" and self.series:
            if self.series_players and rng.random() < 0.3:
                player = rng.choice(self.series_players)
                return "series player", f"/serie/{self.series}/spieler/{player}/", headers
            return kind, f"/serie/{self.series}/", headers
        return "player", f"/t/{slug}/statistik/{rng.choice(hall['numbers'])}/", headers


def schedule(duration: float, readers: int, halls: list[dict], rng: random.Random) -> list:
    """Open loop, fixed in advance: (second, "read", reader) for every reader's request (a
    Poisson stream of readers / READ_EVERY per second) and (second, "publish", hall)."""
    events: list[tuple[float, str, int]] = []
    t, rate = 0.0, readers / READ_EVERY
    while True:
        t += rng.expovariate(rate)
        if t >= duration:
            break
        events.append((t, "read", rng.randrange(readers)))
    for index in range(len(halls)):
        t = rng.uniform(0, PUBLISH_EVERY)
        while t < duration:
            events.append((t, "publish", index))
            t += rng.uniform(0.8, 1.2) * PUBLISH_EVERY
    return sorted(events)


def run(
    base: str, halls: list[dict], publisher: Publisher | None, args, rng: random.Random
) -> Results:
    from django.db import connection

    results = Results()
    site = Site(base, halls)
    follows = rng.choices(range(len(halls)), weights=[h["weight"] for h in halls], k=args.readers)
    publishing = [threading.Lock() for _ in halls]  # a hall sends one state at a time

    def read(reader: int) -> None:
        local = random.Random(reader * 7919 + int(time.time() * 1000))
        kind, path, headers = site.path(local, halls[follows[reader]])
        address = f"10.{reader // 250}.{reader % 250}.{1 + reader % 200}"
        started = time.perf_counter()
        status, _body = get(base, path, address, headers)
        results.add(kind, time.perf_counter() - started, status)

    def publish(index: int) -> None:
        hall = halls[index]
        with publishing[index]:
            try:
                started = time.perf_counter()
                advance(hall, random.Random(index * 1000 + hall["next"]))
                if publisher is not None:
                    status, seconds, size = publisher.publish(hall)
                    results.add("publish", seconds, status, size)
                else:  # the write a restore stands for, in the service's database
                    results.add("publish (stand-in)", time.perf_counter() - started, 200)
            finally:
                connection.close()

    with ThreadPoolExecutor(max_workers=96) as pool:
        start = time.perf_counter()
        for at, what, who in schedule(args.duration, args.readers, halls, rng):
            delay = start + at - time.perf_counter()
            if delay > 0:
                time.sleep(delay)
            pool.submit(read if what == "read" else publish, who)
    return results


def computations(counts: Path) -> tuple[dict[bool, tuple[int, int]], dict[str, float]]:
    """Over every worker's notes: per shared (the pages) and kept in the process (share=False:
    figures, a series' table) the page states and the computations, and the CPU seconds per
    kind of value."""
    per_state: Counter[tuple[str, bool]] = Counter()
    seconds: Counter[str] = Counter()
    for log in counts.glob("*.log"):
        for line in log.read_text().splitlines():
            family, state, cpu, shared = line.split("\t")
            per_state[(family + "\t" + state, shared == "1")] += 1
            seconds[family.split(",")[0].strip("(' ")] += float(cpu)
    found = {}
    for shared in (True, False):
        counted = [n for (_, s), n in per_state.items() if s == shared]
        found[shared] = (len(counted), sum(counted))
    return found, dict(seconds)


def cpu_seconds(pid: int) -> float:
    """The CPU time of a process, its reaped children and its living children."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += sum(int(v) for v in fields[11:15]) / tick  # utime stime cutime cstime
        for task in Path(f"/proc/{pid}/task").iterdir():
            for child in (task / "children").read_text().split():
                total += cpu_seconds(int(child))
    except OSError:
        pass
    return total


def report(results: Results, duration: float, peak_mb: float, cpu: float, counts: Path) -> bool:
    ok = True
    reads = sum(len(v) for k, v in results.latencies.items() if not k.startswith("publish"))
    print(f"  readers: {reads} requests, {reads / duration:.1f}/s")
    for kind in sorted(results.latencies):
        values = results.latencies[kind]
        p50, p95, worst = (percentile(values, q) * 1000 for q in (0.5, 0.95, 1.0))
        errors = results.errors[kind]
        met = kind.startswith("publish") or (p95 <= TARGET_P95 * 1000 and not errors)
        ok = ok and met and not errors
        shed = f", turned away by the gate {results.shed[kind]}" if results.shed[kind] else ""
        print(f"  {kind:18s} {len(values):6d}  p50 {p50:5.0f} ms  p95 {p95:5.0f} ms  "
              f"max {worst:6.0f} ms  errors {len(errors)}{shed}")  # fmt: skip
        for error in sorted(set(errors))[:3]:
            print(f"    e.g. {error}")
    if results.bytes:
        sizes = sorted(results.bytes)
        print(f"  bytes per publish: p50 {percentile(sizes, 0.5) / 1024:.0f} KB, "
              f"max {sizes[-1] / 1024:.0f} KB")  # fmt: skip
    found, by_kind = computations(counts)
    for shared, what in ((True, "pages"), (False, "kept in each process (share=False)")):
        states, total = found[shared]
        ratio = total / states if states else 0.0
        print(f"  {what}: {total} computations of {states} states = {ratio:.2f} per state")
    top = sorted(by_kind.items(), key=lambda item: -item[1])[:6]
    print("  CPU in computing them: " + ", ".join(f"{kind} {s:.1f} s" for kind, s in top))
    print(f"  server CPU: {cpu:.0f} s in {duration:.0f} s ({cpu / duration:.2f} cores), "
          f"{cpu / max(1, reads) * 1000:.1f} ms per reader's request")  # fmt: skip
    print(f"  server peak memory (all processes): {peak_mb:.0f} MB")
    return ok


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--duration", type=float, default=120)
    parser.add_argument("--tournaments", type=int, default=50)
    parser.add_argument("--readers", type=int, default=2000)
    parser.add_argument(
        "--configs", default="4:database", help="workers:cache runs, e.g. 1:local,4:database"
    )
    parser.add_argument("--mode", choices=["auto", "publish", "dry"], default="auto")
    args = parser.parse_args()
    configs = [(int(w), c) for w, c in (item.split(":") for item in args.configs.split(","))]
    mode = args.mode
    if mode == "auto":
        present = all(
            (ROOT / p).exists()
            for p in ("tournament/service/receive.py", "tournament/management/commands/club.py")
        )
        mode = "publish" if present else "dry"
    if subprocess.run(["pg_isready", "-q", "-h", PG_HOST]).returncode:  # noqa: S607
        raise SystemExit("PostgreSQL is not running: pg_ctlcluster 15 main start")

    name = f"kreuzdame_load_{os.getpid()}"
    work = Path(tempfile.mkdtemp(prefix="kreuzdame-service-load-"))
    url = f"postgres:///{name}?host={PG_HOST}"
    rate = args.readers / READ_EVERY
    print(f"service load: {mode}, {args.tournaments} tournaments publishing every "
          f"~{PUBLISH_EVERY:.0f} s, {args.readers} readers (a page every ~{READ_EVERY:.0f} s: "
          f"{rate:.0f}/s), {args.duration:.0f} s per run, PostgreSQL")  # fmt: skip
    postgres(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
    postgres(f"CREATE DATABASE {name}")
    ok = True
    try:
        env = service_env(work, url, "database")
        started = time.perf_counter()
        manage(env, "migrate", "--noinput")
        manage(env, "createcachetable")
        manage(env, "collectstatic", "--noinput")
        # This process is the halls (publish: a SQLite file of their own) or, dry, writes
        # into the service's database itself.
        hall_url = f"sqlite:///{work}/halls.sqlite3" if mode == "publish" else url
        os.environ.update(DATABASE_URL=hall_url, DJANGO_SETTINGS_MODULE="tournament.settings")
        sys.path.insert(0, str(ROOT))
        import django

        django.setup()
        from django.core.management import call_command

        if mode == "publish":
            call_command("migrate", verbosity=0)
        rng = random.Random(1)
        halls = generate(args.tournaments, rng)
        tables = sum(h["size"] for h in halls)
        print(f"  {len(halls)} tournaments, {tables} tables, {4 * tables} players' entries, "
              f"made in {time.perf_counter() - started:.0f} s")  # fmt: skip
        publisher: Publisher | None = None
        for workers, cache in configs:
            env = service_env(work, url, cache)
            shutil.rmtree(work / "counts", ignore_errors=True)
            (work / "counts").mkdir()
            manage(env, "clearcache", "--verbosity", "0")
            service = Service(env, workers, work)
            print(f"-- {workers} worker(s) x {os.environ.get('WEB_THREADS', 4)} threads, "
                  f"cache {cache}")  # fmt: skip
            try:
                if mode == "publish":
                    if publisher is None:
                        publisher = Publisher(service.base, env)
                    publisher.base = service.base
                    first = [publisher.publish(hall)[0] for hall in halls if hall["sequence"] == 0]
                    if first:
                        print(f"  first publish of every tournament: {Counter(first)}")
                cpu = cpu_seconds(service.process.pid)
                results = run(service.base, halls, publisher, args, rng)
                peak_mb = peak_memory_mb(service.process.pid)
                cpu = cpu_seconds(service.process.pid) - cpu
            finally:
                service.stop()
            ok = report(results, args.duration, peak_mb, cpu, work / "counts") and ok
        if mode == "dry":
            print("  (dry run: no archive or publishing endpoint in this tree; the publishes "
                  "were written into the service's database directly)")  # fmt: skip
    finally:
        from django.db import connections

        connections.close_all()
        postgres(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        shutil.rmtree(work, ignore_errors=True)
    print(f"result: {'PASSED' if ok else 'FAILED'} (every page p95 <= {TARGET_P95 * 1000:.0f} ms, "
          f"no errors)")  # fmt: skip
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
