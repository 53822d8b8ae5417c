"""Confirming a Spielliste on the table's link takes the start number and the personal code
of another player of the table (issue 14, item 4): one phone cannot submit as 7 and confirm
as 8. Wrong codes are limited per guessing browser (issue 34): a guesser waits, the genuine
phones at the table do not; the director unlocks the table and renews its codes. The codes
come from the player cards, which only the director prints, and never show on a public page
or in the history."""

import io
import random
import re
import sys
import threading
from dataclasses import replace
from datetime import timedelta

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from pypdf import PdfReader

from tests.downloads import file_of
from tests.factories import EntryFactory, PlayerFactory, TournamentFactory, released_table
from tests.waiting import WAIT, Notes
from tournament.base import ratelimit
from tournament.errors import DomainError
from tournament.management.demo_games import play_sheet
from tournament.models import Entry, EntryStatus, RateBucket, SheetStatus
from tournament.models.audit import history_reason
from tournament.sheets import codes
from tournament.sheets import verbs as sheet_domain

pytestmark = pytest.mark.django_db

CODES = {7: "48213", 8: "59371", 9: "60724", 10: "73158"}


@pytest.fixture
def complete(tournament):
    """Table 1 with start numbers 7 to 10 (known codes), complete but not submitted."""
    table = released_table(tournament, first_start=7)
    for number, code in CODES.items():
        Entry.objects.filter(tournament=tournament, start_number=number).update(confirm_code=code)
    games = play_sheet(tournament.profile, 4, random.Random(3), None)
    inputs = [sheet_domain.RowInput(g.kind, g.soloist, g.points) for g in games]
    office = sheet_domain.Actor(label="test", privileged=True)
    sheet_domain.replace_rows(table, office, inputs, {})
    return table


@pytest.fixture
def submitted(complete):
    """Table 1 with start numbers 7 to 10 (known codes), complete and submitted as 7."""
    table = complete
    sheet_domain.submit(table, sheet_domain.keeper_actor(table, 7), code=CODES[7])
    table.refresh_from_db()
    return table


def confirm(client, table, number, code=None):
    data = {"start_number": str(number)}
    if code is not None:
        data["code"] = code
    return client.post(reverse("keeper-confirm", args=[table.token]), data)


def status(table):
    table.refresh_from_db()
    return table.sheet.status


def test_one_phone_cannot_submit_as_7_and_confirm_as_8(client, submitted):
    assert submitted.sheet.submitted_start_number == 7
    without = confirm(client, submitted, 8)
    assert without.status_code == 422
    assert "Bestätigungscode" in without.content.decode()
    guessed = confirm(client, submitted, 8, "12345")
    assert guessed.status_code == 422
    assert "gehört nicht zu Startnummer 8" in guessed.content.decode()
    # 7's own code does not make 7 somebody else, and 8's number with 7's code is wrong.
    assert confirm(client, submitted, 7, CODES[7]).status_code == 422
    assert confirm(client, submitted, 8, CODES[7]).status_code == 422
    assert status(submitted) == SheetStatus.SUBMITTED
    assert submitted.sheet.confirmed_at is None and submitted.sheet.confirmed_by == ""


def test_the_code_of_another_player_of_the_table_confirms(client, submitted):
    response = confirm(client, submitted, 8, " 59 371 ")  # spaces typed along do not matter
    assert response.status_code == 200
    assert status(submitted) == SheetStatus.CONFIRMED
    assert submitted.sheet.confirmed_by == "Listenführer Tisch 1 · Startnr. 8"


def test_the_submitters_own_code_is_refused_in_the_domain(submitted):
    with pytest.raises(DomainError, match="von jemand anderem"):
        sheet_domain.confirm(submitted, sheet_domain.keeper_actor(submitted, 7), code=CODES[7])
    with pytest.raises(codes.WrongCode):
        sheet_domain.confirm(submitted, sheet_domain.keeper_actor(submitted, 9))
    assert status(submitted) == SheetStatus.SUBMITTED
    sheet_domain.confirm(submitted, sheet_domain.keeper_actor(submitted, 9), code=CODES[9])
    assert status(submitted) == SheetStatus.CONFIRMED


def test_a_code_of_a_player_at_another_table_does_not_help(client, tournament, submitted):
    released_table(tournament, table_number=2, first_start=11)
    other = Entry.objects.get(tournament=tournament, start_number=11)
    assert confirm(client, submitted, 11, other.confirm_code).status_code == 422
    assert status(submitted) == SheetStatus.SUBMITTED


def test_badly_typed_codes_are_explained_and_not_counted(client, submitted):
    for typed in ("4821", "482139", "abcde", "４８２１３"):
        response = confirm(client, submitted, 8, typed)
        assert response.status_code == 422
        assert "5 Ziffern" in response.content.decode()
    for _ in range(4):
        assert confirm(client, submitted, 8, "11111").status_code == 422
    assert confirm(client, submitted, 8, CODES[8]).status_code == 200


def phone(table) -> Client:
    """A player's phone that has opened the table's link (and so got its browser cookie)."""
    browser = Client()
    assert browser.get(reverse("keeper-sheet", args=[table.token])).status_code == 200
    return browser


def test_after_five_wrong_codes_the_guessing_phone_must_wait_or_call_the_office(
    client, director_client, tournament, submitted
):
    guesser = phone(submitted)
    for _ in range(5):
        assert confirm(guesser, submitted, 8, "11111").status_code == 422
    limited = confirm(guesser, submitted, 8, CODES[8])  # now even the right code waits
    assert limited.status_code == 429
    assert 0 < int(limited["Retry-After"]) <= 600
    page = limited.content.decode()
    assert "Zu viele falsche Codes" in page and "Turnierbüro" in page
    assert 'id="confirm-form"' in page  # the page, not a bare error
    assert status(submitted) == SheetStatus.SUBMITTED
    # Another table is not affected.
    table2 = released_table(tournament, table_number=2, first_start=11)
    games = play_sheet(tournament.profile, 4, random.Random(4), None)
    inputs = [sheet_domain.RowInput(g.kind, g.soloist, g.points) for g in games]
    sheet_domain.replace_rows(table2, sheet_domain.Actor(label="t", privileged=True), inputs, {})
    code11 = Entry.objects.get(tournament=tournament, start_number=11).confirm_code
    sheet_domain.submit(table2, sheet_domain.keeper_actor(table2, 11), code=code11)
    code12 = Entry.objects.get(tournament=tournament, start_number=12).confirm_code
    assert confirm(guesser, table2, 12, code12).status_code == 200
    # The director still confirms the limited table on the board.
    url = reverse("manage:sheet-action", args=["herbst", 1, 1, "confirm"])
    assert director_client.post(url).status_code == 302
    assert status(submitted) == SheetStatus.CONFIRMED


def test_the_limit_is_counted_in_the_domain_and_ends_with_its_window(submitted):
    actor = replace(sheet_domain.keeper_actor(submitted, 8), guesser="phone-a")
    for _ in range(codes.CODE_FAILURES):
        with pytest.raises(codes.WrongCode):
            sheet_domain.confirm(submitted, actor, code="11111")
    with pytest.raises(codes.TooManyCodes) as raised:
        sheet_domain.confirm(submitted, actor, code=CODES[8])
    assert 0 < raised.value.seconds <= codes.CODE_WINDOW
    past = timezone.now() - timedelta(seconds=codes.CODE_WINDOW + 1)
    RateBucket.objects.filter(key__startswith="confirm-code:").update(window_start=past)
    sheet_domain.confirm(submitted, actor, code=CODES[8])
    assert status(submitted) == SheetStatus.CONFIRMED


# --- issue 34, finding 10: the guesser waits, the genuine code still works ------------------


def test_a_guesser_with_the_link_never_locks_out_the_genuine_players(client, submitted):
    """Anybody holding the table's link guessed 15 codes, and for 10 minutes the table's
    submit and confirm refused everybody, the right code too; again and again."""
    genuine = phone(submitted)  # player 8's phone, open since the round began
    for number in (8, 9, 10, 8, 9, 10):  # a guessing phone, across the numbers
        for _ in range(3):
            response = confirm(client, submitted, number, "11111")
            assert response.status_code in (422, 429)
    assert confirm(client, submitted, 8, CODES[8]).status_code == 429  # the guesser waits
    fresh = Client()  # a script that throws its cookies away: the same count as before
    assert confirm(fresh, submitted, 9, "11111").status_code == 429
    assert status(submitted) == SheetStatus.SUBMITTED
    assert confirm(genuine, submitted, 8, CODES[8]).status_code == 200
    assert status(submitted) == SheetStatus.CONFIRMED
    assert submitted.sheet.confirmed_by == "Listenführer Tisch 1 · Startnr. 8"


def test_a_guesser_with_new_cookies_gets_a_few_phones_worth_of_tries_only(submitted):
    from tournament.views import keeper

    url = reverse("keeper-sheet", args=[submitted.token])
    phones = [Client() for _ in range(codes.BROWSERS_PER_TABLE + 3)]
    cookies = [p.get(url).cookies.get(keeper.BROWSER_COOKIE) for p in phones]
    given = [c for c in cookies if c is not None and c.value]
    assert len(given) == codes.BROWSERS_PER_TABLE  # then only the address counts
    tries = 0
    for guesser in phones:
        while confirm(guesser, submitted, 9, "11111").status_code == 422:
            tries += 1
    # A few phones' worth at most, and never more than the start number's ceiling.
    assert tries == min((codes.BROWSERS_PER_TABLE + 1) * codes.CODE_FAILURES, codes.NUMBER_FAILURES)
    assert status(submitted) == SheetStatus.SUBMITTED
    codes.unlock(submitted)  # the director's unlock: new phones get their id again
    assert Client().get(url).cookies.get(keeper.BROWSER_COOKIE) is not None


def test_the_director_unlocks_the_table_and_renews_its_codes_with_one_click(
    client, director_client, tournament, submitted
):
    """Issue 34, findings 10 and 11b: the codes never changed during a tournament."""
    for _ in range(codes.CODE_FAILURES):
        confirm(client, submitted, 8, "11111")
    assert confirm(client, submitted, 8, CODES[8]).status_code == 429
    other = EntryFactory(tournament=tournament, start_number=30)
    before = {e.start_number: e.confirm_code for e in Entry.objects.filter(tournament=tournament)}
    tournament.refresh_from_db()
    version = tournament.results_version
    desk = reverse("manage:sheet-desk", args=["herbst", 1, 1])
    page = director_client.get(desk).content.decode()
    assert 'id="renew-codes"' in page and "für das ganze Turnier" in page
    url = reverse("manage:sheet-action", args=["herbst", 1, 1, "renew-codes"])
    response = director_client.post(url, follow=True)
    text = response.content.decode()
    cards_url = reverse("manage:player-cards", args=["herbst"]) + "?nummern=7,8,9,10"
    assert "7, 8, 9, 10" in text and f'<a href="{cards_url}">' in text
    after = {e.start_number: e.confirm_code for e in Entry.objects.filter(tournament=tournament)}
    assert all(after[n] != before[n] and len(after[n]) == 5 for n in CODES)
    assert after[30] == before[30] == other.confirm_code  # other tables keep theirs
    tournament.refresh_from_db()
    assert tournament.results_version > version  # cards made before are not served again
    assert not RateBucket.objects.filter(key__startswith="confirm-code:").exists()
    assert confirm(client, submitted, 8, CODES[8]).status_code == 422  # the old card: wrong
    assert confirm(client, submitted, 8, after[8]).status_code == 200  # unlocked, new card
    entry = Entry.objects.get(tournament=tournament, start_number=8)
    assert "Bestätigungscode erneuert an Tisch 1" in history_reason(entry.history.first())
    cards = director_client.get(reverse("manage:player-cards", args=["herbst"]) + "?nummern=7,8")
    text = pdf_text_of(file_of(cards))
    assert after[8] in text and after[7] in text and after[9] not in text


def test_only_the_director_renews_codes(client, tournament, submitted):
    from tests.factories import referee

    official = referee()
    tournament.referees.add(official)
    client.force_login(official)
    url = reverse("manage:sheet-action", args=["herbst", 1, 1, "renew-codes"])
    assert client.post(url).status_code == 403
    assert Entry.objects.get(tournament=tournament, start_number=8).confirm_code == CODES[8]


def pdf_text_of(content: bytes) -> str:
    return " ".join(page.extract_text() for page in PdfReader(io.BytesIO(content)).pages)


def test_right_codes_leave_no_count_behind(submitted):
    sheet_domain.confirm(submitted, sheet_domain.keeper_actor(submitted, 8), code=CODES[8])
    assert not RateBucket.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_parallel_wrong_codes_get_no_more_comparisons_than_the_limit(monkeypatch, submitted):
    """More wrong codes from one guesser than the limit arrive at once, each on its own
    connection. Every wrong one is held after its transaction has rolled back, until each
    attempt has been compared or refused: counting the wrong code only then (as before) let
    every waiter read a count below the limit."""
    attempts = codes.CODE_FAILURES + 4
    compared, wrong, refused, errors, notes = [], [], [], [], Notes()
    release = threading.Event()
    real_confirm = sheet_domain._confirm
    # SQLite's shared in-memory test database (DATABASE_URL set) answers "table is locked"
    # where a file database lets writers queue: there the database steps take turns.
    in_memory = connection.vendor == "sqlite" and connection.is_in_memory_db()
    turn = threading.RLock() if in_memory else None

    def in_turn(step, *args):
        if turn is None:
            return step(*args)
        with turn:
            return step(*args)

    def held_confirm(table, actor, code):
        try:
            return in_turn(real_confirm, table, actor, code)
        except codes.WrongCode:
            notes.add(compared, code)
            release.wait(WAIT)
            raise

    monkeypatch.setattr(sheet_domain, "_confirm", held_confirm)
    for name in ("take", "give_back", "retry_after", "hit"):
        real = getattr(ratelimit, name)
        monkeypatch.setattr(ratelimit, name, lambda *a, real=real, **k: in_turn(real, *a, **k))

    def guess():
        actor = sheet_domain.keeper_actor(submitted, 8)
        try:
            sheet_domain.confirm(submitted, actor, code="11111")
        except codes.WrongCode:
            notes.add(wrong)
        except codes.TooManyCodes:
            notes.add(refused)
        except Exception as exc:
            notes.add(errors, exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=guess) for _ in range(attempts)]
    for thread in threads:
        thread.start()
    try:
        notes.wait_for(lambda: len(compared) + len(refused) + len(errors) >= attempts)
        held = len(compared)
    finally:
        release.set()
        for thread in threads:
            thread.join(WAIT)
    assert held == codes.CODE_FAILURES
    assert len(refused) == attempts - codes.CODE_FAILURES
    assert not errors, errors
    assert len(wrong) == codes.CODE_FAILURES
    counts = dict(RateBucket.objects.values_list("key", "count"))
    prefix = f"confirm-code:table:{submitted.pk}:"
    assert counts == {
        f"{prefix}guesser:": codes.CODE_FAILURES,
        f"{prefix}number:8": codes.CODE_FAILURES,  # the start number's ceiling counts along
    }
    with pytest.raises(codes.TooManyCodes):
        sheet_domain.confirm(submitted, sheet_domain.keeper_actor(submitted, 8), code=CODES[8])
    genuine = replace(sheet_domain.keeper_actor(submitted, 9), guesser="phone-9")
    sheet_domain.confirm(submitted, genuine, code=CODES[9])
    assert status(submitted) == SheetStatus.CONFIRMED


# --- the codes -------------------------------------------------------------------------------


def test_every_entry_gets_its_own_five_digit_code(tournament):
    entries = [EntryFactory(tournament=tournament) for _ in range(50)]
    codes = [e.confirm_code for e in entries]
    assert all(re.fullmatch(r"[1-9]\d{4}", code) for code in codes)
    assert len(set(codes)) >= 45  # random: a rare repeat is harmless, start number + code


def test_codes_stay_out_of_the_history(tournament):
    entry = EntryFactory(tournament=tournament, confirm_code="48213")
    entry.checked_in = True
    entry.save()
    historical = Entry.history.model
    assert "confirm_code" not in {f.name for f in historical._meta.get_fields()}
    with connection.cursor() as cursor:
        columns = [c.name for c in connection.introspection.get_table_description(
            cursor, historical._meta.db_table
        )]  # fmt: skip
    assert "confirm_code" not in columns
    assert entry.history.count() == 2


def test_codes_never_show_on_public_pages_nor_on_the_table_link(client, tournament, submitted):
    tournament.is_public = True
    tournament.save()
    pages = [
        reverse("tournament-public", args=["herbst"]),
        reverse("where-do-i-sit", args=["herbst"]) + "?q=Spieler8",
        reverse("where-do-i-sit", args=["herbst"]) + "?q=8",
        reverse("public-standings", args=["herbst"]),
        reverse("public-table-plan", args=["herbst"]),
        reverse("public-projector-data", args=["herbst"]),
        reverse("projector-data", args=[tournament.projector_token]),
        reverse("keeper-sheet", args=[submitted.token]),
        reverse("keeper-status", args=[submitted.token]),
    ]
    for url in pages:
        response = client.get(url)
        assert response.status_code == 200, url
        body = response.content.decode()
        assert not any(code in body for code in CODES.values()), url
    # Nor after a refused confirmation: the typed code is not filled in again.
    body = confirm(client, submitted, 8, "59370").content.decode()
    assert "59370" not in body and CODES[8] not in body


def test_the_director_sees_a_players_code_on_the_players_page(director_client, submitted):
    page = director_client.get(reverse("manage:entry-list", args=["herbst"])).content.decode()
    assert all(code in page for code in CODES.values())
    assert reverse("manage:player-cards", args=["herbst"]) in page


def test_codes_are_not_editable_in_forms():
    assert not Entry._meta.get_field("confirm_code").editable


# --- the player cards ------------------------------------------------------------------------


def test_the_player_cards_hold_name_number_and_code_of_this_tournaments_players(
    director_client, tournament
):
    names = [("Jürgen", "Müller"), ("Anna", "Özdemir"), ("Eva", "Adler")]
    # Codes fixed here: random ones collide now and then (two equal codes made the "not
    # on the cards" checks fail once in CI).
    entries = [
        EntryFactory(
            tournament=tournament,
            start_number=n,
            player=PlayerFactory(first_name=first, last_name=last),
            confirm_code=f"{n}{n}{n % 10}",
        )
        for n, (first, last) in enumerate(names, start=21)
    ]
    gone = EntryFactory(
        tournament=tournament,
        start_number=24,
        player=PlayerFactory(first_name="Rita", last_name="Zurückgezogen"),
        status=EntryStatus.WITHDRAWN,
        confirm_code="44444",
    )
    elsewhere = EntryFactory(
        tournament=TournamentFactory(slug="anderswo"),
        player=PlayerFactory(first_name="Otto", last_name="Fremd"),
        confirm_code="55555",
    )
    response = director_client.get(reverse("manage:player-cards", args=["herbst"]))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert "herbst-spielerkarten.pdf" in response["Content-Disposition"]
    assert "no-store" in response["Cache-Control"]
    reader = PdfReader(io.BytesIO(file_of(response)))
    text = re.sub(r"\s+", " ", " ".join(page.extract_text() for page in reader.pages))
    for entry, (first, last) in zip(entries, names, strict=True):
        assert f"{first} {last}" in text
        assert f"Nr. {entry.start_number}" in text
        assert entry.confirm_code in text
    assert "Startnummer + Code" in text and "Herbstturnier" in text
    assert "Zurückgezogen" not in text and gone.confirm_code not in text
    assert "Fremd" not in text and elsewhere.confirm_code not in text


def test_ten_player_cards_fit_on_a_page(director_client, tournament):
    for n in range(1, 22):
        EntryFactory(tournament=tournament, start_number=n)
    response = director_client.get(reverse("manage:player-cards", args=["herbst"]))
    assert len(PdfReader(io.BytesIO(file_of(response))).pages) == 3


def test_without_the_pdf_engine_the_player_cards_say_what_is_missing(
    director_client, tournament, monkeypatch
):
    monkeypatch.setitem(sys.modules, "weasyprint", None)
    monkeypatch.delitem(sys.modules, "tournament.exports.pdf", raising=False)
    response = director_client.get(reverse("manage:player-cards", args=["herbst"]))
    # The document's page says what is missing, no traceback.
    assert response.status_code == 200 and "Pango" in response.content.decode()


# --- the migration ---------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_the_migration_gives_existing_entries_distinct_codes():
    before = [("tournament", "0010_sheet_changed_after_confirmation")]
    after = [("tournament", "0011_entry_confirm_code")]
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    try:
        apps = executor.loader.project_state(before).apps
        Tournament = apps.get_model("tournament", "Tournament")
        Player = apps.get_model("tournament", "Player")
        Entry_ = apps.get_model("tournament", "Entry")
        for slug in ("a", "b"):
            tournament = Tournament.objects.create(
                name=slug, slug=slug, date="2026-11-21", projector_token=f"token-{slug}"
            )
            for n in range(1, 41):
                player = Player.objects.create(first_name=slug, last_name=f"P{n}")
                Entry_.objects.create(tournament=tournament, player=player, start_number=n)
        executor = MigrationExecutor(connection)
        executor.migrate(after)
        apps = executor.loader.project_state(after).apps
        Entry_ = apps.get_model("tournament", "Entry")
        for slug in ("a", "b"):
            codes = list(
                Entry_.objects.filter(tournament__slug=slug).values_list("confirm_code", flat=True)
            )
            assert len(codes) == 40 == len(set(codes))
            assert all(re.fullmatch(r"[1-9]\d{4}", code) for code in codes)
    finally:
        executor = MigrationExecutor(connection)
        executor.loader.build_graph()
        executor.migrate(executor.loader.graph.leaf_nodes())


def test_guessing_one_players_code_from_ever_new_networks_hits_a_ceiling(submitted):
    """A reviewer's find: counted per browser and address alone, a guesser changing its
    address every five tries could guess a tablemate's code without end."""
    for n in range(codes.NUMBER_FAILURES):
        guesser = Client(REMOTE_ADDR=f"10.{n}.0.1")
        assert confirm(guesser, submitted, 8, f"{10000 + n}").status_code == 422
    fresh = Client(REMOTE_ADDR="10.200.0.1")
    refused = confirm(fresh, submitted, 8, CODES[8])  # even the right one: the office decides
    assert refused.status_code == 429
    assert "Für Startnummer 8 an diesem Tisch wurden zu viele" in refused.content.decode()
    assert status(submitted) == SheetStatus.SUBMITTED
    assert confirm(fresh, submitted, 9, "12345").status_code == 422  # the others: compared
    codes.unlock(submitted)
    assert confirm(Client(REMOTE_ADDR="10.201.0.1"), submitted, 8, CODES[8]).status_code == 200


def test_an_ipv6_network_counts_as_one_guesser(submitted):
    for n in range(codes.CODE_FAILURES):
        phone = Client(REMOTE_ADDR=f"2001:db8:5:6::{n + 1:x}")
        assert confirm(phone, submitted, 8, f"{20000 + n}").status_code == 422
    same_network = Client(REMOTE_ADDR="2001:db8:5:6::ff")
    assert confirm(same_network, submitted, 8, "29999").status_code == 429
