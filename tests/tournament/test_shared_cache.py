"""The cache the results service's processes share (tournament/base/caching.py, ``Shared``):
a page is computed once per state across processes; the hall's memo stays as it was."""

import re
import subprocess
import sys
import threading

import pytest
from django.core.cache import caches
from django.core.management import call_command
from django.db import connection
from django.urls import reverse

from tests.processes import settings_of
from tests.waiting import Notes
from tournament.base import caching
from tournament.base.caching import Memo, Shared, memo
from tournament.management.commands.demo import DEMO_SERIES_SLUG, DEMO_SLUG
from tournament.models import Entry, Series, Tournament
from tournament.queries import personal

DATABASE_CACHE = {
    "default": {
        "BACKEND": "django.core.cache.backends.db.DatabaseCache",
        "LOCATION": "kreuzdame_cache",
    }
}


@pytest.fixture
def database_cache(settings):
    """The site's default cache is Django's database cache, as with CACHE_BACKEND=database."""
    settings.CACHES = DATABASE_CACHE
    call_command("createcachetable", verbosity=0)
    caches["default"].clear()
    yield caches["default"]
    caches["default"].clear()


class Spy:
    """A cache that notes the locks it refused, so that a test knows a process waits."""

    def __init__(self, store, notes: Notes) -> None:
        self.store, self.notes, self.refused, self.read = store, notes, [], []

    def get(self, key, default=None):
        self.read.append(key)
        return self.store.get(key, default)

    def set(self, key, value, timeout):
        self.store.set(key, value, timeout)

    def delete(self, key):
        self.store.delete(key)

    def add(self, key, value, timeout):
        taken = self.store.add(key, value, timeout)
        if not taken:
            self.notes.add(self.refused, key)
        return taken


@pytest.mark.django_db(transaction=True)
def test_two_processes_compute_a_page_once_and_the_second_gets_the_firsts_value(
    database_cache,
):
    notes = Notes()
    first = Memo(shared=Shared(database_cache))
    spy = Spy(database_cache, notes)
    second = Memo(shared=Shared(spy))  # another process: its own memo, the same cache
    started, release, computed_by, answers = [], threading.Event(), [], {}

    def slow() -> str:
        notes.add(started)
        release.wait(30)
        notes.add(computed_by, "first")
        return "<table>Stand nach Runde 2</table>"

    def other() -> str:
        notes.add(computed_by, "second")
        return "computed twice"

    def ask(name, a_memo, compute) -> None:
        try:
            answers[name] = a_memo.get(("standings", 7, "de"), 42, compute)
        finally:
            connection.close()
            notes.tell()

    one = threading.Thread(target=ask, args=("first", first, slow))
    one.start()
    assert notes.wait_for(lambda: started)
    two = threading.Thread(target=ask, args=("second", second, other))
    two.start()
    assert notes.wait_for(lambda: spy.refused)  # the second found the first computing
    release.set()
    one.join(30)
    two.join(30)
    assert computed_by == ["first"]
    assert answers["first"] == answers["second"] == "<table>Stand nach Runde 2</table>"
    assert (first.computed, first.fetched, second.computed, second.fetched) == (1, 0, 0, 1)
    # The second process keeps the value itself: asking again costs no cache lookup.
    assert second.get(("standings", 7, "de"), 42, other) == answers["first"]
    assert second.fetched == 1 and computed_by == ["first"]


@pytest.mark.django_db
def test_a_lock_left_by_a_process_that_died_is_taken_over_at_once(database_cache):
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    family, state = ("table-plan", 3, "de"), 5
    shared = Shared(database_cache)
    lock = caching._key("memo-lock", (family, state))
    database_cache.add(lock, f"{shared.owner.split(':')[0]}:{child.pid}:1", 60)
    a_memo = Memo(shared=shared)
    assert a_memo.get(family, state, lambda: "Tischplan Runde 3") == "Tischplan Runde 3"
    assert a_memo.computed == 1
    assert database_cache.get(lock) is None  # and let go of it


@pytest.mark.django_db
def test_an_older_state_made_elsewhere_is_served_only_within_the_stale_time(database_cache):
    family = ("standings", 7, "de", True)
    Memo(shared=Shared(database_cache)).get(family, 1, lambda: "state 1")
    other = Memo(shared=Shared(database_cache))
    # Games come in: the standings of a moment ago are good enough for 60 seconds.
    assert other.get(family, 2, lambda: "state 2", stale=60) == "state 1"
    assert (other.computed, other.fetched) == (0, 1)
    # Kept here as state 1: a reader who needs state 2 now gets it computed.
    assert other.get(family, 2, lambda: "state 2") == "state 2"
    assert other.computed == 1
    assert Memo(shared=Shared(database_cache)).get(family, 2, lambda: "again") == "state 2"


@pytest.mark.django_db
def test_a_process_whose_state_moved_on_loads_no_value_of_the_old_one(database_cache):
    family = ("series-page", 1, 4, "de", ())
    Memo(shared=Shared(database_cache)).get(family, 1, lambda: "<table>" * 10_000)
    notes = Notes()
    spy = Spy(database_cache, notes)
    value_key = caching._key("memo", family)
    assert Memo(shared=Shared(spy)).get(family, 2, lambda: "new") == "new"
    assert value_key not in spy.read  # only its small state key


@pytest.mark.django_db
def test_a_value_not_to_share_stays_in_its_process(database_cache):
    family = ("statistics", 7, "de")
    first, second = Memo(shared=Shared(database_cache)), Memo(shared=Shared(database_cache))
    assert first.get(family, 1, lambda: "figures", share=False) == "figures"
    assert second.get(family, 1, lambda: "figures again", share=False) == "figures again"
    assert first.computed == second.computed == 1
    assert database_cache.get(caching._key("memo", family)) is None


class Broken:
    def __getattr__(self, name):
        def fail(*args, **kwargs):
            raise ConnectionError("Redis is not running")

        return fail


def test_a_cache_that_fails_costs_a_computation_never_the_page():
    a_memo = Memo(shared=Shared(Broken()))  # type: ignore[arg-type]
    assert a_memo.get(("participants", 1, "de"), 3, lambda: "Teilnehmer") == "Teilnehmer"
    assert a_memo.computed == 1


def test_a_failed_computation_lets_go_of_the_lock(settings):
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    store = caches["default"]
    a_memo = Memo(shared=Shared(store))

    def fails() -> str:
        raise ValueError("a bug")

    with pytest.raises(ValueError):
        a_memo.get(("statistics", 2, "en"), 9, fails)
    # The next reader (here or in any process) computes instead of waiting for a dead lock.
    assert Memo(shared=Shared(store)).get(("statistics", 2, "en"), 9, lambda: "ok") == "ok"


# --- the public pages ------------------------------------------------------------------

TOKEN = re.compile(r"[A-Za-z0-9]{64}")  # a CSRF token: new with every page


def public_pages() -> list[str]:
    tournament = Tournament.objects.get(slug=DEMO_SLUG)
    series = Series.objects.get(slug=DEMO_SERIES_SLUG)
    entry = tournament.entries.filter(publish=True).order_by("start_number").first()
    assert entry is not None
    player = entry.player_id
    return [
        reverse("home"),
        reverse("tournament-public", args=[DEMO_SLUG]),
        reverse("public-standings", args=[DEMO_SLUG]),
        reverse("public-standings", args=[DEMO_SLUG]) + "?sort=-total",
        reverse("public-table-plan", args=[DEMO_SLUG]),
        reverse("statistics", args=[DEMO_SLUG]),
        reverse("statistics-player", args=[DEMO_SLUG, entry.start_number]),
        reverse("statistics-day", args=[DEMO_SLUG]),
        reverse("series-public", args=[DEMO_SERIES_SLUG]),
        reverse("series-player", args=[series.slug, player]),
        reverse("series-statistics", args=[DEMO_SERIES_SLUG]),
        reverse("series-player-statistics", args=[DEMO_SERIES_SLUG, player]),
    ]


def read_pages(client, paths: list[str]) -> dict[str, str]:
    pages = {}
    for path in paths:
        response = client.get(path)
        assert response.status_code == 200, path
        pages[path] = TOKEN.sub("token", response.content.decode())
    return pages


# The figures and a series' table: graphs of objects that load slower than they compute
# (share=False); each process makes them only where it renders from them.
KEPT_IN_THE_PROCESS = {"statistics", "series", "series-statistics"}


@pytest.mark.django_db
def test_the_public_pages_are_computed_once_for_all_processes_and_show_the_same(
    client, settings, database_cache, monkeypatch
):
    call_command("demo", verbosity=0)
    paths = public_pages()
    settings.SHARED_CACHE = False
    alone = read_pages(client, paths)  # as the hall shows them

    memo.clear()
    settings.SHARED_CACHE = True
    made: list[str] = []
    original = memo.get

    def noting(family, state, compute, stale=0, share=True):
        def computing():
            made.append(family[0])
            return compute()

        return original(family, state, computing, stale, share)

    monkeypatch.setattr(memo, "get", noting)
    first = read_pages(client, paths)
    pages = set(made) - KEPT_IN_THE_PROCESS
    assert {"standings", "table-plan", "participants", "series-page"} <= pages
    made.clear()
    memo.clear()  # a second process: nothing of its own yet
    fetched = memo.fetched
    second = read_pages(client, paths)
    # ... finds every page in the shared cache, computes none of them again
    assert set(made) <= KEPT_IN_THE_PROCESS
    assert memo.fetched - fetched >= len(pages)
    assert alone == first == second

    # The players' own pages: their table's sheet and their rank.
    tournament = Tournament.objects.get(slug=DEMO_SLUG)
    entry = Entry.objects.filter(tournament=tournament, seats__isnull=False).first()
    assert entry is not None
    table = entry.seats.order_by("round__number").first().table
    made = (personal.sheet_of(table), personal.rank_of(entry))
    memo.clear()
    computed = memo.computed
    assert (personal.sheet_of(table), personal.rank_of(entry)) == made
    assert memo.computed == computed


# --- the settings -----------------------------------------------------------------------


def test_the_shared_cache_is_chosen_by_the_environment_and_never_in_the_hall(tmp_path):
    names = ("SHARED_CACHE", "CACHES")
    base = {"DEBUG": "1"}
    drop = ("CACHE_BACKEND", "REDIS_URL", "KREUZDAME_HALL")
    assert settings_of(*names, drop=drop, **base)["SHARED_CACHE"] is False
    database = settings_of(*names, drop=drop, **base, CACHE_BACKEND="database")
    assert database["SHARED_CACHE"] is True
    assert database["CACHES"]["default"]["BACKEND"].endswith("db.DatabaseCache")
    redis = settings_of(*names, drop=drop, **base, REDIS_URL="redis://127.0.0.1:6379/1")
    assert redis["CACHES"]["default"]["BACKEND"].endswith("redis.RedisCache")
    assert redis["CACHES"]["default"]["LOCATION"] == "redis://127.0.0.1:6379/1"
    hall = settings_of(
        *names,
        drop=drop + ("SECRET_KEY", "SITE_URL"),
        KREUZDAME_HALL="1",
        SECRET_KEY_FILE=str(tmp_path / "key"),
        CACHE_BACKEND="database",
    )
    assert hall["SHARED_CACHE"] is False
    assert hall["CACHES"]["default"]["BACKEND"].endswith("locmem.LocMemCache")


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"CACHE_BACKEND": "memcached"}, "CACHE_BACKEND='memcached' is unknown"),
        ({"CACHE_BACKEND": "redis"}, "CACHE_BACKEND=redis needs REDIS_URL"),
    ],
)
def test_a_wrong_cache_setting_stops_the_start_with_its_name(env, message):
    from tests.processes import read_settings

    result = read_settings("CACHES", drop=("CACHE_BACKEND", "REDIS_URL"), DEBUG="1", **env)
    assert result.returncode != 0
    assert message in result.stderr
