"""Concurrent writers and crashes against the real server: `make stress`.

    python bench/stress.py [--database sqlite|postgres] [--sqlite-mode IMMEDIATE|DEFERRED]
                           [--crashes N]

Starts the site under gunicorn (4 workers) on a throw-away database and drives, over HTTP
exactly as the phones do (CSRF cookie, form posts to the table links):

* 20 list keepers, each saving 50 rows on their own table, all at once;
* at the same time 5 people editing the same row of a shared table at the same moment, 200
  times: every race must end with exactly one saved change and a conflict (409) for the other
  four, never a silent overwrite.

Required: 1000 rows stored, 0 lost, 0 "database is locked", 0 server errors.

Then a director (logged in over HTTP) draws all 8 rounds of a 400-player field of another
tournament while the 20 list keepers go on saving: 0 failed saves; the longest save during
the draw and the draw's duration are printed. The exit code is 1 when anything fails —
``--sqlite-mode DEFERRED`` (SQLite's default) shows that it does.

``--crashes N`` (SQLite): N times, kill the server with SIGKILL in the middle of the load,
then check that every row whose save was acknowledged (2xx) is there and that SQLite's
integrity_check says ok.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import http.cookiejar
import random
import re
import shutil
import sqlite3
import statistics
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from pathlib import Path

from harness import Phone, Server, database_url, drop, percentile, setup_django  # bench/

KEEPERS, SAVES, EDITORS, RACES = 20, 50, 5, 200
FIELD, FIELD_ROUNDS, DIRECTOR_PASSWORD = 400, 8, "stress-draw-2026"
PG_NAME = "kreuzdame_stress"


# --- the database ---------------------------------------------------------------------


def prepare(url: str, kind: str) -> dict:
    """A fresh database with one released round: 20 keeper tables and a shared table whose
    game 1 everybody edits."""
    setup_django(url, kind, PG_NAME)
    from django.utils import timezone

    from tournament.models import Entry, Game, Player, Round, Seat, Table, Tournament

    tournament = Tournament.objects.create(name="Stress", slug="stress", date="2026-12-05")
    round_ = Round.objects.create(
        tournament=tournament, number=1, status="released", started_at=timezone.now()
    )
    tokens = []
    for number in range(1, KEEPERS + 2):
        table = Table.objects.create(round=round_, number=number, size=4)
        for position in range(1, 5):
            start = 4 * (number - 1) + position
            player = Player.objects.create(first_name="Spieler", last_name=f"Nr{start}")
            entry = Entry.objects.create(tournament=tournament, player=player, start_number=start)
            Seat.objects.create(round=round_, table=table, entry=entry, position=position)
        tokens.append(table.token)
    Game.objects.create(table=table, number=1, kind="normal", p1=1, p2=-1, p3=1, p4=-1)
    return {"keepers": tokens[:-1], "shared": tokens[-1]}


def prepare_field() -> None:
    """A second tournament: 400 checked-in players, 8 planned rounds, and its director."""
    from django.contrib.auth.models import Group, User

    from tournament.models import Entry, Player, Tournament
    from tournament.models.audit import DIRECTOR_GROUP

    director = User.objects.create_user("stressdirector", password=DIRECTOR_PASSWORD)
    director.groups.add(Group.objects.get(name=DIRECTOR_GROUP))
    tournament = Tournament.objects.create(
        name="Feld", slug="feld", date="2026-12-05", planned_rounds=FIELD_ROUNDS
    )
    tournament.directors.add(director)
    players = Player.objects.bulk_create(
        Player(first_name="Feld", last_name=f"Nr{n}", club=f"Verein {n % 30}")
        for n in range(1, FIELD + 1)
    )
    Entry.objects.bulk_create(
        Entry(tournament=tournament, player=player, start_number=n, checked_in=True)
        for n, player in enumerate(players, start=1)
    )


# --- the load -------------------------------------------------------------------------


class Tally:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.statuses: dict[int, int] = {}
        self.latencies: list[float] = []
        self.acked: list[str] = []
        self.races_ok = 0
        self.race_failures: list[str] = []

    def count(self, status: int, seconds: float, client_id: str | None = None) -> None:
        with self.lock:
            self.statuses[status] = self.statuses.get(status, 0) + 1
            self.latencies.append(seconds)
            if client_id and 200 <= status < 300:
                self.acked.append(client_id)


def keeper(base: str, token: str, tally: Tally, first: int, saves: int, stop=None) -> None:
    phone = Phone(base, token)
    for number in range(first, first + saves):
        if stop is not None and stop.is_set():
            return
        client_id = str(uuid.uuid4())
        status, seconds = phone.save(number, (1, -1, 1, -1), client_id=client_id)
        tally.count(status, seconds, client_id)


def races(base: str, token: str, tally: Tally) -> None:
    """5 people change game 1 of the shared table at the same moment, 200 times."""
    phones = [Phone(base, token) for _ in range(EDITORS)]
    for race in range(RACES):
        version = stored_row(token)[0]
        barrier = threading.Barrier(EDITORS)
        results: list[tuple[int, tuple]] = [None] * EDITORS  # type: ignore[list-item]

        def edit(index: int, race: int, version: int, barrier, results) -> None:
            k = race * 10 + index + 2  # every editor writes other numbers
            points = (k, -k, k, -k)
            barrier.wait()
            status, seconds = phones[index].save(1, points, version=version)
            tally.count(status, seconds)
            results[index] = (status, points)

        threads = [
            threading.Thread(target=edit, args=(i, race, version, barrier, results))
            for i in range(EDITORS)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        winners = [points for status, points in results if status == 200]
        conflicts = [status for status, _ in results if status == 409]
        now_version, now_points = stored_row(token)
        one_winner = len(winners) == 1 and len(conflicts) == EDITORS - 1
        if one_winner and now_points == winners[0] and now_version == version + 1:
            tally.races_ok += 1
            continue
        tally.race_failures.append(
            f"race {race}: statuses {[s for s, _ in results]}, stored {now_points} "
            f"v{now_version} (was v{version})"
        )


def stored_row(token: str) -> tuple[int, tuple]:
    from django.db import connection

    from tournament.models import Game

    game = Game.objects.get(table__token=token, number=1)
    connection.close()
    return game.version, tuple(game.points)


def stored_rows(tokens: list[str]) -> tuple[int, set[str]]:
    from django.db import connection

    from tournament.models import Game

    ids = list(Game.objects.filter(table__token__in=tokens).values_list("client_id", flat=True))
    connection.close()
    return len(ids), {str(i) for i in ids if i is not None}


def locked_errors(log: Path) -> int:
    return len(re.findall(r"database is locked", log.read_text(errors="replace")))


def run_load(url: str, work: Path, tokens: dict, sqlite_mode: str) -> bool:
    server = Server(url, work, sqlite_mode)
    tally = Tally()
    started = time.perf_counter()
    try:
        threads = [
            threading.Thread(target=keeper, args=(server.base, t, tally, 1, SAVES))
            for t in tokens["keepers"]
        ]
        threads.append(threading.Thread(target=races, args=(server.base, tokens["shared"], tally)))
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        server.stop()
    seconds = time.perf_counter() - started
    stored, ids = stored_rows(tokens["keepers"])
    lost = len(set(tally.acked) - ids)
    errors = sum(n for status, n in tally.statuses.items() if status >= 500)
    locked = locked_errors(server.log)
    expected = KEEPERS * SAVES
    statuses = dict(sorted(tally.statuses.items()))
    print(f"  requests: {sum(statuses.values())} in {seconds:.1f} s, statuses {statuses}")
    print(f"  latency p50 {statistics.median(tally.latencies) * 1000:.0f} ms, "
          f"p95 {percentile(tally.latencies, 0.95) * 1000:.0f} ms, "
          f"p99 {percentile(tally.latencies, 0.99) * 1000:.0f} ms")  # fmt: skip
    print(f"  rows stored {stored} of {expected}, acknowledged {len(tally.acked)}, lost {lost}")
    print(f"  'database is locked': {locked}, server errors (5xx): {errors}")
    print(f"  shared-row races: {tally.races_ok} of {RACES} with exactly one winner and "
          f"{EDITORS - 1} conflicts")  # fmt: skip
    for failure in tally.race_failures[:5]:
        print("    " + failure)
    return (
        stored == expected and lost == 0 and locked == 0 and errors == 0 and tally.races_ok == RACES
    )


def run_draw(url: str, work: Path, tokens: dict) -> bool:
    """The list keepers save while a director draws every round of a 400-player field."""
    server = Server(url, work, "IMMEDIATE")
    stop, window = threading.Event(), {}
    saves: list[tuple[float, float, int]] = []  # (start, end, status) of every save

    def saving(token: str, first: int) -> None:
        phone = Phone(server.base, token)
        number = first
        while not stop.is_set():
            started = time.perf_counter()
            status, _seconds = phone.save(number, (1, -1, 1, -1))
            saves.append((started, time.perf_counter(), status))
            number += 1

    try:
        director = Director(server.base)
        threads = [threading.Thread(target=saving, args=(t, SAVES + 1)) for t in tokens["keepers"]]
        for thread in threads:
            thread.start()
        time.sleep(1.0)  # the keepers are saving
        window["start"] = time.perf_counter()
        status, location = director.draw("feld")
        window["end"] = time.perf_counter()
        time.sleep(0.5)
        stop.set()
        for thread in threads:
            thread.join()
    finally:
        stop.set()
        server.stop()
    drawn_seats = field_seats()
    during = [(s, e, st) for s, e, st in saves if e >= window["start"] and s <= window["end"]]
    failed = [st for _s, _e, st in saves if not 200 <= st < 300]
    longest = max((e - s for s, e, _st in during), default=0.0)
    others = [e - s for s, e, _st in saves if e < window["start"] or s > window["end"]]
    locked = locked_errors(server.log)
    seconds = window["end"] - window["start"]
    drawn = status == 302 and "/rounds/1/" in location and drawn_seats == FIELD * FIELD_ROUNDS
    print(f"  draw of {FIELD} players x {FIELD_ROUNDS} rounds over HTTP: {seconds:.2f} s, "
          f"status {status}, seats stored {drawn_seats} of {FIELD * FIELD_ROUNDS}")  # fmt: skip
    print(f"  saves meanwhile: {len(during)} during the draw, {len(saves)} in all, "
          f"failed {len(failed)}; longest save during the draw {longest * 1000:.0f} ms "
          f"(p95 outside it {percentile(others, 0.95) * 1000:.0f} ms)")  # fmt: skip
    print(f"  'database is locked': {locked}")
    return drawn and not failed and locked == 0 and len(during) > 0


class Director:
    """A director's browser: logs in with the form, then posts the draw form."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.jar = http.cookiejar.CookieJar()
        handler = urllib.request.HTTPCookieProcessor(self.jar)
        self.opener = urllib.request.build_opener(handler, _NoRedirect)
        status, _location = self.post("/login/", "/login/", {"username": "stressdirector",
                                                  "password": DIRECTOR_PASSWORD})  # fmt: skip
        if status != 302:
            raise SystemExit(f"the director could not log in (HTTP {status})")

    def post(self, page: str, path: str, data: dict) -> tuple[int, str]:
        """Open ``page`` (the form and its CSRF cookie), then post ``data`` to ``path``."""
        self.opener.open(self.base + page, timeout=30).read()
        url = self.base + path
        csrf = next(c.value for c in self.jar if c.name == "csrftoken")
        body = urllib.parse.urlencode({**data, "csrfmiddlewaretoken": csrf}).encode()
        request = urllib.request.Request(url, data=body, headers={"Referer": url})
        try:
            with self.opener.open(request, timeout=120) as response:
                response.read()
                return response.status, ""
        except urllib.error.HTTPError as exc:
            exc.read()
            return exc.code, exc.headers.get("Location", "")

    def draw(self, slug: str) -> tuple[int, str]:
        rounds = f"/manage/{slug}/rounds/"
        return self.post(rounds, rounds + "draw/", {"all_rounds": "on", "seed": "1"})


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None  # a redirect comes back as an HTTPError with its Location


def field_seats() -> int:
    from django.db import connection

    from tournament.models import Seat

    count = Seat.objects.filter(round__tournament__slug="feld").count()
    connection.close()
    return count


def run_crashes(url: str, work: Path, tokens: dict, crashes: int) -> bool:
    """Kill the server mid-load ``crashes`` times; after each kill every acknowledged row
    must be there and the database must be intact."""
    path = url.removeprefix("sqlite:///")
    rng = random.Random(7)
    acked_total, ok = 0, True
    for cycle in range(1, crashes + 1):
        server = Server(url, work, "IMMEDIATE")
        tally, stop = Tally(), threading.Event()
        from django.db import connection
        from django.db.models import Count

        from tournament.models import Table

        counts = Table.objects.filter(token__in=tokens["keepers"][:8]).annotate(n=Count("games"))
        nexts = {table.token: table.n + 1 for table in counts}
        connection.close()
        threads = [
            threading.Thread(target=_quiet_keeper, args=(server.base, t, tally, n, stop))
            for t, n in nexts.items()
        ]
        for thread in threads:
            thread.start()
        time.sleep(rng.uniform(0.8, 2.5))
        server.kill()
        stop.set()
        for thread in threads:
            thread.join()
        con = sqlite3.connect(path)
        integrity = con.execute("PRAGMA integrity_check").fetchone()[0]
        con.close()
        _count, ids = stored_rows(tokens["keepers"])
        missing = set(tally.acked) - ids
        acked_total += len(tally.acked)
        good = integrity == "ok" and not missing
        ok = ok and good
        print(f"  kill {cycle:2d}: {len(tally.acked):3d} saves acknowledged, "
              f"{len(missing)} missing, integrity_check {integrity}")  # fmt: skip
    print(f"  {crashes} kills, {acked_total} acknowledged saves in all: "
          f"{'every one stored' if ok else 'FAILED'}")  # fmt: skip
    return ok


def _quiet_keeper(base, token, tally, first, stop) -> None:
    # The server dies under the keeper: what was acknowledged is in the tally.
    with contextlib.suppress(OSError, http.client.HTTPException):
        keeper(base, token, tally, first, 10_000, stop)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--database", choices=["sqlite", "postgres"], default="sqlite")
    parser.add_argument("--sqlite-mode", choices=["IMMEDIATE", "DEFERRED"], default="IMMEDIATE")
    parser.add_argument("--crashes", type=int, default=0)
    parser.add_argument(
        "--expect-failure",
        action="store_true",
        help="exit 0 when the run fails (to show the harness can fail)",
    )
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="kreuzdame-stress-"))
    url = database_url(args.database, work, PG_NAME)
    mode = f", SQLite {args.sqlite_mode}" if args.database == "sqlite" else ""
    print(f"stress: {args.database}{mode}, gunicorn 4 workers, {KEEPERS} keepers x {SAVES} "
          f"saves + {EDITORS} editors x {RACES} races")  # fmt: skip
    try:
        tokens = prepare(url, args.database)
        ok = run_load(url, work, tokens, args.sqlite_mode)
        if ok:
            prepare_field()
            print(f"draw: a director draws {FIELD} players x {FIELD_ROUNDS} rounds while "
                  f"{KEEPERS} list keepers save")  # fmt: skip
            ok = run_draw(url, work, tokens)
        if ok and args.crashes:
            print(f"crash safety: SIGKILL in the middle of the load, {args.crashes} times")
            ok = run_crashes(url, work, tokens, args.crashes)
    finally:
        drop(args.database, PG_NAME)
        shutil.rmtree(work, ignore_errors=True)
    print("  result: " + ("PASSED" if ok else "FAILED"))
    if args.expect_failure:
        print("  (expected to fail: " + ("it did" if not ok else "it did NOT") + ")")
        return 0 if not ok else 1
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
