"""A big series: run `.venv/bin/python bench/series_bench.py`.

Builds a throw-away SQLite database with a series of 50 finished tournaments: a pool of 300
players, each tournament seating 200 of them at 50 four-tables in 3 closed rounds — 10,000
results, 30,000 player rounds. Each sheet holds the first four games of an engine-made
Spielliste (zero-sum, valid kinds and soloists), taken from a pool of such sheets so that
the setup stays fast; every tournament has a few signed penalties, and an unsigned and a
revoked one that must not count. Everything is written with bulk_create, then each closed
round's results are stored as closing it stores them (``domain.results``).

Then times ``compute()`` for each scoring method (target 150 ms), the public series page
(median of 15 requests computed each time, its query count against a series of 2
tournaments: it must not grow; then from the minute's cache), the page of the player with
the most tournaments, and the series PDF. Targets: page < 200 ms median with a constant
number of queries (a count that grows fails the run), PDF < 3 s. A page that misses the
target prints a profile of one more request (the project's functions by cumulative time,
then the functions that spend it); a PDF that misses it, too slow to profile within
`make bench`, prints its parts: compute, the rows, the template, WeasyPrint.
"""

import cProfile
import datetime
import io
import pstats
import random
import re
import statistics
import time

import throwaway_db  # bench/throwaway_db.py: the script's directory is on sys.path

throwaway_db.setup()

from django.conf import settings  # noqa: E402
from django.contrib.auth import get_user_model  # noqa: E402
from django.core.cache import cache  # noqa: E402
from django.db import connection, transaction  # noqa: E402
from django.test import Client, override_settings  # noqa: E402
from django.test.utils import CaptureQueriesContext, setup_test_environment  # noqa: E402
from django.urls import reverse  # noqa: E402
from django.utils import timezone  # noqa: E402

from scoring.penalties import Category, PenaltyCase, distribute  # noqa: E402
from tournament.base.caching import memo  # noqa: E402
from tournament.domain import results  # noqa: E402
from tournament.exports import series as series_rows  # noqa: E402
from tournament.management.demo_games import play_sheet  # noqa: E402
from tournament.models import (  # noqa: E402
    Entry,
    Game,
    Penalty,
    Player,
    Round,
    Seat,
    Series,
    SeriesMethod,
    Sheet,
    Table,
    Tournament,
)
from tournament.queries import series as series_domain  # noqa: E402

POOL, TOURNAMENTS, FIELD, ROUNDS, GAMES = 300, 50, 200, 3, 4
SHEETS = 300  # engine-made sheets the tables draw their games from
PENALTIES = 8  # signed penalties per tournament (plus one unsigned, one revoked)
MIN_ROUNDS = 100  # of about 100 a player plays (200 of 300 seated, 50 x 3 rounds)
PAGE_MS, PDF_S = 200, 3
COMPUTE_MS = 150  # the series' table computed from the stored results (issue 33)
REQUESTS = 15
# In a page's profile: the project's code and the template engine's entry point.
PROFILED = r"/tournament/(?!debug_guard)|template/(loader|response)\.py"
# pstats' table: the header and one row per function (not its summary lines).
TABLE_ROW = re.compile(r"\s*(ncalls|[\d/]+\s+[\d.]+\s)")


# --- the data -------------------------------------------------------------------------


def sheet_pool(rng: random.Random) -> list[list[tuple]]:
    """Game rows (number, kind, soloist, points) of the first GAMES games of engine-made
    four-table sheets."""
    profile = Tournament(rule_profile="ddv").profile
    pool = []
    for _ in range(SHEETS):
        games = play_sheet(profile, 4, rng, GAMES)
        pool.append([(n, g.kind, g.soloist, g.points) for n, g in enumerate(games, start=1)])
    return pool


def penalties_of(tournament, tables, seats, referee, rng) -> list[Penalty]:
    """PENALTIES signed geringfügig penalties in normal games (the offender -3, the others
    +1, as the rules engine distributes them), then an unsigned draft and a revoked one,
    which the series must not count."""
    now = timezone.now()
    penalties = []
    for number, table in enumerate(rng.sample(tables, PENALTIES + 2), start=1):
        offender = rng.randint(1, 4)
        row = distribute(tournament.profile, PenaltyCase(4, offender, Category.GERINGFUEGIG))
        entry = next(s.entry for s in seats if s.table is table and s.position == offender)
        penalty = Penalty(
            table=table, tournament=tournament, number=number,
            game_number=rng.randint(1, GAMES), offender=entry, offender_position=offender,
            category=Category.GERINGFUEGIG, entered_by=referee, referee=referee, signed_at=now,
        )  # fmt: skip
        penalty.p1, penalty.p2, penalty.p3, penalty.p4 = row
        if number == PENALTIES + 1:
            penalty.referee = penalty.signed_at = None
        elif number == PENALTIES + 2:
            penalty.revoked_by, penalty.revoked_at = referee, now
        penalties.append(penalty)
    return penalties


def build_tournament(number: int, players: list[Player], sheets, referee, rng) -> Tournament:
    """One finished tournament: FIELD players of the pool, shuffled anew for each of its
    ROUNDS closed rounds, every sheet confirmed."""
    tournament = Tournament.objects.create(
        name=f"Serienturnier {number:02d}", slug=f"serie-{number:02d}",
        date=datetime.date(2025, 1, 4) + datetime.timedelta(weeks=2 * number),
        planned_rounds=ROUNDS, is_public=True,
    )  # fmt: skip
    entries = Entry.objects.bulk_create(
        Entry(tournament=tournament, player=player, start_number=n, checked_in=True)
        for n, player in enumerate(rng.sample(players, FIELD), start=1)
    )
    rounds = Round.objects.bulk_create(
        Round(tournament=tournament, number=n, status="closed") for n in range(1, ROUNDS + 1)
    )
    tables = Table.objects.bulk_create(
        Table(round=round_, number=t, size=4) for round_ in rounds for t in range(1, FIELD // 4 + 1)
    )
    Sheet.objects.bulk_create(Sheet(table=table, status="confirmed") for table in tables)
    seats, games = [], []
    for round_ in rounds:
        order = entries[:]
        rng.shuffle(order)
        mine = [table for table in tables if table.round_id == round_.pk]
        for t, table in enumerate(mine):
            for position, entry in enumerate(order[4 * t : 4 * t + 4], start=1):
                seats.append(Seat(round=round_, table=table, entry=entry, position=position))
            for n, kind, soloist, points in rng.choice(sheets):
                game = Game(table=table, number=n, kind=kind, soloist_position=soloist)
                game.p1, game.p2, game.p3, game.p4 = points
                games.append(game)
    Seat.objects.bulk_create(seats, batch_size=2000)
    Game.objects.bulk_create(games, batch_size=2000)
    Penalty.objects.bulk_create(penalties_of(tournament, tables, seats, referee, rng))
    results.store_rounds(rounds)  # what closing each round stores
    return tournament


def build(rng: random.Random, referee) -> tuple[Series, Series]:
    """The big series and a small one of its first two tournaments, both public."""
    players = Player.objects.bulk_create(
        Player(first_name=f"Vorname {n % 41}", last_name=f"Spieler {n:03d}",
               club=f"Club {n % 23}", name_key=f"vorname {n % 41} spieler {n:03d}")
        for n in range(1, POOL + 1)
    )  # fmt: skip
    sheets = sheet_pool(rng)
    tournaments = [build_tournament(n, players, sheets, referee, rng) for n in range(TOURNAMENTS)]
    # Average per round, ranked from MIN_ROUNDS rounds on: part of the pool is listed apart.
    big = Series.objects.create(
        name="Rangliste", slug="rangliste", description=f"{TOURNAMENTS} Turniere", is_public=True,
        method=SeriesMethod.AVERAGE, min_rounds=MIN_ROUNDS, tiebreak="rounds,tournaments",
    )  # fmt: skip
    big.tournaments.set(tournaments)
    small = Series.objects.create(
        name="Klein", slug="klein", is_public=True, method=SeriesMethod.AVERAGE, min_rounds=4,
        tiebreak="rounds,tournaments",
    )  # fmt: skip
    small.tournaments.set(tournaments[:2])
    return big, small


# --- the measurements -----------------------------------------------------------------


def timed(client: Client, url: str) -> tuple[float, int, bytes]:
    """(seconds, queries, body) of one GET."""
    with CaptureQueriesContext(connection) as queries:
        started = time.perf_counter()
        response = client.get(url)
        seconds = time.perf_counter() - started
    assert response.status_code == 200, (url, response.status_code)
    body = b"".join(response.streaming_content) if response.streaming else response.content
    return seconds, len(queries), body


def median_ms(client: Client, url: str, *, computed: bool = False) -> float:
    """The median of REQUESTS GETs; ``computed``: each with nothing kept from before (the
    memo of computed pages emptied, tournament/base/caching.py)."""

    def one() -> float:
        if computed:
            memo.clear()
        return timed(client, url)[0]

    return statistics.median(one() for _ in range(REQUESTS)) * 1000


def page(client: Client, what: str, url: str, small_url: str) -> bool:
    """``url`` computed for every request (the cache off: the figure the target is about,
    what a visitor waits once the cached page expires) — the median of REQUESTS GETs, its
    queries against ``small_url``'s (the same page for the series of 2 tournaments), a
    profile when the target is missed — then served from the SERIES_CACHE_SECONDS cache.
    False when the queries grow with the series."""
    with override_settings(SERIES_CACHE_SECONDS=0):
        timed(client, url)  # warm up
        median = median_ms(client, url, computed=True)
        memo.clear()
        queries = timed(client, url)[1]
        memo.clear()
        small = timed(client, small_url)[1]
        print(f"{what}, computed: median {median:.0f} ms  "
              f"{verdict(median < PAGE_MS, f'{PAGE_MS} ms')}; queries: {queries} "
              f"(2 tournaments: {small})  "
              f"{'ok' if queries == small else 'GROWS WITH THE SERIES'}")  # fmt: skip
        if median >= PAGE_MS:
            memo.clear()
            print(profile_of(lambda: client.get(url)))
    cache.clear()
    memo.clear()
    filling = timed(client, url)[0] * 1000
    cached = median_ms(client, url)
    print(f"{what}, cached for {settings.SERIES_CACHE_SECONDS} s: median {cached:.0f} ms "
          f"(the request that fills it: {filling:.0f} ms)")  # fmt: skip
    return queries == small


def profile_of(call, lines: int = 10) -> str:
    """What dominates one more run of ``call``: the project's functions by cumulative time,
    then the functions that spend the time themselves."""
    profiler = cProfile.Profile()
    profiler.runcall(call)
    report = []
    for title, order, restrictions in (
        ("the project's functions, by cumulative time", "cumulative", (PROFILED, lines)),
        ("the functions that spend the time themselves", "tottime", (lines,)),
    ):
        out = io.StringIO()
        pstats.Stats(profiler, stream=out).sort_stats(order).print_stats(*restrictions)
        rows = [line for line in out.getvalue().splitlines() if TABLE_ROW.match(line)]
        report += [f"    {title}:", *(line.replace(f"{throwaway_db.ROOT}/", "") for line in rows)]
    return "\n".join(report)


def verdict(ok: bool, target: str) -> str:
    return "ok" if ok else f"SLOW (target {target})"


def compute_figures(series: Series) -> None:
    """compute() for each scoring method (median of 3; MIN_ROUNDS only for the average)."""
    for method in SeriesMethod:
        series.method, series.best_of = method, 10 if method == SeriesMethod.BEST else None
        series.placement_points = "25, 20, 16, 13, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1"
        series.min_rounds = MIN_ROUNDS if method == SeriesMethod.AVERAGE else 0
        series_domain.compute(series)  # warm up
        times = []
        for _ in range(3):
            started = time.perf_counter()
            standings = series_domain.compute(series)
            times.append(time.perf_counter() - started)
        median = statistics.median(times) * 1000
        print(f"compute(), {method.value:<9}: {median:.0f} ms "
              f"({len(standings.lines)} ranked, {len(standings.below_minimum)} below the "
              f"minimum)  {verdict(median <= COMPUTE_MS, f'{COMPUTE_MS} ms')}")  # fmt: skip
    series.refresh_from_db()


def pdf_figures(client: Client, big: Series, small: Series) -> None:
    """The PDF through its URL, once (a server process has its fonts loaded: the small
    series' PDF first). Missed: its parts — compute and the rows timed before it (after
    WeasyPrint the collector makes them look slower than they are), the template's time
    taken from the run itself, WeasyPrint the rest."""
    from tournament.exports import pdf

    started = time.perf_counter()
    standings = series_domain.compute(big)
    computing = time.perf_counter() - started
    started = time.perf_counter()
    series_rows.series_rows(standings)
    series_rows.below_rows(standings)
    every = standings.lines + standings.below_minimum
    results = series_rows.result_rows(standings, every, with_player=True)
    rows = time.perf_counter() - started

    templates = []
    render_to_string = pdf.render_to_string

    def template(*args, **kwargs):
        started = time.perf_counter()
        html = render_to_string(*args, **kwargs)
        templates.append((time.perf_counter() - started, len(html)))
        return html

    timed(client, reverse("series-export", kwargs={"slug": small.slug, "fmt": "pdf"}))
    pdf.render_to_string = template
    try:
        url = reverse("series-export", kwargs={"slug": big.slug, "fmt": "pdf"})
        seconds, _queries, body = timed(client, url)
    finally:
        pdf.render_to_string = render_to_string
    assert body.startswith(b"%PDF"), "no PDF (is WeasyPrint installed?)"
    print(f"series PDF: {seconds:.2f} s, {len(body) // 1024} KiB  "
          f"{verdict(seconds < PDF_S, f'{PDF_S} s')}")  # fmt: skip
    if seconds >= PDF_S:
        html_seconds, html_size = templates[-1]
        rest = seconds - computing - rows - html_seconds
        print(f"    of which: compute {computing:.2f} s, the rows {rows:.2f} s "
              f"({len(results.rows)} results listed), the template {html_seconds:.2f} s "
              f"({html_size / 1e6:.1f} MB of HTML), WeasyPrint {rest:.1f} s")  # fmt: skip


def main() -> int:
    setup_test_environment()
    referee = get_user_model().objects.create_user("schiri-bench")
    started = time.perf_counter()
    with transaction.atomic():
        big, small = build(random.Random(1), referee)
    print(f"setup: {TOURNAMENTS} tournaments x {FIELD} players of {POOL}: "
          f"{Entry.objects.count()} results, {Seat.objects.count()} player rounds, "
          f"{Game.objects.count()} game rows ({time.perf_counter() - started:.1f} s)")  # fmt: skip
    compute_figures(big)
    client = Client()
    public = [reverse("series-public", args=[series.slug]) for series in (big, small)]
    constant = page(client, f"public series page, {TOURNAMENTS} tournaments", *public)
    standings = series_domain.compute(big)
    busiest = max(standings.lines, key=lambda line: len(line.results)).player.pk
    somebody = next(iter(series_domain.compute(small).players))
    constant &= page(client, "player page, the player with the most tournaments",
                     reverse("series-player", args=[big.slug, busiest]),
                     reverse("series-player", args=[small.slug, somebody]))  # fmt: skip
    pdf_figures(client, big, small)
    # Times depend on the machine; a query count that grows with the series is a bug.
    return 0 if constant else 1


if __name__ == "__main__":
    throwaway_db.run(main)
