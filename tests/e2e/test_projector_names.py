"""The projector with long names (issue 35, section 4): "Hoffmann-Becker, …" and
"Brigitte Hoffmann-B…" were cut while a third of the screen stood empty. Now the columns
are as wide as the names need, a name that still does not fit is set smaller, and on every
page of the seating and the standings no name is cut - at 1280x720 and at 1920x1080."""

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from tests.busy_hall import build_hall
from tests.e2e.test_projector import state
from tournament.models import Player
from tournament.models.names import name_key

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LONG = [
    ("Brigitte", "Hoffmann-Becker"),
    ("Maximilian-Alexander", "Schmidt-Leutheusser"),
    ("Hannelore", "Wichmann-Obermüller"),
    ("Karl-Heinz", "Oberdörfer-Zimmermann"),
]

# Names whose text is wider than the box that shows it (an ellipsis on the screen).
CUT = """() => [...document.querySelectorAll('.view:not([hidden]) .row .name')]
  .filter((el) => el.scrollWidth > el.clientWidth + 1).map((el) => el.textContent)"""


@pytest.mark.parametrize("players", [20, 120])
@pytest.mark.parametrize("width, height", [(1280, 720), (1920, 1080)])
def test_no_name_is_cut_on_any_page(live_server, browser, players, width, height):
    tournament = build_hall(players, name="Kreuzdame-Cup 2026")
    entries = tournament.entries.select_related("player").order_by("start_number")
    for entry, (first, last) in zip(entries[::5], LONG, strict=False):
        Player.objects.filter(pk=entry.player_id).update(
            first_name=first, last_name=last, name_key=name_key(first, last)
        )
    url = live_server.url + reverse("projector", args=[tournament.projector_token])
    context = browser.new_context(locale="de-DE", viewport={"width": width, "height": height})
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(url + "?sekunden=120")  # the test turns the pages itself
    expect(page.locator("#view-title")).not_to_have_text("Kreuzdame-Cup 2026")
    shown = []
    for _ in range(state(page)["length"]):
        now = state(page)
        if now["view"] in ("seating", "standings"):
            assert page.evaluate(CUT) == [], (now, width)
            shown.append(page.locator(".view:not([hidden]) .row .name").all_text_contents())
        page.evaluate("window.kreuzdameProjector.next()")
    text = " ".join(" ".join(rows) for rows in shown)
    for first, last in LONG:
        assert f"{last}, {first}" in text  # the seating
        assert f"{first} {last}" in text  # the standings
    context.close()
