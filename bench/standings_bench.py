"""Standings and exports for a big field: run `.venv/bin/python bench/standings_bench.py`.

Builds a throw-away SQLite database with 400 players in 8 closed rounds of 100 four-tables,
every sheet a complete, valid 24-game Spielliste made by the rules engine (19,200 rows),
then times the standings page (median of 10 requests, and its query count against a field
of 40 players), the standings PDF and the Excel workbook. Targets (issue 33): the page
computed <= 30 ms median, the PDF <= 1.5 s (made by the worker, not in a request), xlsx < 1 s.

The end of the day (issue 38), with five prize categories and the players' attributes: the
prize page (median, queries against the small field), the public standings with the last two
rounds hidden, the payout sheet and the certificates of every player (worker documents).
"""

import datetime
import random
import statistics
import time

import throwaway_db  # bench/throwaway_db.py: the script's directory is on sys.path

throwaway_db.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.db import connection, transaction  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext, setup_test_environment  # noqa: E402

from tournament.base.caching import memo  # noqa: E402
from tournament.domain import prizes, results  # noqa: E402
from tournament.exports import certificates, documents, xlsx  # noqa: E402
from tournament.exports import prizes as payout  # noqa: E402
from tournament.management.demo_games import play_sheet  # noqa: E402
from tournament.models import Entry, Game, Player, Round, Seat, Sheet, Table, Tournament  # noqa: E402

PLAYERS, ROUNDS = 400, 8
PAGE_MS = 30  # the standings page computed (issue 33)
PRIZE_PAGE_MS = 100  # the prize page computed: the standings and the categories (issue 38)
PDF_SECONDS = 1.5


def build(slug: str, players: int, rounds: int, rng: random.Random) -> Tournament:
    tournament = Tournament.objects.create(
        name=f"Bench {players}", slug=slug, date=datetime.date(2026, 12, 5), planned_rounds=rounds
    )
    people = Player.objects.bulk_create(
        Player(first_name="Spieler", last_name=f"{slug}-{n:03d}", club=f"Club {n % 17}")
        for n in range(1, players + 1)
    )
    entries = Entry.objects.bulk_create(
        Entry(tournament=tournament, player=p, start_number=n)
        for n, p in enumerate(people, start=1)
    )
    profile = tournament.profile
    for number in range(1, rounds + 1):
        round_ = Round.objects.create(tournament=tournament, number=number, status="closed")
        order = entries[:]
        rng.shuffle(order)
        tables = Table.objects.bulk_create(
            Table(round=round_, number=t, size=4) for t in range(1, players // 4 + 1)
        )
        Sheet.objects.bulk_create(Sheet(table=table, status="confirmed") for table in tables)
        seats, games = [], []
        for t, table in enumerate(tables):
            for position, entry in enumerate(order[4 * t : 4 * t + 4], start=1):
                seats.append(Seat(round=round_, table=table, entry=entry, position=position))
            for g, game in enumerate(play_sheet(profile, 4, rng), start=1):
                p1, p2, p3, p4 = game.points
                row = Game(table=table, number=g, kind=game.kind, soloist_position=game.soloist)
                row.p1, row.p2, row.p3, row.p4 = p1, p2, p3, p4
                games.append(row)
        Seat.objects.bulk_create(seats)
        Game.objects.bulk_create(games, batch_size=2000)
        results.store_rounds([round_])  # what closing the round stores
    return tournament


def add_prizes(tournament: Tournament, user) -> None:
    """Five categories as a director makes them, and year of birth and sex of everybody."""
    entries = list(tournament.entries.order_by("start_number"))
    for entry in entries:
        entry.birth_year = 1940 + entry.start_number % 70
        entry.sex = "f" if entry.start_number % 3 == 0 else "m"
    Entry.objects.bulk_update(entries, ["birth_year", "sex"])
    for key in ("overall", "women", "seniors", "best-round", "best-five-table"):
        category = prizes.add_preset(tournament, key, user=user)
        first = category.prizes.count() + 1
        for place in range(first, first + 5):
            data = prizes.PrizeData(place, "amount", value=10)
            prizes.add_prize(category, data, user=user)


def main() -> int:
    setup_test_environment()
    rng = random.Random(1)
    started = time.perf_counter()
    with transaction.atomic():
        big = build("gross", PLAYERS, ROUNDS, rng)
        small = build("klein", 40, ROUNDS, rng)
    rows = Game.objects.filter(table__round__tournament=big).count()
    print(f"setup: {PLAYERS} players x {ROUNDS} rounds, {rows} game rows "
          f"({time.perf_counter() - started:.1f} s)")  # fmt: skip
    user = get_user_model().objects.create_superuser("bench")
    client = Client()
    client.force_login(user)

    def page(slug):
        memo.clear()  # computed, nothing kept from the request before
        with CaptureQueriesContext(connection) as queries:
            started = time.perf_counter()
            response = client.get(f"/manage/{slug}/standings/")
            seconds = time.perf_counter() - started
        assert response.status_code == 200
        return seconds, len(queries)

    page("gross")  # warm up
    timings = [page("gross")[0] for _ in range(10)]
    big_queries, small_queries = page("gross")[1], page("klein")[1]
    median = statistics.median(timings) * 1000
    print(f"standings page, {PLAYERS} players: median {median:.0f} ms  "
          f"{'ok' if median <= PAGE_MS else f'SLOW (target {PAGE_MS} ms)'}; queries: {big_queries} "
          f"(40 players: {small_queries})  "
          f"{'ok' if big_queries == small_queries else 'GROWS WITH THE FIELD'}")  # fmt: skip
    documents.standings_pdf(small)  # a server process has its fonts loaded already
    started, cpu = time.perf_counter(), time.process_time()
    pdf = documents.standings_pdf(big)
    seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
    print(f"standings PDF: {seconds:.2f} s (CPU {cpu:.2f} s), {len(pdf) // 1024} KiB  "
          f"{'ok' if seconds <= PDF_SECONDS else f'SLOW (target {PDF_SECONDS} s)'}")  # fmt: skip
    started = time.perf_counter()
    book = xlsx.workbook(big)
    seconds = time.perf_counter() - started
    print(f"standings xlsx (standings, 8 rounds, teams): {seconds:.2f} s, "
          f"{len(book) // 1024} KiB  {'ok' if seconds < 1 else 'SLOW (target 1 s)'}")  # fmt: skip
    end_of_the_day(client, user, big, small)
    return 0


def end_of_the_day(client, user, big, small) -> None:
    for tournament in (big, small):
        add_prizes(tournament, user)

    def timed(url):
        memo.clear()
        with CaptureQueriesContext(connection) as queries:
            started = time.perf_counter()
            response = client.get(url)
            seconds = time.perf_counter() - started
        assert response.status_code == 200, url
        return seconds, len(queries)

    timed("/manage/gross/prizes/")  # warm up
    median = statistics.median(timed("/manage/gross/prizes/")[0] for _ in range(10)) * 1000
    big_queries, small_queries = (
        timed("/manage/gross/prizes/")[1],
        timed("/manage/klein/prizes/")[1],
    )
    print(f"prize page, {PLAYERS} players, 5 categories: median {median:.0f} ms  "
          f"{'ok' if median <= PRIZE_PAGE_MS else f'SLOW (target {PRIZE_PAGE_MS} ms)'}; queries: "
          f"{big_queries} (40 players: {small_queries})  "
          f"{'ok' if big_queries == small_queries else 'GROWS WITH THE FIELD'}")  # fmt: skip
    Tournament.objects.filter(pk=big.pk).update(hide_standings_from=ROUNDS - 1, is_public=True)
    url = f"/t/{big.slug}/stand/"
    timed(url)
    median = statistics.median(timed(url)[0] for _ in range(10)) * 1000
    print(f"public standings, rounds {ROUNDS - 1}-{ROUNDS} hidden: median {median:.0f} ms")
    big.refresh_from_db()
    for name, make in [
        ("payout PDF", lambda: payout.payout_pdf(big)),
        ("payout xlsx", lambda: payout.payout_workbook(big)),
        (
            "certificates, every player",
            lambda: certificates.certificates_pdf(big, certificates.EVERYONE),
        ),
    ]:
        started, cpu = time.perf_counter(), time.process_time()
        data = make()
        seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
        print(f"{name}: {seconds:.2f} s (CPU {cpu:.2f} s), {len(data) // 1024} KiB")


if __name__ == "__main__":
    throwaway_db.run(main)
