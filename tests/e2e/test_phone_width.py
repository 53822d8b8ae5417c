"""Every page fits a phone (390 px): the director on the round's tables from the hall floor,
the referee at a table, a player looking up their seat. A wide table scrolls sideways inside
its own box; the page itself never does, so the menu, the headings and the buttons stay in
view. The pages are test_page_hygiene's list (every GET route of the URL matrix for each role
that sees it, the running round's sheets, the filled calculator, the filters), rendered by
Chromium with the demo tournament, in German and in English. A failure lists each page with
its width and the widest elements that stick out."""

import io

import pytest
from django.core.management import call_command
from playwright.sync_api import Error as PlaywrightError

from tests.e2e.test_players_page import client_login
from tests.test_page_hygiene import DemoWorld, visits

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}

# What sticks out of the page: the innermost elements past its right edge (outside any box
# that scrolls sideways), to name in a failure.
OUTSIDE = """() => {
  const width = document.documentElement.clientWidth;
  const scrolls = (e) => ["auto", "scroll"].includes(getComputedStyle(e).overflowX);
  const out = [];
  for (const e of document.body.querySelectorAll("*")) {
    if (e.getBoundingClientRect().right <= width + 1) continue;
    let inside = false;
    for (let p = e.parentElement; p && p !== document.body; p = p.parentElement) {
      if (scrolls(p)) { inside = true; break; }
    }
    if (inside || [...e.children].some((c) => c.getBoundingClientRect().right > width + 1))
      continue;
    const first = typeof e.className === "string" ? e.className.split(" ")[0] : "";
    const kind = first ? "." + first : "";
    out.push(e.tagName.toLowerCase() + (e.id ? "#" + e.id : "") + kind);
  }
  return [document.documentElement.scrollWidth, [...new Set(out)].slice(0, 5)];
}"""


@pytest.fixture
def demo_pages(live_server):
    call_command("demo", stdout=io.StringIO())
    world = DemoWorld()
    pages = [
        visit
        for visit in visits(world)
        if visit.form is None and visit.host == "testserver" and visit.role != "player"
    ]
    return world, pages


@pytest.mark.parametrize("language", ["de", "en"])
def test_no_page_is_wider_than_a_phone(live_server, browser, demo_pages, language):
    world, pages = demo_pages
    users = {"director": world.director, "referee": world.referee}
    contexts = {}
    too_wide = []
    seen = 0
    for visit in pages:
        if visit.role not in contexts:
            context = browser.new_context(viewport=PHONE)
            context.add_cookies(
                [{"name": "django_language", "value": language, "url": live_server.url}]
            )
            page = context.new_page()
            page.set_default_timeout(15_000)
            if visit.role in users:
                client_login(page, live_server, users[visit.role])
            contexts[visit.role] = page
        page = contexts[visit.role]
        try:
            response = page.goto(live_server.url + visit.url)
        except PlaywrightError as error:  # a PDF or a workbook: a download, not a page
            assert "Download is starting" in str(error), (visit.name, str(error))
            continue
        if "text/html" not in response.headers.get("content-type", ""):
            continue
        seen += 1
        width, outside = page.evaluate(OUTSIDE)
        if width > PHONE["width"]:
            too_wide.append(f"{visit.name} ({visit.role}) {width} px: {', '.join(outside)}")
    for page in contexts.values():
        page.context.close()
    assert seen >= 60  # the list above rendered, not a row of error pages
    assert not too_wide, "\n" + "\n".join(too_wide)
