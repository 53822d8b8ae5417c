"""The prize ceremony in Chromium at 1280x720 (and 1920x1080): the director steps through it
with the keys a laptop and a remote clicker send and with clicks, the last place of the last
category first; with the network gone it goes on to the end without a request; a reload keeps
the place; every slide fits the screen. Screenshots go to the temporary folder, ceremony-*.png."""

import tempfile
from pathlib import Path

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from tests.e2e.test_players_page import client_login
from tests.factories import TournamentFactory, director
from tests.tournament.test_ceremony import NAMES, make_field, prizes_of
from tournament.views import ceremony as ceremony_view

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path(tempfile.gettempdir())  # to look at: ceremony-*.png
LONG_NAME = "Maximiliane-Josefine Freifrau von Hohenzollern-Sigmaringen"

# Every shown element lies inside the screen and the document is not larger than it.
FITS = """() => {
  const W = window.innerWidth, H = window.innerHeight, outside = [];
  document.querySelectorAll("#stage .slide *, .badge.corner:not([hidden])").forEach((el) => {
    const r = el.getBoundingClientRect();
    if (!r.width && !r.height) return;
    if (r.left < -0.5 || r.top < -0.5 || r.right > W + 0.5 || r.bottom > H + 0.5)
      outside.push(el.className + ": " + el.textContent.slice(0, 40));
  });
  const root = document.documentElement;
  return {outside, scroll: [root.scrollWidth, root.scrollHeight], screen: [W, H]};
}"""


def state(page):
    return page.evaluate("window.kreuzdameCeremony.state()")


def fits(page, label):
    found = page.evaluate(FITS)
    assert found["outside"] == [], (label, found)
    assert found["scroll"] == found["screen"], (label, found)


def shot(page, name):
    page.screenshot(path=SHOTS / f"ceremony-{name}.png", animations="disabled")


def shown(page):
    """(place, "geteilt" or "", name) of the award on the screen."""
    return page.evaluate(
        """() => {
      const place = document.querySelector(".place"), shared = place.querySelector(".shared");
      return [place.firstChild.textContent, shared ? shared.textContent : "",
              document.querySelector(".name").textContent];
    }"""
    )


@pytest.fixture
def ceremony(live_server, page, monkeypatch):
    user = director(username="leiterin")
    tournament = TournamentFactory(name="Herbstturnier 2026", slug="herbst", directors=[user])
    entries = make_field(tournament, [LONG_NAME, *NAMES[1:]])
    monkeypatch.setattr(ceremony_view, "prize_list", lambda t: prizes_of(t, entries))
    page.set_viewport_size({"width": 1280, "height": 720})
    page.context.add_cookies([{"name": "django_language", "value": "de", "url": live_server.url}])
    client_login(page, live_server, user)
    return live_server.url + reverse("manage:ceremony", args=[tournament.slug])


def test_it_steps_through_offline_and_a_reload_keeps_the_place(ceremony, page):
    page.goto(ceremony)
    title = page.locator("#stage .slide")
    expect(title).to_contain_text("Siegerehrung")
    expect(title).to_contain_text("Herbstturnier 2026")
    expect(title).to_contain_text("5. Dezember 2026")
    expect(title).to_contain_text("vorläufig")
    fits(page, "title")
    shot(page, "1-title")

    page.keyboard.press("PageDown")  # the remote clicker
    expect(page.locator(".category-slide")).to_contain_text("Beste Dame")
    expect(page.locator(".category-slide")).to_contain_text("1 Preis")
    expect(page.locator("#provisional")).to_be_visible()
    shot(page, "2-category")
    page.keyboard.press("PageDown")
    expect(page.locator(".name")).to_have_text("Spieler 5")
    page.keyboard.press("ArrowLeft")
    expect(page.locator(".category-slide")).to_contain_text("Beste Dame")
    page.keyboard.press("Space")
    expect(page.locator(".name")).to_have_text("Spieler 5")
    expect(page.locator(".award-slide")).to_contain_text("Präsentkorb")
    assert "Erika" not in page.content()
    fits(page, "women")
    shot(page, "3-award-women")

    # The network goes; the ceremony goes on, and asks the server for nothing.
    asked = []
    page.on("request", lambda request: asked.append(request.url))
    page.context.set_offline(True)
    page.keyboard.press("PageDown")
    expect(page.locator(".category-slide")).to_contain_text("Gesamtwertung")
    order = []
    for key in ["ArrowRight", "Enter", "click"]:
        if key == "click":
            page.mouse.click(640, 360)
        else:
            page.keyboard.press(key)
        expect(page.locator(".award-slide")).to_be_visible()
        page.wait_for_function(
            "n => window.kreuzdameCeremony.state().index === n", arg=4 + len(order)
        )
        order.append(shown(page))
        fits(page, key)
        shot(page, f"{4 + len(order)}-award-{key}")
    assert order == [
        ["Platz 2", "geteilt", "Carla Cremer"],
        ["Platz 2", "geteilt", "Bernd Bock"],
        ["Platz 1", "", LONG_NAME],
    ]
    expect(page.locator(".award-slide")).to_contain_text("120,00 € + Pokal")
    page.keyboard.press("PageDown")
    expect(page.locator(".end-slide")).to_contain_text("Herzlichen Glückwunsch")
    page.keyboard.press("PageDown")  # the end stays the end
    assert state(page) == {"index": 7, "length": 8, "kind": "end"}
    fits(page, "end")
    shot(page, "8-end")
    assert asked == []
    page.context.set_offline(False)

    # A reload keeps the place; Home and End jump.
    page.keyboard.press("PageUp")
    page.keyboard.press("ArrowUp")
    assert page.evaluate("location.hash") == "#6"
    page.reload()
    page.wait_for_function("window.kreuzdameCeremony !== undefined")
    assert state(page)["index"] == 5
    assert shown(page) == ["Platz 2", "geteilt", "Bernd Bock"]
    page.keyboard.press("Home")
    assert state(page)["kind"] == "title"
    page.keyboard.press("End")
    assert state(page)["kind"] == "end"
    page.keyboard.press("f")
    page.wait_for_function("document.fullscreenElement === document.documentElement")
    assert state(page)["kind"] == "end"  # "f" does not move on


def test_the_slides_fit_a_full_hd_screen_too_in_english(ceremony, page, live_server):
    page.context.add_cookies([{"name": "django_language", "value": "en", "url": live_server.url}])
    page.set_viewport_size({"width": 1920, "height": 1080})
    page.goto(ceremony + "#7")
    page.wait_for_function("window.kreuzdameCeremony !== undefined")
    assert shown(page) == ["Place 1", "", LONG_NAME]
    expect(page.locator(".award-slide")).to_contain_text("€120.00 + Pokal")
    size = page.evaluate("parseFloat(getComputedStyle(document.querySelector('.name')).fontSize)")
    assert size >= 60, size  # readable from the back of the hall
    fits(page, "1080-award")
    shot(page, "1080-award")
    page.keyboard.press("ArrowLeft")
    assert shown(page) == ["Place 2", "shared", "Bernd Bock"]
    fits(page, "1080-shared")
    shot(page, "1080-shared")
    page.keyboard.press("Home")
    expect(page.locator(".title-slide")).to_contain_text("provisional")
    fits(page, "1080-title")
    shot(page, "1080-title")
