"""Issue 35, section 1, in Chromium on a 390x844 phone: a table's QR code scanned before its
round is released says so and becomes the keeper's page by itself once the director releases
the round; the player's page shows the new seat by itself, without a reload."""

import os
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.factories import EntryFactory, PlayerFactory, TournamentFactory, director
from tournament.domain import draw
from tournament.models import Round, RoundStatus, Seat, Table
from tournament.views import keeper, register

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Set SCREENSHOTS=/some/folder to keep pictures of the pages for a look.
SHOTS = os.environ.get("SCREENSHOTS")
PHONE = {"width": 390, "height": 844}


def shot(page, name):
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"{name}.png"), full_page=True)


@pytest.fixture
def drawn_round(live_server, page, monkeypatch):
    """Round 1 drawn, not released: table 1 with four players. The pages ask again every
    two seconds here (ten and twenty in the hall)."""
    monkeypatch.setattr(keeper, "NOT_RELEASED_REFRESH", 2)
    monkeypatch.setattr(register, "DAY_POLL_SECONDS", 2)
    user = director(username="leiterin")
    tournament = TournamentFactory(name="Adventsturnier", slug="advent", directors=[user])
    round_ = Round.objects.create(tournament=tournament, number=1, status=RoundStatus.DRAWN)
    table = Table.objects.create(round=round_, number=1, size=4)
    entries = []
    for position, name in enumerate(["Müller", "Schäfer", "Weiß", "Yılmaz"], start=1):
        entry = EntryFactory(
            tournament=tournament, start_number=position, player=PlayerFactory(last_name=name)
        )
        Seat.objects.create(round=round_, table=table, entry=entry, position=position)
        entries.append(entry)
    page.set_viewport_size(PHONE)
    page.context.add_cookies([{"name": "django_language", "value": "de", "url": live_server.url}])
    return round_, table, entries, user


def test_a_table_link_scanned_before_the_release_opens_by_itself(live_server, page, drawn_round):
    round_, table, _entries, user = drawn_round
    page.goto(f"{live_server.url}/tisch/{table.token}/")
    # (read by retrying expects: the page reloads itself every 2 s here, and a read in the
    # middle of a reload would fail)
    expect(page.locator("#not-released-text")).to_have_text(
        "Runde 1 ist noch nicht freigegeben - diese Seite öffnet sich von selbst, "
        "sobald sie es ist."
    )
    expect(page.locator("body")).not_to_contain_text("Müller")  # the seats are not public yet
    shot(page, "table-not-released-de")
    draw.release(round_, user)
    # No tap, no reload by hand: the page asks again and is the keeper's page now.
    page.locator("#sheet").wait_for(timeout=15_000)
    assert page.url == f"{live_server.url}/tisch/{table.token}/"
    assert "Müller" in page.locator("#sheet").inner_text()
    assert page.locator("#not-released").count() == 0


def test_the_players_page_shows_the_seat_once_the_round_is_released(live_server, page, drawn_round):
    round_, _table, entries, user = drawn_round
    page.goto(f"{live_server.url}/anmeldung/{entries[1].token}/")
    assert "Runde 1 ist noch nicht freigegeben." in page.locator("#day-seat").inner_text()
    assert page.locator("#confirm-code").inner_text() == entries[1].confirm_code
    page.evaluate("window.stillTheSamePage = true")
    draw.release(round_, user)
    seat = page.locator("#seat-now")
    seat.wait_for(timeout=15_000)
    assert seat.inner_text() == "Tisch 1 · Position 2"
    assert page.evaluate("window.stillTheSamePage") is True  # refreshed in place
    mates = page.locator("#day-mates").inner_text()
    assert "Müller" in mates and "Sie" in mates
    # Without a connection the page keeps what it shows, and goes on once it is back.
    page.context.set_offline(True)
    with page.expect_event("requestfailed", timeout=15_000):  # a refresh without a network
        pass
    assert page.locator("#seat-now").inner_text() == "Tisch 1 · Position 2"
    page.context.set_offline(False)
    with page.expect_response(lambda r: "/anmeldung/" in r.url and r.status == 200):
        pass
    assert page.evaluate("window.stillTheSamePage") is True
    assert page.locator("#seat-now").inner_text() == "Tisch 1 · Position 2"
    # Fits the phone: nothing wider than the screen.
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(page, "personal-seat-de")
    page.context.add_cookies([{"name": "django_language", "value": "en", "url": live_server.url}])
    page.reload()
    assert page.locator("#seat-now").inner_text() == "Table 1 · position 2"
    shot(page, "personal-seat-en")
