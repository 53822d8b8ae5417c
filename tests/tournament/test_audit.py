"""The audit trail: game rows, penalties, seats and entries leave a history record — who, in
which role, when (UTC), the row after the change (the one before is the previous record) and
why — from the pages, the admin and the management commands. The application offers no way
to change or delete history, and replaying a sheet's history gives its current rows."""

import random
import re
from datetime import UTC, timedelta
from pathlib import Path

import pytest
from django.apps import apps
from django.contrib import admin
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.db.models import Max
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests.factories import EntryFactory, UserFactory, referee, released_table
from tests.tournament.test_tournaments import as_browser_sends
from tournament.domain import bulk
from tournament.domain import devices as devices_domain
from tournament.domain import entries as entries_domain
from tournament.domain import fees as fees_domain
from tournament.domain import penalties as penalty_domain
from tournament.domain import referees as referees_domain
from tournament.domain.penalties import Facts
from tournament.forms.tournaments import TournamentForm
from tournament.management.commands.demo import DEMO_SLUG
from tournament.management.demo_games import play_sheet
from tournament.models import Entry, Game, GameKind, Penalty, Seat, TableDevice, Tournament
from tournament.models.audit import event, history_reason, stamp
from tournament.sheets import verbs as sheet_domain
from tournament.sheets.verbs import Actor

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
    assert history_reason(records[0]).startswith("Listenführer Tisch 1")
    assert "Tippfehler" in history_reason(records[1])
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
    assert history_reason(records[-1]) == "Schiedsgericht"


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


def test_management_commands_are_recorded_as_system_or_as_whom_they_act_for(tmp_path):
    call_command("demo")
    tournament = Tournament.objects.get(slug=DEMO_SLUG)
    entries = Entry.history.filter(tournament=tournament)
    assert entries.count() >= tournament.entries.count()
    assert set(entries.values_list("history_role", flat=True)) == {"system"}
    # The demo draws in the name of its director: the seats say so.
    seats = Seat.history.all()
    assert seats.exists() and set(seats.values_list("history_role", flat=True)) == {"director"}
    assert set(seats.values_list("history_user", flat=True)) == {tournament.directors.get().pk}
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


# --- every write path names its actor and role ------------------------------------------------
#
# Each page that writes is used as the person at the hall would use it; every history record
# the request leaves must name that person (the list keeper: no account, their label in the
# reason) and the role they acted in. Written against the pages, so it holds however the verbs
# behind them are arranged.


def _historical_models():
    """Every history table of the site that records a user (m2m snapshots do not)."""
    return [
        model
        for model in apps.get_app_config("tournament").get_models()
        if model.__name__.startswith("Historical")
        and any(field.name == "history_user" for field in model._meta.fields)
    ]


class Written:
    """The history records written since it was made."""

    def __init__(self) -> None:
        self.since = {
            model: model.objects.aggregate(top=Max("history_id"))["top"] or 0
            for model in _historical_models()
        }

    def records(self) -> list:
        return [
            record
            for model, top in self.since.items()
            for record in model.objects.filter(history_id__gt=top)
        ]


def recorded(action, user, role: str, label: str = ""):
    """Run ``action`` (a request) and check that it left history, all of it naming ``user``
    and ``role`` (and, for a list keeper, ``label`` in the reason). Returns the response."""
    written = Written()
    response = action()
    assert response.status_code in (200, 302), response.content[:800]
    records = written.records()
    assert records, "no history record"
    for record in records:
        where = f"{type(record).__name__} {record.history_type}"
        assert record.history_user == user, where
        if hasattr(record, "history_role"):
            assert record.history_role == role, where
        if label:
            assert label in (history_reason(record) or ""), where
    assert any(hasattr(r, "history_role") for r in records)
    return response


def _sheet_file(table) -> str:
    """A complete, valid sheet of ``table`` as the file import reads it."""
    games = play_sheet(table.round.tournament.profile, table.size, random.Random(6))  # no Hochzeit
    lines = ["game,kind,soloist,1,2,3,4"]
    letters = {
        GameKind.NORMAL: "N",
        GameKind.PFLICHTSOLO: "P",
        GameKind.VORGEFUEHRT: "V",
        GameKind.LUSTSOLO: "L",
    }
    for number, game in enumerate(games, start=1):
        soloist = game.soloist or ""
        lines.append(",".join(map(str, [number, letters[game.kind], soloist, *game.points])))
    return "\n".join(lines) + "\n"


def test_every_write_of_the_spielliste_names_its_actor_and_role(director_client, tournament):
    client = Client()  # the list keeper's phone: no account
    table = released_table(tournament)
    keeper = "Listenführer Tisch 1"
    director_user = tournament.directors.get()
    keeper_url = lambda name: reverse(name, args=[table.token])  # noqa: E731
    office = lambda action: reverse(  # noqa: E731
        "manage:sheet-action", args=[tournament.slug, 1, 1, action]
    )
    row = {**ROWS, "number": "1", "p1": "1", "p2": "-1", "p3": "1", "p4": "-1"}

    # save a row, change it at the desk, delete the last row
    recorded(lambda: client.post(keeper_url("keeper-sheet"), row), None, "list-keeper", keeper)
    game = Game.objects.get(table=table, number=1)
    desk = reverse("manage:sheet-desk", args=[tournament.slug, 1, 1])
    grid = {"reason": "Tippfehler", "lines": "1", "kind-1": "N", "solo-1": "", "p1-1": "2",
            "p2-1": "-2", "p3-1": "2", "p4-1": "-2", "version-1": str(game.version)}  # fmt: skip
    recorded(lambda: director_client.post(desk, grid), director_user, "director")
    game.refresh_from_db()
    delete = {"number": "1", "version": str(game.version)}
    recorded(lambda: client.post(keeper_url("keeper-delete"), delete), None, "list-keeper", keeper)

    # extra time, then the whole paper list from a file
    extra = {"minutes": "5", "reason": "Streit um Spiel 3"}
    recorded(lambda: director_client.post(office("extra-time"), extra), director_user, "director")
    upload = SimpleUploadedFile("liste.csv", _sheet_file(table).encode(), content_type="text/csv")
    url = reverse("manage:sheet-import", args=[tournament.slug, 1, 1])
    recorded(
        lambda: director_client.post(url, {"file": upload, "reason": "Papierliste"}),
        director_user,
        "director",
    )
    assert table.games.count() == 24

    # submit, reopen at the office, submit again, confirm by another player
    def code(number):
        entry = tournament.entries.get(start_number=number)
        return {"start_number": str(number), "code": entry.confirm_code}

    submit = lambda: client.post(keeper_url("keeper-submit"), code(1))  # noqa: E731
    recorded(submit, None, "list-keeper", keeper)
    reopen = {"reason": "Spiel 4 vertauscht"}
    recorded(lambda: director_client.post(office("reopen"), reopen), director_user, "director")
    recorded(submit, None, "list-keeper", keeper)
    confirm = lambda: client.post(keeper_url("keeper-confirm"), code(3))  # noqa: E731
    recorded(confirm, None, "list-keeper", keeper)

    # close the round (with a call nobody took care of: it is closed with the round)
    client.post(keeper_url("keeper-call"), {"note": "Frage"})
    close = reverse("manage:round-close", args=[tournament.slug, 1])
    recorded(lambda: director_client.post(close), director_user, "director")
    assert table.referee_calls.get().handled_by == director_user


def test_the_time_up_of_a_table_names_its_list_keeper(client, tournament):
    table = released_table(tournament)
    table.round.started_at = timezone.now() - timedelta(hours=3)
    table.round.save()
    row = {**ROWS, "number": "1", "p1": "1", "p2": "-1", "p3": "1", "p4": "-1"}
    client.post(reverse("keeper-sheet", args=[table.token]), row)
    time_up = lambda: client.post(reverse("keeper-time-up", args=[table.token]))  # noqa: E731
    recorded(time_up, None, "list-keeper", "Listenführer Tisch 1")


def _penalty(client, tournament, table, **facts):
    url = reverse("manage:penalty-add", args=[tournament.slug, 1, table.number])
    data = {"game_number": "1", "offender": "2", "context": "normal", "absagen": "0",
            "reason": "laut", **facts, "action": "preview"}  # fmt: skip
    preview = client.post(url, data)
    data["previewed"] = preview.context["form"]["previewed"].value()
    return url, data


def test_every_penalty_write_names_the_referee(client, tournament):
    table = released_table(tournament)
    Game.objects.create(table=table, number=1, kind=GameKind.NORMAL, p1=1, p2=-1, p3=1, p4=-1)
    official = referee(username="schiri")
    tournament.referees.add(official)
    client.force_login(official)

    url, data = _penalty(client, tournament, table, category="verwarnung")
    recorded(lambda: client.post(url, {**data, "action": "draft"}), official, "referee")
    draft = Penalty.objects.get()
    sign = reverse("manage:penalty-action", args=[tournament.slug, draft.pk, "sign"])
    recorded(lambda: client.post(sign), official, "referee")
    revoke = reverse("manage:penalty-action", args=[tournament.slug, draft.pk, "revoke"])
    recorded(lambda: client.post(revoke, {"reason": "Einspruch"}), official, "referee")

    # A disqualification also changes the entry: both records name the referee.
    url, data = _penalty(client, tournament, table, category="disqualifikation")
    recorded(lambda: client.post(url, {**data, "action": "sign"}), official, "referee")
    dq = Penalty.objects.get(category="disqualifikation")
    assert dq.offender.history.first().history_user == official
    revoke = reverse("manage:penalty-action", args=[tournament.slug, dq.pk, "revoke"])
    recorded(lambda: client.post(revoke, {"reason": "Irrtum"}), official, "referee")


def test_referee_calls_and_accounts_name_their_actor(director_client, tournament):
    client = Client()  # the list keeper's phone: no account
    table = released_table(tournament)
    call = lambda: client.post(reverse("keeper-call", args=[table.token]), {"note": "Frage"})  # noqa: E731
    recorded(call, None, "list-keeper", "Listenführer Tisch 1")

    director_user = tournament.directors.get()
    accounts = reverse("manage:referees", args=[tournament.slug])
    new = {"username": "schiri", "password": "ein langes Passwort 42", "first_name": "Maria"}
    recorded(lambda: director_client.post(accounts, new), director_user, "director")
    official = tournament.referees.get()
    added = tournament.history.latest("history_id")
    assert [r.user_id for r in added.referees.all()] == [official.pk]
    assert "schiri" in history_reason(added)

    desk = Client()  # the director stays logged in on the other one
    desk.force_login(official)
    done = reverse("manage:call-done", args=[tournament.slug, table.referee_calls.get().pk])
    recorded(lambda: desk.post(done), official, "referee")

    remove = {"remove": str(official.pk)}
    recorded(lambda: director_client.post(accounts, remove), director_user, "director")
    assert not tournament.referees.exists()
    assert not tournament.history.latest("history_id").referees.exists()


def test_an_entrys_status_names_the_director_and_why(director_client, tournament):
    entry = released_table(tournament).seats.first().entry
    director_user = tournament.directors.get()
    url = reverse("manage:entry-status", args=[tournament.slug, entry.pk, "withdraw"])
    recorded(lambda: director_client.post(url), director_user, "director")
    record = entry.history.latest("history_id")
    assert record.status == "withdrawn"
    assert history_reason(record) == "von der Turnierleitung zurückgezogen"


def test_admin_deletions_name_the_administrator_also_for_what_they_cascade_to(client, tournament):
    admin_user = UserFactory(username="admin", is_staff=True, is_superuser=True)
    client.force_login(admin_user)
    table = released_table(tournament)
    Game.objects.create(table=table, number=1, kind=GameKind.NORMAL, p1=1, p2=-1, p3=1, p4=-1)
    url = reverse("admin:tournament_table_delete", args=[table.pk])
    recorded(lambda: client.post(url, {"post": "yes"}), admin_user, "administrator")
    assert Game.history.filter(history_type="-").get().history_user == admin_user


def test_changing_a_tournaments_settings_names_the_director(director_client, tournament):
    director_user = tournament.directors.get()
    url = reverse("manage:tournament-edit", args=[tournament.slug])
    data = as_browser_sends(TournamentForm(instance=tournament), venue="Stadthalle")
    recorded(lambda: director_client.post(url, data), director_user, "director")
    assert tournament.history.latest("history_id").venue == "Stadthalle"


@pytest.mark.parametrize("role", ["", "player"])
@pytest.mark.parametrize("reason", ["typed by a person", event("entry-fee")])
def test_a_bulk_history_record_says_what_a_stamped_save_says(
    tournament, director_user, reason, role
):
    """Two ways to write a history record (an instance's save, many rows at once), one
    definition of its audit columns: who, in which role, and why."""
    entry = EntryFactory(tournament=tournament)
    stamp(entry, director_user, reason, role=role).save()
    bulk.history(
        Entry, Entry.objects.filter(pk=entry.pk).values(), "~", director_user, role, reason
    )
    saved, written = entry.history.order_by("-history_id")[:2][::-1]
    columns = ("history_user_id", "history_role", "history_change_reason", "history_event",
               "history_params")  # fmt: skip
    assert [getattr(written, c) for c in columns] == [getattr(saved, c) for c in columns]
    assert saved.history_role == (role or "director")
    assert history_reason(written) == history_reason(saved) == str(reason)


def test_history_records_are_written_only_through_the_audit_helpers():
    """``stamp`` (a save) and ``bulk.history`` (many rows) are the only ways the site names
    the actor and reason of a history record: no module sets simple-history's hooks or
    writes history rows by itself."""
    root = Path(__file__).resolve().parents[2] / "tournament"
    bypasses = re.compile(
        r"\._history_user\s*=|\._change_reason\s*=|\._history_role\s*=|bulk_history_create"
        r"|\.history\.(create|bulk_create|update)\("
    )
    own = {root / "models" / "audit.py"}
    found = [
        f"{path.relative_to(root)}:{number}"
        for path in root.rglob("*.py")
        if path not in own and "migrations" not in path.parts
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if bypasses.search(line)
    ]
    assert found == []


def _device(tournament, director_user):
    devices_domain.new_pairing(tournament, 1, director_user)
    device = TableDevice.objects.get(tournament=tournament)
    devices_domain.revoke(device, director_user)
    return device


def _call_handled(tournament, director_user):
    call = referees_domain.call_referee(released_table(tournament), Actor("Tisch 1"))
    referees_domain.handle_call(call, director_user)
    return call


def _published(tournament, director_user):
    entry = EntryFactory(tournament=tournament, publish=False)
    return entries_domain.set_publish(entry, True, director_user)


def _fee(tournament, director_user):
    return fees_domain.set_fee(EntryFactory(tournament=tournament), "paid", director_user)


def _all_present(tournament, director_user):
    entry = EntryFactory(tournament=tournament, checked_in=False)
    entries_domain.check_in_all(tournament, user=director_user)
    return entry


@pytest.mark.parametrize(
    ("verb", "code"),
    [
        (_device, "device-revoked"),
        (_call_handled, "call-handled"),
        (_published, "consent-given"),
        (_fee, "entry-fee"),
        (_all_present, "all-present"),  # many rows at once: bulk.history
    ],
)
def test_each_verb_records_its_event_with_its_actor(tournament, director_user, verb, code):
    changed = verb(tournament, director_user)
    record = changed.history.order_by("history_id").last()
    assert record.history_event == code
    assert (record.history_user, record.history_role) == (director_user, "director")
