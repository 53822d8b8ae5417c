"""Hidden standings on the projector (issue 38): the standings view says from which round on
the results wait for the prize ceremony, above a list that still fits the screen."""

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from tests.busy_hall import build_hall
from tests.e2e.test_projector import FITS, state

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_standings_view_says_which_rounds_wait(live_server, browser, tmp_path):
    tournament = build_hall(60, name="Kreuzdame-Cup 2026", hide_standings_from=2)
    url = live_server.url + reverse("projector", args=[tournament.projector_token])
    context = browser.new_context(locale="de-DE", viewport={"width": 1280, "height": 720})
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(url + "?sekunden=120")  # the test turns the pages itself
    for _step in range(state(page)["length"]):
        if state(page)["view"] == "standings":
            break
        page.evaluate("window.kreuzdameProjector.next()")
    assert state(page)["view"] == "standings"
    note = page.locator("#standings-note")
    expect(note).to_be_visible()
    expect(note).to_have_text(
        "Die Ergebnisse ab Runde 2 werden bei der Siegerehrung bekanntgegeben."
    )
    found = page.evaluate(FITS)
    assert found["outside"] == [] and found["scrollHeight"] <= found["H"]
    page.screenshot(path=tmp_path / "hidden-standings.png")
    # The seating has no such line.
    page.evaluate("window.kreuzdameProjector.next()")
    while state(page)["view"] == "standings":
        page.evaluate("window.kreuzdameProjector.next()")
    expect(note).to_be_hidden()
    context.close()


NOTE = "Die Ergebnisse ab Runde 2 werden bei der Siegerehrung bekanntgegeben."


def test_the_day_slide_of_the_rotation_says_which_rounds_wait(live_server, browser, tmp_path):
    tournament = build_hall(60, name="Kreuzdame-Cup 2026", hide_standings_from=2)
    url = live_server.url + reverse("projector", args=[tournament.projector_token])
    context = browser.new_context(locale="de-DE", viewport={"width": 1280, "height": 720})
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(url + "?sekunden=120&zahlen=1")
    for _step in range(state(page)["length"]):
        if state(page)["view"] == "day":
            break
        page.evaluate("window.kreuzdameProjector.next()")
    assert state(page)["view"] == "day"
    expect(page.locator("#day-hidden-note")).to_have_text(NOTE)
    found = page.evaluate(FITS)
    assert found["outside"] == [] and found["scrollHeight"] <= found["H"]
    page.screenshot(path=tmp_path / "hidden-day-slide.png")
    context.close()


def test_the_figures_of_the_day_on_a_phone_wrap_the_note_under_the_title(live_server, browser):
    tournament = build_hall(60, name="Kreuzdame-Cup 2026", hide_standings_from=2, is_public=True)
    context = browser.new_context(locale="de-DE", viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.set_default_timeout(15_000)
    for url in (
        reverse("statistics-day", args=[tournament.slug]),
        reverse("projector-day", args=[tournament.projector_token]),
    ):
        page.goto(live_server.url + url)
        expect(page.locator("#hidden-note")).to_have_text(NOTE)
        box = page.evaluate(
            """() => {
              const bar = document.querySelector("header.bar"), title = bar.querySelector("h1");
              const note = document.getElementById("hidden-note").getBoundingClientRect();
              return {bar: bar.scrollWidth, title: title.scrollWidth - title.clientWidth,
                      noteRight: note.right, noteTop: note.top,
                      titleBottom: title.getBoundingClientRect().bottom};
            }"""
        )
        assert box["bar"] <= 390, url  # no header wider than the phone
        assert box["title"] == 0, url  # the whole name shows
        assert box["noteRight"] <= 390 and box["noteTop"] >= box["titleBottom"], url
    context.close()
