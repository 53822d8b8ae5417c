"""The director's players page keeps itself up to date (issue 20, point 5): a player who taps
"I am here" on their personal link (a phone, another browser) or is checked in elsewhere
appears as checked in within a few seconds, without a reload, and the list of players still
missing shrinks — while the desk's fast check-in field keeps what is being typed."""

import datetime
import os
from pathlib import Path

import pytest
from django.urls import reverse

from tests.e2e.test_players_page import client_login
from tests.factories import director
from tournament.domain import fees
from tournament.domain import registrations as registrations_domain
from tournament.domain.entries import register, set_checked_in
from tournament.models import Entry, FeeStatus, Tournament
from tournament.queries.players import PlayerData

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Set SCREENSHOTS=/some/folder to keep pictures of the page (phone and desktop) for a look.
SHOTS = os.environ.get("SCREENSHOTS")
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
LIVE_WAIT = 12_000  # ms: the page asks every 4 s


def shot(page, name):
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"{name}.png"), full_page=True)


@pytest.fixture
def hall(live_server, page):
    """A tournament with online registration and check-in by link open: three players the
    director typed in (one of them checked in at the desk), three registered online; a 10 €
    fee, two paid."""
    user = director(username="leiterin")
    tournament = Tournament.objects.create(
        name="Neujahrsturnier",
        slug="neujahr",
        date=datetime.date(2027, 1, 16),
        rule_profile="ddv",
        registration_open=True,
        checkin_open=True,
        entry_fee="10.00",
    )
    tournament.directors.add(user)
    typed = [
        register(tournament, PlayerData(first, last, club), director=user)
        for first, last, club in [
            ("Jürgen", "Müller", "Doko-Freunde Kassel"),
            ("Anna", "Schäfer", "Herz Dame Fulda"),
            ("Bernd", "Wolf", ""),
        ]
    ]
    set_checked_in(typed[0], True, user)
    registrations = [
        registrations_domain.submit(
            tournament,
            registrations_domain.Details(
                first, last, club=club, email=f"{last.lower()}@example.org"
            ),
            consent="ok",
        )
        for first, last, club in [
            ("Lena", "Hartwig", "Doko-Freunde Kassel"),
            ("Jonas", "Brenner", ""),
            ("Fatma", "Aydin", "Die Füchse Köln"),
        ]
    ]
    for entry in (typed[0], registrations[0].entry):
        fees.set_fee(entry, FeeStatus.PAID, user)
    page.context.add_cookies([{"name": "django_language", "value": "de", "url": live_server.url}])
    client_login(page, live_server, user)
    page.goto(f"{live_server.url}/manage/neujahr/")
    page.wait_for_function("window.htmx !== undefined")
    page.evaluate("window.stillTheSamePage = true")
    return tournament, registrations


def missing(page) -> list[str]:
    return page.locator("#missing-players li").evaluate_all(
        "items => items.map(item => item.dataset.start)"
    )


def wait_missing(page, numbers: list[int]) -> None:
    expected = ",".join(str(n) for n in numbers)
    page.wait_for_function(
        "expected => [...document.querySelectorAll('#missing-players li')]"
        ".map(li => li.dataset.start).join(',') === expected",
        arg=expected,
        timeout=LIVE_WAIT,
    )


def test_a_check_in_on_the_personal_link_appears_on_the_directors_page(
    hall, page, browser, live_server
):
    tournament, (lena, jonas, _fatma) = hall
    assert missing(page) == ["2", "3", "4", "5", "6"]
    page.get_by_text("6 aktive Spieler, 1 eingecheckt.").wait_for()
    lena_row = page.locator(f"#entry-{lena.entry_id}")
    assert lena_row.locator(".badge.online").count() == 1

    # The desk starts typing a start number while the page refreshes itself.
    field = page.locator("#quick_number")
    field.focus()
    page.keyboard.type("3")

    # Lena taps "I am here" on her phone.
    phone = browser.new_context(viewport=PHONE, locale="de-DE", is_mobile=True, has_touch=True)
    try:
        mobile = phone.new_page()
        mobile.set_default_timeout(15_000)
        mobile.goto(live_server.url + reverse("registration-personal", args=[lena.token]))
        mobile.locator("#i-am-here").click()
        mobile.locator("#checked-in").wait_for()
    finally:
        phone.close()

    wait_missing(page, [2, 3, 5, 6])
    lena_row.get_by_role("button", name="anwesend").wait_for(timeout=LIVE_WAIT)
    page.get_by_text("6 aktive Spieler, 2 eingecheckt.").wait_for(timeout=LIVE_WAIT)
    # The field the desk types in was left alone: same value, still focused.
    assert field.input_value() == "3"
    assert page.evaluate("document.activeElement.id") == "quick_number"

    # Checked in another way (a second desk, the domain verb): it shows up as well.
    set_checked_in(Entry.objects.get(pk=jonas.entry_id), True, None)
    wait_missing(page, [2, 3, 6])
    page.get_by_text("6 aktive Spieler, 3 eingecheckt.").wait_for(timeout=LIVE_WAIT)
    assert page.evaluate("window.stillTheSamePage") is True  # never reloaded

    # The desk finishes typing: the player is checked in and leaves the missing list at once.
    page.keyboard.press("Enter")
    page.get_by_text("Bernd Wolf (3) eingecheckt.").wait_for()
    wait_missing(page, [2, 6])
    assert field.input_value() == ""

    page.set_viewport_size(PHONE)
    shot(page, "players-live-phone-de")
    page.set_viewport_size(DESKTOP)
    shot(page, "players-live-desktop-de")


def test_a_fee_is_ticked_with_one_tap_and_the_sums_follow(hall, page, live_server):
    tournament, (_lena, jonas, _fatma) = hall
    page.set_viewport_size(DESKTOP)
    sums = page.locator("#fee-sums")
    assert "20,00 €" in sums.inner_text() and "40,00 €" in sums.inner_text()
    cell = page.locator(f"#fee-{jonas.entry_id}")
    cell.locator("button[value=paid]").click()  # "bezahlt"
    cell.get_by_text("leiterin").wait_for()
    page.wait_for_function(
        "() => document.querySelector('#fee-collected').textContent === '30,00 €'"
    )
    assert page.locator("#fee-outstanding").inner_text() == "30,00 €"
    assert page.evaluate("window.stillTheSamePage") is True
    assert Entry.objects.get(pk=jonas.entry_id).fee == FeeStatus.PAID
    shot(page, "players-fees-desktop-de")
    page.set_viewport_size(PHONE)
    shot(page, "players-fees-phone-de")

    # English: the same sums the English way.
    page.context.add_cookies([{"name": "django_language", "value": "en", "url": live_server.url}])
    page.goto(f"{live_server.url}/manage/neujahr/")
    assert page.locator("#fee-collected").inner_text() == "€30.00"
    page.set_viewport_size(DESKTOP)
    shot(page, "players-fees-desktop-en")
