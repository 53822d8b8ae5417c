"""The players page at desktop widths (issue 35, section 4): every row's actions - the fee
buttons, Bearbeiten, Zurückziehen, Code - lie inside the table's box from 1280 px up, with
long names, clubs, a team, badges and a ticked fee; on a 390 px phone the table scrolls
inside its box and the actions can still be reached."""

import pytest

from tests.e2e.test_players_page import client_login
from tests.factories import director
from tournament.domain.entries import register
from tournament.domain.fees import set_fee
from tournament.models import Tournament
from tournament.queries.players import PlayerData

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PLAYERS = [
    ("Brigitte", "Hoffmann-Becker", "Doppelkopf-Freunde Bad Hersfeld 1987 e.V."),
    ("Maximilian-Alexander", "Schmidt-Leutheusser", "Kreuz Bube Rotenburg an der Fulda"),
    ("Anna", "Schäfer", "Herz Dame Fulda"),
    ("Bernd", "Wolf", ""),
]


@pytest.fixture
def players_page(live_server, browser):
    user = director(username="leiterin")
    tournament = Tournament.objects.create(
        name="Adventsturnier",
        slug="advent",
        date="2026-12-19",
        rule_profile="ddv",
        entry_fee=10,
    )
    tournament.directors.add(user)
    for number, (first, last, club) in enumerate(PLAYERS, start=1):
        entry = register(
            tournament,
            PlayerData(first, last, club),
            director=user,
            team_name="Nordlichter Nordhessen" if number < 3 else "",
        )
        if number % 2:
            set_fee(entry, "paid", user)
        else:
            set_fee(entry, "waived", user)

    def open_at(width, height, language="de"):
        context = browser.new_context(viewport={"width": width, "height": height})
        context.add_cookies(
            [{"name": "django_language", "value": language, "url": live_server.url}]
        )
        page = context.new_page()
        page.set_default_timeout(15_000)
        client_login(page, live_server, user)
        page.goto(f"{live_server.url}/manage/advent/")
        return page

    return open_at


def outside(page):
    """The action controls of each row whose right edge lies beyond the table's box."""
    return page.evaluate(
        """() => {
        const box = document.querySelector('.entries-scroll').getBoundingClientRect();
        const cut = [];
        for (const el of document.querySelectorAll(
            '#entries-table .fee button, #entries-table .edit-entry,'
            + ' #entries-table td form.inline button, #entries-table .code-reveal summary')) {
            const r = el.getBoundingClientRect();
            if (r.right > box.right + 0.5 || r.left < box.left - 0.5)
                cut.push(el.textContent.trim());
        }
        return cut;
    }"""
    )


@pytest.mark.parametrize("width", [1280, 1440, 1600, 1920])
@pytest.mark.parametrize("language", ["de", "en"])
def test_every_action_is_in_view_at_desktop_widths(players_page, width, language):
    page = players_page(width, 900, language)
    page.locator("#entries-table .edit-entry").first.wait_for()
    assert outside(page) == []
    scroll = page.locator(".entries-scroll")
    assert scroll.evaluate("el => el.scrollWidth <= el.clientWidth")
    page.context.close()


def test_on_a_phone_the_table_scrolls_in_its_box_and_the_actions_work(players_page):
    page = players_page(390, 844)
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    first_row = page.locator("#entries-table tbody tr").first
    first_row.get_by_role("button", name="erlassen").click()
    first_row.locator(".fee-waived.on").wait_for()
    first_row.locator(".edit-entry").click()
    page.get_by_role("heading", name="Brigitte Hoffmann-Becker").wait_for()
    page.context.close()
