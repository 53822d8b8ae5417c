"""The keeper's calculator in place (issue 35, section 4): "Berechnen" computes inside the
sheet page instead of leaving it for the full calculator page; without JavaScript the link
and the button still work as plain pages."""

import pytest
from playwright.sync_api import expect

from tests.e2e.test_sheet_flow import PHONE
from tests.factories import TournamentFactory, released_table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def tick_a_game(panel):
    panel.locator('input[name=re][value="2"]').check()
    panel.locator('input[name=re][value="4"]').check()
    panel.locator("input[name=re_eyes]").fill("151")


@pytest.mark.parametrize("locale, button", [("de-DE", "Berechnen"), ("en-GB", "Calculate")])
def test_calculate_stays_on_the_sheet(live_server, browser, locale, button):
    table = released_table(TournamentFactory(rule_profile="ddv"))
    context = browser.new_context(**{**PHONE, "locale": locale})
    phone = context.new_page()
    phone.set_default_timeout(15_000)
    sheet_url = f"{live_server.url}/tisch/{table.token}/"
    phone.goto(sheet_url)
    phone.evaluate("window.stillTheSheet = true")
    phone.locator("#calculator-link").click()
    panel = phone.locator("#calculator-box")
    expect(panel).to_be_visible()
    tick_a_game(panel)
    # The answer to the typed card points replaces the result above the facts: wait for it,
    # or the next tick lands while the result grows and the facts move under the pointer.
    row = phone.locator("#calculator-result .row-to-write td")
    expect(row.nth(1)).to_have_text("+2")
    panel.locator("input[name=announced_re]").check()
    panel.get_by_role("button", name=button, exact=True).click()
    expect(row.nth(1)).to_have_text("+4")
    assert phone.url == sheet_url
    assert phone.evaluate("window.stillTheSheet === true")
    expect(phone.locator("#game-form")).to_have_count(1)
    context.close()


def test_without_javascript_the_full_calculator_page_computes(live_server, browser):
    table = released_table(TournamentFactory(rule_profile="ddv"))
    context = browser.new_context(**PHONE, java_script_enabled=False)
    phone = context.new_page()
    phone.set_default_timeout(15_000)
    phone.goto(f"{live_server.url}/tisch/{table.token}/")
    phone.locator("#calculator-link").click()
    assert phone.url.endswith(f"/tisch/{table.token}/rechner/")
    tick_a_game(phone)
    phone.get_by_role("button", name="Berechnen", exact=True).click()
    expect(phone.locator(".row-to-write td").nth(1)).to_have_text("+2")
    context.close()
