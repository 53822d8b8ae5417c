"""The projector view on a 1920x1080 and a 1280x720 screen, with 20 and with 600 players:
the whole rotation (clock, seating pages, tables, standings pages) is walked through, and
on every page nothing scrolls and every row lies inside the screen. Then: it turns the
pages on its own, counts down, takes fresh data without a reload and keeps the last data
when the network fails."""

import os
import re
import shutil
import time
from pathlib import Path

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from tests.busy_hall import build_hall
from tournament.models import Sheet, SheetStatus

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SCREENS = [(1920, 1080), (1280, 720)]
VIEWS = {"clock", "seating", "tables", "standings"}

# Every element the page shows must lie inside the screen, and the document must not be
# larger than the screen (overflow: hidden alone would hide rows, not fit them).
FITS = """() => {
  const W = window.innerWidth, H = window.innerHeight, outside = [];
  const shown = document.querySelectorAll(
    ".bar h1, .bar .meta, .view:not([hidden]) .row, .view:not([hidden]) p");
  shown.forEach((el) => {
    const r = el.getBoundingClientRect();
    if (!r.width && !r.height) return;
    if (r.left < -0.5 || r.top < -0.5 || r.right > W + 0.5 || r.bottom > H + 0.5)
      outside.push(el.className + ": " + el.textContent.slice(0, 30) + " " + JSON.stringify(r));
  });
  const root = document.documentElement;
  const rows = [...document.querySelectorAll(".view:not([hidden]) .row")];
  return {scrollHeight: root.scrollHeight, scrollWidth: root.scrollWidth, W, H, outside,
          rows: rows.map((r) => r.textContent),
          rowFont: rows.length ? parseFloat(getComputedStyle(rows[0]).fontSize) : 0};
}"""


def state(page):
    return page.evaluate("window.kreuzdameProjector.state()")


def walk(page, shots, label):
    """Every page of the rotation once; returns {view: [rows of each page]}."""
    seen: dict[str, list[list[str]]] = {}
    length = state(page)["length"]
    for step in range(length):
        now = state(page)
        found = page.evaluate(FITS)
        assert found["scrollHeight"] <= found["H"], (label, now, found["scrollHeight"])
        assert found["scrollWidth"] <= found["W"], (label, now, found["scrollWidth"])
        assert found["outside"] == [], (label, now, found["outside"][:3])
        if now["view"] == "seating":
            # Readable from the back of the hall: 28px at 1080p, as much of the height at 720p.
            assert found["rowFont"] >= 28 * found["H"] / 1080 - 0.5, found["rowFont"]
        if now["view"] in ("seating", "tables", "standings"):
            expect(page.locator("#page-of")).to_contain_text(f"Seite {now['page']}/{now['pages']}")
        seen.setdefault(now["view"], []).append(found["rows"])
        page.screenshot(path=shots / f"{label}-{step:02d}-{now['view']}-{now['page']}.png")
        page.evaluate("window.kreuzdameProjector.next()")
    return seen


@pytest.mark.parametrize("players, fives", [(20, 0), (600, 8)])
def test_every_view_fits_the_screen_and_every_name_is_shown(
    live_server, browser, tmp_path, players, fives
):
    tournament = build_hall(players, fives=fives, name="Kreuzdame-Cup 2026")
    url = live_server.url + reverse("projector", args=[tournament.projector_token])
    width, height = SCREENS[0]
    context = browser.new_context(locale="de-DE", viewport={"width": width, "height": height})
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(url + "?sekunden=120")  # the test turns the pages itself
    expect(page.locator("#view-title")).not_to_have_text("Kreuzdame-Cup 2026")
    pages = {}
    for width, height in SCREENS:
        page.set_viewport_size({"width": width, "height": height})
        # The page lays itself out again after a resize (once the resizing has settled).
        page.wait_for_function(
            "([w, h]) => window.kreuzdameProjector.state().screen === w + 'x' + h",
            arg=[width, height],
        )
        label = f"{players}-{width}x{height}"
        seen = walk(page, tmp_path, label)
        assert set(seen) == VIEWS, (label, set(seen))
        # Paging loses nobody and shows nobody twice: every seated player and every line
        # of the standings once, every table once.
        assert sum(len(rows) for rows in seen["seating"]) == players
        assert sum(len(rows) for rows in seen["standings"]) == players
        assert sum(len(rows) for rows in seen["tables"]) == len(
            tournament.rounds.get(number=2).tables.all()
        )
        pages[label] = {view: len(rows) for view, rows in seen.items()}
    keep = os.environ.get("PROJECTOR_SCREENSHOTS")  # a folder to look at them afterwards
    if keep:
        for shot in tmp_path.glob("*.png"):
            shutil.copy(shot, Path(keep) / shot.name)
    print(pages)
    context.close()


def test_it_turns_the_pages_counts_down_and_takes_fresh_data(live_server, browser):
    tournament = build_hall(20, name="Kreuzdame-Cup 2026")
    url = live_server.url + reverse("projector", args=[tournament.projector_token])
    context = browser.new_context(locale="de-DE", viewport={"width": 1280, "height": 720})
    page = context.new_page()
    page.set_default_timeout(15_000)
    # Five seconds a page: time enough on a busy machine to read the clock after the load
    # and see it tick before the page turns (a hidden clock does not tick).
    page.goto(url + "?sekunden=5")
    # The clock comes first and counts down on its own.
    assert state(page)["view"] == "clock"
    clock = page.locator("#clock-four")
    expect(clock).to_have_text(re.compile(r"^(\d+:)?\d+:\d\d$"))
    first = clock.inner_text()
    expect(clock).not_to_have_text(first, timeout=3_000)
    # The seating follows by itself.
    page.wait_for_function("window.kreuzdameProjector.state().view === 'seating'", timeout=8_000)
    # A sheet is confirmed: the next poll shows it, without a reload.
    page.evaluate("window.__kept = true")
    sheet = Sheet.objects.get(
        table__round__tournament=tournament, table__round__number=2, table__number=3
    )
    sheet.status = SheetStatus.CONFIRMED
    sheet.save()  # as the verbs do: the tournament's version moves
    page.evaluate("window.kreuzdameProjector.poll()")
    page.wait_for_function(
        "document.querySelectorAll('#tables-summary').length && "
        "/^3 von 5 Tischen fertig/.test(document.getElementById('tables-summary').textContent)"
    )
    assert page.evaluate("window.__kept") is True  # the same document: no reload
    # The network fails: the last data stays, a small mark says so.
    page.route("**/daten/", lambda route: route.abort())
    page.evaluate("window.kreuzdameProjector.poll()")
    expect(page.locator("#offline")).to_be_visible()
    expect(page.locator("#offline")).to_contain_text("offline")
    assert state(page)["length"] > 3
    page.unroute("**/daten/")
    page.evaluate("window.kreuzdameProjector.poll()")
    expect(page.locator("#offline")).to_be_hidden()
    context.close()


def test_before_the_first_round_one_calm_line(live_server, browser):
    from tests.factories import TournamentFactory

    tournament = TournamentFactory(name="Frühjahrsturnier", is_public=True)
    context = browser.new_context(locale="en-GB", viewport={"width": 1280, "height": 720})
    page = context.new_page()
    page.goto(live_server.url + reverse("public-projector", args=[tournament.slug]))
    assert state(page)["view"] == "idle"
    expect(page.locator("#view-idle")).to_contain_text("as soon as a round is released")
    started = time.monotonic()
    assert page.evaluate("document.documentElement.scrollHeight") <= 720
    assert time.monotonic() - started < 5
    context.close()
