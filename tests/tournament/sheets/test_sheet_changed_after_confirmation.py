"""A confirmed Spielliste changed at the office: in a running round it goes back to
"submitted" and must be confirmed again before the round can close; in a closed round it
stays confirmed but is marked as changed after confirmation — on the board, on the desk
page and in the history."""

import random

import pytest
from django.urls import reverse

from tests.factories import referee, released_table
from tournament.errors import DomainError
from tournament.management.demo_games import play_sheet
from tournament.models import Game, RoundStatus, SheetStatus
from tournament.models.audit import history_reason
from tournament.sheets import verbs as sheet_domain

pytestmark = pytest.mark.django_db

AGAIN = "nach der Bestätigung geändert: erneut zu bestätigen"
CHANGED = "nach der Bestätigung geändert"


@pytest.fixture
def confirmed(tournament, director_user):
    """A complete sheet, submitted by the office and confirmed by player 3 on the link."""
    table = released_table(tournament)
    games = play_sheet(tournament.profile, table.size, random.Random(1), None)
    inputs = [sheet_domain.RowInput(g.kind, g.soloist, g.points) for g in games]
    office = sheet_domain.office_actor(director_user, director=True)
    sheet_domain.replace_rows(table, office, inputs, {})
    sheet_domain.submit(table, office)
    code = tournament.entries.get(start_number=3).confirm_code
    sheet_domain.confirm(table, sheet_domain.keeper_actor(table, 3), code=code)
    table.refresh_from_db()
    assert table.sheet.status == SheetStatus.CONFIRMED
    return table


def swapped(game: Game) -> sheet_domain.RowInput:
    points = list(game.points)
    other = next(i for i, value in enumerate(points) if value != points[0])
    points[0], points[other] = points[other], points[0]
    return sheet_domain.RowInput(game.kind, game.soloist_position, tuple(points))


def board(client, table):
    return client.get(reverse("manage:board", args=["herbst", table.round.number])).content.decode()


def desk(client, table):
    url = reverse("manage:sheet-desk", args=["herbst", table.round.number, table.number])
    return client.get(url).content.decode()


def test_a_change_in_a_running_round_sends_the_sheet_back_for_confirmation(
    client, director_client, director_user, confirmed
):
    table, game = confirmed, confirmed.games.get(number=2)
    office = sheet_domain.office_actor(referee(username="schiri"))
    sheet_domain.save_row(
        table, office, swapped(game), number=2, version=game.version, reason="Werte vertauscht"
    )
    table.refresh_from_db()
    assert table.sheet.status == SheetStatus.SUBMITTED
    assert table.sheet.changed_after_confirmation and table.sheet.confirmed_at is None
    with pytest.raises(DomainError, match="Tische 1"):
        sheet_domain.close_round(table.round, director_user)
    # Visible on the board, on the desk page and in the history.
    assert "bitte erneut bestätigen" in board(director_client, table)
    assert "bitte erneut bestätigen" in desk(director_client, table)
    record = Game.history.filter(number=2).latest("history_date")
    assert history_reason(record) == f"schiri: Werte vertauscht · {AGAIN}"
    history_url = reverse("manage:sheet-history", args=["herbst", 1, 1])
    assert AGAIN in director_client.get(history_url).content.decode()
    assert history_reason(table.sheet.history.latest()) == f"schiri: Werte vertauscht · {AGAIN}"
    # Another player of the table confirms again; then the round closes.
    keeper_confirm = reverse("keeper-confirm", args=[table.token])
    code = table.round.tournament.entries.get(start_number=4).confirm_code
    assert client.post(keeper_confirm, {"start_number": "4", "code": code}).status_code == 200
    table.refresh_from_db()
    assert (
        table.sheet.status == SheetStatus.CONFIRMED and not table.sheet.changed_after_confirmation
    )
    assert "nach der Bestätigung" not in board(director_client, table)
    sheet_domain.close_round(table.round, director_user)


def test_removing_the_last_game_or_a_desk_change_also_sends_it_back(director_user, confirmed):
    table = confirmed
    office = sheet_domain.office_actor(director_user, director=True)
    last = table.games.order_by("-number").first()
    kept = sheet_domain.RowInput(last.kind, last.soloist_position, tuple(last.points))
    sheet_domain.delete_last(table, office, number=last.number, version=last.version, reason="x")
    table.refresh_from_db()
    assert table.sheet.status == SheetStatus.SUBMITTED and table.sheet.changed_after_confirmation
    sheet_domain.save_row(table, office, kept, number=last.number, reason="doch gespielt")
    sheet_domain.confirm(table, office)
    table.refresh_from_db()
    assert not table.sheet.changed_after_confirmation
    games = list(table.games.order_by("number"))
    inputs = [sheet_domain.RowInput(g.kind, g.soloist_position, tuple(g.points)) for g in games]
    versions = {g.number: g.version for g in games}
    # The same rows again change nothing, not even the confirmation.
    assert sheet_domain.replace_rows(table, office, inputs, versions, "noch einmal") == 0
    table.refresh_from_db()
    assert table.sheet.status == SheetStatus.CONFIRMED
    inputs[0] = swapped(games[0])
    assert sheet_domain.replace_rows(table, office, inputs, versions, "Papierliste") == 1
    table.refresh_from_db()
    assert table.sheet.status == SheetStatus.SUBMITTED and table.sheet.changed_after_confirmation


def test_a_change_in_a_closed_round_keeps_it_closed_and_marks_the_sheet(
    director_client, director_user, confirmed
):
    table = confirmed
    sheet_domain.close_round(table.round, director_user)
    office = sheet_domain.office_actor(director_user, director=True)
    game = table.games.get(number=3)
    with pytest.raises(DomainError, match="Begründung"):
        sheet_domain.save_row(table, office, swapped(game), number=3, version=game.version)
    sheet_domain.save_row(
        table, office, swapped(game), number=3, version=game.version, reason="Schiedsgericht"
    )
    table.refresh_from_db()
    table.round.refresh_from_db()
    assert table.round.status == RoundStatus.CLOSED
    assert table.sheet.status == SheetStatus.CONFIRMED and table.sheet.changed_after_confirmation
    html = board(director_client, table)
    assert 'class="badge bad changed-after-confirmation">nach der Bestätigung geändert<' in html
    assert "nach der Bestätigung geändert<" in desk(director_client, table)
    record = Game.history.filter(number=3).latest("history_date")
    assert history_reason(record) == f"leiterin: Schiedsgericht · {CHANGED}"
    assert history_reason(table.sheet.history.latest()) == f"leiterin: Schiedsgericht · {CHANGED}"


def test_a_submitted_sheet_changed_at_the_office_is_not_marked(director_user, confirmed):
    table = confirmed
    office = sheet_domain.office_actor(director_user, director=True)
    sheet_domain.reopen(table, office, "nochmal")
    sheet_domain.submit(table, office)
    game = table.games.get(number=1)
    sheet_domain.save_row(table, office, swapped(game), number=1, version=game.version, reason="r")
    table.refresh_from_db()
    assert (
        table.sheet.status == SheetStatus.SUBMITTED and not table.sheet.changed_after_confirmation
    )
