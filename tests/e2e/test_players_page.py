"""The players page in Chromium (issue 15, points 5, 6 and 8): the label "Verein" of the add
form fills the add form's club, start numbers typed one after the other check players in
without a reload, a wrong one is explained, and a registered player can be corrected."""

import os
from pathlib import Path

import pytest

from tests.factories import director
from tournament.domain.entries import register
from tournament.models import Entry, Player, Tournament
from tournament.queries.players import PlayerData

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Set SCREENSHOTS=/some/folder to keep pictures of the page (phone and desktop) for a look.
SHOTS = os.environ.get("SCREENSHOTS")


def shot(page, name):
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"{name}.png"), full_page=True)


@pytest.fixture
def desk(live_server, page):
    user = director(username="leiterin")
    tournament = Tournament.objects.create(
        name="Adventsturnier", slug="advent", date="2026-12-19", rule_profile="ddv"
    )
    tournament.directors.add(user)
    for first, last, club in [
        ("Jürgen", "Müller", "Doko-Freunde Kassel"),
        ("Anna", "Schäfer", "Herz Dame Fulda"),
        ("Bernd", "Wolf", ""),
        ("Carla", "Vogt", "Pik As Gießen"),
    ]:
        register(tournament, PlayerData(first, last, club), director=user)
    page.context.add_cookies([{"name": "django_language", "value": "de", "url": live_server.url}])
    client_login(page, live_server, user)
    page.goto(f"{live_server.url}/manage/advent/")
    return tournament


def client_login(page, live_server, user):
    from django.conf import settings
    from django.test import Client

    client = Client()
    client.force_login(user)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME]
    page.context.add_cookies(
        [{"name": settings.SESSION_COOKIE_NAME, "value": cookie.value, "url": live_server.url}]
    )


def test_the_club_label_of_the_add_form_fills_the_add_form(desk, page):
    add = page.locator("#add-entry-form")
    add.get_by_text("Verein", exact=True).click()
    page.keyboard.type("DSC Testhausen")
    add.get_by_label("Nachname").fill("Neumann")
    add.get_by_label("Vorname").fill("Nora")
    add.get_by_role("button", name="Eintragen").click()
    page.get_by_text("Nora Neumann mit Startnummer 5 eingetragen.").wait_for()
    assert Player.objects.get(last_name="Neumann").club == "DSC Testhausen"
    assert page.locator("#filter_club").input_value() == ""


def next_number(page, number):
    """Type into whatever has the focus: after Enter the focus stays in the emptied field."""
    page.keyboard.type(number)
    page.keyboard.press("Enter")


def test_start_numbers_typed_one_after_the_other_check_players_in(desk, page):
    page.wait_for_function("window.htmx !== undefined")
    page.evaluate("window.stillTheSamePage = true")
    field = page.get_by_label("Einchecken per Startnummer")
    field.fill("2")
    field.press("Enter")
    page.get_by_text("Anna Schäfer (2) eingecheckt.").wait_for()
    # The field is empty and has the focus again: just type the next number.
    next_number(page, "4")
    page.get_by_text("Carla Vogt (4) eingecheckt.").wait_for()
    assert field.input_value() == ""
    page.get_by_text("4 aktive Spieler, 2 eingecheckt.").wait_for()
    row = page.locator("tr", has_text="Vogt, Carla")
    row.get_by_role("button", name="anwesend").wait_for()  # the row changed without a reload
    next_number(page, "4")
    page.get_by_text("Carla Vogt (4) ist bereits eingecheckt.").wait_for()
    next_number(page, "77")
    page.get_by_text("Die Startnummer 77 hat niemand.").wait_for()
    page.set_viewport_size({"width": 390, "height": 844})
    shot(page, "players-phone-de")
    page.set_viewport_size({"width": 1280, "height": 900})
    shot(page, "players-desktop-de")
    assert page.evaluate("window.stillTheSamePage") is True  # htmx: no reload
    checked = set(Entry.objects.filter(checked_in=True).values_list("start_number", flat=True))
    assert checked == {2, 4}
    # A wrong check-in is undone in the player's row.
    row.get_by_role("button", name="anwesend").click()
    row.get_by_role("button", name="Einchecken").wait_for()
    assert not Entry.objects.get(start_number=4).checked_in
    page.locator("#all-present summary").click()
    page.get_by_role("button", name="Alle 3 noch nicht eingecheckten").click()
    page.get_by_text("3 Spieler eingecheckt.").wait_for()
    assert Entry.objects.filter(checked_in=True).count() == 4


def test_a_registered_player_is_corrected(desk, page):
    page.locator("tr", has_text="Schäfer, Anna").get_by_role("link", name="Bearbeiten").click()
    page.get_by_label("Nachname").fill("Schaefer-Lang")
    page.get_by_label("Team").fill("Nordlichter")
    page.get_by_label("Grund (für den Änderungsverlauf)").fill("Doppelname vergessen")
    page.get_by_role("button", name="Speichern").click()
    page.get_by_text("Anmeldung 2 korrigiert: Anna Schaefer-Lang.").wait_for()
    page.locator("tr", has_text="Schaefer-Lang, Anna").get_by_role(
        "link", name="Bearbeiten"
    ).click()
    page.get_by_text("Doppelname vergessen").first.wait_for()  # the history shows the reason
    page.set_viewport_size({"width": 390, "height": 844})
    shot(page, "edit-phone-de")
    page.set_viewport_size({"width": 1280, "height": 900})
    shot(page, "edit-desktop-de")
    entry = Entry.objects.select_related("player", "team").get(start_number=2)
    assert (entry.player.last_name, entry.team.name) == ("Schaefer-Lang", "Nordlichter")


def test_the_page_in_english(desk, page, live_server):
    page.context.add_cookies([{"name": "django_language", "value": "en", "url": live_server.url}])
    page.goto(f"{live_server.url}/manage/advent/")
    field = page.get_by_label("Check in by start number")
    field.fill("1")
    field.press("Enter")
    page.get_by_text("Jürgen Müller (1) checked in.").wait_for()
    page.set_viewport_size({"width": 390, "height": 844})
    shot(page, "players-phone-en")
    page.set_viewport_size({"width": 1280, "height": 900})
    shot(page, "players-desktop-en")
    page.goto(f"{live_server.url}/manage/advent/players/merge/")
    shot(page, "merge-desktop-en")


def test_a_duplicate_is_merged_from_the_suggestion(desk, page, live_server):
    user = desk.directors.get()
    earlier = Tournament.objects.create(
        name="Herbstturnier", slug="herbst", date="2026-10-03", rule_profile="ddv"
    )
    earlier.directors.add(user)
    # Entered before matching knew the spelling "ae" (registering now would link to Schäfer).
    duplicate = Player.objects.create(
        first_name="Anna", last_name="Schaefer", club="Herz Dame Fulda", ddv_number="10231"
    )
    Entry.objects.create(tournament=earlier, player=duplicate, start_number=1)
    schaefer = Player.objects.get(last_name="Schäfer")
    page.get_by_role("link", name="Spieler zusammenführen").click()
    page.get_by_role("link", name="diese beiden wählen").click()
    page.get_by_label("Grund (für den Änderungsverlauf)").fill("dieselbe Person, Tippfehler")
    page.set_viewport_size({"width": 390, "height": 844})
    shot(page, "merge-phone-de")
    page.set_viewport_size({"width": 1280, "height": 900})
    shot(page, "merge-desktop-de")
    page.get_by_role("button", name="Zusammenführen").click()
    page.get_by_text("zusammengeführt.").wait_for()
    # The suggestion keeps the row with the DDV member number.
    kept = Player.objects.get(ddv_number="10231")
    assert kept.pk == duplicate.pk and not Player.objects.filter(pk=schaefer.pk).exists()
    assert {e.tournament.slug for e in kept.entries.all()} == {"advent", "herbst"}


def test_numbers_typed_quickly_are_all_checked_in(desk, page):
    """A desk typing faster than the server answers: every number arrives, none glued to the
    next one, in the order typed."""
    page.wait_for_function("window.htmx !== undefined")
    page.get_by_label("Einchecken per Startnummer").focus()
    for number in ("1", "3", "2", "1"):
        next_number(page, number)
    page.get_by_text("Jürgen Müller (1) ist bereits eingecheckt.").wait_for()
    page.get_by_text("4 aktive Spieler, 3 eingecheckt.").wait_for()
    checked = set(Entry.objects.filter(checked_in=True).values_list("start_number", flat=True))
    assert checked == {1, 2, 3}
