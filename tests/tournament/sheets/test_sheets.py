"""Spielliste entry in the site: the list keeper's link, the desk grid, the file import, the
checks on every saved row, idempotent and versioned saves, the history, submit, confirm,
close, the board and the round clock."""

import json
import random
import re
import uuid
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone, translation

from scoring.profiles import get_profile
from tests.factories import TournamentFactory, director, referee, released_table
from tournament.errors import DomainError
from tournament.management.demo_games import play_sheet
from tournament.models import Game, GameKind, RateBucket, RoundStatus, Sheet, SheetStatus, Table
from tournament.models.audit import DIRECTOR, history_reason, stamp
from tournament.queries import sheets as reads
from tournament.sheets import verbs as sheet_domain
from tournament.wording.findings import FINDINGS, finding_message

pytestmark = pytest.mark.django_db


def keeper_url(table, name="keeper-sheet"):
    return reverse(name, args=[table.token])


def normal(number, winners=(1, 3), value=2, **extra):
    data = {"kind": "normal", "mode": "derive", "winners": [str(w) for w in winners]}
    data.update(value=str(value), number=str(number), client_id=str(uuid.uuid4()))
    data.update(extra)
    return data


def direct(number, points, kind="normal", soloist="", **extra):
    data = {"kind": kind, "mode": "direct", "number": str(number), "soloist": str(soloist)}
    data.update({f"p{i}": str(v) for i, v in enumerate(points, start=1)})
    data.setdefault("client_id", str(uuid.uuid4()))
    data.update(extra)
    return data


def confirm_data(table, start_number):
    """What a player types to submit or confirm: start number and the code of their player
    card."""
    entry = table.round.tournament.entries.get(start_number=start_number)
    return {"start_number": str(start_number), "code": entry.confirm_code}


def rows(table):
    return [(g.kind, g.soloist_position, tuple(g.points)) for g in table.games.order_by("number")]


def fill(table, games=None, seed=1):
    """Store a valid engine-made sheet through the domain, as the desk would."""
    sheet = play_sheet(table.round.tournament.profile, table.size, random.Random(seed), games)
    inputs = [sheet_domain.RowInput(g.kind, g.soloist, g.points) for g in sheet]
    actor = sheet_domain.Actor(label="test", privileged=True)
    sheet_domain.replace_rows(table, actor, inputs, {})
    return sheet


@pytest.fixture
def table(tournament):
    return released_table(tournament)


# --- the list keeper's phone page ------------------------------------------------------------


def test_the_link_shows_players_dealer_count_and_the_form(client, table):
    page = client.get(keeper_url(table))
    html = page.content.decode()
    assert page.status_code == 200
    assert "Spieler1" in html and "Spieler4" in html
    assert "0 / 24" in html
    assert 'id="game-form"' in html and 'inputmode="numeric"' in html
    assert "gibt" in html  # position 1 deals the first game
    assert html.count("Pflichtsolo offen") == 4


def test_the_link_page_carries_what_the_phone_outbox_needs(client, table):
    html = client.get(keeper_url(table)).content.decode()
    data = json.loads(re.search(r'id="outbox-data"[^>]*>(.*?)</script>', html).group(1))
    assert data["size"] == 4 and data["letters"]["pflichtsolo"] == "P"
    assert data["repeats"] == {"pflichtsolo": True, "vorgefuehrt": False}  # DDV
    assert data["names"]["1"].endswith("Spieler1")
    assert f'data-key="kreuzdame-outbox-{table.token}"' in html
    assert "outbox.js" in html
    # The game form is sent by the outbox (or plainly without JavaScript), not by htmx.
    form = re.search(r'<form [^>]*id="game-form"[^>]*>', html).group(0)
    assert "hx-post" not in form and 'data-next="1"' in form and 'data-dealer="1"' in form


def test_each_kind_is_derived_from_the_taps(client, table):
    client.post(keeper_url(table), normal(1, winners=(2, 4), value=3))
    client.post(keeper_url(table), {**normal(2), "kind": "pflichtsolo", "soloist": "1",
                                    "result": "lost", "value": "2", "winners": []})  # fmt: skip
    client.post(keeper_url(table), {**normal(3), "kind": "stille_hochzeit", "soloist": "3",
                                    "result": "won", "value": "1", "winners": []})  # fmt: skip
    client.post(keeper_url(table), direct(4, [1, -1, 1, -1]))
    assert rows(table) == [
        ("normal", None, (-3, 3, -3, 3)),
        ("pflichtsolo", 1, (-6, 2, 2, 2)),
        ("stille_hochzeit", 3, (-1, -1, 3, -1)),
        ("normal", None, (1, -1, 1, -1)),
    ]


@pytest.mark.parametrize("before", [5, 19])
def test_saving_a_game_costs_the_same_queries_however_long_the_sheet(
    client, table, before, django_assert_num_queries
):
    """The phone's save reads the table with its round, tournament and sheet at once, and
    the sheet's rows once, one query each (the page after it puts the stored game in, after
    two small queries have shown that no other row changed meanwhile), and bumps the
    tournament's version once: 18 queries after 5 games as after 19."""
    fill(table, games=before)
    client.get(keeper_url(table))
    with django_assert_num_queries(18):
        response = client.post(keeper_url(table), direct(before + 1, [1, -1, 1, -1]))
    assert response.status_code == 200 and table.games.count() == before + 1


def test_a_typo_is_saved_and_shown_as_a_finding_then_fixed(client, table):
    response = client.post(keeper_url(table), direct(1, [2, 2, -2, -3]))
    html = response.content.decode()
    assert response.status_code == 200
    assert finding_message("zero-sum", {"sum": -1}) in html
    assert finding_message("even-odd", {}) in html
    game = table.games.get()
    response = client.post(
        keeper_url(table),
        direct(1, [2, 2, -2, -2], version=str(game.version), reason="Tippfehler"),
    )
    html = response.content.decode()
    assert "Quersumme" not in html
    assert rows(table) == [("normal", None, (2, 2, -2, -2))]


def test_bad_input_keeps_the_typed_data_and_writes_nothing(client, table):
    response = client.post(keeper_url(table), normal(1, winners=(1,), value=4))
    html = response.content.decode()
    assert response.status_code == 422
    assert "Ein Normalspiel hat zwei Gewinner; gewählt wurden 1." in html
    assert 'value="4"' in html
    response = client.post(keeper_url(table), direct(1, ["x", 1, 1, 1]))
    assert response.status_code == 422
    assert not table.games.exists()


def test_the_same_submission_twice_stores_one_row(client, table):
    data = normal(1)
    first = client.post(keeper_url(table), data)
    second = client.post(keeper_url(table), data)
    assert first.status_code == second.status_code == 200
    assert table.games.count() == 1


def test_two_people_changing_one_row_get_a_conflict_not_an_overwrite(client, table):
    client.post(keeper_url(table), normal(1, value=2))
    game = table.games.get()
    mine = direct(1, [3, -3, 3, -3], version=str(game.version))
    theirs = direct(1, [4, -4, 4, -4], version=str(game.version))
    assert client.post(keeper_url(table), mine).status_code == 200
    response = client.post(keeper_url(table), theirs)
    html = response.content.decode()
    assert response.status_code == 409
    assert "N: 3 / -3 / 3 / -3" in html  # what is stored
    assert "N: 4 / -4 / 4 / -4" in html  # what was not saved
    assert rows(table) == [("normal", None, (3, -3, 3, -3))]


def test_two_new_rows_for_the_same_game_conflict(client, table):
    client.post(keeper_url(table), normal(1, value=2))
    response = client.post(keeper_url(table), normal(1, value=5))
    assert response.status_code == 409
    assert rows(table) == [("normal", None, (2, -2, 2, -2))]


def test_a_new_game_behind_a_removed_one_conflicts_and_is_offered_as_the_next(client, table):
    """A phone queued game 3 offline while the office removed game 2: nothing is stored
    under a wrong number, the keeper sees both and the retry form is game 2."""
    client.post(keeper_url(table), normal(1, value=1))
    client.post(keeper_url(table), normal(2, value=2))
    sheet_domain.delete_last(
        table, sheet_domain.office_actor(table.round.tournament.directors.get()), number=2,
        version=1, reason="Tippfehler",
    )  # fmt: skip
    response = client.post(keeper_url(table), normal(3, value=3), HTTP_HX_REQUEST="true")
    assert response.status_code == 409
    page = response.content.decode()
    assert 'id="conflict"' in page and 'name="number" value="2"' in page
    assert rows(table) == [("normal", None, (1, -1, 1, -1))]


def test_a_new_game_the_office_stored_meanwhile_is_offered_as_a_change_of_it(client, table):
    """The phone wrote game 1 offline while the office typed game 1 from the paper list: the
    retry form changes game 1 (saving it keeps the phone's row), it never adds the phone's
    row as game 2 — the same game counted twice."""
    office = sheet_domain.office_actor(table.round.tournament.directors.get())
    row = sheet_domain.RowInput(GameKind.NORMAL, None, (3, -3, 3, -3))
    sheet_domain.save_row(table, office, row, number=1, version=None)
    response = client.post(keeper_url(table), normal(1, value=2), HTTP_HX_REQUEST="true")
    assert response.status_code == 409
    page = response.content.decode()
    assert 'id="conflict"' in page
    form = page.split('id="game-form"')[1].split("</form>")[0]
    assert 'name="number" value="1"' in form and 'name="version" value="1"' in form
    retry = normal(1, value=2)
    retry.update(version="1", reason="")
    assert client.post(keeper_url(table), retry).status_code == 200
    assert rows(table) == [("normal", None, (2, -2, 2, -2))]


def test_every_create_change_and_delete_is_in_the_history(client, director_client, table):
    client.post(keeper_url(table), normal(1, value=2))
    game = table.games.get()
    client.post(keeper_url(table), direct(1, [1, -1, 1, -1], version="1", reason="verzählt"))
    client.post(keeper_url(table, "keeper-delete"), {"number": "1", "version": "2"})
    assert not table.games.exists()
    history = list(Game.history.filter(id=game.id).order_by("history_date", "history_id"))
    assert [h.history_type for h in history] == ["+", "~", "-"]
    assert [h.p1 for h in history] == [2, 1, 1]
    assert history_reason(history[1]) == "Listenführer Tisch 1: verzählt"
    page = director_client.get(reverse("manage:sheet-history", args=["herbst", 1, 1]))
    html = page.content.decode()
    assert "N 2 / -2 / 2 / -2" in html and "N 1 / -1 / 1 / -1" in html
    assert "verzählt" in html and "entfernt" in html


def test_history_names_the_office_user(director_client, director_user, table):
    grid = {"lines": "27", "kind-1": "N", "p1-1": "2", "p2-1": "-2", "p3-1": "2", "p4-1": "-2"}
    director_client.post(reverse("manage:sheet-desk", args=["herbst", 1, 1]), grid)
    record = Game.history.get()
    assert record.history_user == director_user


def test_only_the_last_game_can_be_removed(client, table):
    client.post(keeper_url(table), normal(1))
    client.post(keeper_url(table), normal(2))
    response = client.post(keeper_url(table, "keeper-delete"), {"number": "1", "version": "1"})
    assert response.status_code == 422
    assert table.games.count() == 2


# --- token scope -------------------------------------------------------------------------


def test_a_token_opens_only_its_own_table(client, tournament, table):
    other = released_table(tournament, table_number=2, first_start=5)
    client.post(keeper_url(other), normal(1))
    assert not table.games.exists() and other.games.count() == 1
    html = client.get(keeper_url(table)).content.decode()
    assert "Spieler5" not in html


def test_a_round_not_released_yet_hides_the_sheet(client, tournament, table):
    """Issue 35: the link scanned before the release says that the round is not released
    and asks again by itself (Refresh header: no JavaScript needed); it names nobody, and
    nothing of the sheet can be read or written yet."""
    fill(table, games=3)
    for status in (RoundStatus.PLANNED, RoundStatus.DRAWN):
        table.round.status = status
        table.round.save()
        page = client.get(keeper_url(table))
        assert page.status_code == 200
        html = page.content.decode()
        assert "Runde 1 ist noch nicht freigegeben - diese Seite öffnet sich von selbst" in html
        assert "Spieler1" not in html
        assert int(page["Refresh"]) > 0
        assert page["Cache-Control"] == "no-store"
        for name in ("keeper-status", "keeper-calculator"):
            response = client.get(keeper_url(table, name))
            assert response.status_code == 404
            assert "Spieler1" not in response.content.decode()
        assert client.post(keeper_url(table), normal(4)).status_code == 404
    assert table.games.count() == 3
    table.round.status = RoundStatus.RELEASED
    table.round.save()
    page = client.get(keeper_url(table))
    assert "Spieler1" in page.content.decode()
    assert "Refresh" not in page


def close(table):
    table.round.status = RoundStatus.CLOSED
    table.round.save()


def test_an_old_link_shows_the_final_sheet_read_only_after_the_round_is_closed(client, table):
    fill(table)
    close(table)
    page = client.get(keeper_url(table))
    html = page.content.decode()
    assert page.status_code == 200
    assert "Diese Runde ist abgeschlossen." in html and 'id="round-closed"' in html
    assert 'id="game-0"' not in html and 'id="game-24"' in html  # every row, read-only
    assert "Spieler1" in html and "24 / 24" in html
    for form in ("game-form", "submit-form", "confirm-form", "delete-form", "referee-call"):
        assert f'id="{form}"' not in html
    assert "<form" not in html.split('id="sheet"')[1]
    assert "?edit=" not in html
    # The page polls nothing; the outbox only shows what the phone still holds.
    assert "keeper-status" not in html and "/stand/" not in html
    assert 'data-closed="1"' in html and "outbox.js" in html
    assert "Zeigen Sie es der Turnierleitung" in html  # the text for one unsent game


def test_nothing_sent_to_an_old_link_is_saved(client, table):
    fill(table)
    close(table)
    before = rows(table)
    response = client.post(keeper_url(table), direct(25, [1, 1, -1, -1]))
    assert response.status_code == 410
    html = response.content.decode()
    assert "Nichts wurde gespeichert: Diese Runde ist abgeschlossen." in html
    assert 'id="game-form"' not in html
    for name in ("keeper-delete", "keeper-submit", "keeper-confirm", "keeper-time-up"):
        answer = client.post(keeper_url(table, name), {"number": "24", "version": "1"})
        assert answer.status_code == 410
    assert client.post(keeper_url(table, "keeper-call"), {"note": "x"}).status_code == 410
    assert rows(table) == before and not table.referee_calls.exists()


def test_a_page_open_when_the_round_closes_reloads_itself_as_closed(client, table):
    fill(table, games=2)
    close(table)
    poll = client.get(keeper_url(table, "keeper-status"), HTTP_HX_REQUEST="true")
    assert poll.status_code == 200 and poll["HX-Refresh"] == "true"
    headers = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "sheet"}
    save = client.post(keeper_url(table), direct(3, [1, 1, -1, -1]), **headers)
    assert save.status_code == 410 and save["HX-Refresh"] == "true"
    assert "<html" not in save.content.decode()
    assert table.games.count() == 2
    assert "HX-Refresh" not in client.get(keeper_url(table))


def test_wrong_tokens_are_rate_limited_real_links_never(client, tournament, table):
    for _ in range(20):
        assert client.get("/tisch/falsch/").status_code == 404
    response = client.get("/tisch/falsch/")
    assert response.status_code == 429
    assert int(response["Retry-After"]) > 0
    # The whole hall may share one address: a real link keeps working.
    assert client.get(keeper_url(table)).status_code == 200
    assert client.post(keeper_url(table), normal(1)).status_code == 200


def test_links_of_closed_rounds_do_not_count_as_guesses(client, table):
    close(table)
    for _ in range(30):
        assert client.get(keeper_url(table, "keeper-status")).status_code == 200
    assert not RateBucket.objects.exists()


def test_tokens_are_long_random_and_distinct(tournament):
    tables = [released_table(tournament, table_number=n, first_start=4 * n) for n in (1, 2, 3)]
    tokens = {t.token for t in tables}
    assert len(tokens) == 3 and all(len(t) >= 32 for t in tokens)


# --- submit, confirm, close ----------------------------------------------------------------


def test_submit_is_blocked_by_errors_and_by_missing_games(client, table):
    fill(table, games=10)
    response = client.post(keeper_url(table, "keeper-submit"), confirm_data(table, 1))
    assert response.status_code == 422
    assert "10 von 24 Spielen" in response.content.decode()
    table.games.all().delete()
    fill(table)
    last = table.games.order_by("-number").first()
    Game.objects.filter(pk=last.pk).update(p1=last.p1 + 1)  # a typo nobody corrected
    response = client.post(keeper_url(table, "keeper-submit"), confirm_data(table, 1))
    assert response.status_code == 422
    assert "Fehler" in response.content.decode()
    table.refresh_from_db()
    assert table.sheet.status == SheetStatus.OPEN


def test_submit_confirm_by_another_player_and_close(client, director_client, table):
    fill(table)
    nobody = {"start_number": "9", "code": "12345"}
    assert client.post(keeper_url(table, "keeper-submit"), nobody).status_code == 422
    # The start number alone no longer submits: the keeper's code from the player card.
    alone = client.post(keeper_url(table, "keeper-submit"), {"start_number": "1"})
    assert alone.status_code == 422 and table.sheet.status == SheetStatus.OPEN
    submitted = client.post(keeper_url(table, "keeper-submit"), confirm_data(table, 1))
    assert submitted.status_code == 200
    table.refresh_from_db()
    assert table.sheet.status == SheetStatus.SUBMITTED
    assert table.sheet.submitted_by == "Listenführer Tisch 1 · Startnr. 1"
    # The list keeper cannot confirm their own sheet, and nobody can change it any more.
    same = client.post(keeper_url(table, "keeper-confirm"), confirm_data(table, 1))
    assert same.status_code == 422
    assert client.post(keeper_url(table), normal(25)).status_code == 422
    # Another player's start number alone is not enough: it takes their code.
    number_only = client.post(keeper_url(table, "keeper-confirm"), {"start_number": "3"})
    assert number_only.status_code == 422
    other = client.post(keeper_url(table, "keeper-confirm"), confirm_data(table, 3))
    assert other.status_code == 200
    table.refresh_from_db()
    assert table.sheet.status == SheetStatus.CONFIRMED
    assert table.sheet.confirmed_by == "Listenführer Tisch 1 · Startnr. 3"
    response = director_client.post(reverse("manage:round-close", args=["herbst", 1]))
    assert response.status_code == 302
    table.round.refresh_from_db()
    assert table.round.status == RoundStatus.CLOSED and table.round.closed_at


def test_closing_a_round_checks_2_and_5_sheets_with_the_same_queries(director_user):
    """The round is locked while its sheets are checked: the check reads them all at once."""

    def close(slug: str, tables: int) -> int:
        tournament = TournamentFactory(slug=slug, directors=[director_user])
        for number in range(1, tables + 1):
            fill(released_table(tournament, table_number=number, first_start=4 * number - 3))
        round_ = tournament.rounds.get()
        Sheet.objects.filter(table__round=round_).update(status=SheetStatus.CONFIRMED)
        # The account as a request loads it: its groups are read once per user object.
        user = type(director_user).objects.get(pk=director_user.pk)
        with CaptureQueriesContext(connection) as queries:
            sheet_domain.close_round(round_, user)
        round_.refresh_from_db()
        assert round_.status == RoundStatus.CLOSED
        return len(queries)

    assert close("zwei", 2) == close("fuenf", 5)


def test_a_new_tables_sheet_names_who_set_the_table(director_user, tournament, table):
    """The sheet is created with its table: its first history record has the table's actor."""
    added = stamp(Table(round=table.round, number=2, size=4), director_user)
    added.save()
    record = Sheet.history.get(table_id=added.pk)
    assert (record.history_user, record.history_role) == (director_user, DIRECTOR)


def test_a_round_closes_only_when_every_sheet_is_confirmed(director_user, tournament, table):
    released_table(tournament, table_number=2, first_start=5)
    fill(table)
    sheet_domain.submit(table, sheet_domain.office_actor(director_user))
    sheet_domain.confirm(table, sheet_domain.office_actor(director_user, director=True))
    with pytest.raises(DomainError, match="Tische 2"):
        sheet_domain.close_round(table.round, director_user)


def test_a_sheet_reopened_while_the_round_is_checked_keeps_the_round_open(
    monkeypatch, director_user, tournament, table
):
    """The sheets are checked outside the write transaction (issue 33): a sheet sent back
    meanwhile is seen before the round closes, and the round stays open."""
    fill(table)
    office = sheet_domain.office_actor(director_user, director=True)
    sheet_domain.submit(table, office)
    sheet_domain.confirm(table, office)
    real, reopened = sheet_domain.board, []

    def board(round_, **kwargs):
        views = real(round_, **kwargs)
        if not reopened:  # the director sends the sheet back while the round is checked
            sheet_domain.reopen(table, office, "Nachfrage")
            reopened.append(table.pk)
        return views

    monkeypatch.setattr(sheet_domain, "board", board)
    with pytest.raises(DomainError, match="Tische 1"):
        sheet_domain.close_round(table.round, director_user)
    table.round.refresh_from_db()
    assert reopened and table.round.status == RoundStatus.RELEASED


def test_after_closing_changes_need_the_office_and_a_reason(director_client, table, tournament):
    fill(table)
    table.round.status = RoundStatus.CLOSED
    table.round.save()
    url = reverse("manage:sheet-desk", args=["herbst", 1, 1])
    page = director_client.get(url)
    grid = _grid_data(page)
    grid["p1-2"], grid["p2-2"] = grid["p2-2"], grid["p1-2"]  # swap two values of game 2
    response = director_client.post(url, grid)
    assert response.status_code == 422
    assert "Begründung" in response.content.decode()
    before = rows(table)
    grid["reason"] = "Schiedsgericht: Werte vertauscht"
    response = director_client.post(url, grid)
    assert response.status_code == 302
    after = rows(table)
    assert after[1][2][0] == before[1][2][1] and after[0] == before[0]
    record = Game.history.filter(number=2).latest("history_date")
    assert history_reason(record).endswith("Schiedsgericht: Werte vertauscht")


def _grid_data(page):
    """The desk grid's inputs as the browser would post them."""
    import re

    html = page.content.decode()
    data = dict(re.findall(r'<input[^>]*name="([^"]+)" value="([^"]*)"', html))
    data.pop("csrfmiddlewaretoken", None)
    data.pop("next", None)
    data.pop("language", None)
    return data


# --- the desk grid and the file import -------------------------------------------------------


def test_the_desk_grid_detects_a_change_made_meanwhile(client, director_client, table):
    client.post(keeper_url(table), normal(1, value=2))
    url = reverse("manage:sheet-desk", args=["herbst", 1, 1])
    grid = _grid_data(director_client.get(url))
    client.post(keeper_url(table), direct(1, [1, -1, 1, -1], version="1"))
    grid.update({"p1-1": "4", "p2-1": "-4", "p3-1": "4", "p4-1": "-4"})
    response = director_client.post(url, grid)
    assert response.status_code == 409
    assert rows(table) == [("normal", None, (1, -1, 1, -1))]


def _upload(name, text):
    from django.core.files.uploadedfile import SimpleUploadedFile

    return SimpleUploadedFile(name, text.encode(), content_type="text/csv")


# --- every finding reaches the page ------------------------------------------------------------


def _store(table, specs):
    for number, (kind, soloist, points) in enumerate(specs, start=1):
        values = list(points) + [None] * (5 - len(points))
        p1, p2, p3, p4, p5 = values
        Game.objects.create(table=table, number=number, kind=kind, soloist_position=soloist,
                            p1=p1, p2=p2, p3=p3, p4=p4, p5=p5)  # fmt: skip


N, P, V, L = GameKind.NORMAL, GameKind.PFLICHTSOLO, GameKind.VORGEFUEHRT, GameKind.LUSTSOLO


@pytest.mark.parametrize(
    ("size", "specs", "code"),
    [
        (4, [(N, None, (1, 1, -1, -2))], "zero-sum"),
        (4, [(N, None, (2, 1, -1, -2))], "even-odd"),
        (4, [(N, None, (4, -2, 2, -4))], "pattern"),
        (5, [(N, None, (2, -2, 2, -2, 0))], "sitter-nonzero"),
        (5, [(L, 1, (-3, 1, 1, 1, 0))], "soloist-sits"),
        (4, [(P, 1, (6, -2, -2, -2)), (P, 1, (6, -2, -2, -2))], "pflichtsolo-twice"),
        (4, [(L, 2, (-2, 6, -2, -2))], "lustsolo-before-pflichtsolo"),
        (4, [(V, 2, (-2, 6, -2, -2)), (N, None, (1, -1, 1, -1))], "vorfuehren-not-due"),
        (4, [(N, None, (40, -40, 40, -40))], "value-implausible"),
        (4, [(N, None, (1, -1, 1, -1))] * 20 + [(N, None, (1, -1, 1, -1))], "vorfuehren-missed"),
        (4, [(N, None, (1, -1, 1, -1))] * 25, "too-many-games"),
        (4, [(N, None, (1, -1, 1, -1))] * 24, "pflichtsolo-missing"),
    ],
)
def test_every_finding_is_shown_on_the_sheet(director_client, tournament, size, specs, code):
    table = released_table(tournament, size=size)
    _store(table, specs)
    html = director_client.get(reverse("manage:sheet-desk", args=["herbst", 1, 1])).content
    sheet = reads.load(table)
    finding = next(f for f in sheet.findings if f.code == code)
    assert finding_message(code, finding.params) in html.decode()


def test_a_time_limited_sheet_ends_with_the_vorgefuehrte_soli(client, director_user, table):
    fill(table, games=16, seed=3)
    table.sheet.time_limit_from = 17
    table.sheet.save()
    html = client.get(keeper_url(table)).content.decode()
    assert "Spielzeit ist abgelaufen" in html
    # The list keeper plays the owed Pflichtsoli as the ledger names them, then submits.
    tail = 0
    while (step := reads.load(table).next_step).vorfuehren is not None:
        data = {**normal(17 + tail), "kind": "vorgefuehrt", "winners": []}
        data.update(soloist=str(step.vorfuehren), result="won", value="2")
        assert client.post(keeper_url(table), data).status_code == 200
        tail += 1
    submitted = client.post(keeper_url(table, "keeper-submit"), confirm_data(table, 2))
    assert submitted.status_code == 200
    table.refresh_from_db()
    assert table.sheet.status == SheetStatus.SUBMITTED
    assert tail >= 1
    assert table.sheet.struck_games == 24 - 16 - tail


def test_the_catalogue_has_a_sentence_for_every_finding_code():
    for code in FINDINGS:
        assert finding_message(code, {}) != code


@pytest.mark.parametrize(
    ("code", "params", "german"),
    [
        (
            "penalty-sitter-nonzero",
            {"position": 3},
            "Strafzeile: Position 3 gibt und setzt in diesem Spiel aus, bei ihr muss 0 stehen.",
        ),
        (
            "penalty-fits-other-dealer",
            {"game": 7, "fits": 5, "dealer": 1},
            "Strafzeile: diese Werte gehören zu einem Spiel, das Position 5 gibt, Spiel 7 gibt "
            "aber Position 1 (und setzt aus). Wurde das Spiel nach der Entscheidung des "
            "Schiedsrichters geändert, widerruft ein Schiedsrichter die Strafe und trägt die "
            "Entscheidung neu ein.",
        ),
        (
            "penalty-deduction-too-high",
            {"maximum": 12, "profile": "ddv"},
            "Strafzeile: ein Punktabzug beträgt höchstens 12 Punkte (TSR 9.7.2 b).",
        ),
        (
            "penalty-deduction-too-high",
            {"maximum": 12, "profile": "eppstein-2001"},
            "Strafzeile: ein Punktabzug beträgt höchstens 12 Punkte (EPP 8.7.2 b).",
        ),
        (
            "penalty-no-deduction",
            {"profile": "bsv-hessen-2010"},
            "Strafzeile: das Regelwerk „BSV Hessen 2010 (40 Karten)“ kennt keinen Punktabzug "
            "(ein Spieler minus, niemandem gutgeschrieben).",
        ),
        (
            "penalty-even-odd",
            {"credits": (3, 15, 21)},
            "Strafzeile: am Vierertisch gilt die Gerade-Ungerade-Regel auch für Strafen – außer "
            "für eine Strafe zugunsten des Solisten (+3/−3, +15/−15, +21/−21) und einen "
            "Punktabzug.",
        ),
        (
            "pattern",
            {"kind": "N", "shape": "normal", "fits": "solo", "fits_soloist": 1},
            "Diese Werte passen zu keinem Normalspiel: zwei Spieler bekommen +v, zwei −v (z. B. "
            "+2, +2, −2, −2). Es sind die Werte eines Solos von Position 1.",
        ),
        (
            "running-total-low",
            {"game": 7, "last": 9, "position": 4, "amount": 3, "next": 10},
            "Spiele 7 bis 9, Position 4: die laufenden Summen sind um 3 zu niedrig; ab Spiel 10 "
            "stimmen sie wieder.",
        ),
    ],
)
def test_the_new_findings_read_as_whole_german_sentences(code, params, german):
    assert finding_message(code, params) == german


# --- round clock, extra time, board ---------------------------------------------------------


def test_the_clock_runs_from_the_release_and_extra_time_extends_one_table(
    director_client, tournament, table
):
    started = timezone.now() - timedelta(minutes=90)
    table.round.started_at = started
    table.round.save()
    clock = sheet_domain.clock(table)
    assert clock.ends_at == started + timedelta(minutes=get_profile("ddv").playing_minutes_4)
    assert 9 * 60 <= clock.seconds_left() <= 10 * 60
    url = reverse("manage:sheet-action", args=["herbst", 1, 1, "extra-time"])
    director_client.post(url, {"minutes": "7", "reason": "Streit um Spiel 5"})
    table.refresh_from_db()
    assert table.sheet.extra_minutes == 7 and "Streit um Spiel 5" in table.sheet.extra_reason
    assert sheet_domain.clock(table).ends_at == clock.ends_at + timedelta(minutes=7)


def test_extra_time_needs_a_reason_and_an_official(client, table):
    with pytest.raises(DomainError):
        sheet_domain.grant_extra_time(table, sheet_domain.keeper_actor(table), 5, "bitte")
    officer = sheet_domain.Actor(label="schiri", privileged=True)
    with pytest.raises(DomainError):
        sheet_domain.grant_extra_time(table, officer, 5, " ")


def test_time_up_marks_the_tail_only_when_the_clock_has_run_out(client, table):
    client.post(keeper_url(table), normal(1))
    assert client.post(keeper_url(table, "keeper-time-up")).status_code == 422
    table.round.started_at = timezone.now() - timedelta(hours=3)
    table.round.save()
    client.post(keeper_url(table, "keeper-time-up"))
    table.refresh_from_db()
    assert table.sheet.time_limit_from == 2
    html = client.get(keeper_url(table)).content.decode()
    assert "Spiel 2 muss ein vorgeführtes Pflichtsolo von 3" in html  # the ledger says who


def test_the_board_shows_every_table_state(director_client, director_user, tournament, table):
    started = released_table(tournament, table_number=2, first_start=5)
    broken = released_table(tournament, table_number=3, first_start=9)
    done = released_table(tournament, table_number=4, first_start=13)
    fill(started, games=5)
    _store(broken, [(N, None, (1, 1, -1, -2))])
    fill(done)
    sheet_domain.submit(done, sheet_domain.office_actor(director_user))
    url = reverse("manage:board", args=["herbst", 1])
    html = director_client.get(url).content.decode()
    assert 'id="board-table-1" class="state-new"' in html
    assert "nicht begonnen" in html and "läuft" in html and "abgegeben" in html
    assert "5 / 24" in html and "2 Fehler" in html  # zero-sum and even/odd
    assert 'hx-trigger="every 5s"' in html
    live = director_client.get(url, headers={"HX-Request": "true"})
    assert live.content.decode().lstrip().startswith('<table class="board"')
    director_client.post(
        reverse("manage:sheet-action", args=["herbst", 1, 4, "confirm"]), {"next": "board"}
    )
    assert Table.objects.get(pk=done.pk).sheet.status == SheetStatus.CONFIRMED


def test_referees_of_the_tournament_see_the_board_others_not(client, tournament, table):
    official = referee(username="schiri")
    tournament.referees.add(official)
    client.force_login(official)
    assert client.get(reverse("manage:board", args=["herbst", 1])).status_code == 200
    stranger = director(username="fremd")
    TournamentFactory(slug="anders", directors=[stranger])
    client.force_login(stranger)
    assert client.get(reverse("manage:board", args=["herbst", 1])).status_code == 404
    assert client.get(reverse("manage:sheet-desk", args=["herbst", 1, 1])).status_code == 404
    # A referee may not confirm sheets or close rounds.
    client.force_login(official)
    url = reverse("manage:sheet-action", args=["herbst", 1, 1, "confirm"])
    assert client.post(url).status_code == 403


# --- found in review: the paths where data could be lost or a check skipped -----------------


def test_a_desk_page_opened_earlier_does_not_delete_a_game_added_since(
    client, director_client, table
):
    client.post(keeper_url(table), normal(1))
    url = reverse("manage:sheet-desk", args=["herbst", 1, 1])
    grid = _grid_data(director_client.get(url))
    client.post(keeper_url(table), normal(2))  # the phone goes on meanwhile
    response = director_client.post(url, grid)
    assert response.status_code == 409
    assert table.games.count() == 2


def test_a_desk_page_does_not_bring_back_a_game_removed_since(client, director_client, table):
    client.post(keeper_url(table), normal(1))
    client.post(keeper_url(table), normal(2))
    url = reverse("manage:sheet-desk", args=["herbst", 1, 1])
    grid = _grid_data(director_client.get(url))
    client.post(keeper_url(table, "keeper-delete"), {"number": "2", "version": "1"})
    assert director_client.post(url, grid).status_code == 409
    assert table.games.count() == 1


def test_a_retry_with_other_data_under_the_same_id_is_a_conflict(client, table):
    data = normal(1, value=2)
    client.post(keeper_url(table), data)
    response = client.post(keeper_url(table), {**data, "value": "5"})
    assert response.status_code == 409
    assert rows(table) == [("normal", None, (2, -2, 2, -2))]


def test_the_same_correction_sent_twice_is_stored_once(client, table):
    client.post(keeper_url(table), normal(1, value=2))
    change = direct(1, [3, -3, 3, -3], version="1")
    assert client.post(keeper_url(table), change).status_code == 200
    assert client.post(keeper_url(table), {**change, "client_id": ""}).status_code == 200
    assert table.games.get().version == 2


def test_after_a_conflict_the_form_can_be_saved_again(client, table):
    client.post(keeper_url(table), normal(1, value=2))
    client.post(keeper_url(table), direct(1, [1, -1, 1, -1], version="1"))
    response = client.post(keeper_url(table), direct(1, [4, -4, 4, -4], version="1"))
    assert response.status_code == 409
    html = response.content.decode()
    assert 'name="version" value="2"' in html  # the form now carries the stored version
    assert client.post(keeper_url(table), direct(1, [4, -4, 4, -4], version="2")).status_code == 200
    assert rows(table) == [("normal", None, (4, -4, 4, -4))]


def test_an_office_change_with_errors_blocks_confirming_and_closing(director_user, table):
    office = sheet_domain.office_actor(director_user, director=True)
    fill(table)
    sheet_domain.submit(table, office)
    game = table.games.get(number=2)
    broken = sheet_domain.RowInput(game.kind, game.soloist_position, (1, 1, 1, 1))
    sheet_domain.save_row(table, office, broken, number=2, version=game.version, reason="x")
    with pytest.raises(DomainError, match="Fehler"):
        sheet_domain.confirm(table, office)
    table.refresh_from_db()
    assert table.sheet.status == SheetStatus.SUBMITTED


def test_confirming_ones_own_sheet_fails_in_every_language(client, table):
    fill(table)
    client.post(keeper_url(table, "keeper-submit"), confirm_data(table, 1))
    client.cookies["django_language"] = "en"
    response = client.post(keeper_url(table, "keeper-confirm"), confirm_data(table, 1))
    assert response.status_code == 422
    assert "confirmed by somebody else" in response.content.decode()
    table.refresh_from_db()
    assert table.sheet.status == SheetStatus.SUBMITTED


def test_normal_games_after_the_time_limit_are_errors(client, table):
    specs = [(P, p, tuple(6 if q == p else -2 for q in range(1, 5))) for p in (1, 2, 3, 4)]
    _store(table, specs + [(N, None, (1, -1, 1, -1))])
    table.sheet.time_limit_from = 6
    table.sheet.save()
    client.post(keeper_url(table), normal(6))
    sheet = reads.load(table)
    assert [(f.code, f.game) for f in sheet.findings if f.level == "error"] == [
        ("after-time-limit", 6)
    ]
    html = client.get(keeper_url(table)).content.decode()
    assert finding_message("after-time-limit", {}) in html


def test_extra_time_lifts_a_time_limit_recorded_too_early(director_user, table):
    office = sheet_domain.office_actor(director_user)
    sheet_domain.mark_time_up(table, office)
    table.refresh_from_db()
    assert table.sheet.time_limit_from == 1
    sheet_domain.grant_extra_time(table, office, 10, "Uhr falsch gestellt")
    table.refresh_from_db()
    assert table.sheet.time_limit_from is None


def test_the_time_limit_is_not_recorded_on_a_closed_round(director_user, table):
    table.round.status = RoundStatus.CLOSED
    table.round.save()
    with pytest.raises(DomainError, match="offenen Liste"):
        sheet_domain.mark_time_up(table, sheet_domain.office_actor(director_user))


def test_the_status_strip_keeps_polling(client, table):
    html = client.get(keeper_url(table, "keeper-status")).content.decode()
    assert f'hx-get="{keeper_url(table, "keeper-status")}"' in html
    assert html.count('id="sheet-status-wrap"') == 1


def test_an_older_game_at_a_five_table_is_corrected_with_its_own_sitter(client, tournament):
    table = released_table(tournament, size=5)
    client.post(keeper_url(table), normal(1, winners=(2, 4), value=1))  # position 1 sits out
    client.post(keeper_url(table), normal(2, winners=(1, 3), value=1))  # position 2 sits out
    page = client.get(keeper_url(table) + "?edit=1").content.decode()
    assert 'name="winners" value="1"' not in page and 'name="winners" value="2"' in page
    assert 'value="derive"' in page and 'name="value" value="1"' in page
    change = normal(1, winners=(4, 5), value=2, version="1", reason="falsche Gewinner")
    assert client.post(keeper_url(table), change).status_code == 200
    assert rows(table)[0] == ("normal", None, (0, -2, -2, 2, 2))


def test_every_form_error_is_shown(client, table):
    data = {**normal(1), "kind": "lustsolo", "soloist": "9", "result": "won", "winners": []}
    html = client.post(keeper_url(table), data).content.decode()
    assert "9 ist keine gültige Auswahl." in html


@pytest.mark.parametrize(
    ("name", "data"),
    [
        ("get", {"edit": "²"}),
        ("desk", {"lines": "27", "kind-1": "N", "solo-1": "²", "p1-1": "1"}),
        ("desk", {"lines": "27", "kind-1": "N", "version-1": "²", "p1-1": "1"}),
        ("desk", {"lines": "99999999999", "kind-1": "N", "p1-1": "1"}),
    ],
)
def test_odd_digits_give_a_message_not_a_crash(client, director_client, table, name, data):
    if name == "get":
        assert client.get(keeper_url(table), data).status_code == 200
    else:
        url = reverse("manage:sheet-desk", args=["herbst", 1, 1])
        assert director_client.post(url, data).status_code in (302, 409, 422)
    assert table.games.count() <= 1


def test_the_office_submits_a_paper_sheet(director_client, table):
    fill(table)
    url = reverse("manage:sheet-action", args=["herbst", 1, 1, "submit"])
    assert director_client.post(url).status_code == 302
    table.refresh_from_db()
    assert table.sheet.status == SheetStatus.SUBMITTED and table.sheet.submitted_by == "leiterin"


def test_long_reasons_are_kept_whole(client, director_user, table):
    client.post(keeper_url(table), normal(1))
    reason = "Schiedsgericht: " + "der Wert war falsch addiert, " * 6
    change = direct(1, [1, -1, 1, -1], version="1", reason=reason[:200])
    assert client.post(keeper_url(table), change).status_code == 200
    record = Game.history.filter(history_type="~").get()
    assert history_reason(record).endswith(reason[:200].strip())
    office = sheet_domain.office_actor(director_user)
    sheet_domain.grant_extra_time(table, office, 5, "Streit " * 20)
    assert len(history_reason(table.sheet.history.latest("history_date"))) > 100


def test_a_broken_remove_request_says_nothing_was_removed(client, table):
    client.post(keeper_url(table), normal(1))
    response = client.post(keeper_url(table, "keeper-delete"), {"number": "1"})
    assert response.status_code == 422
    assert "Es wurde nichts entfernt." in response.content.decode()
    assert table.games.count() == 1


def test_the_calculator_for_a_table_uses_its_rules_size_and_dealer(client, tournament):
    table = released_table(tournament, size=5)  # the tournament is not public
    client.post(keeper_url(table), normal(1, winners=(2, 4), value=1))
    page = client.get(keeper_url(table, "keeper-calculator")).content.decode()
    assert 'value="5" id="id_table_size_1" required checked' in page
    assert '<option value="2" selected>' in page  # position 2 deals game 2
    facts = {"table_size": "5", "dealer": "2", "kind": "normal", "re": ["1", "3"]}
    facts.update(re_eyes="151")
    url = keeper_url(table, "keeper-calculator")
    result = client.get(url, facts, headers={"HX-Request": "true"}).content.decode()
    assert result.lstrip().startswith('<div class="card result">')
    assert "Re gewinnt" in result
    assert keeper_url(table, "keeper-calculator") in client.get(keeper_url(table)).content.decode()


# --- issue 15: what the keeper reads at the end of a sheet, after a save, on the board ------


def _sheet_without_a_pflichtsolo(table, count=None):
    """Store ``count`` games (default: a full round) in which the last position never plays
    its Pflichtsolo: the others play theirs first, then normal games follow, also the game
    in which the last one had to be vorgeführt."""
    from scoring.ledger import PlayedGame, walk

    size = table.size
    profile = table.round.tournament.profile
    count = count or profile.games_per_round(size)
    played, inputs = [], []
    for number in range(1, count + 1):
        sitter = walk(profile, size, played)[-1].sitter
        active = [p for p in range(1, size + 1) if p != sitter]
        soloist = next(
            (p for p in active if p < size and p not in {g.soloist for g in played}), None
        )
        if soloist is not None and number < size:
            points = [3 if p == soloist else (0 if p == sitter else -1) for p in range(1, size + 1)]
            inputs.append(sheet_domain.RowInput("pflichtsolo", soloist, tuple(points)))
            played.append(PlayedGame(P.scoring, soloist))
        else:
            winners = active[:2]
            points = [0 if p == sitter else (1 if p in winners else -1) for p in range(1, size + 1)]
            inputs.append(sheet_domain.RowInput("normal", None, tuple(points)))
            played.append(PlayedGame(N.scoring, None))
    actor = sheet_domain.Actor(label="test", privileged=True)
    sheet_domain.replace_rows(table, actor, inputs, {})


def _text(html):
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


@pytest.mark.parametrize("size", [4, 5])
def test_a_missing_pflichtsolo_at_the_end_gives_one_instruction(
    client, director_client, tournament, size
):
    table = released_table(tournament, size=size)
    _sheet_without_a_pflichtsolo(table)
    nominal = table.round.tournament.profile.games_per_round(size)
    last = reads.load(table).findings
    missed = next(f.game for f in last if f.code == "vorfuehren-missed")
    keeper = _text(client.get(keeper_url(table)).content.decode())
    desk = _text(
        director_client.get(reverse("manage:sheet-desk", args=["herbst", 1, 1])).content.decode()
    )
    for page in (keeper, desk):
        assert f"Alle {nominal} Spiele sind eingetragen, aber es fehlt ein Pflichtsolo:" in page
        owing = ", ".join(
            f"{seat.position} · {seat.entry.player.full_name}"
            for seat in table.seats.order_by("position")
            if seat.position in reads.load(table).next_step.owing_before
        )
        assert f"Pflichtsolo: {owing}. Spiel {missed} hätte ein vorgeführtes Pflichtsolo" in page
        # Nothing says otherwise: no "game N+1 must be …", no "all entered, please submit".
        assert f"Spiel {nominal + 1} muss" not in page
        assert "Bitte die Liste prüfen und unten abgeben" not in page
        assert "gibt und sitzt aus" not in page and "> gibt <" not in page
    assert "Bitte kein weiteres Spiel eintragen" in keeper
    assert f"Ist Spiel {missed} falsch eingetragen, bitte korrigieren" in keeper
    assert "das falsch eingetragene Spiel korrigieren oder als Schiedsrichter entscheiden" in desk
    assert "Weiteres Spiel eintragen" not in keeper and "Spiel " + str(nominal + 1) not in keeper
    html = client.get(keeper_url(table)).content.decode()
    assert 'id="game-form"' not in html and 'id="vorfuehren-banner"' not in html


def test_a_vorfuehren_still_to_come_is_announced_before_the_last_game(client, table):
    _sheet_without_a_pflichtsolo(table, count=23)
    html = _text(client.get(keeper_url(table)).content.decode())
    assert re.search(
        r"Spiel 24 muss ein vorgeführtes Pflichtsolo von 4 · Vorname\d+ Spieler4 sein", html
    )
    assert "Alle 24 Spiele" not in html and "Alle Spiele sind eingetragen" not in html


def test_a_complete_sheet_says_submit_and_offers_no_further_game(client, table):
    fill(table)
    html = client.get(keeper_url(table)).content.decode()
    assert _text(html).count("Alle Spiele sind eingetragen. Bitte die Liste prüfen") == 1
    assert 'id="submit-form"' in html
    assert 'id="game-form"' not in html and "Weiteres Spiel eintragen" not in html
    # A change of an entered game is still possible.
    assert 'id="game-form"' in client.get(keeper_url(table) + "?edit=3").content.decode()


def test_a_complete_sheet_with_errors_says_correct_first(client, table):
    fill(table)
    last = table.games.order_by("-number").first()
    Game.objects.filter(pk=last.pk).update(p1=last.p1 + 1)
    html = _text(client.get(keeper_url(table)).content.decode())
    assert "Alle Spiele sind eingetragen, aber die Liste hat noch 2 Fehler" in html
    assert "Bitte die Liste prüfen und unten abgeben" not in html


def test_a_sheet_with_one_game_too_many_says_remove_it(client, table):
    fill(table)
    client.post(keeper_url(table), direct(25, [1, 1, -1, -1]))  # without JS the form posts
    html = _text(client.get(keeper_url(table)).content.decode())
    assert "Die Liste hat 25 Spiele, eine Runde nur 24" in html
    assert "Bitte die Liste prüfen und unten abgeben" not in html


def test_after_the_time_limit_the_game_in_progress_can_still_be_entered(client, table):
    fill(table, games=10)
    table.round.started_at = timezone.now() - timedelta(hours=5)
    table.round.save()
    html = client.get(keeper_url(table)).content.decode()
    # Time is up, but the game being played is entered before the time limit is recorded.
    assert 'id="game-form"' in html


def test_a_row_saved_with_a_finding_says_saved_but_in_the_warning_colour(client, table):
    response = client.post(keeper_url(table), direct(1, [2, 2, -2, -3]))
    html = response.content.decode()
    notice = re.search(r'<div class="banner ([a-z]+)" role="[a-z]+" id="notice">(.*?)</div>', html)
    assert notice.group(1) == "warning"
    assert notice.group(2).startswith("Spiel 1 gespeichert, aber: ")
    assert "Zeilensumme -1" in notice.group(2) and "Quersumme" not in html
    good = client.post(keeper_url(table), direct(2, [2, 2, -2, -2])).content.decode()
    notice = re.search(r'<div class="banner ([a-z]+)" role="[a-z]+" id="notice">(.*?)</div>', good)
    assert notice.groups() == ("info", "Spiel 2 gespeichert.")


def test_the_desk_says_saved_but_when_errors_are_left(director_client, table):
    url = reverse("manage:sheet-desk", args=["herbst", 1, 1])
    data = {"lines": "27", "kind-1": "N", "p1-1": "2", "p2-1": "2", "p3-1": "-2", "p4-1": "-3"}
    page = director_client.post(url, data, follow=True).content.decode()
    assert '<li class="warning"' in page
    assert "1 Zeile gespeichert, aber die Liste hat 2 Fehler" in page
    data.update({"p4-1": "-2", "version-1": str(table.games.get().version)})
    page = director_client.post(url, data, follow=True).content.decode()
    assert '<li class="success"' in page and "1 Zeile gespeichert." in page


def test_a_missing_reason_in_a_closed_round_is_refused_next_to_the_field(director_client, table):
    fill(table)
    close(table)
    url = reverse("manage:sheet-desk", args=["herbst", 1, 1])
    grid = _grid_data(director_client.get(url))
    grid["p1-2"], grid["p2-2"] = grid["p2-2"], grid["p1-2"]
    before = rows(table)
    for reason in (None, "   "):  # a plain POST, as without the browser's check
        data = dict(grid)
        if reason is not None:
            data["reason"] = reason
        response = director_client.post(url, data)
        html = response.content.decode()
        assert response.status_code == 422
        field = html.split('id="desk-reason"')[1].split("</div>")[0]
        message = "Änderungen an einer abgegebenen Liste oder einer abgeschlossenen Runde"
        assert 'id="desk-reason-error"' in field and message in field
        assert 'value="' + grid["p2-2"] + '"' in html  # what was typed stays
        assert rows(table) == before


def test_a_file_import_into_a_closed_round_without_a_reason_says_so_at_the_field(
    director_client, table
):
    fill(table, games=2)
    close(table)
    before = rows(table)
    content = "game,kind,soloist,1,2,3,4\n1,N,,2,-2,2,-2\n"
    url = reverse("manage:sheet-import", args=["herbst", 1, 1])
    data = {"file": _upload("sheet.csv", content), "replace": "on"}
    response = director_client.post(url, data)
    html = response.content.decode()
    assert response.status_code == 422
    # The import form's reason field carries the message (the other forms are not shown).
    assert html.count('id="id_reason"') == 1
    field = html.split('id="id_reason"')[1].split("</div>")[0]
    assert "brauchen eine Begründung" in field
    assert rows(table) == before


def test_a_missing_reason_on_a_submitted_sheet_is_refused_too(
    director_client, director_user, table
):
    fill(table)
    sheet_domain.submit(table, sheet_domain.office_actor(director_user))
    url = reverse("manage:sheet-desk", args=["herbst", 1, 1])
    grid = _grid_data(director_client.get(url))
    grid["p1-2"], grid["p2-2"] = grid["p2-2"], grid["p1-2"]
    before = rows(table)
    response = director_client.post(url, grid)
    assert response.status_code == 422 and 'id="desk-reason-error"' in response.content.decode()
    assert rows(table) == before


def test_board_and_desk_name_the_players_and_who_submitted(client, director_client, table):
    fill(table)
    client.post(keeper_url(table, "keeper-submit"), confirm_data(table, 4))
    board = director_client.get(reverse("manage:board", args=["herbst", 1])).content.decode()
    assert "1 Spieler1, V." in board and "4 Spieler4, V." in board
    name = table.seats.get(position=4).entry.player.full_name
    desk = director_client.get(reverse("manage:sheet-desk", args=["herbst", 1, 1]))
    html = desk.content.decode()
    assert "<small>2 Spieler2, V.</small>" in html
    assert f"Abgegeben von {name} (Startnr. 4) um" in _text(html)
    keeper = _text(client.get(keeper_url(table)).content.decode())
    assert f"Abgegeben von {name} (Startnr. 4)." in keeper
    assert "Listenführer Tisch 1 · Startnr. 4" not in keeper


def _calc(client, table, facts, target="calculator-result"):
    headers = {"HX-Request": "true", "HX-Target": target}
    return client.get(keeper_url(table, "keeper-calculator"), facts, headers=headers)


def test_the_calculator_opens_in_place_on_the_keeper_page(client, table):
    html = client.get(keeper_url(table)).content.decode()
    link = re.search(r'<a [^>]*id="calculator-link"[^>]*>', html).group(0)
    assert 'target="_blank"' not in link and 'hx-target="#calculator-panel"' in link
    assert 'id="calculator-panel"' in html
    panel = _calc(client, table, {}, target="calculator-panel").content.decode()
    assert "<html" not in panel and 'id="calculator-box"' in panel
    # The result comes before the facts, so that it is seen while they are ticked.
    assert panel.index('id="calculator-result"') < panel.index('name="re_eyes"')
    assert "hx-push-url" not in panel  # the keeper page keeps its address
    assert 'name="re" value="4"' in panel and 'name="re" value="5"' not in panel  # a 4-table


def test_the_calculators_row_is_taken_into_the_game_form(client, table):
    facts = {"table_size": "4", "dealer": "1", "kind": "solo", "re": ["2"], "re_eyes": "151"}
    result = _calc(client, table, facts).content.decode()
    take = re.search(r'<form [^>]*id="calculator-take"[^>]*>', result).group(0)
    # Position 2 still owes a Pflichtsolo: the solo is offered as one.
    assert 'data-kind="pflichtsolo"' in take and 'data-soloist="2"' in take
    assert 'data-points="-2 6 -2 -2"' in take  # won, 151 eyes: value 2
    assert "Übernehmen" in result
    # Without JavaScript the button opens the keeper page with the row in the form.
    query = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', result))
    page = client.get(keeper_url(table), query).content.decode()
    form = page.split('id="game-form"')[1].split("</form>")[0]
    assert re.search(r'name="kind" value="pflichtsolo"[^>]*checked', form)
    assert re.search(r'value="direct"[^>]*checked', form)
    assert re.search(r'name="soloist" value="2"[^>]*checked', form)
    for position, value in enumerate(query_points(query), start=1):
        assert f'name="p{position}" value="{value}"' in form
    client.post(keeper_url(table), {**direct(1, query_points(query), "pflichtsolo", 2)})
    assert rows(table) == [("pflichtsolo", 2, tuple(query_points(query)))]


def query_points(query):
    return [int(query[f"p{p}"]) for p in range(1, 5)]


def test_a_broken_take_link_opens_an_empty_form(client, table):
    for query in ({"take": "1", "kind": "x"}, {"take": "1", "kind": "normal", "p1": "a"},
                  {"take": "1", "kind": "normal", "p1": "99999", "p2": "0", "p3": "0",
                   "p4": "0"}):  # fmt: skip
        page = client.get(keeper_url(table), query)
        assert page.status_code == 200
        form = page.content.decode().split('id="game-form"')[1].split("</form>")[0]
        assert re.search(r'value="derive"[^>]*checked', form)


def test_the_calculator_takes_no_row_of_another_table_size(client, table):
    facts = {"table_size": "5", "dealer": "1", "kind": "normal", "re": ["2", "3"]}
    result = _calc(client, table, {**facts, "re_eyes": "151"}).content.decode()
    assert "Re gewinnt" in result and 'id="calculator-take"' not in result


def test_a_keepers_signature_is_stored_once_and_read_in_the_readers_language(table):
    """The history keeps the keeper's label as written (in the site's language); a reader of
    the English pages sees it in English, with the typed reason left as it was."""
    label = sheet_domain.keeper_actor(table, 8).label
    assert label == f"Listenführer Tisch {table.number} · Startnr. 8"
    with translation.override("en"):
        assert sheet_domain.readable(f"{label}: Tippfehler") == (
            f"list keeper of table {table.number} · start no. 8: Tippfehler"
        )
        plain = sheet_domain.keeper_actor(table).label
        assert sheet_domain.readable(plain) == f"list keeper of table {table.number}"
        assert sheet_domain.readable("leiterin: Korrektur") == "leiterin: Korrektur"
    assert sheet_domain.readable(label) == label
