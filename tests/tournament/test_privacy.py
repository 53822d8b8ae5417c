"""Privacy the GDPR way (issue 34): a player who did not consent to publication is
"Spieler <start number>" without a club on every public page, the projector and the public
series files; the director's pages and files stay complete; a consent given for one
tournament publishes no other."""

import datetime
import json
from io import BytesIO

import pytest
from django.urls import reverse
from openpyxl import load_workbook

from tests.downloads import file_of
from tests.factories import (
    EntryFactory,
    PlayerFactory,
    TournamentFactory,
    make_series,
    played_tournament,
    released_table,
)
from tests.migrations import migrate_to, migrated_back
from tournament.models import Entry, Tournament

pytestmark = pytest.mark.django_db

SECRET_NAME, SECRET_CLUB = "Geheimrath", "Club der Verschwiegenen"


def hide(entry: Entry) -> Entry:
    """The entry's player as one who did not tick the consent."""
    player = entry.player
    player.last_name, player.first_name, player.club = SECRET_NAME, "Greta", SECRET_CLUB
    player.save()
    Entry.objects.filter(pk=entry.pk).update(publish=False)
    entry.refresh_from_db()
    return entry


@pytest.fixture
def hall(tournament):
    """A public tournament with a released round; start number 3 gave no consent."""
    Tournament.objects.filter(pk=tournament.pk).update(is_public=True)
    tournament.refresh_from_db()
    table = released_table(tournament)
    hidden = hide(table.seats.get(position=3).entry)
    return tournament, hidden


def assert_pseudonym(text: str, number: int = 3) -> None:
    assert SECRET_NAME not in text and "Greta" not in text
    assert SECRET_CLUB not in text
    assert f"Spieler {number}" in text


@pytest.mark.parametrize("page", ["tournament-public", "public-table-plan", "public-standings"])
def test_a_player_without_consent_is_a_pseudonym_on_the_public_pages(client, hall, page):
    tournament, _hidden = hall
    text = client.get(reverse(page, args=[tournament.slug])).content.decode()
    assert_pseudonym(text)
    assert "Spieler1" in text  # the others keep their names


def test_wo_sitze_ich_does_not_find_a_hidden_player_by_name(client, hall):
    tournament, _hidden = hall
    url = reverse("where-do-i-sit", args=[tournament.slug])
    by_name = client.get(url, {"q": SECRET_NAME})
    assert by_name.context["matches"] == []  # the name finds nobody: it tells nothing
    assert "Spieler 3" not in by_name.content.decode() and "Tisch 1" not in by_name.content.decode()
    assert "nur über die Startnummer gefunden" in by_name.content.decode()  # what to do
    by_number = client.get(url, {"q": "3"}).content.decode()
    assert_pseudonym(by_number)
    assert "Tisch 1" in by_number or "Table 1" in by_number


@pytest.mark.parametrize("public", [True, False])
def test_the_projector_shows_the_pseudonym(client, hall, public):
    tournament, _hidden = hall
    if public:
        url = reverse("public-projector-data", args=[tournament.slug])
    else:
        url = reverse("projector-data", args=[tournament.projector_token])
    data = client.get(url).json()
    text = json.dumps(data, ensure_ascii=False)
    assert_pseudonym(text)
    seated = {(seat["last"], seat["first"]) for seat in data["seating"]}
    assert ("Spieler 3", "") in seated


def test_the_directors_pages_stay_complete(director_client, hall):
    tournament, hidden = hall
    for name in ("manage:standings", "manage:entry-list"):
        text = director_client.get(reverse(name, args=[tournament.slug])).content.decode()
        assert SECRET_NAME in text
    director = director_client.get(reverse("manage:standings", args=[tournament.slug]))
    assert SECRET_CLUB in director.content.decode()
    players = director_client.get(reverse("manage:entry-list", args=[tournament.slug]))
    row = players.content.decode().split(f'id="entry-{hidden.pk}"')[1].split("</tr>")[0]
    assert "nicht öffentlich" in row  # marked for the desk


def test_a_consent_given_later_shows_at_once(client, director_client, hall):
    tournament, hidden = hall
    url = reverse("tournament-public", args=[tournament.slug])
    assert SECRET_NAME not in client.get(url).content.decode()  # now cached
    before = Tournament.objects.get(pk=tournament.pk).results_version
    form = {"first_name": "Greta", "last_name": SECRET_NAME, "club": SECRET_CLUB}
    form |= {"start_number": 3, "publish": "on", "reason": "hat am Tisch zugestimmt"}
    response = director_client.post(
        reverse("manage:entry-edit", args=[tournament.slug, hidden.pk]), form
    )
    assert response.status_code == 302
    assert Tournament.objects.get(pk=tournament.pk).results_version > before
    assert SECRET_NAME in client.get(url).content.decode()
    hidden.refresh_from_db()
    assert hidden.publish
    reasons = hidden.history.values_list("history_change_reason", flat=True)
    assert "hat am Tisch zugestimmt" in reasons  # in the history, with the reason


def test_a_consent_for_one_tournament_does_not_publish_another(client):
    """The same person plays two tournaments of a public series and consented for the
    first only: the series names them nowhere, its files neither."""
    people = [PlayerFactory(last_name=f"Spieler{n}") for n in "ABC"]
    hidden = PlayerFactory(first_name="Greta", last_name=SECRET_NAME, club=SECRET_CLUB)
    a, b, c = people
    t1, e1 = played_tournament(datetime.date(2026, 1, 10), 1, [{a: 6, b: 2, c: -2, hidden: -6}])
    t2, e2 = played_tournament(datetime.date(2026, 2, 10), 1, [{a: 3, b: 1, c: -1, hidden: -3}])
    Entry.objects.filter(pk=e2[hidden.pk].pk).update(publish=False)
    series = make_series([t1, t2])
    series.is_public = True
    series.save()
    Tournament.objects.filter(pk__in=[t1.pk, t2.pk]).update(is_public=True)
    public = client.get(reverse("series-public", args=[series.slug])).content.decode()
    assert SECRET_NAME not in public and SECRET_CLUB not in public
    assert f"Spieler {hidden.pk}" in public
    page = client.get(reverse("series-player", args=[series.slug, hidden.pk])).content.decode()
    assert SECRET_NAME not in page and SECRET_CLUB not in page
    # No results per tournament either: t1's public standings name them at those points.
    assert 'id="series-hidden"' in page and 'id="series-results"' not in page
    named = client.get(reverse("series-player", args=[series.slug, a.pk])).content.decode()
    assert 'id="series-results"' in named
    book = load_workbook(
        BytesIO(file_of(client.get(reverse("series-export", args=[series.slug, "xlsx"]))))
    )
    cells = " ".join(str(c) for sheet in book for row in sheet.iter_rows(values_only=True)
                     for c in row)  # fmt: skip
    assert SECRET_NAME not in cells and SECRET_CLUB not in cells
    results = list(book.worksheets[-1].iter_rows(values_only=True))
    assert any("SpielerA" in str(row) for row in results)  # the results sheet, per player
    assert not any(f"Spieler {hidden.pk}" in str(row) for row in results)
    # The consent of the first tournament still names them on that tournament's own pages.
    first = client.get(reverse("tournament-public", args=[t1.slug])).content.decode()
    assert SECRET_NAME in first


def test_a_new_entry_at_the_desk_is_not_published_unless_ticked(director_client, tournament):
    url = reverse("manage:entry-add", args=[tournament.slug])
    director_client.post(url, {"first_name": "Ohne", "last_name": "Haken"})
    director_client.post(url, {"first_name": "Mit", "last_name": "Haken", "publish": "on"})
    published = dict(tournament.entries.values_list("player__first_name", "publish"))
    assert published == {"Ohne": False, "Mit": True}


def test_an_entry_made_elsewhere_starts_without_consent():
    entry = Entry.objects.create(
        tournament=TournamentFactory(), player=PlayerFactory(), start_number=1
    )
    assert entry.publish is False
    assert entry.public_name == "Spieler 1" and entry.public_club == ""


def test_the_unhidden_factory_entry_is_named():
    entry = EntryFactory(player=PlayerFactory(first_name="Anna", last_name="Offen"))
    assert entry.public_name == "Anna Offen"


def _import(client, tournament, content: bytes, **confirm):
    from django.core.files.uploadedfile import SimpleUploadedFile

    upload = SimpleUploadedFile("liste.csv", content, content_type="text/csv")
    preview = client.post(reverse("manage:import", args=[tournament.slug]), {"file": upload})
    url = reverse("manage:import-confirm", args=[tournament.slug])
    client.post(url, {"token": preview.context["token"], **confirm})
    return preview


@pytest.mark.parametrize(("confirm", "without_answer"), [({}, False), ({"publish": "on"}, True)])
def test_the_import_reads_a_consent_column_and_asks_for_the_rest(
    director_client, tournament, confirm, without_answer
):
    lines = ["Vorname;Nachname;Veröffentlichen", "Anna;Ja;ja", "Bernd;Nein;nein", "Carla;Leer;"]
    preview = _import(director_client, tournament, "\n".join(lines).encode(), **confirm)
    assert "1 player without an answer" in preview.content.decode() or "1 Person ohne" in (
        preview.content.decode()
    )
    published = dict(tournament.entries.values_list("player__last_name", "publish"))
    assert published == {"Ja": True, "Nein": False, "Leer": without_answer}


def test_an_unreadable_consent_answer_is_a_line_error_and_imports_nothing(
    director_client, tournament
):
    lines = ["Nachname;Einwilligung", "Vielleicht;vielleicht"]
    preview = _import(director_client, tournament, "\n".join(lines).encode())
    assert "weder ja noch nein" in preview.content.decode()
    assert not tournament.entries.exists()


def test_the_director_downloads_everything_held_about_one_person(director_client, hall):
    tournament, hidden = hall
    url = reverse("manage:player-data", args=[tournament.slug, hidden.pk])
    response = director_client.get(url)
    assert response["Content-Disposition"].startswith("attachment")
    data = json.loads(response.content)
    assert data["player"]["last_name"] == SECRET_NAME
    assert data["player"]["history"]  # the shared row's history lines
    [played] = data["tournaments"]
    assert played["tournament"]["name"] == tournament.name
    assert played["entry"]["start_number"] == 3 and played["entry"]["publish"] is False
    assert played["rounds"] == [
        {"round": 1, "round_status": "released", "table": 1, "position": 3, "points": None,
         "penalty_points": None, "games": None}
    ]  # fmt: skip
    assert "confirm_code" not in json.dumps(data)  # keys are no personal data


def test_the_data_export_holds_the_persons_waiting_list_places_not_a_namesakes(
    director_client, tournament
):
    """A reviewer's find: registrations without a place were matched by name, so exporting
    one "Max Müller" handed over another Max Müller's e-mail address."""
    from tournament.domain import registrations

    Tournament.objects.filter(pk=tournament.pk).update(
        is_public=True, registration_open=True, registration_capacity=1
    )
    tournament.refresh_from_db()
    mine = registrations.submit(
        tournament, registrations.Details("Max", "Müller", email="max@example.org"), consent=""
    )
    later, third = (
        TournamentFactory(directors=list(tournament.directors.all()), is_public=True)
        for _ in range(2)
    )
    full = {"registration_open": True, "registration_capacity": 0}
    Tournament.objects.filter(pk__in=[later.pk, third.pk]).update(**full)
    later.refresh_from_db()
    third.refresh_from_db()
    max_ = registrations.Details("Max", "Müller", email="max@example.org")
    waiting = registrations.submit(later, max_, consent="")
    other = registrations.Details("Max", "Müller", email="other@example.org")
    namesake = registrations.submit(third, other, consent="")
    assert waiting.entry is None and namesake.entry is None  # on the waiting list
    url = reverse("manage:player-data", args=[tournament.slug, mine.entry.pk])
    data = json.loads(director_client.get(url).content)
    unplaced = data["registrations_without_a_place"]
    assert [r["email"] for r in unplaced] == ["max@example.org"]
    assert "other@example.org" not in json.dumps(data)


def test_the_data_export_is_the_directors_only(director_client, hall):
    from django.test import Client

    tournament, hidden = hall
    url = reverse("manage:player-data", args=[tournament.slug, hidden.pk])
    assert Client().get(url).status_code == 302  # to the login
    other = TournamentFactory(directors=[])
    stranger = EntryFactory(tournament=other)
    foreign = reverse("manage:player-data", args=[tournament.slug, stranger.pk])
    assert director_client.get(foreign).status_code == 404


@pytest.mark.django_db(transaction=True)
def test_the_migration_keeps_existing_entries_published_and_new_ones_start_without():
    with migrated_back([("tournament", "0027_results_version")]) as apps:
        old = apps.get_model("tournament", "Tournament").objects.create(
            name="Alt", slug="alt", date="2026-11-21", projector_token="token-alt"
        )
        player = apps.get_model("tournament", "Player").objects.create(last_name="Bisher")
        apps.get_model("tournament", "Entry").objects.create(
            tournament=old, player=player, start_number=1
        )
        apps = migrate_to([("tournament", "0030_publication_consent")])
        entries = apps.get_model("tournament", "Entry").objects
        assert entries.get(start_number=1).publish is True  # published as before
        other = apps.get_model("tournament", "Player").objects.create(last_name="Neu")
        new = entries.create(tournament_id=old.pk, player_id=other.pk, start_number=2)
        new = entries.get(pk=new.pk)
        assert new.publish is False


@pytest.mark.django_db(transaction=True)
def test_players_squatted_through_the_old_form_become_unaccepted_registrations():
    """A reviewer's find: a DDV number taken by an online registration before version 0028
    stayed blocked after the upgrade. The migration turns such players (one entry, in a
    tournament not begun) into unaccepted registrations; others stay as they are."""
    with migrated_back([("tournament", "0030_publication_consent")]) as apps:
        Tournament_ = apps.get_model("tournament", "Tournament")
        Player_ = apps.get_model("tournament", "Player")
        Entry_ = apps.get_model("tournament", "Entry")
        Registration_ = apps.get_model("tournament", "Registration")
        planned = Tournament_.objects.create(
            name="Bald", slug="bald", date="2026-12-21", projector_token="t-bald"
        )
        squatter = Player_.objects.create(last_name="Squatter", ddv_number="4711")
        desk = Player_.objects.create(last_name="Theke", ddv_number="815")
        for number, player, online in ((1, squatter, True), (2, desk, False)):
            entry = Entry_.objects.create(tournament=planned, player=player, start_number=number)
            if online:
                Registration_.objects.create(
                    tournament=planned, entry=entry, last_name="Squatter", position=1,
                    email="s@example.org", token="tok-squatter", state="confirmed",
                )  # fmt: skip
        apps = migrate_to([("tournament", "0031_unverify_online_players")])
        players = apps.get_model("tournament", "Player").objects
        freed = players.get(last_name="Squatter")
        assert (freed.unverified, freed.ddv_number) == (True, "")
        registration = apps.get_model("tournament", "Registration").objects.get()
        assert registration.ddv_number == "4711"  # kept for the director to accept
        kept = players.get(last_name="Theke")
        assert (kept.unverified, kept.ddv_number) == (False, "815")


def test_the_projector_lists_the_pseudonyms_by_number_not_by_their_hidden_names(client, hall):
    """A tester saw "Spieler 14, 20, 19, 17": the order of the hidden first names."""
    tournament, _hidden = hall
    table = tournament.rounds.get().tables.get()
    for position, first in ((1, "Zacharias"), (4, "Adam")):  # the names' order reverses 1, 4
        entry = table.seats.get(position=position).entry
        entry.player.first_name = first
        entry.player.save()
        Entry.objects.filter(pk=entry.pk).update(publish=False)
    data = client.get(reverse("public-projector-data", args=[tournament.slug])).json()
    pseudonyms = [seat["last"] for seat in data["seating"] if seat["last"].startswith("Spieler ")]
    numbers = [table.seats.get(position=p).entry.start_number for p in (1, 3, 4)]
    assert pseudonyms == [f"Spieler {n}" for n in sorted(numbers)]
