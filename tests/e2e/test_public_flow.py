"""A player in the hall opens the public standings on a phone, then finds their seat."""

import pytest
from playwright.sync_api import expect

from tests.factories import EntryFactory, PlayerFactory
from tests.tournament.exports.test_standings import play
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


DESKTOP = {"locale": "de-DE", "viewport": {"width": 1280, "height": 900}}


def _hall(slug="hall"):
    """Twelve players with clubs, no teams, two rounds counted, one registered no-show."""
    tournament = Tournament.objects.create(
        name="Kassler Dreikönigsturnier mit langem Namen", slug=slug, date="2027-01-06",
        is_public=True, planned_rounds=3,
    )  # fmt: skip
    names = ["Jürgen Kässmann", "Klaus Weiß", "Anna Müller-Lüdenscheidt", "Zoë Schröder",
             "Heinz Mann", "Peter Wagner", "Ute Hoffmann", "Michael Brandt",
             "Sandra Dąbrowska", "Gabi Zimmermann", "Rolf Jäger", "Ayşe Yılmaz"]  # fmt: skip
    people = []
    for number, name in enumerate(names, start=1):
        first, last = name.split(" ", 1)
        player = PlayerFactory(first_name=first, last_name=last, club="Doko-Freunde Kassel 1987")
        people.append(EntryFactory(tournament=tournament, start_number=number, player=player))
    late = PlayerFactory(first_name="Karla", last_name="Spät", club="")
    EntryFactory(tournament=tournament, start_number=13, player=late)
    a, b, c, d, e, f, g, h, i, j, k, m = people
    play(tournament, 1, [[a, b, c, d], [e, f, g, h], [i, j, k, m]],
         [[(120, -120, 60, -60)], [(10, -10, 30, -30)], [(-5, 5, -5, 5)]])  # fmt: skip
    play(tournament, 2, [[m, k, b, a], [d, c, f, e], [h, g, j, i]],
         [[(-40, 40, -40, 40)], [(7, -7, 7, -7)], [(1, -1, 1, -1)]])  # fmt: skip
    play(tournament, 3, [[a, e, i, m], [b, f, j, k], [c, d, g, h]], [[], [], []],
         status=RoundStatus.RELEASED)  # fmt: skip
    return tournament


def _visible(page, selector) -> bool:
    """Seen without scrolling sideways: on screen and inside the viewport's width."""
    box = page.locator(selector).bounding_box()
    width = page.viewport_size["width"]
    return (
        box is not None and box["width"] > 0 and box["x"] >= 0 and box["x"] + box["width"] <= width
    )


def test_a_phone_sees_rank_name_and_total_without_scrolling_sideways(live_server, browser):
    _hall()
    context = browser.new_context(**PHONE)
    phone = context.new_page()
    phone.set_default_timeout(15_000)
    phone.goto(live_server.url + "/t/hall/stand/")
    row = "#line-1"  # Jürgen Kässmann: 120 + 40 = 160 points, first
    expect(phone.locator(f"{row} td.rank")).to_have_text("1")
    expect(phone.locator(f"{row} td.total")).to_have_text("160")
    for cell in ("td.rank", "td.name", "td.total"):
        assert _visible(phone, f"{row} {cell}"), cell
    # The table itself fits: nothing to scroll sideways inside its box either.
    sizes = phone.evaluate("[document.querySelector('#standings').scrollWidth,"
                           " document.querySelector('.rows-wrap').clientWidth]")  # fmt: skip
    assert sizes[0] <= sizes[1] <= 390
    # Start number, club and rounds are in the line under the name; no empty team column.
    expect(phone.locator(f"{row} .detail")).to_have_text(
        "Nr.\u00a01 · Doko-Freunde Kassel 1987 · R1\u00a0120 · R2\u00a040"
    )
    expect(phone.locator(f"{row} td.fold").first).to_be_hidden()
    expect(phone.locator("#standings thead th")).to_have_text(["Platz", "Nr.", "Name", "Verein",
                                                               "R1", "R2", "Summe"])  # fmt: skip
    expect(phone.locator("#standings thead th:visible")).to_have_text(["Platz", "Name", "Summe"])
    # The no-show is not ranked: listed below the table.
    expect(phone.locator("#not-started h2")).to_have_text("Nicht angetreten")
    expect(phone.locator("#absent-13")).to_have_text("13 Karla Spät")
    expect(phone.locator("#line-13")).to_have_count(0)

    # The poll every 30 s swaps the body (the same request as hx-get): the layout survives it.
    phone.evaluate("document.querySelector('#standings').dataset.old = 'yes'")
    phone.evaluate(
        "htmx.ajax('GET', location.pathname, {target: '#standings-body', swap: 'innerHTML'})"
    )
    expect(phone.locator("#standings")).not_to_have_attribute("data-old", "yes")
    assert _visible(phone, "#line-1 td.total")
    expect(phone.locator("#standings thead th:visible")).to_have_text(["Platz", "Name", "Summe"])
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    context.close()


def test_a_desktop_sees_every_column(live_server, browser):
    _hall()
    context = browser.new_context(**DESKTOP)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(live_server.url + "/t/hall/stand/")
    expect(page.locator("#standings thead th:visible")).to_have_text(
        ["Platz", "Nr.", "Name", "Verein", "R1", "R2", "Summe"]
    )
    expect(page.locator("#line-1 .detail")).to_be_hidden()
    assert _visible(page, "#line-1 td.total")
    context.close()


def test_a_phone_finds_its_seat_however_the_umlauts_are_typed(live_server, browser):
    _hall()
    context = browser.new_context(**{**PHONE, "locale": "en-GB"})
    context.add_cookies([{"name": "django_language", "value": "en", "url": live_server.url}])
    phone = context.new_page()
    phone.set_default_timeout(15_000)
    phone.goto(live_server.url + "/t/hall/stand/")
    phone.get_by_role("link", name="Where do I sit?").tap()
    field = phone.get_by_label("Name or start number")
    for typed in ("Kaessmann", "kassmann", "KÄSS"):
        field.fill(typed)
        phone.get_by_role("button", name="Find").tap()
        card = phone.locator("#seat-1")
        expect(card.locator("h2")).to_have_text("1 Jürgen Kässmann")
        # Round 3 is being played: table 1, position 1, first and large.
        expect(card.locator(".now")).to_have_text("Round 3: table 1, position 1")
        field = phone.get_by_label("Name or start number")
    field.fill("weiss")
    phone.get_by_role("button", name="Find").tap()
    expect(phone.locator("#seat-2 h2")).to_have_text("2 Klaus Weiß")
    # The table of the running round leads to the table plan, that table marked.
    phone.locator("#seat-2 tr.current a").tap()
    expect(phone.locator("#table-2")).to_contain_text("Klaus Weiß")
    assert phone.url.endswith("#table-2")
    assert _visible(phone, "#table-2")  # scrolled to, whole on the screen, and marked
    shadow = phone.locator("#table-2").evaluate("card => getComputedStyle(card).boxShadow")
    assert shadow != "none"
    assert phone.locator("#table-1").evaluate("card => getComputedStyle(card).boxShadow") == "none"
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    context.close()
