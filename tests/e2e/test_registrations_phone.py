"""The director's registrations page on a phone (390 pixels wide) in Chromium: nothing wider
than the screen, the buttons of a row within reach, and moving somebody on the waiting list
with a tap; the decline button asks before it sends."""

import datetime
import os
import re
from pathlib import Path

import pytest

from tests.e2e.test_players_page import client_login
from tests.factories import director
from tournament.domain import registrations
from tournament.models import RegistrationState, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = os.environ.get("SCREENSHOTS")  # a folder: keep a picture of the page for a look
PHONE = {"width": 390, "height": 844}


@pytest.fixture
def hall(live_server, browser):
    user = director(username="leiterin")
    tournament = Tournament.objects.create(
        name="Adventsturnier des Doppelkopfclubs Kreuz-Dame Oberweser",
        slug="advent",
        date=datetime.date(2026, 12, 19),
        rule_profile="ddv",
        is_public=True,
        registration_open=True,
        registration_capacity=2,
        registration_approval=True,
    )
    tournament.directors.add(user)
    people = [
        ("Jürgen", "Müller-Lüdenscheidt", "Doko-Freunde Kassel-Wilhelmshöhe"),
        ("Anna", "Schäfer", "Herz Dame Fulda"),
        ("Bernd", "Wolf", ""),
        ("Carla", "Vogt", "Pik As Gießen"),
    ]
    for first, last, club in people:
        email = f"{first.lower()}.{last.lower()}@ein-sehr-langer-vereinsname.example.org"
        details = registrations.Details(first, last, club=club, email=email)
        registrations.submit(tournament, details, consent="ok")
    context = browser.new_context(viewport=PHONE, locale="en-GB", has_touch=True)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.context.add_cookies([{"name": "django_language", "value": "en", "url": live_server.url}])
    client_login(page, live_server, user)
    page.goto(f"{live_server.url}/manage/advent/registrations/")
    yield page
    context.close()


def test_the_page_fits_a_phone_and_the_waiting_list_moves_with_a_tap(hall):
    page = hall
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / "registrations-phone.png"), full_page=True)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page is {width}px wide"
    for button in page.locator(".registrations button").all():
        box = button.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    waiting = page.locator("#registrations-waiting li[data-state=waiting]")
    assert waiting.count() == 2
    assert "Vogt" in waiting.nth(1).inner_text()
    waiting.nth(1).get_by_role("button", name="Move up").tap()
    page.get_by_text("Carla Vogt moved up the waiting list.").wait_for()
    first = page.locator("#registrations-waiting li[data-state=waiting]").first
    assert "Vogt" in first.inner_text()

    posts = []
    page.on("request", lambda request: request.method == "POST" and posts.append(request.url))
    pending = page.locator("#registrations-pending li[data-state=pending]").first
    decline = pending.get_by_role("button", name="Decline")
    page.once("dialog", lambda dialog: dialog.dismiss())  # asked, and the director says no
    decline.tap()
    # Asked again, the director says yes: the one request sent is this one.
    page.once("dialog", lambda dialog: dialog.accept())
    with page.expect_request(lambda request: request.method == "POST") as sent:
        decline.tap()
    page.get_by_text(re.compile(r"^The registration of .+ is declined\.$")).wait_for()
    assert posts == [sent.value.url]
    tournament = Tournament.objects.get(slug="advent")
    states = list(tournament.registrations.values_list("state", flat=True))
    assert states.count(RegistrationState.DECLINED) == 1
