"""Settings: SQLite tuned for concurrent writers, production hardening, migrations, demo."""

import datetime
from decimal import Decimal
from fractions import Fraction

import pytest
from django.conf import settings
from django.contrib.auth.models import Group
from django.core.management import call_command
from django.db import connection
from django.urls import reverse
from django.utils import timezone

from tests.processes import run_python
from tournament.domain import registrations as registrations_domain
from tournament.management.commands.demo import (
    DEMO_FIXTURE,
    DEMO_SERIES_SLUG,
    DEMO_SLUG,
    UPCOMING_SLUG,
)
from tournament.models import Entry, Game, RegistrationState, Series, SeriesMethod, Tournament
from tournament.models.audit import DIRECTOR_GROUP, REFEREE_GROUP
from tournament.permissions import is_director
from tournament.queries import registrations as registrations_queries
from tournament.queries import series as series_domain
from tournament.queries import sheets as reads
from tournament.queries.fees import fee_sums
from tournament.queries.registrations import waiting_position


@pytest.mark.django_db
def test_sqlite_runs_in_wal_mode_with_full_sync_and_a_busy_timeout():
    if connection.vendor != "sqlite":
        pytest.skip("SQLite settings; this run uses " + connection.vendor)
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA journal_mode")
        assert cursor.fetchone()[0] == "wal"
        cursor.execute("PRAGMA synchronous")
        assert cursor.fetchone()[0] == 2  # FULL
        cursor.execute("PRAGMA busy_timeout")
        assert cursor.fetchone()[0] >= 5000
    assert settings.DATABASES["default"]["OPTIONS"]["transaction_mode"] == "IMMEDIATE"


def test_the_site_speaks_german_in_berlin_by_default():
    assert settings.LANGUAGE_CODE == "de"
    assert settings.TIME_ZONE == "Europe/Berlin"
    assert "django.middleware.locale.LocaleMiddleware" in settings.MIDDLEWARE


def run_manage(*args, **env):
    return run_python("manage.py", *args, **env)


def test_production_settings_pass_the_deploy_check():
    result = run_manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        DEBUG="0",
        SECRET_KEY="k" * 20 + "production-secret-not-in-the-repo-0123456789",
        ALLOWED_HOSTS="kreuzdame.example",
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_production_refuses_to_start_without_a_secret_key():
    result = run_manage("check", DEBUG="0", SECRET_KEY="")
    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr


def test_development_settings_fail_the_deploy_check():
    result = run_manage("check", "--deploy", "--fail-level", "WARNING", DEBUG="1")
    assert result.returncode != 0


@pytest.mark.django_db
def test_migrations_are_up_to_date():
    call_command("makemigrations", "--check", "--dry-run", verbosity=0)


@pytest.mark.django_db
def test_the_demo_data_has_three_drawn_rounds_of_eight_four_tables_and_a_five_table(capsys):
    call_command("demo", "--if-empty")
    tournament = Tournament.objects.get(slug=DEMO_SLUG)
    active = tournament.entries.filter(status="active").count()
    assert active == 37
    assert active % 4 == 1  # one 5-table, (37 - 5) / 4 = 8 four-tables
    assert len(set(Entry.objects.values_list("player__club", flat=True))) >= 4
    assert "leitung / kreuzdame-demo" in capsys.readouterr().out
    rounds = list(tournament.rounds.order_by("number"))
    assert [r.status for r in rounds] == ["closed", "closed", "released"]
    sizes = sorted(t.size for t in rounds[0].tables.all())
    assert sizes == [4] * 8 + [5]
    assert all(r.seats.count() == 37 for r in rounds)
    # Two played rounds: every sheet complete, error-free and confirmed by a second player.
    for round_ in rounds[:2]:
        for table in round_.tables.all():
            sheet = reads.load(table, complete=True)
            assert len(sheet.games) == sheet.nominal and not sheet.has_errors
            record = table.sheet
            assert record.status == "confirmed" and record.confirmed_by != record.submitted_by
    kinds = Game.objects.filter(table__round=rounds[0]).values_list("kind", flat=True)
    assert list(kinds).count("pflichtsolo") + list(kinds).count("vorgefuehrt") == 37
    # The running round: sheets in progress, one of them with an error to show.
    running = [reads.load(t) for t in rounds[2].tables.all()]
    assert all(0 < len(s.games) < s.nominal for s in running)
    assert sum(s.has_errors for s in running) == 1
    entries = Entry.objects.count()
    call_command("demo", "--if-empty")  # a second run changes nothing
    assert tournament.entries.count() == 37 and tournament.rounds.count() == 3
    assert Entry.objects.count() == entries
    assert Tournament.objects.count() == 4 and Series.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_the_role_groups_survive_a_flush_and_the_demo_fixture_loads_after_it():
    """A flush (every transactional test, ``manage.py flush``) empties the groups that
    migration 0002 made; the demo fixture names them and failed to load after one."""
    call_command("flush", interactive=False, verbosity=0)
    names = set(Group.objects.values_list("name", flat=True))
    assert {DIRECTOR_GROUP, REFEREE_GROUP} <= names
    call_command("loaddata", str(DEMO_FIXTURE), verbosity=0)
    director = Tournament.objects.get(slug=DEMO_SLUG).directors.get()
    assert is_director(director)


@pytest.mark.django_db
def test_the_demo_data_has_a_series_of_two_finished_tournaments_and_the_running_one(client):
    call_command("demo", verbosity=0)
    series = Series.objects.get(slug=DEMO_SERIES_SLUG)
    demo = Tournament.objects.get(slug=DEMO_SLUG)
    assert series.is_public and series.description and series.method == SeriesMethod.AVERAGE
    assert list(series.directors.all()) == list(demo.directors.all())
    members = list(series.tournaments.with_status().order_by("date"))
    assert [t.status for t in members] == ["finished", "finished", "running"]
    assert members[-1] == demo
    demo_players = set(demo.entries.values_list("player_id", flat=True))
    for earlier in members[:2]:
        assert earlier.is_public and earlier.date < demo.date
        # Every planned round closed, every sheet complete, error-free and confirmed by a
        # second player: the demo's own way of playing.
        rounds = list(earlier.rounds.order_by("number"))
        assert [r.status for r in rounds] == ["closed"] * earlier.planned_rounds
        assert all(r.started_at.date() == earlier.date for r in rounds)
        for round_ in rounds:
            for table in round_.tables.all():
                sheet = reads.load(table, complete=True)
                assert len(sheet.games) == sheet.nominal and not sheet.has_errors
                record = table.sheet
                assert record.status == "confirmed" and record.confirmed_by != record.submitted_by
        # Mostly the same players (the same rows of the player database), a few guests.
        players = set(earlier.entries.values_list("player_id", flat=True))
        assert len(players & demo_players) >= 20 and 0 < len(players - demo_players) <= 4

    standings = series_domain.compute(series)
    assert [info.closed_rounds for info in standings.tournaments] == [2, 3, 2]
    assert [info.running for info in standings.tournaments] == [False, False, True]
    ranked, below = standings.lines, standings.below_minimum
    assert len(ranked) >= 30 and 0 < len(below) <= 8
    assert [line.rank for line in ranked][:1] == [1]
    assert [line.value for line in ranked] == sorted((line.value for line in ranked), reverse=True)
    assert all(line.rounds >= series.min_rounds for line in ranked)
    assert all(line.rounds < series.min_rounds for line in below)
    # The value is the points of all counted rounds over their number.
    leader = ranked[0]
    assert leader.value == Fraction(sum(r.total for r in leader.results), leader.rounds)
    assert {line.tournaments for line in ranked} >= {2, 3}
    # `make run` shows it from the home page.
    url = reverse("series-public", args=[DEMO_SERIES_SLUG])
    assert url in client.get(reverse("home")).content.decode()
    assert client.get(url).status_code == 200


@pytest.mark.django_db
def test_the_demo_data_has_an_upcoming_tournament_with_registration_open_and_full(client):
    call_command("demo", verbosity=0)
    demo = Tournament.objects.get(slug=DEMO_SLUG)
    upcoming = Tournament.objects.get(slug=UPCOMING_SLUG)
    assert upcoming.is_public and upcoming.date > demo.date
    assert upcoming.date >= timezone.localdate() + datetime.timedelta(weeks=3)
    assert list(upcoming.directors.all()) == list(demo.directors.all())
    # Registration is open (whenever the demo is loaded) and every place is taken.
    assert registrations_queries.phase(upcoming) == registrations_queries.OPEN
    assert upcoming.registration_capacity == 16 and registrations_queries.places_free(upcoming) == 0
    assert upcoming.entries.filter(status="active").count() == 16
    assert not upcoming.rounds.exists()
    registrations = list(upcoming.registrations.select_related("entry__player"))
    confirmed = [r for r in registrations if r.state == RegistrationState.CONFIRMED]
    waiting = list(registrations_domain.waiting_list(upcoming))
    assert len(confirmed) >= 3 and all(r.entry is not None for r in confirmed)
    assert len(waiting) == 2 and all(r.entry is None for r in waiting)
    assert [waiting_position(r) for r in waiting] == [1, 2]
    assert all(r.email.endswith("@example.org") and r.token for r in registrations)
    # Some registered online are recognised in the player database (they played the demo).
    known = set(demo.entries.values_list("player_id", flat=True))
    assert 0 < sum(r.entry.player_id in known for r in confirmed) < len(confirmed)
    # 10 € entry fee, partly paid: the treasurer has something to collect.
    sums = fee_sums(upcoming)
    assert sums.fee == Decimal("10.00")
    assert sums.paid > 0 and sums.open > 0 and sums.waived == 1
    ticked = upcoming.entries.exclude(fee="open")
    assert all(e.fee_changed_by == demo.directors.get() for e in ticked)
    # The public pages show it: the start page and the tournament page link the form.
    form = reverse("registration-form", args=[UPCOMING_SLUG])
    assert form in client.get(reverse("home")).content.decode()
    assert form in client.get(reverse("tournament-public", args=[UPCOMING_SLUG])).content.decode()
    assert client.get(form).status_code == 200
