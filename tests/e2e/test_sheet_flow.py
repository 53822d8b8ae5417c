"""A list keeper enters a whole 24-game sheet on a phone, with the four Pflichtsoli; a typo
breaks the zero sum of one row, the sheet says so, the keeper corrects the row and submits,
and the director confirms the sheet on the board."""

import re
import tempfile
from pathlib import Path

import pytest
from playwright.sync_api import expect

from scoring.kinds import Kind
from scoring.profiles import get_profile
from scoring.sheet import SheetRow, check_sheet
from tests.factories import TournamentFactory, director, released_table
from tournament.models import Game, GameKind, SheetStatus
from tournament.models.audit import history_reason
from tournament.queries.sheets import game_row

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {
    "locale": "de-DE",
    "viewport": {"width": 390, "height": 844},
    "device_scale_factor": 3,
    "is_mobile": True,
    "has_touch": True,
}

# The sheet as played: a normal game is (winners, value), a Pflichtsolo is
# ("P", soloist, won, value). Every player plays the Pflichtsolo early (games 3, 8, 13, 18),
# so no vorgeführtes Pflichtsolo falls due.
PAIRS = [(1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4)]
PFLICHTSOLI = {3: (1, True, 2), 8: (2, False, 1), 13: (3, True, 1), 18: (4, False, 3)}
TYPO_GAME = 11  # typed directly, 22 instead of 2 for position 4


def played(number):
    if number in PFLICHTSOLI:
        return ("P", *PFLICHTSOLI[number])
    return (PAIRS[number % 6], number % 5 + 1)


def expected_points(number):
    """The row the rules give: winners +v and losers -v; the soloist ±3v, the others ∓v."""
    game = played(number)
    if game[0] == "P":
        _, soloist, won, value = game
        sign = 1 if won else -1
        return [3 * sign * value if p == soloist else -sign * value for p in range(1, 5)]
    winners, value = game
    return [value if p in winners else -value for p in range(1, 5)]


def script_row(number):
    if number in PFLICHTSOLI:
        return SheetRow(number, Kind.PFLICHTSOLO, PFLICHTSOLI[number][0], tuple(EXPECTED[number]))
    return SheetRow(number, Kind.NORMAL, None, tuple(EXPECTED[number]))


EXPECTED = {number: expected_points(number) for number in range(1, 25)}
EXPECTED_TOTALS = [sum(EXPECTED[n][p] for n in EXPECTED) for p in range(4)]


@pytest.fixture
def phone(browser):
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.set_default_timeout(15_000)
    yield page
    context.close()


def position(p):
    # Winners, soloist and the direct fields are all labelled "<position> · <name>".
    return re.compile(rf"^{p} · ")


def save(phone, number, but=None):
    phone.locator("#save-game").tap()
    if but is None:
        expect(phone.locator("#notice")).to_have_text(f"Spiel {number} gespeichert.")
        expect(phone.locator("#notice")).to_have_class(re.compile(r"\binfo\b"))
    else:
        # Saved, yet not right: said so, in the warning colour, with what is wrong.
        expect(phone.locator("#notice")).to_have_text(f"Spiel {number} gespeichert, aber: {but}")
        expect(phone.locator("#notice")).to_have_class(re.compile(r"\bwarning\b"))


def row_values(phone, number):
    return [int(v) for v in phone.locator(f"#game-{number} td.num").all_inner_texts()]


def fieldset(form, legend):
    # By CSS rather than by role: a hidden group has no role, so "hidden" would prove nothing.
    return form.locator(f'fieldset:has(> legend:text-is("{legend}"))')


def enter_by_taps(phone, number):
    form = phone.locator("#game-form")
    expect(form.get_by_role("heading")).to_have_text(f"Spiel {number}")
    winners_box, soloist_box = fieldset(form, "Gewinner"), fieldset(form, "Solist")
    result_box = fieldset(form, "Das Solo wurde")
    expect(winners_box).to_be_visible()
    expect(soloist_box).to_be_hidden()
    expect(result_box).to_be_hidden()
    game = played(number)
    if game[0] == "P":
        _, soloist, won, value = game
        form.get_by_label("Pflichtsolo", exact=True).check()
        # sheet.js swaps the winner boxes for the soloist and the result.
        expect(winners_box).to_be_hidden()
        expect(soloist_box).to_be_visible()
        soloist_box.get_by_role("radio", name=position(soloist)).check()
        result_box.get_by_label("gewonnen" if won else "verloren", exact=True).check()
    else:
        winners, value = game
        for p in winners:
            winners_box.get_by_role("checkbox", name=position(p)).check()
    form.get_by_label("Spielwert", exact=True).fill(str(value))
    save(phone, number)


def enter_typo_directly(phone, number):
    form = phone.locator("#game-form")
    expect(form.get_by_role("heading")).to_have_text(f"Spiel {number}")
    expect(form.locator(".points-grid")).to_be_hidden()
    form.get_by_label("Zahlen eintippen").check()
    expect(form.locator(".points-grid")).to_be_visible()
    expect(form.get_by_label("Spielwert", exact=True)).to_be_hidden()
    expect(fieldset(form, "Gewinner")).to_be_hidden()
    typed = list(EXPECTED[number])
    assert typed[3] == 2
    typed[3] = 22  # a finger too many: 22 instead of 2
    for p, value in enumerate(typed, start=1):
        form.get_by_role("spinbutton", name=position(p)).fill(str(value))
    save(phone, number, but="Die Werte dieser Zeile ergeben nicht 0 (Zeilensumme 20).")
    return typed


def test_keeper_enters_sheet_fixes_typo_submits_and_director_confirms(live_server, phone, page):
    user = director(username="leiterin")
    user.set_password("sicheres-passwort-1")
    user.save()
    tournament = TournamentFactory(name="Nikolausturnier", slug="nikolaus", rule_profile="ddv")
    tournament.directors.add(user)
    table = released_table(tournament)
    # The script is a legal sheet, so every finding in the browser comes from the typo.
    script = [script_row(number) for number in EXPECTED]
    assert check_sheet(get_profile("ddv"), 4, script) == []

    # --- the list keeper's phone ------------------------------------------------------------
    phone.goto(f"{live_server.url}/tisch/{table.token}/")
    expect(phone.locator("#sheet-status .count")).to_have_text("0 / 24 Spiele")
    expect(phone.locator(".players .badge.owes")).to_have_count(4)
    assert phone.evaluate("window.innerWidth") == 390

    for number in range(1, 25):
        if number == TYPO_GAME:
            typed = enter_typo_directly(phone, number)
            assert row_values(phone, number) == typed
            finding = phone.locator(f"#game-{number} + tr.finding.error")
            expect(finding).to_have_text(
                "⚠ Fehler: Die Werte dieser Zeile ergeben nicht 0 (Zeilensumme 20)."
            )
            expect(phone.locator(f"#game-{number}")).to_have_class(re.compile(r"\bhas-error\b"))
            expect(phone.locator("#sheet-rows tr.finding.error")).to_have_count(1)
            phone.locator("#notice").scroll_into_view_if_needed()
            shot(phone, "saved-but-de")

            # The keeper corrects the row: "ändern" loads it with its numbers.
            phone.locator(f"#game-{number}").get_by_role("link", name="ändern").tap()
            form = phone.locator("#game-form")
            expect(form.get_by_role("heading")).to_have_text(f"Spiel {number} ändern")
            expect(form.get_by_label("Zahlen eintippen")).to_be_checked()
            fourth = form.get_by_role("spinbutton", name=position(4))
            expect(fourth).to_have_value("22")
            fourth.fill("2")
            form.get_by_label("Grund der Änderung").fill("Tippfehler: 22 statt 2")
            save(phone, number)
            expect(phone.locator("#sheet-rows tr.finding")).to_have_count(0)
            expect(phone.locator(f"#game-{number}")).not_to_have_class(re.compile("has-error"))
            fixed = Game.objects.get(table=table, number=number)
            assert (fixed.version, fixed.points) == (2, EXPECTED[number])
            reasons = [history_reason(h) for h in fixed.history.order_by("history_id")]
            assert reasons == [
                "Listenführer Tisch 1",
                "Listenführer Tisch 1: Tippfehler: 22 statt 2",
            ]
        else:
            enter_by_taps(phone, number)
        assert row_values(phone, number) == EXPECTED[number], f"game {number}"
        expect(phone.locator("#sheet-status .count")).to_have_text(f"{number} / 24 Spiele")

    expect(phone.locator("#sheet-rows tr.finding")).to_have_count(0)
    expect(phone.locator(".players .badge.owes")).to_have_count(0)
    # One instruction at the end, and no form for a 25th game.
    expect(phone.locator("#outlook-banner")).to_have_text(
        "Alle Spiele sind eingetragen. Bitte die Liste prüfen und unten abgeben."
    )
    expect(phone.locator("#game-form")).to_have_count(0)
    shown_totals = phone.locator("#sheet-rows tfoot th.num").all_inner_texts()
    assert [int(v) for v in shown_totals] == EXPECTED_TOTALS
    assert sum(EXPECTED_TOTALS) == 0

    games = list(Game.objects.filter(table=table).order_by("number"))
    assert [g.number for g in games] == list(range(1, 25))
    assert {g.number: g.points for g in games} == EXPECTED
    solos = [(g.number, g.soloist_position) for g in games if g.kind == GameKind.PFLICHTSOLO]
    assert solos == [(3, 1), (8, 2), (13, 3), (18, 4)]
    assert {g.kind for g in games} == {GameKind.NORMAL, GameKind.PFLICHTSOLO}
    assert [sum(g.points[p] for g in games) for p in range(4)] == EXPECTED_TOTALS
    engine = check_sheet(get_profile("ddv"), 4, [game_row(g, 4) for g in games])
    assert engine == []

    submit = phone.locator("#submit-form")
    submit.get_by_label("Ihre Startnummer").fill("1")
    keeper_code = table.seats.get(position=1).entry.confirm_code
    submit.get_by_label("Ihr Bestätigungscode").fill(keeper_code)
    phone.get_by_role("button", name="Abgeben").tap()
    expect(phone.locator("#notice")).to_contain_text("Abgegeben.")
    expect(phone.locator("#sheet-status .state")).to_have_text("abgegeben")
    expect(phone.locator("#game-form")).to_have_count(0)
    expect(phone.locator("#confirm-form")).to_be_visible()
    table.refresh_from_db()
    assert table.sheet.status == SheetStatus.SUBMITTED
    assert table.sheet.submitted_by == "Listenführer Tisch 1 · Startnr. 1"
    assert table.sheet.submitted_at is not None and table.sheet.confirmed_at is None

    # --- the director at the board ------------------------------------------------------
    page.goto(live_server.url + "/login/")
    page.get_by_label("Benutzername").fill("leiterin")
    page.get_by_label("Passwort").fill("sicheres-passwort-1")
    page.get_by_role("button", name="Anmelden").click()
    page.get_by_role("heading", name="Meine Turniere").wait_for()
    page.goto(live_server.url + "/manage/nikolaus/rounds/1/board/")
    board_row = page.locator("#board-table-1")
    expect(board_row.locator("td.state")).to_have_text("abgegeben")
    expect(board_row.locator("td.num")).to_have_text("24 / 24")
    expect(board_row.locator(".badge.error")).to_have_count(0)
    questions = []
    page.once("dialog", lambda dialog: (questions.append(dialog.message), dialog.accept()))
    board_row.get_by_role("button", name="Bestätigen").click()
    expect(page.get_by_role("status").filter(has_text="Liste bestätigt.")).to_be_visible()
    expect(board_row.locator("td.state")).to_have_text("bestätigt")
    expect(board_row.get_by_role("button", name="Bestätigen")).to_have_count(0)

    table.refresh_from_db()
    assert table.sheet.status == SheetStatus.CONFIRMED
    assert table.sheet.confirmed_by == "leiterin"
    assert table.games.count() == 24
    assert questions == ["Die Liste von Tisch 1 bestätigen?"]


# --- issue 15: the calculator in place, the end of a sheet, names on board and desk ---------

SHOTS = Path(tempfile.gettempdir()) / "kreuzdame-keeper"


def shot(page, name):
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=SHOTS / f"{name}.png")


VIEWS = {
    "phone": PHONE,
    "desktop": {"viewport": {"width": 1280, "height": 900}},
}


@pytest.mark.parametrize(
    ("view", "locale", "button", "saved"),
    [
        ("phone", "de-DE", "Übernehmen (ins Spielformular)", "Spiel 1 gespeichert."),
        ("phone", "en-GB", "Use this row in the game form", "Game 1 saved."),
        ("desktop", "de-DE", "Übernehmen (ins Spielformular)", "Spiel 1 gespeichert."),
    ],
)
def test_the_calculator_opens_in_place_and_fills_the_game_form(
    live_server, browser, view, locale, button, saved
):
    table = released_table(TournamentFactory(rule_profile="ddv"))
    context = browser.new_context(**{**VIEWS[view], "locale": locale})
    phone = context.new_page()
    phone.set_default_timeout(15_000)
    phone.goto(f"{live_server.url}/tisch/{table.token}/")
    pages = len(context.pages)
    phone.locator("#calculator-link").click()
    panel = phone.locator("#calculator-box")
    expect(panel).to_be_visible()
    assert len(context.pages) == pages and f"/tisch/{table.token}/" in phone.url  # same tab
    expect(phone.locator("#calculator-hint")).to_be_in_viewport()
    panel.locator('input[name=re][value="2"]').check()
    panel.locator('input[name=re][value="4"]').check()
    panel.locator("input[name=re_eyes]").fill("151")
    # Each answer replaces the result above the facts; wait for it before the next tick,
    # or the tick lands while the result grows and the facts move down under the pointer.
    row = phone.locator("#calculator-result .row-to-write td")
    expect(row.nth(1)).to_have_text("+2")
    panel.locator("input[name=announced_re]").check()
    expect(row.nth(1)).to_have_text("+4")
    take = phone.get_by_role("button", name=button)
    expect(take).to_be_visible()
    # The result and its button are in view while the facts are ticked, without scrolling.
    expect(take).to_be_in_viewport()
    expect(phone.locator("#calculator-result .winner")).to_be_in_viewport()
    shot(phone, f"calculator-{view}-{locale}")
    take.click()
    expect(panel).to_have_count(0)
    form = phone.locator("#game-form")
    expect(form.locator('input[name=mode][value="direct"]')).to_be_checked()
    expect(form.locator('input[name=kind][value="normal"]')).to_be_checked()
    values = [form.locator(f"input[name=p{p}]").input_value() for p in range(1, 5)]
    assert values == ["-4", "4", "-4", "4"]  # won, 151 eyes, "Re": value 2, doubled
    expect(phone.locator("#save-game")).to_be_in_viewport()
    shot(phone, f"calculator-taken-{view}-{locale}")
    phone.locator("#save-game").click()
    expect(phone.locator("#notice")).to_have_text(saved)
    assert Game.objects.get(table=table).points == [-4, 4, -4, 4]
    context.close()


def _without_pflichtsolo_of_4(table):
    """24 games in which position 4 never plays a Pflichtsolo (game 24 had to be it)."""
    from tournament.sheets import verbs as sheet_domain

    solos = [
        sheet_domain.RowInput("pflichtsolo", p, tuple(3 if q == p else -1 for q in range(1, 5)))
        for p in (1, 2, 3)
    ]
    normal = [sheet_domain.RowInput("normal", None, (1, 1, -1, -1))] * 21
    actor = sheet_domain.Actor(label="test", privileged=True)
    sheet_domain.replace_rows(table, actor, solos + normal, {})


@pytest.mark.parametrize(
    ("locale", "heading"),
    [
        ("de-DE", "Alle 24 Spiele sind eingetragen, aber es fehlt ein Pflichtsolo:"),
        ("en-GB", "All 24 games are entered, but a Pflichtsolo is missing:"),
    ],
)
def test_the_end_of_a_sheet_without_a_pflichtsolo_says_one_thing(
    live_server, browser, locale, heading
):
    table = released_table(TournamentFactory(rule_profile="ddv"))
    _without_pflichtsolo_of_4(table)
    context = browser.new_context(**{**PHONE, "locale": locale})
    phone = context.new_page()
    phone.goto(f"{live_server.url}/tisch/{table.token}/")
    banner = phone.locator("#outlook-banner")
    expect(banner).to_contain_text(heading)
    expect(banner.locator("strong")).to_be_in_viewport()
    expect(phone.locator("#vorfuehren-banner")).to_have_count(0)
    expect(phone.locator("#game-form")).to_have_count(0)
    expect(phone.locator("#game-24 + tr.finding.error")).to_have_count(1)
    shot(phone, f"end-missing-pflichtsolo-{locale}")
    if locale == "de-DE":
        # The banner's own button opens game 24; entered as the vorgeführtes Pflichtsolo it
        # was, the sheet is complete and the one instruction becomes "submit".
        banner.get_by_role("link", name="Spiel 24 ändern").tap()
        form = phone.locator("#game-form")
        expect(form.get_by_role("heading")).to_have_text("Spiel 24 ändern")
        form.get_by_label("vorgeführtes Pflichtsolo", exact=True).check()
        form.get_by_label("Zahlen eintippen").check()
        fieldset(form, "Solist").get_by_role("radio", name=position(4)).check()
        for p, value in enumerate([-1, -1, -1, 3], start=1):
            form.get_by_role("spinbutton", name=position(p)).fill(str(value))
        save(phone, 24)
        expect(phone.locator("#outlook-banner")).to_have_text(
            "Alle Spiele sind eingetragen. Bitte die Liste prüfen und unten abgeben."
        )
        expect(phone.locator("#sheet-rows tr.finding")).to_have_count(0)
        expect(phone.locator("#submit-form")).to_be_visible()
    context.close()


def test_board_and_desk_name_the_players_and_the_desk_asks_for_the_reason(live_server, page):
    from tournament.models import RoundStatus

    user = director(username="leiterin")
    user.set_password("sicheres-passwort-1")
    user.save()
    tournament = TournamentFactory(name="Nikolausturnier", slug="nikolaus", rule_profile="ddv")
    tournament.directors.add(user)
    table = released_table(tournament)
    released_table(tournament, table_number=2, first_start=5)
    _without_pflichtsolo_of_4(table)
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(live_server.url + "/login/")
    page.get_by_label("Benutzername").fill("leiterin")
    page.get_by_label("Passwort").fill("sicheres-passwort-1")
    page.get_by_role("button", name="Anmelden").click()
    page.get_by_role("heading", name="Meine Turniere").wait_for()
    page.goto(live_server.url + "/manage/nikolaus/rounds/1/board/")
    expect(page.locator("#board-table-1 td.board-players")).to_contain_text("1 Spieler1, V")
    shot(page, "board-de")
    page.goto(live_server.url + "/manage/nikolaus/rounds/1/tables/1/")
    expect(page.locator("#outlook-banner")).to_contain_text("es fehlt ein Pflichtsolo")
    expect(page.locator("#desk-grid th.desk-player small").nth(3)).to_have_text("4 Spieler4, V.")
    shot(page, "desk-de")

    table.round.status = RoundStatus.CLOSED
    table.round.save()
    page.reload()
    # The browser's own check is taken away, as an old page or a script would send it.
    page.locator("#desk-reason").evaluate("input => input.removeAttribute('required')")
    page.locator('input[name="p1-24"]').fill("3")
    page.get_by_role("button", name="Liste speichern").click()
    error = page.locator("#desk-reason-error")
    expect(error).to_have_text(
        "Änderungen an einer abgegebenen Liste oder einer abgeschlossenen Runde brauchen eine "
        "Begründung."
    )
    expect(page.locator('input[name="p1-24"]')).to_have_value("3")  # what was typed stays
    error.scroll_into_view_if_needed()
    shot(page, "desk-reason-de")
    assert Game.objects.get(table=table, number=24).points == [1, 1, -1, -1]
