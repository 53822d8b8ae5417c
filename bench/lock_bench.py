"""How long the verbs hold SQLite's write lock: run `.venv/bin/python bench/lock_bench.py`.

SQLite has one writer at a time: while a verb's transaction runs (from ``BEGIN IMMEDIATE`` to
the end of ``COMMIT``), every list keeper's save waits. This builds a throw-away database (WAL,
as the site runs) and times every write transaction of these verbs for 1,000 players: the
import confirm of a 1,000-line file (all new players; then half of them known from the
director's earlier tournament), "all present", the waiting list (1,000 waiting move up when
the places are raised; one moved a place up), a draw, releasing and closing a round of 250
confirmed tables and saving a series of 50 tournaments. Prints per verb the longest
transaction (the lock a keeper may wait for), how many transactions it took and the verb's
whole time. Target: 200 ms each. Then eight confirms of 1,000 lines at once beside a desk
that checks a player in and out: errors (before: "database is locked") and the desk's wait.
"""

import datetime
import random
import statistics
import sys
import threading
import time
from contextlib import contextmanager

import throwaway_db  # bench/throwaway_db.py: the script's directory is on sys.path

throwaway_db.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.contrib.auth.models import Group  # noqa: E402
from django.db import connection  # noqa: E402

from tournament.domain import draw, player_import, registrations  # noqa: E402
from tournament.domain.entries import check_in_all, set_checked_in  # noqa: E402
from tournament.domain.series import save_series  # noqa: E402
from tournament.management.commands.hall import SWITCH_INTERVAL  # noqa: E402
from tournament.management.demo_games import play_sheet  # noqa: E402
from tournament.models import (  # noqa: E402
    Game,
    Registration,
    Series,
    Sheet,
    Tournament,
)
from tournament.models.audit import DIRECTOR_GROUP  # noqa: E402
from tournament.sheets import verbs  # noqa: E402

PLAYERS, KNOWN, TOURNAMENTS = 1000, 500, 50
NEW = 3 * PLAYERS  # names nobody has yet
TARGET_MS = 200
FIRST = ["Anna", "Bernd", "Carla", "Dieter", "Eva", "Frank", "Gisela", "Heinz", "Ilse", "Jörg"]
LAST = ["Müller", "Schäfer", "Weiß", "Groß", "Köhler", "Brandt", "Vogt", "Krüger", "Lang"]


class LockClock:
    """Times every transaction of the default connection, from BEGIN to the end of COMMIT
    (or ROLLBACK): the time SQLite's write lock is held under ``transaction_mode=IMMEDIATE``."""

    def __init__(self) -> None:
        self.spans: list[float] = []
        self._began: float | None = None
        begin = connection._start_transaction_under_autocommit
        commit, rollback = connection._commit, connection._rollback

        def timed_begin():
            self._began = time.perf_counter()
            begin()

        def ended(call):
            def end():
                try:
                    call()
                finally:
                    if self._began is not None:
                        self.spans.append(time.perf_counter() - self._began)
                        self._began = None

            return end

        connection._start_transaction_under_autocommit = timed_begin
        connection._commit, connection._rollback = ended(commit), ended(rollback)

    @contextmanager
    def verb(self, what: str):
        self.spans = []
        started = time.perf_counter()
        yield
        if not what:
            return
        whole = time.perf_counter() - started
        longest = max(self.spans, default=0.0) * 1000
        verdict = "ok" if longest <= TARGET_MS else f"MISSES the target of {TARGET_MS} ms"
        print(
            f"{what:<44} lock {longest:7.1f} ms longest, {len(self.spans):5d} transactions, "
            f"verb {whole:6.2f} s  {verdict}",
            flush=True,
        )


def name(i: int) -> tuple[str, str]:
    return f"{FIRST[i % len(FIRST)]}{i}", LAST[i % len(LAST)]


def csv_of(numbers) -> bytes:
    lines = ["Vorname;Nachname;Verein"]
    lines += [f"{name(i)[0]};{name(i)[1]};Club {i % 37}" for i in numbers]
    return "\n".join(lines).encode()


def new_tournament(slug: str, director, **fields) -> Tournament:
    tournament = Tournament.objects.create(
        name=slug, slug=slug, date=datetime.date(2026, 12, 12), **fields
    )
    tournament.directors.add(director)
    return tournament


def imported(tournament: Tournament, numbers, director, clock: LockClock, what: str) -> None:
    """Upload (parse) outside the clock, then time the confirm."""
    preview = player_import.parse_player_file(
        tournament, "spieler.csv", csv_of(numbers), director=director
    )
    assert preview.ok, preview.errors[:3]
    with clock.verb(what):
        player_import.apply_import(tournament, preview.rows, director=director)


def waiting_list(director, clock: LockClock) -> None:
    tournament = new_tournament(
        "warteliste", director, registration_open=True, registration_capacity=0
    )
    Registration.objects.bulk_create(
        Registration(
            tournament=tournament,
            first_name=name(i)[0],
            last_name=name(i)[1],
            club=f"Club {i % 37}",
            email=f"p{i}@example.org",
            consent="ok",
            position=i + 1,
            state="waiting",
        )
        for i in range(NEW, NEW + PLAYERS)
    )
    last = tournament.registrations.order_by("position").last()
    with clock.verb(f"waiting list: move one up ({PLAYERS} waiting)"):
        registrations.move(last, director, up=True)
    tournament.registration_capacity = PLAYERS
    tournament.save()
    with clock.verb(f"waiting list: {PLAYERS} move up"):
        moved = registrations.after_places_changed(tournament, user=director)
    assert len(moved) == PLAYERS, len(moved)
    details = registrations.Details("Neu", "Anmeldung", club="Club 1", email="neu@example.org")
    with clock.verb(f"online registration ({PLAYERS} registered)"):
        registrations.submit(tournament, details, consent="ok")


def played_round(tournament: Tournament, director, clock: LockClock) -> None:
    """Draw round 1, release it, fill every sheet with a valid Spielliste and confirm it."""
    with clock.verb(f"draw, {PLAYERS} players (solver 1 s)"):
        draw.draw(tournament, director, seed=7, time_limit=1.0)
    round_ = tournament.rounds.get(number=1)
    with clock.verb(f"release a round ({round_.tables.count()} tables)"):
        draw.release(round_, director)
    rng, profile, games = random.Random(5), tournament.profile, []
    for table in round_.tables.all():
        for number, game in enumerate(play_sheet(profile, table.size, rng), start=1):
            row = Game(table=table, number=number, kind=game.kind, soloist_position=game.soloist)
            for position, points in enumerate(game.points, start=1):
                setattr(row, f"p{position}", points)
            games.append(row)
    Game.objects.bulk_create(games, batch_size=2000)
    Sheet.objects.filter(table__round=round_).update(status="confirmed")
    with clock.verb(f"close a round ({round_.tables.count()} tables)"):
        verbs.close_round(round_, director)


def eight_at_once(director, entry) -> None:
    """Eight directors' browsers confirm a 1,000-line list each at once (threads, each with
    its own connection, as the hall server's threads), while a desk checks a player in and
    out every 50 ms: how long the confirms take, how many fail, how long the desk waits."""
    previews = []
    for n in range(8):
        tournament = new_tournament(f"acht-{n}", director)
        first = NEW + (n + 3) * PLAYERS
        content = csv_of(range(first, first + PLAYERS))
        preview = player_import.parse_player_file(tournament, "l.csv", content, director=director)
        previews.append((tournament, preview.rows))
    errors: list[str] = []
    waits: list[float] = []
    done = threading.Event()

    def confirm(tournament, rows) -> None:
        try:
            player_import.apply_import(tournament, rows, director=director)
        except Exception as exc:  # counted and printed: the figure is how many
            errors.append(f"{type(exc).__name__}: {exc}")
        finally:
            connection.close()

    def desk() -> None:
        checked = False
        while not done.is_set():
            checked = not checked
            started = time.perf_counter()
            try:
                set_checked_in(entry, checked, director)
            except Exception as exc:
                errors.append(f"desk {type(exc).__name__}: {exc}")
            waits.append(time.perf_counter() - started)
            time.sleep(0.05)
        connection.close()

    sys.setswitchinterval(SWITCH_INTERVAL)  # as `manage.py hall` serves
    keeper = threading.Thread(target=desk)
    threads = [threading.Thread(target=confirm, args=item) for item in previews]
    started = time.perf_counter()
    keeper.start()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    whole = time.perf_counter() - started
    done.set()
    keeper.join()
    complete = sum(t.entries.count() == PLAYERS for t, _rows in previews)
    print(
        f"8 confirms of {PLAYERS} lines at once: {whole:.2f} s, {complete} of 8 complete, "
        f"{len(errors)} errors; a check-in meanwhile ({len(waits)}): median "
        f"{statistics.median(waits) * 1000:.0f} ms, max {max(waits) * 1000:.0f} ms",
        flush=True,
    )
    for error in errors[:3]:
        print("   ", error[:200])


def main() -> int:
    director = get_user_model().objects.create_user("leitung")
    director.groups.add(Group.objects.get(name=DIRECTOR_GROUP))
    clock = LockClock()
    # Unmeasured: the first big write into a new database grows its files (the WAL from
    # nothing to megabytes: some 100 ms more once), as a site's database has long done.
    warm_up = new_tournament("aufwaermen", director)
    imported(warm_up, range(NEW + PLAYERS, NEW + 2 * PLAYERS), director, LockClock(), "")
    earlier = new_tournament("vorjahr", director)
    imported(earlier, range(PLAYERS), director, clock, f"import confirm, {PLAYERS} new players")
    big = new_tournament("gross", director, planned_rounds=4)
    imported(
        big,
        range(PLAYERS - KNOWN, 2 * PLAYERS - KNOWN),
        director,
        clock,
        f"import confirm, {PLAYERS} lines ({KNOWN} known)",
    )
    with clock.verb(f"all present ({PLAYERS} players)"):
        check_in_all(big, user=director)
    waiting_list(director, clock)
    played_round(big, director, clock)
    tournaments = [big, earlier] + [
        new_tournament(f"serie-{n}", director) for n in range(TOURNAMENTS - 2)
    ]
    with clock.verb(f"series save, {TOURNAMENTS} tournaments (new)"):
        saved = save_series(Series(name="Bench-Serie", slug="bench"), tournaments, director)
    with clock.verb(f"series save, {TOURNAMENTS} tournaments (changed)"):
        save_series(saved, list(reversed(tournaments[1:])), director)
    eight_at_once(director, big.entries.get(start_number=1))
    return 0


if __name__ == "__main__":
    throwaway_db.run(main)
