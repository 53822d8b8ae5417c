"""The audit trail: game rows, penalties, seats and entries leave a history record — who, in
which role, when (UTC), the row after the change (the one before is the previous record) and
why — from the pages, the admin and the management commands. The application offers no way
to change or delete history, and replaying a sheet's history gives its current rows."""

from datetime import UTC

import pytest
from django.contrib import admin
from django.core.management import call_command
from django.urls import reverse

from tests.factories import UserFactory, referee, released_table
from tournament.domain import penalties as penalty_domain
from tournament.domain.penalties import Facts
from tournament.models import Entry, Game, GameKind, Penalty, Seat, Tournament
from tournament.sheets import verbs as sheet_domain

pytestmark = pytest.mark.django_db

ROWS = {"kind": "normal", "mode": "direct", "reason": ""}


def keeper_save(client, table, number, points, **extra):
    data = {**ROWS, "number": number, **{f"p{i}": v for i, v in enumerate(points, start=1)}}
    data.update(extra)
    return client.post(reverse("keeper-sheet", args=[table.token]), data)


def test_the_list_keeper_and_the_office_are_recorded_with_their_roles(
    client, director_client, tournament
):
    table = released_table(tournament)
    assert keeper_save(client, table, 1, (1, -1, 1, -1)).status_code == 200
    game = Game.objects.get(table=table, number=1)
    desk = reverse("manage:sheet-desk", args=[tournament.slug, 1, 1])
    response = director_client.post(
        desk,
        {"reason": "Tippfehler", "lines": "1", "kind-1": "N", "solo-1": "", "p1-1": "2",
         "p2-1": "-2", "p3-1": "2", "p4-1": "-2", "version-1": str(game.version)},
    )  # fmt: skip
    assert response.status_code in (200, 302), response.content[:500]
    records = list(game.history.order_by("history_id"))
    assert [r.history_role for r in records] == ["list-keeper", "director"]
    assert records[0].history_user is None and records[1].history_user.username == "leiterin"
    assert records[0].history_change_reason.startswith("Listenführer Tisch 1")
    assert "Tippfehler" in records[1].history_change_reason
    assert all(r.history_date.tzinfo is not None for r in records)
    assert records[1].history_date.astimezone(UTC).utcoffset().total_seconds() == 0
    assert [(r.p1, r.p2) for r in records] == [(1, -1), (2, -2)]  # before, after
    page = director_client.get(reverse("manage:sheet-history", args=[tournament.slug, 1, 1]))
    html = page.content.decode()
    assert "Listenführer" in html and "Turnierleitung" in html


def test_penalties_record_the_referee(tournament):
    table = released_table(tournament)
    Game.objects.create(table=table, number=1, kind=GameKind.NORMAL, p1=1, p2=-1, p3=1, p4=-1)
    official = referee()
    penalty = penalty_domain.enter(
        table, Facts(1, 2, "geringfuegig"), official, sign=True, director=False
    )
    penalty_domain.revoke(penalty, official, "Schiedsgericht", director=False)
    records = list(penalty.history.order_by("history_id"))
    assert [(r.history_type, r.history_role) for r in records] == [
        ("+", "referee"),
        ("~", "referee"),
    ]
    assert records[-1].history_change_reason == "Schiedsgericht"


def test_the_admin_is_recorded_as_administrator(client, tournament):
    admin_user = UserFactory(username="admin", is_staff=True, is_superuser=True)
    client.force_login(admin_user)
    table = released_table(tournament)
    game = Game.objects.create(table=table, number=1, kind=GameKind.NORMAL,
                               p1=1, p2=-1, p3=1, p4=-1)  # fmt: skip
    url = reverse("admin:tournament_game_delete", args=[game.pk])
    assert client.post(url, {"post": "yes"}).status_code == 302
    deleted = Game.history.filter(id=game.pk, history_type="-").get()
    assert (deleted.history_user, deleted.history_role) == (admin_user, "administrator")
    entry = Entry.objects.first()
    url = reverse("admin:tournament_entry_change", args=[entry.pk])
    form = client.get(url).context["adminform"].form
    data = {k: v for k, v in form.initial.items() if v is not None}
    data.update(
        status="withdrawn",
        tournament=entry.tournament_id,
        player=entry.player_id,
        start_number=entry.start_number,
        team="",
        checked_in_at_0="",
        checked_in_at_1="",
    )
    assert client.post(url, data).status_code == 302
    changed = entry.history.order_by("history_id").last()
    assert (changed.status, changed.history_role) == ("withdrawn", "administrator")


def test_management_commands_are_recorded_as_system(tmp_path):
    call_command("demo")
    tournament = Tournament.objects.get()
    entries = Entry.history.filter(tournament=tournament)
    assert entries.count() >= tournament.entries.count()
    assert set(entries.values_list("history_role", flat=True)) == {"system"}
    seats = Seat.history.all()
    assert seats.exists() and set(seats.values_list("history_role", flat=True)) == {"system"}
    games = Game.history.all()
    assert set(games.values_list("history_role", flat=True)) == {"list-keeper"}
    roles = set(Penalty.history.values_list("history_role", flat=True))
    assert roles == {"referee"}


def test_no_history_can_be_changed_or_deleted_through_the_application():
    for model in (Game, Penalty, Seat, Entry):
        history = model.history.model
        assert not admin.site.is_registered(history)
    # The admin shows the history of an object, read only; no URL of the site names a
    # historical model.
    from django.urls import get_resolver

    names = [str(name) for name in get_resolver().reverse_dict if isinstance(name, str)]
    assert not [name for name in names if "historical" in name]


def test_replaying_a_sheets_history_gives_its_current_rows(tournament, director_user):
    table = released_table(tournament)
    keeper = sheet_domain.keeper_actor(table, 1)
    office = sheet_domain.office_actor(director_user, director=True)
    row = sheet_domain.RowInput

    for number, points in enumerate([(1, -1, 1, -1), (2, -2, 2, -2), (3, -3, -3, 3)], start=1):
        sheet_domain.save_row(table, keeper, row(GameKind.NORMAL, None, points), number=number)
    sheet_domain.save_row(table, office, row(GameKind.NORMAL, None, (4, -4, 4, -4)),
                          number=2, version=1, reason="Korrektur")  # fmt: skip
    sheet_domain.delete_last(table, keeper, number=3, version=1)
    sheet_domain.save_row(table, keeper, row(GameKind.PFLICHTSOLO, 1, (3, -1, -1, -1)), number=3)

    replayed: dict[int, tuple] = {}
    for record in Game.history.filter(table_id=table.pk).order_by("history_date", "history_id"):
        if record.history_type == "-":
            replayed.pop(record.id, None)
        else:
            replayed[record.id] = (record.number, record.kind, record.soloist_position,
                                   record.p1, record.p2, record.p3, record.p4)  # fmt: skip
    current = {
        g.pk: (g.number, g.kind, g.soloist_position, g.p1, g.p2, g.p3, g.p4)
        for g in Game.objects.filter(table=table)
    }
    assert replayed == current
    assert sorted(v[0] for v in current.values()) == [1, 2, 3]
