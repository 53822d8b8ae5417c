"""A keeper takes a game's row from the Spielwert-Rechner on a phone and saves it; the game
keeps its facts, and the statistics count the Re/Kontra figure from them (German and
English, 390 px wide)."""

import tempfile
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.factories import TournamentFactory, released_table
from tournament.models import Game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


@pytest.mark.parametrize(
    ("language", "locale", "known", "saved"),
    [
        ("de", "de-DE", "aus 1 von 1 Spiel mit erfasstem Spielverlauf", "Spiel 1 gespeichert."),
        ("en", "en-GB", "from 1 of 1 game with the course of play recorded", "Game 1 saved."),
    ],
)
def test_calculator_row_saved_then_statistics_show_re_and_kontra(
    live_server, browser, language, locale, known, saved
):
    tournament = TournamentFactory(slug="herbst", is_public=True, standings_live=True)
    table = released_table(tournament)
    context = browser.new_context(locale=locale, **PHONE)
    context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
    phone = context.new_page()
    phone.set_default_timeout(15_000)
    phone.goto(f"{live_server.url}/tisch/{table.token}/")
    phone.locator("#calculator-link").tap()
    panel = phone.locator("#calculator-box")
    # Re: 1 and 3, "Re" announced, 151 card points: Re wins 4 (TSR 7.2.2).
    panel.locator('input[name=re][value="1"]').check()
    panel.locator('input[name=re][value="3"]').check()
    panel.locator("input[name=re_eyes]").fill("151")
    row = phone.locator("#calculator-result .row-to-write td")
    expect(row.nth(0)).to_have_text("+2")
    panel.locator("input[name=announced_re]").check()
    expect(row.nth(0)).to_have_text("+4")
    phone.locator("#calculator-take-button").tap()
    expect(panel).to_have_count(0)
    phone.locator("#save-game").tap()
    expect(phone.locator("#notice")).to_have_text(saved)
    game = Game.objects.get(table=table)
    assert game.points == [4, -4, 4, -4]
    assert game.facts["re"] == [1, 3] and game.facts["announced"] == ["re"]

    phone.goto(f"{live_server.url}/t/herbst/statistik/1/")
    expect(phone.locator("#facts-known")).to_have_text(known)
    won_as_re = phone.locator("#facts-re td").nth(1)
    expect(won_as_re.locator("summary")).to_have_text("1")
    won_as_re.locator("summary").tap()
    expect(won_as_re.locator(".game-refs")).to_be_visible()
    expect(won_as_re.locator(".game-refs li")).to_have_count(1)
    expect(phone.locator("#facts-announced-re td").nth(3)).to_have_text("100 %")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    phone.screenshot(path=Path(tempfile.gettempdir()) / f"kreuzdame-facts-{language}.png")
    context.close()
