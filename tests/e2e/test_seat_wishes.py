"""The seat wishes on a 390 px phone (issue 39), in German and English: a couple typed as
start numbers lands in the card's list with its message where the browser lands; a refused
group shows its message at the form, the typed numbers kept and nothing saved; removing a
group; a fixed table set on the player's edit page is listed in the card with its link. The
card never makes the page wider than the phone."""

import pytest

from tests.e2e.test_players_page import client_login, shot
from tests.factories import director
from tournament.domain.entries import register
from tournament.models import ApartGroup, Entry, Tournament
from tournament.queries.players import PlayerData

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PLAYERS = [
    ("Jürgen", "Müller"),
    ("Jutta", "Müller"),
    ("Anna", "Schäfer"),
    ("Bernd", "Wolf"),
    ("Carla", "Vogt"),
    ("Dieter", "Roth"),
    ("Eva", "Kern"),
    ("Fritz", "Lang"),
]
HEIGHT = 844


def phone_for(live_server, browser, language):
    user = director(username="leiterin")
    tournament = Tournament.objects.create(
        name="Adventsturnier", slug="advent", date="2026-12-19", rule_profile="ddv"
    )
    tournament.directors.add(user)
    for first, last in PLAYERS:
        register(tournament, PlayerData(first, last, "Doko-Freunde Kassel"), director=user)
    context = browser.new_context(
        viewport={"width": 390, "height": HEIGHT}, locale="de-DE" if language == "de" else "en-GB"
    )
    context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
    page = context.new_page()
    page.set_default_timeout(15_000)
    client_login(page, live_server, user)
    page.goto(f"{live_server.url}/manage/advent/")
    return context, page


@pytest.fixture
def german(live_server, browser):
    context, page = phone_for(live_server, browser, "de")
    yield page
    context.close()


@pytest.fixture
def english(live_server, browser):
    context, page = phone_for(live_server, browser, "en")
    yield page
    context.close()


def on_screen(page, selector: str) -> bool:
    box = page.locator(selector).first.bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + 20 <= HEIGHT


def as_wide_as_the_phone(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth") <= 390


def refused_group(page, label: str, button: str, numbers: str) -> str:
    """Enter a never-together group the card refuses; its error, shown beside the form and
    in view."""
    card = page.locator("#seat-wishes")
    card.get_by_label(label).fill(numbers)
    card.get_by_role("button", name=button).click()
    error = page.locator("#apart-group-form .error")
    error.wait_for()
    assert on_screen(page, "#apart-group-form .error")
    return error.inner_text()


def test_a_couple_is_entered_refused_and_removed_in_german(german):
    page = german
    card = page.locator("#seat-wishes")
    card.get_by_label("Nie an einem Tisch (Startnummern)").fill("1, 2")
    card.get_by_label("Notiz (für die Turnierleitung)").fill("Ehepaar")
    card.get_by_role("button", name="Hinzufügen").click()
    page.locator("#wish-messages").wait_for()
    assert (
        "Nie an einem Tisch: Jürgen Müller (1), Jutta Müller (2)."
        in page.locator("#wish-messages").inner_text()
    )
    assert on_screen(page, "#wish-messages")
    group = ApartGroup.objects.get()
    assert sorted(group.members.values_list("start_number", flat=True)) == [1, 2]
    listed = page.locator(f"#apart-group-{group.pk}").inner_text()
    assert "1 Jürgen Müller" in listed and "2 Jutta Müller" in listed and "Ehepaar" in listed
    assert as_wide_as_the_phone(page)
    shot(page, "seat-wishes-de")

    # Jutta is in a group already: refused, the message at the form, the numbers kept.
    error = refused_group(page, "Nie an einem Tisch (Startnummern)", "Hinzufügen", "2, 3")
    assert "Jutta Müller (2) ist schon in einer Nie-zusammen-Gruppe" in error
    assert page.get_by_label("Nie an einem Tisch (Startnummern)").input_value() == "2, 3"
    assert ApartGroup.objects.count() == 1
    assert as_wide_as_the_phone(page)
    shot(page, "seat-wishes-refused-de")

    page.get_by_role("link", name="Zurück zu den Spielern").click()
    page.get_by_role("button", name="Nie an einem Tisch 1, 2 entfernen").click()
    page.locator("#wish-messages").wait_for()
    assert "Nie an einem Tisch 1, 2 entfernt." in page.locator("#wish-messages").inner_text()
    assert not ApartGroup.objects.exists()


def test_a_fixed_table_is_set_and_listed_in_german(german):
    page = german
    carla = Entry.objects.get(start_number=5)
    page.locator(f"#edit-{carla.pk}").click()
    page.get_by_label("Fester Tisch").fill("1")
    page.get_by_role("button", name="Speichern").click()
    page.locator("#fixed-tables").wait_for()
    assert Entry.objects.get(pk=carla.pk).fixed_table == 1
    link = page.locator("#fixed-tables").get_by_role("link", name="5 Carla Vogt")
    assert "Tisch 1" in page.locator("#fixed-tables").inner_text()
    link.click()
    assert page.get_by_label("Fester Tisch").input_value() == "1"


def test_the_card_speaks_english(english):
    page = english
    card = page.locator("#seat-wishes")
    assert card.get_by_role("heading", name="Seat wishes").is_visible()
    card.get_by_label("Never at one table (start numbers)").fill("3 4 5")
    card.get_by_label("Note (for the office)").fill("family")
    card.get_by_role("button", name="Add").click()
    page.locator("#wish-messages").wait_for()
    assert "Never at one table: Anna Schäfer (3), Bernd Wolf (4), Carla Vogt (5)." in (
        page.locator("#wish-messages").inner_text()
    )
    # Eight players sit at two tables: three who never meet do not fit, and the card says so.
    warning = page.locator("#wish-warnings").inner_text()
    assert warning.startswith("8 players sit at 2 tables: the draw would refuse. These 3 players")
    assert "3 Anna Schäfer, 4 Bernd Wolf, 5 Carla Vogt" in warning
    assert as_wide_as_the_phone(page)
    shot(page, "seat-wishes-en")

    error = refused_group(page, "Never at one table (start numbers)", "Add", "6, 99")
    assert "Nobody has start number 99." in error
    assert ApartGroup.objects.count() == 1
