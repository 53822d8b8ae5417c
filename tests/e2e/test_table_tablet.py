"""A tablet that stays at its table (issue 35), as a club runs it: the director makes a pairing
code on the page "Tablets", the tablet scans its QR code once (plain http on a LAN name, as in
the hall), round 1 is played on it, the round is closed and round 2 released while the tablet
is offline; back online it shows round 2's sheet of the same table number without anything
scanned. Revoked, the game it held offline is not saved and is shown as not on the list."""

import re
import tempfile
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.e2e.test_director_flow import login_cookies
from tests.e2e.test_offline_entry import (  # noqa: F401 - fixtures
    HALL,
    PHONE,
    enter,
    hall_browser,
    hall_url,
    phone_context,
)
from tests.factories import TournamentFactory, director, released_table
from tournament.domain import devices, draw
from tournament.models import Game, Round, RoundStatus, Seat, Table, TableDevice

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# The tablet asks every 8 s where its table plays (device.js): wait for two of its polls.
FOLLOW = 20_000


def shot(page, name, full_page=True):
    path = Path(tempfile.gettempdir()) / f"tablet-{name}.png"
    page.screenshot(path=path, full_page=full_page)


def close_and_draw_next(table: Table) -> Round:
    """Round 1 closed, round 2 drawn: the same players at a table of the same number."""
    round_1 = table.round
    Round.objects.filter(pk=round_1.pk).update(status=RoundStatus.CLOSED)
    round_2 = Round.objects.create(
        tournament=round_1.tournament, number=2, status=RoundStatus.DRAWN
    )
    other = Table.objects.create(round=round_2, number=table.number, size=table.size)
    for seat in table.seats.all():
        Seat.objects.create(round=round_2, table=other, entry=seat.entry, position=seat.position)
    return round_2


@pytest.fixture
def boss():
    return director(username="leiterin")


def office_page(hall_browser, hall_url, boss, tournament, locale="de-DE"):  # noqa: F811
    context = hall_browser.new_context(locale=locale, viewport={"width": 1280, "height": 900})
    context.add_cookies(login_cookies(hall_url, boss))
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(f"{hall_url}/manage/{tournament.slug}/tablets/")
    return page


def make_code(office, number, label):
    office.get_by_label("Tisch", exact=True).fill(str(number))
    office.get_by_label("Name des Geräts (freiwillig)").fill(label)
    office.get_by_role("button", name="Kopplungscode erzeugen").click()
    code = office.locator("#pairing-code").inner_text()
    assert re.fullmatch(r"[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}", code)
    expect(office.locator("#new-pairing-code svg")).to_be_visible()  # the QR code
    return code


def test_a_paired_tablet_plays_round_1_then_round_2_at_the_same_table_and_is_revoked(
    hall_browser,  # noqa: F811
    hall_url,  # noqa: F811
    phone_context,  # noqa: F811
    boss,
):
    tournament = TournamentFactory(rule_profile="ddv", directors=[boss], slug="herbst")
    table = released_table(tournament, table_number=3)
    office = office_page(hall_browser, hall_url, boss, tournament)
    code = make_code(office, 3, "Tablet blau")
    shot(office, "office-code")

    tablet_context = phone_context()
    tablet = tablet_context.new_page()
    # The QR code's address: the code in the fragment, sent by the page once.
    tablet.goto(f"{hall_url}/geraet/#{code}")
    expect(tablet.get_by_role("heading", name="Tisch 3 · Runde 1")).to_be_visible()
    assert tablet.url == f"{hall_url}/tisch/{table.token}/"
    shot(tablet, "round-1")

    enter(tablet, 1, (1, 2), 1)
    expect(tablet.locator("#notice")).to_contain_text("Spiel 1 gespeichert")
    assert Game.objects.filter(table=table).count() == 1

    # The round is closed: the tablet shows the final sheet and that it waits.
    round_2 = close_and_draw_next(table)
    expect(tablet.locator("#round-closed")).to_be_visible(timeout=FOLLOW)
    expect(tablet.locator("#device-follow")).to_contain_text("wechselt von selbst")
    shot(tablet, "between-rounds")

    # Offline while round 2 is released; back online it goes there by itself.
    tablet_context.set_offline(True)
    draw.release(round_2, boss)
    # The tablet asks while offline, and stays where it is.
    with tablet.expect_event(
        "requestfailed", lambda request: "/geraet/stand/" in request.url, timeout=FOLLOW
    ):
        pass
    expect(tablet.get_by_role("heading", name="Tisch 3 · Runde 1")).to_be_visible()
    tablet_context.set_offline(False)
    expect(tablet.get_by_role("heading", name="Tisch 3 · Runde 2")).to_be_visible(timeout=FOLLOW)
    second = round_2.tables.get(number=3)
    assert tablet.url == f"{hall_url}/tisch/{second.token}/"
    shot(tablet, "round-2")

    office.reload()
    row = office.locator("#device-table tbody tr").first
    expect(row).to_contain_text("Tablet blau")
    expect(row).to_contain_text("gekoppelt")
    expect(row).to_contain_text("gerade eben")

    # A game saved offline, then the director revokes the pairing: back online, the game is
    # refused, shown as not on the list, and the tablet says it is no longer paired.
    tablet_context.set_offline(True)
    enter(tablet, 1, (1, 3), 2)
    expect(tablet.locator("#outbox")).to_contain_text("nicht gesendet")
    row.get_by_role("button", name="Aufheben").click()
    expect(office.locator(".messages")).to_contain_text("nicht mehr gekoppelt")
    tablet_context.set_offline(False)
    expect(tablet.locator("#device-revoked")).to_contain_text(
        "nicht mehr mit Tisch 3 gekoppelt", timeout=FOLLOW
    )
    expect(tablet.locator("#outbox")).to_contain_text("1 Spiel darauf ist nicht in der Liste")
    expect(tablet.locator("tr.not-on-list")).to_contain_text("nicht in der Liste")
    assert not Game.objects.filter(table=second).exists()
    shot(tablet, "revoked")


def test_in_english_a_tablet_paired_before_the_first_round_waits_for_it_and_sees_its_revocation(
    hall_browser,  # noqa: F811
    hall_url,  # noqa: F811
    phone_context,  # noqa: F811
    boss,
):
    tournament = TournamentFactory(directors=[boss], slug="herbst")
    office = office_page(hall_browser, hall_url, boss, tournament, locale="en-GB")
    office.get_by_label("Table", exact=True).fill("1")
    office.get_by_role("button", name="Make a pairing code").click()
    code = office.locator("#pairing-code").inner_text()
    tablet = phone_context(locale="en-GB").new_page()
    tablet.goto(f"{hall_url}/geraet/")
    tablet.get_by_label("Pairing code").fill(code.lower().replace("-", ""))
    tablet.get_by_role("button", name="Pair").click()
    expect(tablet.locator("#device-waiting")).to_contain_text("The first round is not released yet")
    shot(tablet, "waiting-en")
    round_1 = released_table(tournament, table_number=1).round
    expect(tablet.get_by_role("heading", name="Table 1 · Round 1")).to_be_visible(timeout=FOLLOW)
    assert round_1.status == RoundStatus.RELEASED
    # Revoked with nothing queued: the open sheet notices by itself and says so.
    devices.revoke(TableDevice.objects.get(), boss)
    expect(tablet.locator("#device-revoked")).to_contain_text(
        "This tablet is no longer paired with table 1", timeout=FOLLOW
    )
    shot(tablet, "revoked-en")


def test_a_game_held_offline_past_the_close_stays_in_view_until_the_keeper_moves_on(
    hall_browser,  # noqa: F811
    hall_url,  # noqa: F811
    phone_context,  # noqa: F811
    boss,
):
    tournament = TournamentFactory(rule_profile="ddv", directors=[boss], slug="herbst")
    table = released_table(tournament, table_number=2)
    code = domain_code(tournament, 2, boss)
    tablet_context = phone_context()
    tablet = tablet_context.new_page()
    tablet.goto(f"{hall_url}/geraet/#{code}")
    expect(tablet.get_by_role("heading", name="Tisch 2 · Runde 1")).to_be_visible()
    tablet_context.set_offline(True)
    enter(tablet, 1, (1, 2), 1)
    round_2 = close_and_draw_next(table)
    draw.release(round_2, boss)
    tablet_context.set_offline(False)
    # The round was closed meanwhile: the game is refused and listed as not on the list, and
    # the tablet does not move on by itself, which would hide it.
    expect(tablet.locator("tr.not-on-list")).to_contain_text("nicht in der Liste", timeout=FOLLOW)
    go = tablet.locator("#device-follow").get_by_role("link", name="Weiter zur nächsten Runde")
    expect(go).to_be_visible(timeout=FOLLOW)
    expect(tablet.get_by_role("heading", name="Tisch 2 · Runde 1")).to_be_visible()
    tablet.evaluate("window.scrollTo(0, 0)")
    shot(tablet, "held-past-close", full_page=False)
    go.click()
    expect(tablet.get_by_role("heading", name="Tisch 2 · Runde 2")).to_be_visible()
    assert not Game.objects.exists()


def domain_code(tournament, number, user):
    from tournament.domain.devices import new_pairing, shown_code

    return shown_code(new_pairing(tournament, number, user))
