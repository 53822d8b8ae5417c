"""Migration 0016 moves each table's workflow to its new Sheet, history included, and back.

The test migrates the shared test database: it ends at the latest migrations again, whatever
happens, so that later tests find the schema they expect."""

import pytest
from django.utils import timezone

from tests.migrations import migrate_to as _migrate

BEFORE = [("tournament", "0015_referee_call_history")]
AFTER = [("tournament", "0016_sheet")]


@pytest.mark.django_db(transaction=True)
def test_the_workflow_of_every_table_moves_to_its_sheet_and_back():
    try:
        _there_and_back()
    finally:
        _migrate()


def _there_and_back():
    apps = _migrate(BEFORE)
    tournament = apps.get_model("tournament", "Tournament").objects.create(
        name="Alt", slug="alt", date="2026-01-03"
    )
    round_ = apps.get_model("tournament", "Round").objects.create(
        tournament=tournament, number=1, status="released"
    )
    Table = apps.get_model("tournament", "Table")
    submitted = timezone.now()
    done = Table.objects.create(
        round=round_,
        number=1,
        size=4,
        sheet_status="submitted",
        submitted_at=submitted,
        submitted_by="Listenführer Tisch 1",
        submitted_start_number=3,
        extra_minutes=5,
        extra_reason="+5 min: Streit",
        time_limit_from=20,
        struck_games=4,
    )
    Table.objects.create(round=round_, number=2, size=5)
    apps.get_model("tournament", "HistoricalTable").objects.create(
        id=done.pk,
        round_id=round_.pk,
        number=1,
        size=4,
        sheet_status="submitted",
        submitted_by="Listenführer Tisch 1",
        extra_minutes=5,
        history_date=submitted,
        history_type="~",
        history_change_reason="eingereicht",
        confirmed_by="Listenführer Tisch 1, Startnummer 3",
    )

    apps = _migrate(AFTER)
    Sheet = apps.get_model("tournament", "Sheet")
    sheet = Sheet.objects.get(table_id=done.pk)
    assert (sheet.status, sheet.submitted_at, sheet.submitted_by) == (
        "submitted",
        submitted,
        "Listenführer Tisch 1",
    )
    assert (sheet.submitted_start_number, sheet.extra_minutes, sheet.extra_reason) == (
        3,
        5,
        "+5 min: Streit",
    )
    assert (sheet.time_limit_from, sheet.struck_games) == (20, 4)
    assert Sheet.objects.get(table__number=2).status == "open"
    record = apps.get_model("tournament", "HistoricalSheet").objects.get(table_id=done.pk)
    assert (record.status, record.history_change_reason, record.history_date) == (
        "submitted",
        "eingereicht",
        submitted,
    )

    apps = _migrate(BEFORE)
    back = apps.get_model("tournament", "Table").objects.get(pk=done.pk)
    assert (back.sheet_status, back.submitted_by, back.extra_minutes, back.struck_games) == (
        "submitted",
        "Listenführer Tisch 1",
        5,
        4,
    )
    record = apps.get_model("tournament", "HistoricalTable").objects.get(id=done.pk)
    assert (record.sheet_status, record.submitted_by, record.confirmed_by) == (
        "submitted",
        "Listenführer Tisch 1",
        "Listenführer Tisch 1, Startnummer 3",
    )
    assert (record.extra_minutes, record.history_change_reason) == (5, "eingereicht")
