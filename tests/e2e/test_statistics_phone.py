"""A player opens the statistics on a phone, from the public standings: the figures fit
without sideways scrolling, a tap on a number lists the games it counts; in English too."""

import pytest
from playwright.sync_api import expect

from tests.factories import TournamentFactory, released_table, settle
from tests.tournament.test_statistics import play
from tournament.models import RoundStatus

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


def test_the_statistics_on_a_phone_in_german_and_english(live_server, browser):
    tournament = TournamentFactory(slug="herbst", name="Herbstturnier", is_public=True)
    table = released_table(tournament)
    play(table)
    table.round.status = RoundStatus.CLOSED
    table.round.save()
    settle(tournament)
    for language, locale, games_word, game_four in (
        ("de", "de-DE", "Gespielte Spiele", "Runde 1, Tisch 1, Spiel 4"),
        ("en", "en-GB", "Games played", "round 1, table 1, game 4"),
    ):
        context = browser.new_context(locale=locale, **PHONE)
        context.add_cookies(
            [{"name": "django_language", "value": language, "url": live_server.url}]
        )
        phone = context.new_page()
        phone.set_default_timeout(15_000)
        phone.goto(f"{live_server.url}/t/herbst/stand/")
        phone.locator(".public-links a[href$='/statistik/']").tap()
        expect(phone.locator("#event-games")).to_have_text("6")
        phone.locator("#event-players a[href$='/statistik/1/']").tap()
        expect(phone.locator("#stats-figures")).to_contain_text(games_word)
        assert phone.evaluate("document.documentElement.scrollWidth") <= 390
        # Lost: the Lustsolo of game 4 (start number 1 is Anna of the known sheet).
        lost = phone.locator("#stats-kinds tr.kind-L details")
        lost.locator("summary").tap()
        expect(lost.locator(".game-refs")).to_contain_text(game_four)
        assert phone.evaluate("document.documentElement.scrollWidth") <= 390
        context.close()
