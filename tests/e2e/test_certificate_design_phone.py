"""The certificate design page on a phone (issue 38, test finding 4): in German, nothing
wider than the screen (the logo's file field stayed wider than the card), and the way back
to the prize page the director came from."""

import pytest

from tests.e2e.test_players_page import client_login
from tests.factories import director
from tournament.models import Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_design_page_fits_a_phone_and_leads_back(live_server, browser):
    user = director(username="leiterin")
    tournament = Tournament.objects.create(
        name="Adventsturnier", slug="advent", date="2026-12-19", rule_profile="ddv"
    )
    tournament.directors.add(user)
    context = browser.new_context(viewport={"width": 390, "height": 844})
    context.add_cookies([{"name": "django_language", "value": "de", "url": live_server.url}])
    page = context.new_page()
    page.set_default_timeout(15_000)
    client_login(page, live_server, user)
    page.goto(f"{live_server.url}/manage/advent/prizes/")
    page.click("#certificate-design")
    page.wait_for_selector("#certificate-design-form")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert page.locator("label", has_text="Unterschrift links (Name)").count() == 1
    page.click("#back")
    page.wait_for_url(f"{live_server.url}/manage/advent/prizes/")
    context.close()
