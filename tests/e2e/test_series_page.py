"""A player opens the club championship on a phone: rank, name and value fit without
sideways scrolling; a tap on a name shows every tournament and round behind the value."""

import datetime
import tempfile
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.factories import PlayerFactory, make_series, played_tournament
from tournament.models import SeriesMethod

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


def test_the_series_on_a_phone_in_german_and_english(live_server, browser):
    names = ["Anna-Katharina Müller-Lüdenscheidt", "Jürgen Kässmann", "Zoë Schröder",
             "Heinz Mann", "Ayşe Yılmaz"]  # fmt: skip
    a, b, c, d, e = (
        PlayerFactory(first_name=n.split()[0], last_name=n.split()[1], club="DSC Kreuzdame e. V.")
        for n in names
    )
    january = [{a: 6, b: 2, c: -2, d: -6}, {a: -3, b: 3, c: 1, d: -1}]
    first, _ = played_tournament(datetime.date(2026, 1, 10), 2, january)
    second, _ = played_tournament(datetime.date(2026, 3, 14), 1, [{a: 4, b: -4, c: 2, e: -2}])
    for tournament in (first, second):
        tournament.is_public = True
        tournament.save()
    series = make_series([first, second], method=SeriesMethod.AVERAGE, min_rounds=2, is_public=True)
    context = browser.new_context(locale="de-DE", **PHONE)
    phone = context.new_page()
    phone.set_default_timeout(15_000)
    phone.goto(f"{live_server.url}/serie/{series.slug}/")
    rows = phone.locator("#series-table tbody tr")
    expect(rows).to_have_count(4)
    # A: 7 in 3 rounds = 2,33; C: 1 in 3 = 0,33; B: 1 in 3 = 0,33; D: -7 in 2 = -3,50.
    expect(rows.nth(0).locator("td.total")).to_have_text("2,33")
    expect(rows.nth(0).locator("td.name")).to_contain_text("Anna-Katharina Müller-Lüdenscheidt")
    expect(rows.nth(3).locator("td.total")).to_have_text("-3,50")
    expect(phone.locator("#series-below")).to_contain_text("Ayşe Yılmaz")
    expect(phone.locator("#series-below")).to_contain_text("1 von 2 Runden")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    phone.screenshot(path=Path(tempfile.gettempdir()) / "series-phone-de.png", full_page=True)

    rows.nth(0).get_by_role("link").tap()
    expect(phone.locator("#series-summary")).to_contain_text("Platz 1")
    cards = phone.locator("#series-results li")
    expect(cards).to_have_count(2)
    expect(cards.nth(0)).to_contain_text("R1 +6 · R2 -3")
    expect(cards.nth(1)).to_contain_text("R1 +4")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    phone.screenshot(path=Path(tempfile.gettempdir()) / "series-player-de.png", full_page=True)

    phone.get_by_role("button", name="English").tap()
    expect(phone.locator("#series-summary")).to_contain_text("Rank 1")
    expect(phone.locator("#series-summary")).to_contain_text("2.33")
    context.close()
