"""A player in the hall opens the public standings on a phone, then finds their seat."""

import pytest
from playwright.sync_api import expect

from tests.factories import EntryFactory, PlayerFactory
from tests.tournament.test_standings import play
from tournament.models import RoundStatus, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"locale": "de-DE", "viewport": {"width": 390, "height": 844}, "is_mobile": True,
         "has_touch": True}  # fmt: skip


def test_public_standings_on_a_phone_and_the_seat_lookup(live_server, browser):
    tournament = Tournament.objects.create(
        name="Nikolausturnier", slug="nikolaus", date="2026-12-06", is_public=True,
        planned_rounds=2,
    )  # fmt: skip
    people = [
        EntryFactory(tournament=tournament, start_number=n,
                     player=PlayerFactory(first_name="Karla" if n == 7 else "Spieler",
                                          last_name=f"Nummer{n}", club="DSC"))
        for n in range(1, 9)
    ]  # fmt: skip
    a, b, c, d, e, f, g, h = people
    play(tournament, 1, [[a, b, c, d], [e, f, g, h]], [[(4, -4, 2, -2)], [(1, -1, 3, -3)]])
    play(tournament, 2, [[h, g, b, a], [d, c, f, e]], [[], []], status=RoundStatus.RELEASED)

    context = browser.new_context(**PHONE)
    phone = context.new_page()
    phone.set_default_timeout(15_000)
    phone.goto(live_server.url + "/t/nikolaus/stand/")
    expect(phone.locator("#standings-state")).to_contain_text("Vorläufiger Stand")
    first = phone.locator("#standings tbody tr").first
    expect(first).to_contain_text("Nummer1")
    expect(first.locator("td.rank")).to_have_text("1")
    expect(phone.locator("#line-7 td.total")).to_have_text("3")
    # Phone first: the page does not scroll sideways.
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 390

    phone.get_by_role("link", name="Wo sitze ich?").tap()
    phone.get_by_label("Name oder Startnummer").fill("Karla")
    phone.get_by_role("button", name="Finden").tap()
    card = phone.locator("section.card").filter(has_text="Karla Nummer7")
    rows = card.locator("tbody tr")
    expect(rows).to_have_count(2)
    # Round 1: table 2, position 3; round 2: table 1, position 2.
    expect(rows.nth(0)).to_have_text("123")
    expect(rows.nth(1)).to_have_text("212")
    context.close()
