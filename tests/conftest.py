import inspect
import os
import signal

import pytest

# Documents are made in the request in tests (no worker runs): read by tournament/settings.py
# when pytest-django loads it, and by the servers the browser tests start.
os.environ.setdefault("TASKS_IMMEDIATE", "1")

from tests import factories

# A test that migrates the database back and forth (tests/migrations.py or Django's executor).
MIGRATING = ("migrate_to", "migrated_back", "_migrate(", "MigrationExecutor")


def pytest_configure(config):
    config.addinivalue_line(
        "markers",
        "migrations: migrates the test database back and forth (set by tests/conftest.py); "
        "CI runs these round trips on SQLite only",
    )


# Tests that never open a database: CI runs them on SQLite only (.ci/run), so a database test
# among them would miss PostgreSQL. Collection stops when one asks for the database.
PURE = ("tests/tournament/seating/", "tests/scoring/")
DATABASE_FIXTURES = {"db", "transactional_db", "django_db_setup", "_django_db_helper"}


def pytest_collection_modifyitems(items):
    for item in items:
        if item.nodeid.startswith(PURE) and (
            item.get_closest_marker("django_db") or DATABASE_FIXTURES & set(item.fixturenames)
        ):
            raise pytest.UsageError(
                f"{item.nodeid} uses the database, but the tests in {', '.join(PURE)} must "
                "not: CI runs them on SQLite only. Move the test elsewhere."
            )
        function = getattr(item, "function", None)
        try:
            source = inspect.getsource(function) if function is not None else ""
        except (OSError, TypeError):
            continue
        if any(name in source for name in MIGRATING):
            item.add_marker(pytest.mark.migrations)


def pytest_terminal_summary(terminalreporter, config):
    """The order of this run, beside its results: pytest-randomly (requirements-dev.txt)
    shuffles modules and tests on every run; the seed gives the same order again."""
    seed = getattr(config.option, "randomly_seed", None)
    if isinstance(seed, int) and config.getoption("randomly_reorganize", True):
        terminalreporter.write_line(
            f"Random test order: run it again with --randomly-seed={seed}"
            " (the fixed order: -p no:randomly)"
        )


@pytest.fixture
def director_user(db):
    return factories.director(username="leiterin")


@pytest.fixture
def tournament(director_user):
    return factories.TournamentFactory(
        name="Herbstturnier", slug="herbst", directors=[director_user]
    )


@pytest.fixture
def director_client(client, director_user):
    client.force_login(director_user)
    return client


@pytest.fixture(autouse=True)
def backups_in_tmp(settings, tmp_path):
    """Backups (e.g. the automatic one when a round is closed) go to the test's own folder."""
    settings.BACKUP_DIR = tmp_path / "backups"
    return settings.BACKUP_DIR


@pytest.fixture(autouse=True)
def documents_in_tmp(settings, tmp_path):
    """Documents are made at once (immediate task backend) into the test's own folder; a
    drawn round's print pack is not made unasked (tests/tournament/test_documents.py turns
    it on)."""
    settings.TASKS = {
        "default": {
            "BACKEND": "django_tasks.backends.immediate.ImmediateBackend",
            "QUEUES": ["documents", "mail"],
        }
    }
    settings.DOCUMENTS_DIR = tmp_path / "documents"
    settings.PRINT_PACK_ON_DRAW = False
    return settings.DOCUMENTS_DIR


@pytest.fixture(autouse=True)
def fresh_standings(settings):
    """Tests see every change at once (tests/tournament/exports/test_standings.py checks
    the cache)."""
    settings.STANDINGS_CACHE_SECONDS = 0
    settings.SERIES_CACHE_SECONDS = 0


@pytest.fixture(autouse=True)
def empty_memo():
    """Each test starts with nothing computed: a database emptied after a test numbers its
    rows and versions from the start again, so a value kept from the test before could
    match a new state (tournament/base/caching.py)."""
    from django.core.cache import cache

    from tournament.base.caching import memo
    from tournament.sheets.codes import new_browsers
    from tournament.tasks.documents import downloads

    memo.clear()
    # Django's cache too (the players page keeps its rows' states there, by the tournament's
    # id): after a flush PostgreSQL numbers the ids from the start again.
    cache.clear()
    downloads.clear()  # the anonymous downloads counted per address, in memory
    new_browsers.clear()  # the table browsers' cookies given per table and address


@pytest.fixture(autouse=True)
def fast_passwords(settings):
    """Tests create many accounts: a fast hasher (never in production settings)."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def default_language():
    """Every test starts in the site's default language (German). A request in English
    (the language cookie) leaves English active in its thread, and a test that renders
    without a request (a command, a mail) would otherwise inherit it from the test before."""
    from django.conf import settings
    from django.utils import translation

    translation.activate(settings.LANGUAGE_CODE)
    yield
    translation.deactivate()


@pytest.fixture
def database_queue(settings, monkeypatch):
    """The queue in the database, as on the day: a request only writes the task; the test
    runs the worker (``manage.py worker --batch``) when it wants the queue worked off."""
    from django.core.management import call_command

    from tournament.management.commands import worker as worker_command

    # The worker closes its connections between tasks: the test's database must stay open.
    for module in ("django_tasks_db.management.commands.db_worker", worker_command.__name__):
        monkeypatch.setattr(f"{module}.close_old_connections", lambda: None)
    settings.TASKS = {
        "default": {"BACKEND": "django_tasks_db.DatabaseBackend", "QUEUES": ["documents", "mail"]}
    }
    settings.WORKER_NICE = 0  # the test process itself runs the worker

    def run_worker(**options):
        handlers = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)}
        try:
            call_command("worker", verbosity=0, **{"batch": True, **options})
        finally:
            for number, handler in handlers.items():
                signal.signal(number, handler)

    return run_worker
