"""The list keeper's phone loses the connection: games saved meanwhile wait on the phone,
marked "noch nicht gesendet", and arrive exactly once and in order when the connection is
back — also after a reload or with the tab closed in between. A change the desk made
meanwhile shows the conflict box instead of being overwritten.

The phone opens the site as in a hall: plain http on a LAN name (turnierhalle.lan, mapped to
the live server by Chromium's host resolver), not localhost — so the page is not a secure
context, and neither a service worker nor crypto.randomUUID is available."""

import json
import re
import tempfile
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from tests.e2e.conftest import CHROMIUM
from tests.factories import TournamentFactory, director, released_table
from tournament.models import Game, GameKind
from tournament.sheets import verbs as sheet_domain
from tournament.sheets.verbs import RowInput

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

HALL = "turnierhalle.lan"
PHONE = {
    "viewport": {"width": 390, "height": 844},
    "device_scale_factor": 2,
    "is_mobile": True,
    "has_touch": True,
}
# The English label, with or without a capital letter (labels are being capitalised).
GAME_VALUE_EN = re.compile(r"^game value$", re.IGNORECASE)
# Three normal games: (winners, value) -> winners +value, the others -value.
GAMES = [((1, 2), 1), ((1, 3), 2), ((2, 4), 3)]


def points(winners, value, size=4):
    return [value if p in winners else -value for p in range(1, size + 1)]


@pytest.fixture(scope="module")
def hall_browser(browser):
    # A second Chromium from the same Playwright, resolving the hall's name to this machine.
    hall = browser.browser_type.launch(
        executable_path=CHROMIUM,
        headless=True,
        args=[
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--no-first-run",
            f"--host-resolver-rules=MAP {HALL} 127.0.0.1",
        ],
    )
    yield hall
    hall.close()


@pytest.fixture
def hall_url(live_server, settings):
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, HALL]
    return f"http://{HALL}:{urlsplit(live_server.url).port}"


@pytest.fixture
def phone_context(hall_browser):
    contexts = []

    def make(locale="de-DE"):
        context = hall_browser.new_context(locale=locale, **PHONE)
        context.set_default_timeout(15_000)
        contexts.append(context)
        return context

    yield make
    for context in contexts:
        context.close()


@pytest.fixture
def table():
    return released_table(TournamentFactory(rule_profile="ddv"))


def queue(page, table):
    return json.loads(page.evaluate(f"localStorage.getItem('kreuzdame-outbox-{table.token}')"))


def enter(
    page, number, winners, value, *, heading="Spiel {number}", value_label="Spielwert", settle=True
):
    form = page.locator("#game-form")
    expect(form.get_by_role("heading")).to_have_text(heading.format(number=number))
    box = form.locator("fieldset.for-normal")
    for p in winners:
        box.get_by_role("checkbox", name=re.compile(rf"^{p} · ")).check()
    form.get_by_label(value_label, exact=True).fill(str(value))
    page.locator("#save-game").tap()
    if settle and not page.evaluate("navigator.onLine"):
        # Once the send has failed, the strip "not sent yet" appears above the sheet and
        # moves the form down: wait for it, or the next tap lands while the form moves.
        expect(page.locator("#outbox")).to_be_visible()


def snapshot(page, name):
    # What the phone shows with the rows in view; the outbox strip stays at the top.
    page.evaluate("document.querySelector('#sheet-rows').scrollIntoView({block: 'center'})")
    page.screenshot(path=Path(tempfile.gettempdir()) / f"{name}.png")


def stored(table):
    return [(g.number, g.points) for g in Game.objects.filter(table=table).order_by("number")]


EXPECTED = [(n, points(*game)) for n, game in enumerate(GAMES, start=1)]


def test_it_keeps_three_offline_games_and_sends_them_once_in_order_after_reload(
    hall_url, phone_context, table
):
    context = phone_context()
    page = context.new_page()
    page.goto(f"{hall_url}/tisch/{table.token}/")
    assert page.evaluate("window.isSecureContext") is False  # as in the hall: plain http
    assert page.evaluate("typeof crypto.randomUUID") == "undefined"

    context.set_offline(True)
    for number, (winners, value) in enumerate(GAMES, start=1):
        enter(page, number, winners, value)
    pending = page.locator("#sheet-rows tr.pending")
    expect(pending).to_have_count(3)
    expect(pending.nth(0)).to_have_text("1N · Gewinner 1, 2 · Wert 1 — noch nicht gesendet")
    expect(pending.nth(2)).to_contain_text("Gewinner 2, 4 · Wert 3 — noch nicht gesendet")
    expect(page.locator("#outbox")).to_have_text(
        "Keine Verbindung — 3 Spiele noch nicht gesendet. Sie werden automatisch gesendet, "
        "sobald die Verbindung zurück ist."
    )
    expect(page.locator("#game-form").get_by_role("heading")).to_have_text("Spiel 4")
    expect(page.locator("#submit-form button[type=submit]")).to_be_disabled()
    expect(page.locator("#submit-blocked")).to_contain_text("3 noch nicht gesendet")
    ids = [item["id"] for item in queue(page, table)]
    assert len(set(ids)) == 3
    assert Game.objects.filter(table=table).count() == 0
    snapshot(page, "offline-de")

    context.set_offline(False)
    page.reload()
    expect(page.locator("#outbox")).to_have_text("Alles gesendet.")
    expect(page.locator("#sheet-rows tr.pending")).to_have_count(0)
    expect(page.locator("#sheet-status .count")).to_have_text("3 / 24 Spiele")
    expect(page.locator("#game-form").get_by_role("heading")).to_have_text("Spiel 4")
    assert stored(table) == EXPECTED
    assert [str(g.client_id) for g in Game.objects.order_by("number")] == ids
    assert queue(page, table) == []
    snapshot(page, "offline-de-sent")


def test_it_sends_the_games_when_the_link_is_opened_again_after_the_tab_was_closed(
    hall_url, phone_context, table
):
    context = phone_context(locale="en-US")
    page = context.new_page()
    page.goto(f"{hall_url}/tisch/{table.token}/")
    context.set_offline(True)
    for number, (winners, value) in enumerate(GAMES, start=1):
        enter(page, number, winners, value, heading="Game {number}", value_label=GAME_VALUE_EN)
    expect(page.locator("#sheet-rows tr.pending")).to_have_count(3)
    expect(page.locator("#outbox")).to_contain_text("No connection — 3 games not sent yet.")
    expect(page.locator("#sheet-rows tr.pending").first).to_contain_text("winners 1, 2 · value 1")
    snapshot(page, "offline-en")
    page.close()
    assert Game.objects.filter(table=table).count() == 0

    context.set_offline(False)
    again = context.new_page()
    again.goto(f"{hall_url}/tisch/{table.token}/")
    expect(again.locator("#outbox")).to_have_text("Everything sent.")
    expect(again.locator("#sheet-rows tr.pending")).to_have_count(0)
    assert stored(table) == EXPECTED


def test_it_shows_the_conflict_box_when_the_desk_stored_the_game_meanwhile(
    hall_url, phone_context, table
):
    context = phone_context()
    page = context.new_page()
    page.goto(f"{hall_url}/tisch/{table.token}/")
    context.set_offline(True)
    enter(page, 1, (1, 2), 1)
    enter(page, 2, (1, 3), 2)
    expect(page.locator("#sheet-rows tr.pending")).to_have_count(2)

    # Meanwhile the desk enters game 1 from the paper list, with other numbers.
    office = sheet_domain.office_actor(director(username="tisch-buero"), director=True)
    desk_row = RowInput(GameKind.NORMAL.value, None, (-4, -4, 4, 4))
    sheet_domain.save_row(table, office, desk_row, number=1)

    context.set_offline(False)
    page.reload()
    conflict = page.locator("#conflict")
    expect(conflict).to_be_visible()
    expect(conflict).to_contain_text("-4 / -4 / 4 / 4")  # stored by the desk
    expect(conflict).to_contain_text("1 / 1 / -1 / -1")  # the keeper's, not saved
    expect(page.locator("#outbox")).to_contain_text("Spiel 1 wurde nicht gespeichert")
    expect(page.locator("#outbox")).to_contain_text("Dahinter warten: 1")
    expect(page.locator("#sheet-rows tr.pending.held")).to_have_count(1)
    expect(page.locator("#sheet-rows tr.pending")).to_have_count(2)
    assert stored(table) == [(1, [-4, -4, 4, 4])]  # no overwrite
    assert [item["state"] for item in queue(page, table)] == ["held", "waiting"]
    snapshot(page, "offline-conflict")

    # The desk's game 1 is right: the keeper discards theirs, and game 2 goes through. The
    # question says what is true: the desk's game 1 is on the list and stays there.
    asked = []

    def answer(dialog):
        asked.append(dialog.message)
        dialog.accept()

    page.once("dialog", answer)
    page.locator("#outbox").get_by_role("button", name="Spiel 1 verwerfen").tap()
    expect(page.locator("#notice")).to_have_text("Spiel 2 gespeichert.")
    assert asked == [
        "Spiel 1 verwerfen? Die gespeicherte Version von Spiel 1 bleibt auf der Liste; nur "
        "die Eingabe dieses Telefons wird verworfen."
    ]
    expect(page.locator("#outbox")).to_have_text("Alles gesendet.")
    assert stored(table) == [(1, [-4, -4, 4, 4]), (2, points((1, 3), 2))]
    assert queue(page, table) == []


def test_it_stores_a_game_once_when_the_answer_is_lost_on_the_way(hall_url, phone_context, table):
    context = phone_context()
    page = context.new_page()
    page.goto(f"{hall_url}/tisch/{table.token}/")
    lost = []

    def lose_first_answer(route):
        if route.request.method == "POST" and not lost:
            # The server gets the game and stores it ... (Playwright itself sends this copy,
            # and only Chromium knows the hall's name: so by address, with the Host header.)
            request = route.request
            host = urlsplit(request.url).netloc
            route.fetch(
                url=request.url.replace(host, f"127.0.0.1:{urlsplit(hall_url).port}"),
                headers={**request.headers, "host": host},
            )
            lost.append(route.request.url)
            route.abort("connectionreset")  # ... but the phone never hears back
        else:
            route.continue_()

    page.route(re.compile(r"/tisch/"), lose_first_answer)
    enter(page, 1, (1, 2), 1)
    expect(page.locator("#outbox")).to_contain_text("Keine Verbindung — 1 Spiel")
    # The outbox tries again by itself (after 3 s); the server knows the game by its id.
    expect(page.locator("#notice")).to_have_text("Spiel 1 gespeichert.")
    assert lost
    assert stored(table) == [(1, points((1, 2), 1))]
    assert Game.history.filter(table_id=table.pk).count() == 1
    assert queue(page, table) == []


def test_it_fetches_a_fresh_csrf_token_when_the_cookie_was_lost(hall_url, phone_context, table):
    context = phone_context()
    page = context.new_page()
    page.goto(f"{hall_url}/tisch/{table.token}/")
    context.set_offline(True)
    enter(page, 1, (1, 2), 1)
    expect(page.locator("#sheet-rows tr.pending")).to_have_count(1)
    context.clear_cookies()  # the phone's browser dropped its cookies meanwhile
    answers = []
    page.on("response", lambda response: answers.append((response.request.method, response.status)))
    context.set_offline(False)  # the "online" event sends at once: 403, new token, again
    expect(page.locator("#notice")).to_have_text("Spiel 1 gespeichert.")
    assert answers == [("POST", 403), ("GET", 200), ("POST", 200)]
    assert stored(table) == [(1, points((1, 2), 1))]


def test_it_saves_online_as_before(hall_url, phone_context, table):
    page = phone_context().new_page()
    page.goto(f"{hall_url}/tisch/{table.token}/")
    enter(page, 1, (1, 2), 1)
    expect(page.locator("#notice")).to_have_text("Spiel 1 gespeichert.")
    expect(page.locator("#game-form").get_by_role("heading")).to_have_text("Spiel 2")
    expect(page.locator("#sheet-rows tr.pending")).to_have_count(0)
    expect(page.locator("#outbox")).to_be_hidden()
    assert queue(page, table) == []
    assert stored(table) == [(1, points((1, 2), 1))]


def test_it_guesses_who_sits_out_at_a_five_table(hall_url, phone_context):
    table = released_table(TournamentFactory(rule_profile="ddv"), size=5)
    context = phone_context()
    page = context.new_page()
    page.goto(f"{hall_url}/tisch/{table.token}/")
    winners = page.locator("#game-form fieldset.for-normal")
    # Game 1: position 1 deals and sits out; the server leaves it out of the choices.
    expect(winners.get_by_role("checkbox")).to_have_count(4)
    context.set_offline(True)
    enter(page, 1, (2, 3), 1)
    # Game 2 is prepared on the phone: position 2 deals and sits out now, 1 plays again.
    expect(winners.get_by_role("checkbox")).to_have_count(4)
    expect(winners.get_by_role("checkbox", name=re.compile(r"^1 · "))).to_be_visible()
    expect(winners.locator("label").nth(0)).to_contain_text("1 · ")
    expect(winners.get_by_role("checkbox", name=re.compile(r"^2 · "))).to_have_count(0)
    enter(page, 2, (1, 3), 2)
    context.set_offline(False)
    page.reload()
    expect(page.locator("#outbox")).to_have_text("Alles gesendet.")
    assert stored(table) == [(1, [0, 1, 1, -1, -1]), (2, [2, 0, 2, -2, -2])]


def office():
    return sheet_domain.office_actor(director(username="tisch-buero"), director=True)


def test_it_renumbers_the_queued_games_when_the_desk_removed_a_game_meanwhile(
    hall_url, phone_context, table
):
    context = phone_context()
    page = context.new_page()
    page.goto(f"{hall_url}/tisch/{table.token}/")
    notice = page.locator("#notice")
    enter(page, 1, (1, 2), 1)
    expect(notice).to_have_text("Spiel 1 gespeichert.")
    enter(page, 2, (1, 3), 2)
    expect(notice).to_have_text("Spiel 2 gespeichert.")

    context.set_offline(True)
    enter(page, 3, (2, 4), 3)
    enter(page, 4, (1, 4), 4)
    expect(page.locator("#sheet-rows tr.pending")).to_have_count(2)
    # Meanwhile the desk takes game 2 back: the phone's games 3 and 4 are one too far.
    second = Game.objects.get(table=table, number=2)
    sheet_domain.delete_last(table, office(), number=2, version=second.version)

    context.set_offline(False)
    expect(page.locator("#conflict")).to_be_visible()
    expect(page.locator("#outbox")).to_contain_text("Spiel 3 wurde nicht gespeichert")
    expect(page.locator("#outbox")).to_contain_text("Dahinter warten: 1")
    expect(page.locator("#game-form").get_by_role("heading")).to_have_text("Spiel 2")
    assert stored(table) == [(1, points((1, 2), 1))]

    # The keeper saves the offered form: their game 3 becomes game 2, and game 4 follows as 3.
    page.locator("#save-game").tap()
    expect(page.locator("#outbox")).to_have_text("Alles gesendet.")
    expect(notice).to_have_text("Spiel 3 gespeichert.")
    assert stored(table) == [
        (1, points((1, 2), 1)),
        (2, points((2, 4), 3)),
        (3, points((1, 4), 4)),
    ]
    assert queue(page, table) == []


def test_discarding_a_game_the_desk_took_back_says_the_list_stays_as_it_is(
    hall_url, phone_context, table
):
    context = phone_context()
    page = context.new_page()
    page.goto(f"{hall_url}/tisch/{table.token}/")
    enter(page, 1, (1, 2), 1)
    expect(page.locator("#notice")).to_have_text("Spiel 1 gespeichert.")
    context.set_offline(True)
    enter(page, 2, (1, 3), 2)
    expect(page.locator("#sheet-rows tr.pending")).to_have_count(1)
    first = Game.objects.get(table=table, number=1)
    sheet_domain.delete_last(table, office(), number=1, version=first.version)

    context.set_offline(False)
    expect(page.locator("#conflict")).to_be_visible()
    asked = []

    def answer(dialog):
        asked.append(dialog.message)
        dialog.accept()

    page.once("dialog", answer)
    page.locator("#outbox").get_by_role("button", name="Spiel 2 verwerfen").tap()
    expect(page.locator("#sheet-rows tr.pending")).to_have_count(0)
    assert asked == [
        "Spiel 2 verwerfen? Die Liste bleibt, wie sie jetzt ist; nur die Eingabe dieses "
        "Telefons wird verworfen."
    ]
    assert stored(table) == [] and queue(page, table) == []


QUEUE_KEY_REFUSED = """
const setItem = Storage.prototype.setItem;
Storage.prototype.setItem = function (key, value) {
  if (/^kreuzdame-outbox-[^:]+$/.test(key)) {
    throw new DOMException("The quota has been exceeded.", "QuotaExceededError");
  }
  return setItem.call(this, key, value);
};
"""
NO_STORAGE = "Dieses Telefon kann ungesendete Spiele nicht speichern — Seite bitte offen lassen."


def test_it_says_so_when_the_phone_cannot_store_the_games(hall_url, phone_context, table):
    context = phone_context()
    context.add_init_script(QUEUE_KEY_REFUSED)  # a full phone, or a private window
    page = context.new_page()
    page.goto(f"{hall_url}/tisch/{table.token}/")
    context.set_offline(True)
    enter(page, 1, (1, 2), 1)
    enter(page, 2, (1, 3), 2)
    expect(page.locator("#sheet-rows tr.pending")).to_have_count(2)  # kept in the page
    expect(page.locator("#outbox")).to_contain_text(NO_STORAGE)
    expect(page.locator("#outbox")).to_contain_text("2 Spiele noch nicht gesendet")
    assert page.evaluate(f"localStorage.getItem('kreuzdame-outbox-{table.token}')") is None

    context.set_offline(False)
    expect(page.locator("#notice")).to_have_text("Spiel 2 gespeichert.")
    expect(page.locator("#outbox")).to_contain_text(NO_STORAGE)  # it stays while the page does
    assert stored(table) == EXPECTED[:2]


@pytest.mark.parametrize("damaged", ["null", "{kaputt", '{"id": 1}'])
def test_it_sets_a_damaged_queue_aside_instead_of_overwriting_it(
    hall_url, phone_context, table, damaged
):
    page = phone_context().new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(error))
    key = f"kreuzdame-outbox-{table.token}"
    page.goto(f"{hall_url}/tisch/{table.token}/")
    page.evaluate("([key, value]) => localStorage.setItem(key, value)", [key, damaged])
    page.reload()
    enter(page, 1, (1, 2), 1)
    expect(page.locator("#notice")).to_have_text("Spiel 1 gespeichert.")
    expect(page.locator("#outbox")).not_to_contain_text(NO_STORAGE)
    assert stored(table) == EXPECTED[:1]
    assert queue(page, table) == []
    backups = page.evaluate(
        "key => Object.keys(localStorage).filter(k => k.startsWith(key + ':broken:'))"
        ".map(k => localStorage.getItem(k))",
        key,
    )
    assert backups == [damaged]  # kept for whoever wants to look into it
    assert errors == []


def test_a_second_tap_on_save_does_not_queue_an_empty_game(hall_url, phone_context, table):
    context = phone_context()
    page = context.new_page()
    page.goto(f"{hall_url}/tisch/{table.token}/")
    answers = []  # the status of each game the server answered
    page.on(
        "response", lambda answer: answer.request.method == "POST" and answers.append(answer.status)
    )
    context.set_offline(True)
    enter(page, 1, (1, 2), 1, settle=False)
    page.locator("#save-game").tap()  # the thumb taps twice
    expect(page.locator("#sheet-rows tr.pending")).to_have_count(1)
    assert len(queue(page, table)) == 1

    context.set_offline(False)
    expect(page.locator("#notice")).to_have_text("Spiel 1 gespeichert.")
    enter(page, 2, (1, 3), 2)  # online, the answer may come before the second tap
    page.locator("#save-game").tap()
    expect(page.locator("#notice")).to_have_text("Spiel 2 gespeichert.")
    # The queue is sent in order, one game after the other: an empty game queued by the
    # second tap would have had its answer (a refusal) before game 3 arrives.
    enter(page, 3, (2, 4), 3)
    expect(page.locator("#notice")).to_have_text("Spiel 3 gespeichert.")
    expect(page.locator("#outbox.error, #sheet-rows tr.held")).to_have_count(0)
    assert answers == [200, 200, 200]
    assert stored(table) == EXPECTED
    assert queue(page, table) == []


def test_save_without_a_value_says_what_is_missing_and_keeps_nothing(
    hall_url, phone_context, table
):
    """A tap on "save" with the value still empty: the message the server would give, at the
    form, and no held game on the phone (a tester got a red "not saved" strip)."""
    page = phone_context().new_page()
    page.goto(f"{hall_url}/tisch/{table.token}/")
    posts = []
    page.on("request", lambda request: request.method == "POST" and posts.append(request.url))
    page.locator("#save-game").tap()
    expect(page.locator("#form-errors")).to_have_text("Bitte den Spielwert eingeben.")
    page.locator("#game-form fieldset.for-normal").get_by_role(
        "checkbox", name=re.compile(r"^1 · ")
    ).check()
    page.locator("#save-game").tap()
    expect(page.locator("#form-errors")).to_have_text("Bitte den Spielwert eingeben.")
    expect(page.locator("#sheet-rows tr.pending, #sheet-rows tr.held")).to_have_count(0)
    saved = page.evaluate(f"localStorage.getItem('kreuzdame-outbox-{table.token}')")
    assert posts == [] and saved in (None, "[]")
    enter(page, 1, (2,), 1)
    expect(page.locator("#notice")).to_have_text("Spiel 1 gespeichert.")
    assert stored(table) == [(1, points((1, 2), 1))]


def test_show_puts_a_half_typed_game_aside_and_brings_it_back(hall_url, phone_context, table):
    context = phone_context()
    page = context.new_page()
    page.goto(f"{hall_url}/tisch/{table.token}/")
    context.set_offline(True)
    enter(page, 1, (1, 2), 1)
    sheet_domain.save_row(
        table, office(), RowInput(GameKind.NORMAL.value, None, (-4, -4, 4, 4)), number=1
    )

    # The keeper is typing game 2 when the answer to game 1 (a conflict) comes in.
    form = page.locator("#game-form")
    form.locator("fieldset.for-normal").get_by_role("checkbox", name=re.compile(r"^3 · ")).check()
    form.get_by_label("Spielwert", exact=True).fill("5")
    context.set_offline(False)
    show = page.locator("#outbox").get_by_role("button", name="Anzeigen")
    expect(show).to_be_visible()
    expect(page.locator("#conflict")).to_have_count(0)  # not swapped in under their thumb
    show.tap()
    expect(page.locator("#conflict")).to_be_visible()
    # The keeper's game 1 as a change of the office's game 1: never the same game twice.
    expect(form.get_by_role("heading")).to_have_text("Spiel 1 ändern")

    form.locator("#save-game").tap()
    # The half-typed game is back, as game 2.
    expect(form.get_by_role("heading")).to_have_text("Spiel 2")
    expect(form.get_by_label("Spielwert", exact=True)).to_have_value("5")
    three = form.locator("fieldset.for-normal").get_by_role("checkbox", name=re.compile(r"^3 · "))
    expect(three).to_be_checked()
    expect(page.locator("#notice")).to_have_text("Spiel 1 gespeichert.")
    form.locator("fieldset.for-normal").get_by_role("checkbox", name=re.compile(r"^4 · ")).check()
    form.locator("#save-game").tap()
    expect(page.locator("#notice")).to_have_text("Spiel 2 gespeichert.")
    assert stored(table) == [(1, points((1, 2), 1)), (2, points((3, 4), 5))]


def test_a_late_answer_to_send_again_does_not_hold_the_corrected_game(
    hall_url, phone_context, table
):
    page = phone_context().new_page()
    page.goto(f"{hall_url}/tisch/{table.token}/")
    stalled = []

    def stall_when_asked(route):
        if route.request.method == "POST" and stall:
            stall.clear()
            stalled.append(route)  # answered later, below
        else:
            route.continue_()

    stall = []
    page.route(re.compile(r"/tisch/"), stall_when_asked)
    form = page.locator("#game-form")
    winners = form.locator("fieldset.for-normal")
    for p in (1, 2, 3):
        winners.get_by_role("checkbox", name=re.compile(rf"^{p} · ")).check()
    form.get_by_label("Spielwert", exact=True).fill("1")
    form.locator("#save-game").tap()  # three winners at a 4-table: refused by the server
    expect(page.locator("#outbox")).to_contain_text("Spiel 1 wurde nicht gespeichert")

    stall.append(True)
    with page.expect_request(lambda request: request.method == "POST"):
        page.locator("#outbox").get_by_role("button", name="Erneut senden").tap()
    # The game is sent again and still on the way while the keeper corrects it.
    winners.get_by_role("checkbox", name=re.compile(r"^3 · ")).uncheck()
    form.locator("#save-game").tap()
    assert len(stalled) == 1
    stalled[0].continue_()  # the late answer: refused again, for the uncorrected game
    expect(page.locator("#notice")).to_have_text("Spiel 1 gespeichert.")
    expect(page.locator("#sheet-rows tr.pending")).to_have_count(0)
    assert stored(table) == EXPECTED[:1]
    assert queue(page, table) == []


def test_it_gives_up_on_a_token_request_that_hangs(hall_url, phone_context, table):
    context = phone_context()
    page = context.new_page()
    page.goto(f"{hall_url}/tisch/{table.token}/")
    context.set_offline(True)
    enter(page, 1, (1, 2), 1)
    context.clear_cookies()  # a 403 first, then the page is fetched for a fresh token
    hung = []

    def hang_first_page_request(route):
        page_url = urlsplit(route.request.url).path == f"/tisch/{table.token}/"
        if route.request.method == "GET" and page_url and not hung:
            hung.append(route)  # a dead router: never answered
        else:
            route.continue_()

    page.route(re.compile(r"/tisch/"), hang_first_page_request)
    context.set_offline(False)
    # After 10 s the token request is given up, 3 s later the game is sent again.
    expect(page.locator("#notice")).to_have_text("Spiel 1 gespeichert.", timeout=25_000)
    assert len(hung) == 1
    assert stored(table) == EXPECTED[:1]


def test_only_one_tab_of_the_link_sends(hall_url, phone_context, table):
    context = phone_context()
    first, second = context.new_page(), context.new_page()
    for page in (first, second):
        page.goto(f"{hall_url}/tisch/{table.token}/")
    posts = []  # the POSTs that reached the server

    def count(response):
        if response.request.method == "POST":
            posts.append(response.url)

    context.on("response", count)
    context.set_offline(True)
    enter(first, 1, (1, 2), 1)
    enter(first, 2, (1, 3), 2)
    # The other tab shows the games too, and continues after them.
    expect(second.locator("#sheet-rows tr.pending")).to_have_count(2)
    enter(second, 3, (2, 4), 3)
    expect(first.locator("#sheet-rows tr.pending")).to_have_count(3)

    context.set_offline(False)  # both tabs hear "online"
    for page in (first, second):
        expect(page.locator("#sheet-rows tr.pending")).to_have_count(0)
        expect(page.locator("#sheet-status .count")).to_have_text("3 / 24 Spiele")
    assert stored(table) == EXPECTED
    assert len(posts) == 3  # each game once
    assert queue(first, table) == []


def test_a_lease_left_by_a_tab_that_is_gone_does_not_hold_the_games_back(
    hall_url, phone_context, table
):
    # A phone may kill a tab without "pagehide": its sender lease stays in localStorage,
    # fresh for another 15 s. The link opened again asks whether that sender is still there
    # and, hearing nothing, sends at once instead of waiting for the lease to go stale.
    context = phone_context()
    page = context.new_page()
    page.goto(f"{hall_url}/tisch/{table.token}/")
    context.set_offline(True)
    for number, (winners, value) in enumerate(GAMES, start=1):
        enter(page, number, winners, value)
    expect(page.locator("#sheet-rows tr.pending")).to_have_count(3)
    lease = f"kreuzdame-outbox-{table.token}:sender"
    page.close()
    context.set_offline(False)

    again = context.new_page()
    # Before the page's scripts run: the lease of a tab killed a moment ago.
    again.add_init_script(
        f"localStorage.setItem('{lease}', JSON.stringify({{tab: 'gone', at: Date.now()}}))"
    )
    again.goto(f"{hall_url}/tisch/{table.token}/")
    expect(again.locator("#outbox")).to_have_text("Alles gesendet.", timeout=5_000)
    assert stored(table) == EXPECTED


def test_games_still_on_the_phone_when_the_round_is_closed_are_shown_as_not_on_the_list(
    hall_url, phone_context, table
):
    context = phone_context()
    page = context.new_page()
    page.goto(f"{hall_url}/tisch/{table.token}/")
    context.set_offline(True)
    enter(page, 1, (1, 2), 1)
    enter(page, 2, (1, 3), 2)
    expect(page.locator("#sheet-rows tr.pending")).to_have_count(2)

    # Meanwhile the office closes the round (as if every sheet had been confirmed).
    table.round.status = "closed"
    table.round.save()
    context.set_offline(False)
    try:
        page.evaluate("window.dispatchEvent(new Event('online'))")
    except PlaywrightError as error:
        # Chromium's own 'online' event was quicker: its refused send already reloads the page.
        assert "Execution context was destroyed" in str(error)
    # The refused send turns the page into the closed one; the games stay on the phone.
    expect(page.locator("#round-closed")).to_have_text(
        "Diese Runde ist abgeschlossen. Das ist die endgültige Spielliste des Tisches. "
        "Änderungen nur über das Turnierbüro."
    )
    strip = page.locator("#outbox")
    expect(strip).to_have_text(
        "Diese Runde ist abgeschlossen: 2 Spiele auf diesem Telefon sind nicht in der Liste "
        "angekommen. Sie stehen unten, markiert mit „nicht in der Liste“. Zeigen Sie sie der "
        "Turnierleitung im Turnierbüro."
    )
    expect(strip).to_have_class(re.compile(r"\berror\b"))
    rows = page.locator("#sheet-rows tr.not-on-list")
    expect(rows).to_have_count(2)
    expect(rows.nth(0)).to_have_text("1N · Gewinner 1, 2 · Wert 1 — nicht in der Liste")
    expect(page.locator("#game-form")).to_have_count(0)
    expect(page.locator("form")).to_have_count(1)  # only the language switch of the site
    snapshot(page, "closed-de")
    assert Game.objects.filter(table=table).count() == 0
    assert len(queue(page, table)) == 2  # kept for the office, never sent

    # Opened again later: the same, and still nothing is sent, also once every timer the
    # page could have set (the sender lease, the retries) has run out.
    posts = []
    page.on("request", lambda request: request.method == "POST" and posts.append(request.url))
    page.clock.install()
    page.goto(f"{hall_url}/tisch/{table.token}/")
    expect(page.locator("#sheet-rows tr.not-on-list")).to_have_count(2)
    page.clock.run_for(60_000)
    # A request the page starts after that one: a POST sent before it would be seen first.
    with page.expect_request(lambda request: request.url.endswith("?after")):
        page.evaluate("fetch(location.pathname + '?after')")
    assert posts == []
    assert Game.objects.filter(table=table).count() == 0


def test_an_old_link_without_unsent_games_just_shows_the_final_sheet(
    hall_url, phone_context, table
):
    page = phone_context(locale="en-US").new_page()
    table.round.status = "closed"
    table.round.save()
    page.goto(f"{hall_url}/tisch/{table.token}/")
    expect(page.locator("#round-closed")).to_contain_text("This round is closed.")
    expect(page.locator("#outbox")).to_be_hidden()
    expect(page.locator("#game-form")).to_have_count(0)
    snapshot(page, "closed-en")
