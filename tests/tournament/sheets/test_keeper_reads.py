"""A list keeper's save reads the sheet once: the form is checked against it and the page
after the save shows it with the stored game put in; only a conflict (the sheet changed
meanwhile) reads it once more. The page shown is the one a fresh read gives."""

import random
import uuid

import pytest
from django.urls import reverse

from tests.factories import released_table
from tournament.management.demo_games import play_sheet
from tournament.queries import sheets as reads
from tournament.sheets import verbs as sheet_domain

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(tournament):
    return released_table(tournament)


@pytest.fixture
def sheet_reads(monkeypatch):
    """The tables whose full sheet was read (reads.load), in order."""
    read, real = [], reads.load

    def counted(table, **options):
        read.append(table.pk)
        return real(table, **options)

    monkeypatch.setattr(reads, "load", counted)
    return read


def post(client, table, number, points, **extra):
    data = {"kind": "normal", "mode": "direct", "number": str(number), "soloist": ""}
    data.update({f"p{i}": str(v) for i, v in enumerate(points, start=1)})
    data.update(client_id=str(uuid.uuid4()), **extra)
    return client.post(reverse("keeper-sheet", args=[table.token]), data)


def played(table, games: int) -> None:
    sheet = play_sheet(table.round.tournament.profile, table.size, random.Random(5), games)
    rows = [sheet_domain.RowInput(g.kind, g.soloist, g.points) for g in sheet]
    sheet_domain.replace_rows(table, sheet_domain.Actor(label="test", privileged=True), rows, {})


def test_a_new_game_and_a_correction_read_the_sheet_once(client, table, sheet_reads):
    played(table, 3)
    response = post(client, table, 4, [2, -2, 2, -2])
    assert response.status_code == 200 and "Spiel 4 gespeichert" in response.content.decode()
    assert sheet_reads == [table.pk]
    game = table.games.get(number=2)
    sheet_reads.clear()
    response = post(client, table, 2, [5, -5, -5, 5], version=str(game.version))
    assert response.status_code == 200 and "Spiel 2 gespeichert" in response.content.decode()
    assert sheet_reads == [table.pk]


def test_a_form_with_an_error_reads_the_sheet_once(client, table, sheet_reads):
    response = post(client, table, 1, [2, -2, 2, "x"])
    assert response.status_code == 422 and sheet_reads == [table.pk]


def test_a_conflict_reads_the_sheet_once_more_for_the_retry(client, table, sheet_reads):
    played(table, 2)
    response = post(client, table, 2, [3, -3, 3, -3])  # game 2 is stored already
    assert response.status_code == 409 and 'id="conflict"' in response.content.decode()
    assert sheet_reads == [table.pk, table.pk]


@pytest.mark.parametrize("number", [1, 3, 5])
def test_the_sheet_after_a_save_is_the_sheet_read_afresh(table, number):
    """reads.with_game (the shown sheet) against reads.load after the save: the same rows,
    findings, ledger and totals, for a correction and for a new game."""
    played(table, 4)
    before = reads.load(table)
    actor = sheet_domain.Actor(label="test", privileged=True)
    stored = table.games.filter(number=number).first()
    version = stored.version if stored is not None else None
    row = sheet_domain.RowInput("normal", None, (4, -4, -4, 4))
    game = sheet_domain.save_row(table, actor, row, number=number, version=version)
    table.refresh_from_db()
    shown, fresh = reads.with_game(before, game, table), reads.load(table)
    assert [(g.number, g.version, tuple(g.points)) for g in shown.games] == [
        (g.number, g.version, tuple(g.points)) for g in fresh.games
    ]
    assert shown.rows == fresh.rows and shown.findings == fresh.findings
    assert shown.steps == fresh.steps and shown.totals == fresh.totals
    assert shown.by_game == fresh.by_game and shown.next_number == fresh.next_number


def test_a_row_changed_by_the_desk_during_the_save_is_shown_as_stored(
    client, table, sheet_reads, monkeypatch
):
    """The phone's form was checked against the sheet read before the save took the table's
    lock; the desk corrected game 2 in between. The new game saves without a conflict, and
    the page after it shows the desk's game 2, read anew, not the phone's older copy."""
    played(table, 3)
    real_save = sheet_domain.save_row

    def desk_first(table_, *args, **kwargs):
        desk = sheet_domain.Actor(label="desk", privileged=True)
        game = table_.games.get(number=2)
        row = sheet_domain.RowInput("normal", None, (7, -7, -7, 7))
        real_save(table_, desk, row, number=2, version=game.version)
        return real_save(table_, *args, **kwargs)

    monkeypatch.setattr(sheet_domain, "save_row", desk_first)
    response = post(client, table, 4, [2, -2, 2, -2])
    assert response.status_code == 200 and "Spiel 4 gespeichert" in response.content.decode()
    assert sheet_reads == [table.pk, table.pk]  # read again: another row had changed
    shown = response.context["sheet"]
    assert [tuple(g.points) for g in shown.games if g.number == 2] == [(7, -7, -7, 7)]
    assert shown.totals == reads.load(table).totals
