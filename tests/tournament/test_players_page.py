"""The director's players page (issue 15, points 5-8): correcting an entry, check-in by start
number and all at once, merging duplicates, and a page whose labels name the right field."""

from collections import Counter
from html.parser import HTMLParser

import pytest
from django.urls import reverse

from tests.factories import (
    EntryFactory,
    PlayerFactory,
    RoundFactory,
    TournamentFactory,
    director,
)
from tournament.domain.entries import register
from tournament.models import Entry, EntryStatus, Player
from tournament.queries.players import PlayerData

pytestmark = pytest.mark.django_db


class Page(HTMLParser):
    """Ids, the labels' targets and which form (numbered as met) every control and label is in."""

    def __init__(self, html: str):
        super().__init__()
        self.ids: Counter[str] = Counter()
        self.attrs_by_id: dict[str, dict] = {}
        self.labels: list[tuple[str, str, int | None]] = []  # (for, text, form number)
        self.controls: dict[str, int | None] = {}  # id -> form number
        self.forms: dict[str, int] = {}  # form id -> form number
        self._form: int | None = None
        self._count = 0
        self._label: list | None = None
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if "id" in attrs:
            self.ids[attrs["id"]] += 1
            self.attrs_by_id[attrs["id"]] = attrs
        if tag == "form":
            self._count += 1
            self._form = self._count
            if "id" in attrs:
                self.forms[attrs["id"]] = self._count
        if tag in ("input", "select", "textarea") and "id" in attrs:
            self.controls[attrs["id"]] = self._form
        if tag == "label" and attrs.get("for"):
            self._label = [attrs["for"], "", self._form]

    def handle_endtag(self, tag):
        if tag == "form":
            self._form = None
        if tag == "label" and self._label is not None:
            self.labels.append((self._label[0], self._label[1].strip(), self._label[2]))
            self._label = None

    def handle_data(self, data):
        if self._label is not None:
            self._label[1] += data


parse = Page


def assert_clean(page: Page) -> None:
    duplicates = [name for name, count in page.ids.items() if count > 1]
    assert duplicates == []
    unbound = [target for target, _text, _form in page.labels if target not in page.ids]
    assert unbound == []


def entry_list(client, tournament, **params):
    return client.get(reverse("manage:entry-list", args=[tournament.slug]), params)


# --- point 8: one id per element, labels that focus the right field -------------------------


def test_the_add_forms_club_label_names_the_add_forms_club_field(director_client, tournament):
    EntryFactory(tournament=tournament)
    page = parse(entry_list(director_client, tournament).content.decode())
    assert_clean(page)
    add_form = page.forms["add-entry-form"]
    club = [f for f, text, form in page.labels if text == "Verein" and form == add_form]
    assert club == ["id_club"] and page.controls["id_club"] == add_form
    # The filter's club field is another element, with its own label.
    assert page.controls["filter_club"] != add_form
    assert ("filter_club", "Verein") in [(f, t) for f, t, _n in page.labels]


def test_the_filter_still_reads_the_same_address(director_client, tournament):
    EntryFactory(tournament=tournament, player=PlayerFactory(last_name="Alpha", club="Kassel"))
    EntryFactory(tournament=tournament, player=PlayerFactory(last_name="Beta", club="Fulda"))
    html = entry_list(director_client, tournament, club="kass").content.decode()
    assert "Alpha" in html and "Beta" not in html


def test_a_player_added_with_a_club_keeps_the_club(director_client, tournament):
    url = reverse("manage:entry-add", args=[tournament.slug])
    director_client.post(url, {"first_name": "Anna", "last_name": "Schäfer", "club": "DSC"})
    assert Player.objects.get(last_name="Schäfer").club == "DSC"


@pytest.mark.parametrize("page_name", ["edit", "merge"])
def test_the_new_pages_have_unique_ids_and_bound_labels(director_client, tournament, page_name):
    entry = EntryFactory(tournament=tournament)
    url = {
        "edit": reverse("manage:entry-edit", args=[tournament.slug, entry.pk]),
        "merge": reverse("manage:player-merge", args=[tournament.slug]),
    }[page_name]
    response = director_client.get(url)
    assert response.status_code == 200
    assert_clean(parse(response.content.decode()))


# --- point 6: check-in by start number and all at once ---------------------------------------


@pytest.fixture
def field(tournament):
    anna = register(tournament, PlayerData("Anna", "Schäfer"))
    bernd = register(tournament, PlayerData("Bernd", "Wolf"))
    carla = register(tournament, PlayerData("Carla", "Vogt"))
    return anna, bernd, carla


def test_typing_start_numbers_checks_players_in_one_after_the_other(
    director_client, tournament, field
):
    """Without JavaScript: number + Enter, back to the page with the message, the field
    focused for the next number and a button to undo this check-in."""
    url = reverse("manage:entry-checkin-number", args=[tournament.slug])
    response = director_client.post(url, {"number": "2"}, follow=True)
    page = response.content.decode()
    assert "Bernd Wolf (2) eingecheckt." in page
    parsed = parse(page)
    assert "autofocus" in parsed.attrs_by_id["quick_number"]
    assert parsed.attrs_by_id["quick_number"].get("value") in (None, "")
    assert "Check-in von Bernd Wolf zurücknehmen" in page
    director_client.post(url, {"number": "3"})
    assert set(
        tournament.entries.filter(checked_in=True).values_list("start_number", flat=True)
    ) == {
        2,
        3,
    }
    # The undo button posts the usual check-in toggle.
    bernd = field[1]
    director_client.post(
        reverse("manage:entry-checkin", args=[tournament.slug, bernd.pk]), {"checked_in": "0"}
    )
    assert not Entry.objects.get(pk=bernd.pk).checked_in


def test_the_fast_field_with_its_script_gets_the_message_the_row_and_the_counts(
    director_client, tournament, field
):
    url = reverse("manage:entry-checkin-number", args=[tournament.slug])
    response = director_client.post(url, {"number": "1"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    html = response.content.decode()
    page = parse(html)
    assert page.attrs_by_id[f"checkin-{field[0].pk}"]["hx-swap-oob"] == "true"
    assert page.attrs_by_id["quick-undo"]["hx-swap-oob"] == "true"
    assert "Check-in von Anna Schäfer zurücknehmen" in html
    assert page.attrs_by_id["entry-counts"]["hx-swap-oob"] == "true"
    assert "3 aktive Spieler, 1 eingecheckt." in html
    assert "Anna Schäfer (1) eingecheckt." in html


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("", "Bitte eine Startnummer eingeben."),
        ("abc", "Bitte eine Startnummer eingeben (nur Ziffern)."),
        ("0", "größer oder gleich 1"),
        ("99", "Die Startnummer 99 hat niemand."),
        ("2", "Bernd Wolf (2) ist zurückgezogen: bitte erst wieder zulassen."),
        ("1", "Anna Schäfer (1) ist bereits eingecheckt."),
    ],
)
def test_a_wrong_number_gets_a_clear_message_and_changes_nothing(
    director_client, tournament, field, typed, message
):
    anna, bernd, _carla = field
    director_client.post(
        reverse("manage:entry-checkin-number", args=[tournament.slug]), {"number": "1"}
    )
    Entry.objects.filter(pk=bernd.pk).update(status=EntryStatus.WITHDRAWN)
    before = list(tournament.entries.values_list("pk", "checked_in", "checked_in_at"))
    url = reverse("manage:entry-checkin-number", args=[tournament.slug])
    for headers in ({}, {"HTTP_HX_REQUEST": "true"}):
        response = director_client.post(url, {"number": typed}, follow=True, **headers)
        assert message in response.content.decode()
    assert list(tournament.entries.values_list("pk", "checked_in", "checked_in_at")) == before


def test_all_present_checks_in_every_active_player(director_client, tournament, field):
    anna, bernd, carla = field
    Entry.objects.filter(pk=bernd.pk).update(status=EntryStatus.WITHDRAWN)
    page = entry_list(director_client, tournament).content.decode()
    assert "Alle 2 noch nicht eingecheckten aktiven Spieler einchecken" in page
    response = director_client.post(
        reverse("manage:entry-checkin-all", args=[tournament.slug]), follow=True
    )
    assert "2 Spieler eingecheckt." in response.content.decode()
    states = dict(tournament.entries.values_list("pk", "checked_in"))
    assert states == {anna.pk: True, bernd.pk: False, carla.pk: True}
    assert "Alle anwesend" not in response.content.decode()  # nobody left to check in


def test_only_the_tournaments_directors_check_in(client, tournament, field):
    other = director(username="fremd")
    client.force_login(other)
    for name in ("manage:entry-checkin-all", "manage:entry-checkin-number"):
        response = client.post(reverse(name, args=[tournament.slug]), {"number": "1"})
        assert response.status_code == 404
    assert not tournament.entries.filter(checked_in=True).exists()


# --- point 5: correcting an entry ------------------------------------------------------------


def edit_url(tournament, entry):
    return reverse("manage:entry-edit", args=[tournament.slug, entry.pk])


def form_data(**values):
    data = {"first_name": "", "last_name": "", "club": "", "ddv_number": "", "team": ""}
    data.update(values)
    return data


def test_the_players_row_leads_to_the_correction_page(director_client, tournament, field):
    page = entry_list(director_client, tournament).content.decode()
    assert f'href="{edit_url(tournament, field[0])}"' in page
    form = director_client.get(edit_url(tournament, field[0])).content.decode()
    assert 'value="Schäfer"' in form and "Änderungsverlauf" in form


def test_a_correction_is_saved_and_shown_in_the_history(director_client, tournament, field):
    anna = field[0]
    response = director_client.post(
        edit_url(tournament, anna),
        form_data(
            first_name="Anna",
            last_name="Schaefer",
            club="DSC",
            team="Nordlichter",
            start_number="7",
            reason="laut Ausweis",
        ),
    )
    assert response.status_code == 302
    anna.refresh_from_db()
    assert (anna.player.last_name, anna.player.club, anna.start_number) == ("Schaefer", "DSC", 7)
    assert anna.team.name == "Nordlichter"
    page = director_client.get(edit_url(tournament, anna)).content.decode()
    assert "leiterin: laut Ausweis" in page


def test_a_bad_correction_gets_a_message_and_changes_nothing(director_client, tournament, field):
    anna = field[0]
    response = director_client.post(
        edit_url(tournament, anna), form_data(first_name="Anna", start_number="2")
    )
    assert response.status_code == 400
    assert "Dieses Feld ist zwingend erforderlich." in response.content.decode()
    response = director_client.post(
        edit_url(tournament, anna), form_data(last_name="Schäfer", start_number="2")
    )
    assert response.status_code == 400
    assert "Startnummer 2 ist bereits vergeben." in response.content.decode()
    anna.refresh_from_db()
    assert (anna.player.full_name, anna.start_number) == ("Anna Schäfer", 1)


def test_after_the_draw_the_start_number_field_is_fixed(director_client, tournament, field):
    anna = field[0]
    RoundFactory(tournament=tournament)
    page = parse(director_client.get(edit_url(tournament, anna)).content.decode())
    assert "disabled" in page.attrs_by_id["id_start_number"]
    response = director_client.post(
        edit_url(tournament, anna),
        form_data(first_name="Anna", last_name="Schäfer", club="Neu", start_number="9"),
    )
    assert response.status_code == 302
    anna.refresh_from_db()
    assert (anna.start_number, anna.player.club) == (1, "Neu")


def test_another_directors_entry_cannot_be_edited(client, tournament, field):
    client.force_login(director(username="fremd"))
    url = edit_url(tournament, field[0])
    assert client.get(url).status_code == 404
    assert client.post(url, form_data(last_name="X", start_number="1")).status_code == 404
    assert Player.objects.get(pk=field[0].player_id).last_name == "Schäfer"


# --- issue 35: what withdrawing does, before and after the first draw -----------------------

BEFORE_DRAW = "Vor der ersten Auslosung geht der Platz an den Ersten der Warteliste"
AFTER_DRAW = "Das Turnier hat begonnen: Von der Warteliste rückt niemand nach."


def test_withdrawing_says_what_happens_before_and_after_the_first_draw(
    director_client, tournament, field
):
    url = reverse("manage:entry-list", args=[tournament.slug])
    page = director_client.get(url).content.decode()
    assert BEFORE_DRAW in page and AFTER_DRAW not in page
    state = page.split('data-state="')[1].split('"')[0]

    RoundFactory(tournament=tournament)  # the first round is drawn: nobody moves up any more
    page = director_client.get(url).content.decode()
    assert AFTER_DRAW in page and BEFORE_DRAW not in page
    assert "behält die bisher erspielten Punkte" in page
    # A page left open since before the draw gets the rows anew with its next poll.
    poll = director_client.get(url, HTTP_HX_REQUEST="true", HTTP_X_PLAYERS_STATE=state)
    assert poll.status_code == 200
    assert AFTER_DRAW in poll.content.decode() and BEFORE_DRAW not in poll.content.decode()


# --- point 7: merging duplicates -------------------------------------------------------------


def test_the_merge_page_suggests_duplicates_and_merges_them(
    director_client, director_user, tournament
):
    earlier = TournamentFactory(directors=[director_user])
    keep = PlayerFactory(first_name="Anna", last_name="Schäfer")
    drop = PlayerFactory(first_name="Anna", last_name="Schaefer")
    EntryFactory(tournament=earlier, player=keep)
    moved = EntryFactory(tournament=tournament, player=drop)
    url = reverse("manage:player-merge", args=[tournament.slug])
    page = director_client.get(url).content.decode()
    assert f"?keep={keep.pk}&amp;drop={drop.pk}" in page
    response = director_client.post(
        url, {"keep": keep.pk, "drop": drop.pk, "reason": "dieselbe Person"}, follow=True
    )
    assert "Anna Schaefer in Anna Schäfer zusammengeführt." in response.content.decode()
    assert Entry.objects.get(pk=moved.pk).player_id == keep.pk
    assert not Player.objects.filter(pk=drop.pk).exists()


def test_the_merge_drop_downs_list_the_players_in_german_order(director_client, tournament):
    # The database sorts umlauts after z (Krämer, Kuhn, Köhler); people and the print pack
    # read Köhler before Krämer.
    for last in ("Kuhn", "Krämer", "Köhler", "Kaiser", "Öztürk", "Oswald"):
        EntryFactory(tournament=tournament, player=PlayerFactory(first_name="A", last_name=last))
    page = director_client.get(reverse("manage:player-merge", args=[tournament.slug]))
    html = page.content.decode()
    for name in ("keep", "drop"):
        select = html.split(f'name="{name}"')[1].split("</select>")[0]
        names = [option.split(",")[0] for option in select.split(">")[1:] if "· #" in option]
        assert names == ["Kaiser", "Köhler", "Krämer", "Kuhn", "Oswald", "Öztürk"]


def test_a_director_cannot_merge_a_player_of_someone_elses_tournament(director_client, tournament):
    keep = PlayerFactory(first_name="Jürgen", last_name="Müller")
    EntryFactory(tournament=tournament, player=keep)
    stranger = PlayerFactory(first_name="Jürgen", last_name="Mueller")
    EntryFactory(tournament=TournamentFactory(directors=[director(username="x")]), player=stranger)
    url = reverse("manage:player-merge", args=[tournament.slug])
    page = director_client.get(url).content.decode()
    assert "Mueller" not in page  # neither suggested nor offered
    response = director_client.post(url, {"keep": keep.pk, "drop": stranger.pk, "reason": "x"})
    assert response.status_code == 400
    assert "Bitte eine gültige Auswahl treffen" in response.content.decode()
    assert Player.objects.filter(pk=stranger.pk).exists()


def test_import_preview_shows_a_spelt_out_umlaut_as_known(
    director_client, director_user, tournament
):
    from django.core.files.uploadedfile import SimpleUploadedFile

    known = PlayerFactory(first_name="Jürgen", last_name="Müller", club="")
    EntryFactory(tournament=TournamentFactory(directors=[director_user]), player=known)
    upload = SimpleUploadedFile("liste.csv", b"Vorname;Nachname\r\nJuergen;Mueller\r\n")
    response = director_client.post(
        reverse("manage:import", args=[tournament.slug]), {"file": upload}
    )
    page = response.content.decode()
    assert "0 neue Spieler" in page
    assert "Jürgen Müller" in page  # the stored spelling, next to the typed one


@pytest.mark.parametrize("typed", ["Mueller", "muller", "MÜLL", "jurgen", "3"])
def test_the_name_filter_does_not_care_how_umlauts_were_typed(director_client, tournament, typed):
    EntryFactory(
        tournament=tournament,
        start_number=3,
        player=PlayerFactory(first_name="Jürgen", last_name="Müller"),
    )
    wolf = PlayerFactory(first_name="Bernd", last_name="Wolf")
    EntryFactory(tournament=tournament, start_number=4, player=wolf)
    html = entry_list(director_client, tournament, q=typed).content.decode()
    assert "Müller, Jürgen" in html and "Wolf" not in html


@pytest.mark.parametrize("typed", ["%", "_", "-", "x" * 500])
def test_odd_filter_input_finds_nobody_and_does_not_fail(director_client, tournament, typed):
    EntryFactory(tournament=tournament, player=PlayerFactory(last_name="Wolf"))
    response = entry_list(director_client, tournament, q=typed)
    assert response.status_code == 200 and "Wolf" not in response.content.decode()


def test_a_check_in_in_the_row_also_updates_the_counts(director_client, tournament, field):
    url = reverse("manage:entry-checkin", args=[tournament.slug, field[0].pk])
    response = director_client.post(url, {"checked_in": "1"}, HTTP_HX_REQUEST="true")
    page = parse(response.content.decode())
    assert page.attrs_by_id["entry-counts"]["hx-swap-oob"] == "true"
    assert "3 aktive Spieler, 1 eingecheckt." in response.content.decode()
    assert "hx-swap-oob" not in page.attrs_by_id[f"checkin-{field[0].pk}"]  # the target itself


def test_the_history_keeps_another_directors_notes_to_themselves(director_client, tournament):
    """A player shared with another director's tournament: this director sees what changed,
    not who changed it there or why."""
    entry = register(tournament, PlayerData("Anna", "Schäfer"))
    other = director(username="nachbarverein")
    EntryFactory(tournament=TournamentFactory(directors=[other]), player=entry.player)
    player = Player.objects.get(pk=entry.player_id)
    player.club = "TSV"
    player._history_user = other
    player._change_reason = "Notiz nur für den Nachbarverein"
    player.save()
    page = director_client.get(edit_url(tournament, entry)).content.decode()
    assert "TSV" in page
    assert "nachbarverein" not in page and "Notiz nur für den Nachbarverein" not in page
