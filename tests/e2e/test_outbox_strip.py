"""The phone's outbox strip when a game is held (issue 35, section 4): it covered the
"10 / 24 Spiele" line. At 390x844 the strip covers nothing of the sheet - not at the top,
not with the conflict scrolled into view, not scrolled further down."""

import pytest
from playwright.sync_api import expect

from tests.e2e.test_offline_entry import enter
from tests.factories import director
from tournament.models import GameKind
from tournament.sheets import verbs as sheet_domain
from tournament.sheets.verbs import RowInput

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# What of the page lies under the strip: the elements of the sheet whose box meets the
# strip's box; ``only`` narrows the elements asked about.
COVERED = """(only) => {
  const strip = document.getElementById('outbox').getBoundingClientRect();
  const under = [];
  for (const el of document.querySelectorAll(only || (
      '.sheet-head, #sheet-status, #sheet-status *, #notice, #conflict, #sheet-rows tr,'
      + ' #game-form h2'))) {
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height) continue;
    if (r.bottom > strip.top + 0.5 && r.top < strip.bottom - 0.5)
      under.push((el.id || el.className || el.tagName) + ': ' + el.textContent.trim().slice(0, 30));
  }
  return under;
}"""


def test_the_strip_of_a_held_game_covers_nothing(live_server, browser):
    from tests.e2e.test_offline_entry import PHONE
    from tests.factories import TournamentFactory, released_table

    table = released_table(TournamentFactory(rule_profile="ddv"))
    context = browser.new_context(locale="de-DE", **PHONE)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(f"{live_server.url}/tisch/{table.token}/")
    for number, winners in enumerate([(1, 2), (1, 3), (2, 4)], start=1):
        enter(page, number, winners, 1)
        expect(page.locator("#notice")).to_have_text(f"Spiel {number} gespeichert.")
    context.set_offline(True)
    enter(page, 4, (1, 2), 1)
    enter(page, 5, (1, 3), 2)
    office = sheet_domain.office_actor(director(username="tisch-buero"), director=True)
    sheet_domain.save_row(
        table, office, RowInput(GameKind.NORMAL.value, None, (-4, -4, 4, 4)), number=4
    )
    context.set_offline(False)
    page.reload()
    expect(page.locator("#conflict")).to_be_visible()
    expect(page.locator("#outbox")).to_contain_text("Spiel 4 wurde nicht gespeichert")
    # The page scrolls the conflict into view: below the strip, the count above it in view.
    conflict = page.locator("#conflict")
    page.wait_for_function(
        "document.getElementById('conflict').getBoundingClientRect().top"
        " < document.documentElement.clientHeight"
    )
    assert page.evaluate(COVERED, "#sheet-status, #sheet-status *, #conflict") == []
    expect(conflict).to_be_in_viewport()
    status = page.locator("#sheet-status .count")
    expect(status).to_be_in_viewport()
    # Scrolled by hand: the count and the clock stay in view, never under the strip.
    for y in (0, 150, 300, 600, 2000):
        page.evaluate(f"window.scrollTo(0, {y})")
        assert page.evaluate(COVERED, "#sheet-status, #sheet-status *") == [], y
        expect(status).to_be_in_viewport()
    # At the top of the page the strip covers nothing at all.
    page.evaluate("window.scrollTo(0, 0)")
    assert page.evaluate(COVERED, None) == []
    expect(page.locator("#sheet-status")).to_contain_text("4 / 24")
    context.close()
