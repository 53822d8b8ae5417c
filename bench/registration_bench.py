"""Online registration for a big tournament: run `.venv/bin/python bench/registration_bench.py`.

Builds a throw-away SQLite database: a director with an earlier tournament of 300 players (so
that registrations are recognised in the player database), and a new tournament with 200
places. Then 240 players register through the domain verb (``registrations.submit``, the same as the
public form after validation): 200 get a place, 40 go on the waiting list. Prints the median
and the slowest registration (target: median < 100 ms; each one reads the tournament's names
once to refuse duplicates, so it grows with the field), then 10 cancellations that each move
the first on the waiting list up, then the director's players page with 210 players (issue 33:
<= 200 ms): the process's first load, a load with no row kept, the whole page, the live poll
with the whole table (a page whose state the site does not know), the live poll after one
check-in (the changed row only, <= 50 ms) and when nothing changed (204), their queries
against the same page with 20 players (must not grow), and the treasurer's Excel list.
"""

import random
import statistics
import time

import throwaway_db  # bench/throwaway_db.py: the script's directory is on sys.path

throwaway_db.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.contrib.auth.models import Group  # noqa: E402
from django.core.cache import cache  # noqa: E402
from django.db import connection, reset_queries  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext, setup_test_environment  # noqa: E402
from django.urls import reverse  # noqa: E402

from tournament.domain import fees  # noqa: E402
from tournament.domain import registrations as registrations_domain  # noqa: E402
from tournament.domain.entries import register, set_checked_in  # noqa: E402
from tournament.models import FeeStatus, Tournament  # noqa: E402
from tournament.models.audit import DIRECTOR_GROUP  # noqa: E402
from tournament.queries.players import PlayerData  # noqa: E402

KNOWN, PLACES, REGISTRATIONS, CANCELLATIONS, REQUESTS = 300, 200, 240, 10, 15
REGISTER_MS, PAGE_MS, POLL_MS = 100, 200, 50
FIRST = ["Anna", "Bernd", "Carla", "Dieter", "Eva", "Frank", "Gisela", "Heinz", "Ilse", "Jörg"]
LAST = ["Müller", "Schäfer", "Weiß", "Groß", "Köhler", "Brandt", "Vogt", "Krüger", "Lang"]


def verdict(ok: bool, target: str) -> str:
    return f"ok (< {target})" if ok else f"MISSES the target of {target}"


def name(i: int) -> tuple[str, str]:
    return f"{FIRST[i % len(FIRST)]}{i}", LAST[i % len(LAST)]


def build_field(director) -> Tournament:
    earlier = Tournament.objects.create(name="Vorjahr", slug="vorjahr", date="2025-11-01")
    earlier.directors.add(director)
    for i in range(KNOWN):
        register(earlier, PlayerData(*name(i), club="DSC Bench"), director=director)
    tournament = Tournament.objects.create(
        name="Großes Turnier",
        slug="gross",
        date="2026-12-12",
        is_public=True,
        registration_open=True,
        registration_capacity=PLACES,
        entry_fee="10.00",
    )
    tournament.directors.add(director)
    return tournament


def registrations(tournament: Tournament) -> None:
    durations = []
    for i in range(REGISTRATIONS):
        first, last = name(i * 7 % (KNOWN + 100))  # some known, some new
        details = registrations_domain.Details(
            first, last, club="DSC Bench", email=f"p{i}@example.org"
        )
        started = time.perf_counter()
        registrations_domain.submit(tournament, details, consent="ok")
        durations.append((time.perf_counter() - started) * 1000)
    median, slowest = statistics.median(durations), max(durations)
    waiting = registrations_domain.waiting_list(tournament).count()
    print(f"{REGISTRATIONS} registrations for {PLACES} places ({waiting} waiting): "
          f"median {median:.1f} ms, slowest {slowest:.1f} ms  "
          f"{verdict(median < REGISTER_MS, f'{REGISTER_MS} ms')}")  # fmt: skip
    confirmed = tournament.registrations_domain.filter(state="confirmed").order_by("position")
    durations = []
    for registration in list(confirmed[:CANCELLATIONS]):
        started = time.perf_counter()
        registrations_domain.cancel(registration)
        durations.append((time.perf_counter() - started) * 1000)
    print(f"{CANCELLATIONS} cancellations, each moving the waiting list up: median "
          f"{statistics.median(durations):.1f} ms "
          f"({registrations_domain.waiting_list(tournament).count()} still waiting)")  # fmt: skip


def timed(client: Client, url: str, **headers) -> tuple[float, int, int, float]:
    """Wall milliseconds, queries, status and CPU milliseconds of one request (the CPU time
    says more than the wall time on a machine shared with other work)."""
    reset_queries()  # the log keeps 9,000 queries: a full one would count none
    with CaptureQueriesContext(connection) as queries:
        started, cpu = time.perf_counter(), time.process_time()
        response = client.get(url, headers=headers)
        seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
    assert response.status_code in (200, 204), (url, response.status_code)
    return seconds * 1000, len(queries), response.status_code, cpu * 1000


def medians(samples) -> tuple[float, float]:
    return statistics.median(s[0] for s in samples), statistics.median(s[3] for s in samples)


def players_page(client: Client, big: Tournament, small: Tournament, director) -> bool:
    """The players page and its live poll; False when the queries grow with the field."""
    constant = True
    url, small_url = (reverse("manage:entry-list", args=[t.slug]) for t in (big, small))
    cache.clear()
    ms, _q, _s, cpu = timed(client, url)
    print(f"players page, the process's first load (templates compiled, no row kept): "
          f"{ms:.0f} ms (CPU {cpu:.0f} ms)")  # fmt: skip
    samples = []
    for _ in range(5):
        cache.clear()
        samples.append(timed(client, url))
    median, cpu = medians(samples)
    print(f"players page, no row kept (all {big.entries.count()} rendered): median {median:.0f} ms "
          f"(CPU {cpu:.0f} ms)  {verdict(median < PAGE_MS, f'{PAGE_MS} ms')}")  # fmt: skip
    for what, headers in (
        ("whole page", {}),
        ("live poll, page state unknown (whole table)", {"HX-Request": "true"}),
    ):
        timed(client, url, **headers)  # warm up (rows rendered and kept)
        timed(client, small_url, **headers)
        median, cpu = medians([timed(client, url, **headers) for _ in range(REQUESTS)])
        queries = timed(client, url, **headers)[1]
        same = queries == timed(client, small_url, **headers)[1]
        constant &= same
        target = PAGE_MS if what == "whole page" else POLL_MS
        print(f"players page, {what}, {big.entries.count()} players: median {median:.0f} ms "
              f"(CPU {cpu:.0f} ms)  {verdict(median < target, f'{target} ms')}; queries {queries} "
              f"(20 players: the same {'ok' if same else 'GROWS WITH THE FIELD'})")  # fmt: skip
    # The poll as the open page sends it: its state back. Something changed since (one player
    # checked in at another desk): the counts, the missing list and that one row.
    state = client.get(url).context["live_state"]
    samples = []
    for entry in list(big.entries.filter(status="active", checked_in=False)[:REQUESTS]):
        set_checked_in(entry, True, director)
        sample = timed(client, url, **{"HX-Request": "true", "X-Players-State": state})
        assert sample[2] == 200
        state = client.get(url, headers={"HX-Request": "true", "X-Players-State": state}).context[
            "live_state"
        ]
        samples.append(sample)
    median, cpu = medians(samples)
    print(f"live poll, one check-in since the last (that row only): median {median:.0f} ms "
          f"(CPU {cpu:.0f} ms)  {verdict(median < POLL_MS, f'{POLL_MS} ms')}")  # fmt: skip
    # Nothing changed since the last poll: the page answers 204 without the table.
    headers = {"HX-Request": "true", "X-Players-State": state}
    samples = [timed(client, url, **headers) for _ in range(REQUESTS)]
    assert {sample[2] for sample in samples} == {204}
    median, cpu = medians(samples)
    print(f"live poll, nothing changed (204): median {median:.0f} ms (CPU {cpu:.0f} ms)")
    return constant


def main() -> int:
    setup_test_environment()
    director = get_user_model().objects.create_user("leitung-bench")
    director.groups.add(Group.objects.get_or_create(name=DIRECTOR_GROUP)[0])
    big = build_field(director)
    registrations(big)
    small = Tournament.objects.create(
        name="Klein", slug="klein", date="2026-12-13", is_public=True, registration_open=True,
        registration_capacity=PLACES, entry_fee="10.00",
    )  # fmt: skip
    small.directors.add(director)
    for i in range(20):
        details = registrations_domain.Details(f"K{i}", "Klein", email=f"k{i}@example.org")
        registrations_domain.submit(small, details, consent="ok")
    fees.set_fee(small.entries.first(), FeeStatus.PAID, director)
    rng = random.Random(1)
    for entry in big.entries.all():
        fee = rng.choice([FeeStatus.PAID, FeeStatus.OPEN, FeeStatus.WAIVED])
        if fee != FeeStatus.OPEN:
            fees.set_fee(entry, fee, director)
    client = Client()
    client.force_login(director)
    constant = players_page(client, big, small, director)
    ms, queries, _status, _cpu = timed(client, reverse("manage:entry-fees-export", args=[big.slug]))
    print(f"treasurer's Excel list, {big.entries.count()} players: {ms:.0f} ms, {queries} queries")
    # Times depend on the machine; a query count that grows with the field is a bug.
    return 0 if constant else 1


if __name__ == "__main__":
    throwaway_db.run(main)
