"""A draw never holds the database's write lock while the solver works: the plan is computed
outside any transaction and written in one short one, only if nothing it was computed from
changed meanwhile; fields and rounds have limits, checked before anything is solved."""

import threading

import pytest
from django.core.exceptions import ValidationError
from django.db import connection
from django.urls import reverse

from tests.factories import EntryFactory, PlayerFactory, TournamentFactory, released_table
from tournament import seating
from tournament.domain import draw as draw_domain
from tournament.errors import DomainError
from tournament.forms import TournamentForm
from tournament.forms.rounds import DrawForm
from tournament.models import DrawLog, Entry, EntryStatus, Game, Player, Round, Seat, Table
from tournament.sheets import verbs as sheet_domain

WAIT = 30  # seconds: only reached when the test fails


def field(tournament, count, first=1):
    return [
        EntryFactory(
            tournament=tournament,
            start_number=n,
            checked_in=True,
            player=PlayerFactory(last_name=f"Spieler{n}", club="ABCD"[n % 4]),
        )
        for n in range(first, first + count)
    ]


def nothing_written(tournament):
    return not (
        Round.objects.filter(tournament=tournament).exists()
        or Table.objects.filter(round__tournament=tournament).exists()
        or DrawLog.objects.filter(round__tournament=tournament).exists()
    )


def solver_that(monkeypatch, before_returning):
    """Replace the solver by the real one followed by ``before_returning()``."""
    real = seating.draw

    def solve(request):
        plan = real(request)
        before_returning()
        return plan

    monkeypatch.setattr(seating, "draw", solve)


@pytest.mark.django_db(transaction=True)
def test_the_solver_runs_without_holding_the_write_lock(monkeypatch, director_user):
    """While a director's solver runs (here: until the test lets it go), a list keeper of
    another tournament saves a row; before the fix the draw's transaction held SQLite's
    write lock, so the save waited 20 s and failed with "database is locked"."""
    drawn = TournamentFactory(slug="gross", directors=[director_user])
    field(drawn, 16)
    table = released_table(TournamentFactory(slug="nebenan"), first_start=1)
    solving, proceed = threading.Event(), threading.Event()
    solver_that(monkeypatch, lambda: (solving.set(), proceed.wait(WAIT)))
    outcome = {}

    def director():
        try:
            outcome["result"] = draw_domain.draw(drawn, director_user, all_rounds=True, seed=3)
        except Exception as exc:
            outcome["error"] = exc
        finally:
            connection.close()

    thread = threading.Thread(target=director)
    thread.start()
    try:
        assert solving.wait(WAIT)
        row = sheet_domain.RowInput("normal", None, (1, -1, 1, -1))
        sheet_domain.save_row(table, sheet_domain.keeper_actor(table), row, number=1)
        assert not proceed.is_set()  # the row was stored while the solver was still running
    finally:
        proceed.set()
        thread.join(WAIT)
    assert "error" not in outcome, outcome.get("error")
    assert Game.objects.filter(table=table).count() == 1
    assert [r.number for r in outcome["result"].rounds] == [1, 2, 3]
    assert Seat.objects.filter(round__tournament=drawn).count() == 3 * 16


def check_in_one_more(tournament):
    return lambda: field(tournament, 1, first=90)


def withdraw_one(tournament):
    return lambda: Entry.objects.filter(tournament=tournament, start_number=1).update(
        status=EntryStatus.WITHDRAWN
    )


def change_a_club(tournament):
    return lambda: (
        Player.objects.filter(entries__tournament=tournament)
        .filter(entries__start_number=2)
        .update(club="Neuer Verein")
    )


def plan_more_rounds(tournament):
    return lambda: type(tournament).objects.filter(pk=tournament.pk).update(planned_rounds=4)


@pytest.mark.django_db
@pytest.mark.parametrize(
    "change", [check_in_one_more, withdraw_one, change_a_club, plan_more_rounds]
)
def test_a_change_during_the_solve_refuses_the_plan_and_writes_nothing(
    monkeypatch, tournament, director_user, change
):
    tournament.separate_clubs_rounds = 1
    tournament.save()
    field(tournament, 12)
    solver_that(monkeypatch, change(tournament))
    with pytest.raises(DomainError, match="Inzwischen hat sich etwas geändert"):
        draw_domain.draw(tournament, director_user, all_rounds=True, seed=1)
    assert nothing_written(tournament)


@pytest.mark.django_db
def test_a_draw_finished_meanwhile_is_kept_and_the_later_one_refused(
    monkeypatch, tournament, director_user
):
    field(tournament, 12)
    started = []

    def another_draw_meanwhile():
        if not started:  # the other draw's own solver runs this too
            started.append(True)
            draw_domain.draw(tournament, director_user, seed=7)

    solver_that(monkeypatch, another_draw_meanwhile)
    with pytest.raises(DomainError, match="bitte erneut auslosen"):
        draw_domain.draw(tournament, director_user, seed=8)
    round_ = tournament.rounds.get()
    assert round_.draw_seed == 7
    assert list(round_.draw_logs.values_list("action", "seed")) == [("draw", 7)]


def seats(tournament):
    return sorted(
        Seat.objects.filter(round__tournament=tournament).values_list(
            "round__number", "table__number", "position", "entry_id"
        )
    )


@pytest.mark.django_db
def test_nothing_changed_means_the_same_plan_as_ever(tournament, director_user):
    """Same inputs and seed, same plan: the snapshot feeds the solver exactly what the
    rounds and entries hold."""
    field(tournament, 17)
    draw_domain.draw(tournament, director_user, seed=4)
    draw_domain.release(tournament.rounds.get(number=1), director_user)
    draw_domain.draw(tournament, director_user, all_rounds=True, seed=5)
    first = seats(tournament)
    draw_domain.draw(tournament, director_user, all_rounds=True, seed=5)
    assert seats(tournament) == first
    assert {n for n, *_ in first} == {1, 2, 3}


@pytest.mark.django_db
def test_bulk_written_seats_keep_their_history_with_user_and_role(director_client, tournament):
    field(tournament, 13)
    url = reverse("manage:round-draw", args=[tournament.slug])
    director_client.post(url, {"seed": "2"})
    director_client.post(url, {"seed": "3"})
    history = Seat.history.filter(round_id=tournament.rounds.get(number=1).pk)
    assert sorted(history.values_list("history_type", flat=True)) == ["+"] * 26 + ["-"] * 13
    assert {(h.history_user.username, h.history_role) for h in history} == {
        ("leiterin", "director")
    }
    now = set(Seat.objects.values_list("pk", "table_id", "entry_id", "position"))
    latest = history.filter(history_type="+").order_by("-history_id")[:13]
    assert {(h.id, h.table_id, h.entry_id, h.position) for h in latest} == now
    tables = Table.history.filter(round_id=tournament.rounds.get(number=1).pk)
    assert sorted(tables.values_list("history_type", flat=True)) == ["+"] * 6 + ["-"] * 3


# --- limits ---------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_field_above_the_limit_is_refused_before_solving(monkeypatch, tournament, director_user):
    count = draw_domain.MAX_DRAW_PLAYERS + 1
    players = Player.objects.bulk_create(
        Player(first_name="S", last_name=f"N{n}") for n in range(count)
    )
    Entry.objects.bulk_create(
        Entry(tournament=tournament, player=p, start_number=n, checked_in=True)
        for n, p in enumerate(players, start=1)
    )
    monkeypatch.setattr(seating, "draw", lambda request: pytest.fail("solved"))
    with pytest.raises(DomainError) as info:
        draw_domain.draw(tournament, director_user)
    assert info.value.message == (
        f"Höchstens {draw_domain.MAX_DRAW_PLAYERS} Spieler können ausgelost werden; "
        f"eingecheckt sind {count}. Teilen Sie das Feld auf mehrere Turniere auf."
    )
    assert nothing_written(tournament)


@pytest.mark.django_db
def test_a_big_field_is_drawn_round_by_round_not_all_at_once(
    monkeypatch, tournament, director_user
):
    """All rounds of 600 players would write 18,000 seats under the lock: refused with a
    message; the next round alone is drawn."""
    players = Player.objects.bulk_create(
        Player(first_name="S", last_name=f"N{n}") for n in range(600)
    )
    Entry.objects.bulk_create(
        Entry(tournament=tournament, player=p, start_number=n, checked_in=True)
        for n, p in enumerate(players, start=1)
    )
    type(tournament).objects.filter(pk=tournament.pk).update(planned_rounds=30)
    solved = []
    real_draw = seating.draw
    monkeypatch.setattr(seating, "draw", lambda request: solved.append(1) or real_draw(request))
    with pytest.raises(DomainError, match="Runde für Runde"):
        draw_domain.draw(tournament, director_user, all_rounds=True)
    assert nothing_written(tournament) and not solved
    result = draw_domain.draw(tournament, director_user, time_limit=1)
    assert [r.number for r in result.rounds] == [1]
    assert Seat.objects.filter(round__tournament=tournament).count() == 600


@pytest.mark.django_db
def test_more_planned_rounds_than_the_limit_are_refused(monkeypatch, tournament, director_user):
    field(tournament, 8)
    type(tournament).objects.filter(pk=tournament.pk).update(
        planned_rounds=draw_domain.MAX_ROUNDS + 1
    )
    monkeypatch.setattr(seating, "draw", lambda request: pytest.fail("solved"))
    with pytest.raises(DomainError, match=f"höchstens {draw_domain.MAX_ROUNDS} Runden"):
        draw_domain.draw(tournament, director_user)
    assert nothing_written(tournament)


@pytest.mark.django_db
def test_the_tournament_form_refuses_more_rounds_than_the_limit():
    planned = TournamentForm().fields["planned_rounds"]
    assert planned.clean(draw_domain.MAX_ROUNDS) == draw_domain.MAX_ROUNDS
    with pytest.raises(ValidationError, match=str(draw_domain.MAX_ROUNDS)):
        planned.clean(draw_domain.MAX_ROUNDS + 1)


@pytest.mark.django_db
def test_the_solvers_time_limit_is_capped_and_not_a_users_choice(
    monkeypatch, tournament, director_user
):
    field(tournament, 8)
    asked = []
    real = seating.draw
    monkeypatch.setattr(seating, "draw", lambda request: asked.append(request) or real(request))
    draw_domain.draw(tournament, director_user, seed=1, time_limit=10**9)
    assert asked[0].time_limit == draw_domain.MAX_TIME_LIMIT
    assert "time_limit" not in DrawForm().fields
