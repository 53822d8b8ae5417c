"""The prize page on a 390 px phone in German (issue 38, after the test): the amount takes
the German decimal comma as typed, and a refused input shows where the browser lands: the
"Nicht gespeichert" banner at the top of the screen and the form with its message below."""

import datetime
from decimal import Decimal

import pytest

from tests.e2e.test_players_page import client_login
from tests.factories import director
from tournament.domain import prizes as verbs
from tournament.models import Prize, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def phone(live_server, browser):
    user = director(username="leiterin")
    tournament = Tournament.objects.create(
        name="Adventsturnier",
        slug="advent",
        date=datetime.date(2026, 12, 19),
        rule_profile="ddv",
        entry_fee=10,
    )
    tournament.directors.add(user)
    for key in ("overall", "women", "seniors", "juniors", "guests"):
        verbs.add_preset(tournament, key, user=user)
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="de-DE")
    context.add_cookies([{"name": "django_language", "value": "de", "url": live_server.url}])
    page = context.new_page()
    page.set_default_timeout(15_000)
    client_login(page, live_server, user)
    page.goto(f"{live_server.url}/manage/advent/prizes/")
    yield page
    context.close()


def on_screen(page, selector: str) -> bool:
    box = page.locator(selector).bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + 20 <= 844


def test_a_typed_german_amount_is_saved_as_typed(phone):
    category = Tournament.objects.get(slug="advent").prize_categories.get(name="Gäste")
    form = phone.locator(f"#add-prize-{category.pk}")
    assert form.get_attribute("open") is not None  # no prizes yet: the form is open
    form.locator("input[name=place]").fill("1")
    form.locator("input[name=value]").press_sequentially("12,50")
    assert form.locator("input[name=value]").input_value() == "12,50"
    form.get_by_role("button", name="Preis anlegen").click()
    phone.locator(f"#category-{category.pk} .saved").wait_for()
    assert Prize.objects.get(category=category).value == Decimal("12.50")
    assert on_screen(phone, f"#category-{category.pk} .saved")


def test_a_refused_prize_is_seen_where_the_browser_lands(phone):
    category = Tournament.objects.get(slug="advent").prize_categories.get(name="Gäste")
    form = phone.locator(f"#add-prize-{category.pk}")
    assert form.get_attribute("open") is not None  # no prizes yet: the form is open
    form.locator("input[name=place]").fill("1")
    form.locator("input[name=value]").fill("-5")
    form.get_by_role("button", name="Preis anlegen").click()
    phone.locator("#not-saved").wait_for()
    assert "Nicht gespeichert" in phone.locator("#not-saved").inner_text()
    assert on_screen(phone, "#not-saved")
    assert on_screen(phone, f"#add-prize-{category.pk} .error")
    assert not Prize.objects.filter(category=category).exists()
