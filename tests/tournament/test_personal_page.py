"""Issue 35, section 1: the player's page for the whole day behind the personal link — an
online registration's link and the player card's QR code of every entry (also those entered
at the desk): check-in, this round's seat and table-mates, the confirmation code, total and
rank, the Pflichtsolo, the player's sheets once submitted, the series; privacy (only the
token opens it, no other player's code, consent for the names); the seat mails of a release
(worker only, SMTP only, changed seats only); the QR code on the player card."""

import re

import pytest
from django.core import mail
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.factories import EntryFactory, PlayerFactory, make_series, released_table, settle
from tests.tournament.test_site_url import decoded_qr_codes
from tournament.domain import draw
from tournament.domain.personal_data import forget_personal_data
from tournament.exports import cards
from tournament.models import (
    Game,
    Registration,
    RegistrationState,
    Round,
    RoundStatus,
    Seat,
    SeatMail,
    Sheet,
    SheetStatus,
    Table,
)
from tournament.queries import standings as standings_domain
from tournament.sheets import verbs as sheet_domain

pytestmark = pytest.mark.django_db


@pytest.fixture
def en(client):
    client.cookies["django_language"] = "en"
    return client


def page_of(client, token) -> str:
    response = client.get(reverse("registration-personal", args=[token]))
    assert response.status_code == 200, response.status_code
    assert response["Cache-Control"] == "private, no-store"
    return response.content.decode()


def text(html: str) -> str:
    """The page's words, tags dropped, whitespace collapsed."""
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def register_online(entry, email="anna@example.org", language="en") -> Registration:
    """The online registration of ``entry`` (confirmed), as the form leaves it."""
    return Registration.objects.create(
        tournament=entry.tournament,
        first_name=entry.player.first_name,
        last_name=entry.player.last_name,
        email=email,
        language=language,
        state=RegistrationState.CONFIRMED,
        position=entry.start_number,
        entry=entry,
    )


def next_round(tournament, number, tables):
    """Round ``number`` with ``tables``: lists of entries in position order."""
    round_ = Round.objects.create(tournament=tournament, number=number, status=RoundStatus.DRAWN)
    for index, entries in enumerate(tables, start=1):
        table = Table.objects.create(round=round_, number=index, size=len(entries))
        for position, entry in enumerate(entries, start=1):
            Seat.objects.create(round=round_, table=table, entry=entry, position=position)
    return round_


def play(table, rows):
    """Store ``rows`` (kind, soloist, points) on the table's sheet as the desk would."""
    actor = sheet_domain.Actor(label="test", privileged=True)
    inputs = [sheet_domain.RowInput(kind, soloist, points) for kind, soloist, points in rows]
    sheet_domain.replace_rows(table, actor, inputs, {})


# --- before the first round ------------------------------------------------------------------


def test_a_desk_entry_has_a_page_with_its_code_and_the_check_in(en, tournament):
    tournament.checkin_open = True
    tournament.save()
    entry = EntryFactory(tournament=tournament, start_number=7)
    assert entry.token and len(entry.token) >= 32
    html = page_of(en, entry.token)
    assert 'id="start-number">7<' in html
    assert entry.confirm_code in html
    assert 'id="i-am-here"' in html
    assert "The seats are not drawn yet." in text(html)
    response = en.post(reverse("registration-checkin", args=[entry.token]))
    assert response.status_code == 302
    entry.refresh_from_db()
    assert entry.checked_in
    html = page_of(en, entry.token)
    assert 'id="checked-in"' in html and 'id="i-am-here"' not in html


def test_check_in_on_the_card_link_waits_for_the_director(en, tournament):
    entry = EntryFactory(tournament=tournament)
    assert 'id="i-am-here"' not in page_of(en, entry.token)
    response = en.post(reverse("registration-checkin", args=[entry.token]))
    assert response.status_code == 400
    entry.refresh_from_db()
    assert not entry.checked_in


def test_the_registration_link_shows_the_day_once_the_place_is_confirmed(en, tournament):
    tournament.checkin_open = True
    tournament.save()
    entry = EntryFactory(tournament=tournament, start_number=3)
    registration = register_online(entry)
    html = page_of(en, registration.token)
    assert "Your place is confirmed." in text(html)
    assert entry.confirm_code in html
    assert 'id="i-am-here"' in html
    en.post(reverse("registration-checkin", args=[registration.token]))
    assert 'id="checked-in"' in page_of(en, registration.token)
    # Waiting for a place: no start number yet, so no code and no day.
    registration.state = RegistrationState.WAITING
    registration.save()
    assert entry.confirm_code not in page_of(en, registration.token)


# --- the day ---------------------------------------------------------------------------------


@pytest.fixture
def day_one(tournament):
    """Round 1 released at one table of four (start numbers 1-4); the player of start
    number 3 did not consent to publication."""
    table = released_table(tournament, size=4)
    entries = [seat.entry for seat in table.seats.order_by("position")]
    entries[2].publish = False
    entries[2].save()
    return table, entries


def test_the_seat_of_the_running_round_with_who_sits_there(en, day_one):
    table, entries = day_one
    html = page_of(en, entries[0].token)
    words = text(html)
    assert "Round 1" in words and "Table 1 · position 1" in words
    mates = re.search(r'<ol class="day-mates".*?</ol>', html, re.S).group(0)
    assert "Spieler2" in mates and "Spieler4" in mates
    # Without consent the public pages' pseudonym, never the name.
    assert "Player 3" in mates and "Spieler3" not in html
    assert "keeps the list" in text(mates)


def test_the_page_shows_its_own_code_and_nobody_elses(en, day_one):
    _table, entries = day_one
    html = page_of(en, entries[1].token)
    assert entries[1].confirm_code in html
    for other in (entries[0], entries[2], entries[3]):
        assert other.confirm_code not in html or other.confirm_code == entries[1].confirm_code
        assert other.token not in html


def test_the_pflichtsolo_is_due_until_it_is_played(en, day_one):
    table, entries = day_one
    play(table, [("pflichtsolo", 1, (9, -3, -3, -3))])
    assert "Pflichtsolo: played in this round." in text(page_of(en, entries[0].token))
    assert "Pflichtsolo: still due in this round." in text(page_of(en, entries[1].token))


def test_a_sheet_is_readable_once_submitted_not_while_it_is_written(en, day_one):
    table, entries = day_one
    play(table, [("normal", None, (2, -2, 2, -2))])
    assert 'id="sheet-1"' not in page_of(en, entries[0].token)
    sheet = Sheet.objects.get(table=table)
    sheet.status = SheetStatus.SUBMITTED
    sheet.save()
    html = page_of(en, entries[0].token)
    sheet = re.search(r'<details class="card day-sheet" id="sheet-1">.*?</details>', html, re.S)
    assert sheet is not None
    assert "<form" not in sheet.group(0)  # read only
    assert "Player 3" in sheet.group(0) and "Spieler3" not in sheet.group(0)


def test_after_a_closed_round_the_total_and_rank_as_the_standings_have_them(en, day_one):
    table, entries = day_one
    play(table, [("normal", None, (3, -3, 3, -3)), ("normal", None, (-1, 1, 1, -1))])
    Round.objects.filter(pk=table.round_id).update(status=RoundStatus.CLOSED)
    settle(table.round.tournament)
    # Round 2 drawn, not released: the page says the seat comes with the release.
    next_round(table.round.tournament, 2, [entries])
    standings = standings_domain.compute(table.round.tournament)
    line = next(line for line in standings.lines if line.entry == entries[2])
    assert (line.rank, line.total) == (1, 4)
    words = text(page_of(en, entries[2].token))
    assert "Rank 1 · 4 points" in words
    assert "Round 2 is not released yet." in words
    words = text(page_of(en, entries[1].token))
    assert "Rank 3 · -2 points" in words


def test_the_page_reads_the_ranks_once_per_state_of_the_tournament(en, day_one, monkeypatch):
    _table, entries = day_one
    calls = []
    real = standings_domain.compute
    monkeypatch.setattr(
        standings_domain, "compute", lambda t, **how: calls.append(t) or real(t, **how)
    )
    for entry in entries:
        page_of(en, entry.token)
    assert len(calls) == 1  # four phones, one computation
    Game.objects.create(table=_table, number=1, kind="normal", p1=1, p2=-1, p3=1, p4=-1)
    page_of(en, entries[0].token)
    assert len(calls) == 2  # a new state of the tournament


def test_the_page_costs_the_same_queries_after_many_rounds(en, tournament):
    """The entry's own rows, each in one query, however many rounds it played (the sheets
    and ranks come from the cache)."""
    entries = [EntryFactory(tournament=tournament, start_number=n) for n in range(1, 5)]
    for number in range(1, 4):
        round_ = next_round(tournament, number, [entries])
        Round.objects.filter(pk=round_.pk).update(status=RoundStatus.CLOSED)
    settle(tournament)
    page_of(en, entries[0].token)  # fills the cache
    with CaptureQueriesContext(connection) as three_rounds:
        page_of(en, entries[0].token)
    for number in range(4, 7):
        round_ = next_round(tournament, number, [entries])
        Round.objects.filter(pk=round_.pk).update(status=RoundStatus.CLOSED)
    settle(tournament)
    page_of(en, entries[0].token)
    with CaptureQueriesContext(connection) as six_rounds:
        page_of(en, entries[0].token)
    assert len(six_rounds) == len(three_rounds)


def test_the_series_the_tournament_counts_in(en, tournament):
    tournament.is_public = True
    tournament.save()
    entry = EntryFactory(tournament=tournament)
    series = make_series([tournament], is_public=True)
    html = page_of(en, entry.token)
    assert reverse("series-player", args=[series.slug, entry.player_id]) in html


def test_the_page_polls_itself(en, day_one):
    _table, entries = day_one
    html = page_of(en, entries[0].token)
    assert 'id="day"' in html and 'hx-trigger="every 20s"' in html
    part = en.get(
        reverse("registration-personal", args=[entries[0].token]),
        HTTP_HX_REQUEST="true",
        HTTP_HX_TARGET="day",
    )
    body = part.content.decode()
    assert body.lstrip().startswith('<div id="day"') and "<html" not in body


# --- privacy ---------------------------------------------------------------------------------


def test_no_page_without_a_valid_token(en, day_one):
    _table, entries = day_one
    for token in ("x" * 32, entries[0].token[:-1], "", "../" + entries[0].token):
        response = en.get(f"/anmeldung/{token}/")
        assert response.status_code == 404
        assert entries[0].confirm_code not in response.content.decode()
    # An entry's link opens only the page (and check-in), not the registration's forms.
    response = en.get(reverse("registration-edit", args=[entries[0].token]))
    assert response.status_code == 302


def test_renewed_codes_end_the_old_cards_link(en, day_one, director_user):
    table, entries = day_one
    old = entries[0].token
    actor = sheet_domain.Actor(label="office", privileged=True, director=True, user=director_user)
    sheet_domain.renew_codes(table, actor)
    entries[0].refresh_from_db()
    assert entries[0].token != old
    assert en.get(reverse("registration-personal", args=[old])).status_code == 404
    assert entries[0].confirm_code in page_of(en, entries[0].token)


def test_renewed_codes_end_the_old_registration_link_and_send_the_new_one(
    en, day_one, director_user, django_capture_on_commit_callbacks
):
    """The registration's personal link shows the code as well: renewing the codes gives it
    a new address too, sent to the registration's e-mail address after the commit."""
    table, entries = day_one
    registration = register_online(entries[0])
    old = registration.token
    sent: list[str] = []
    actor = sheet_domain.Actor(label="office", privileged=True, director=True, user=director_user)
    with django_capture_on_commit_callbacks(execute=True):
        sheet_domain.renew_codes(table, actor, sent.append)
    registration.refresh_from_db()
    entries[0].refresh_from_db()
    assert registration.token != old
    assert en.get(reverse("registration-personal", args=[old])).status_code == 404
    assert entries[0].confirm_code in page_of(en, registration.token)
    assert sent == ["anna@example.org"]


def test_deleting_the_personal_data_ends_the_cards_links(tournament, day_one):
    table, entries = day_one
    Round.objects.filter(pk=table.round_id).update(status=RoundStatus.CLOSED)
    tournament.planned_rounds = 1
    tournament.save()
    forget_personal_data([tournament])
    assert not tournament.entries.filter(token__isnull=False).exists()


# --- the player card -------------------------------------------------------------------------


def test_the_player_card_carries_the_qr_code_of_the_page(tournament, settings, tmp_path):
    entries = [EntryFactory(tournament=tournament, start_number=n) for n in (1, 2)]
    base = "http://192.168.1.20:8000/"
    pdf = cards.player_cards_pdf(tournament, (), base)
    expected = {
        base.rstrip("/") + reverse("registration-personal", args=[e.token]) for e in entries
    }
    assert set(decoded_qr_codes(pdf, tmp_path)) == expected


def test_the_cards_download_uses_the_site_url(director_client, tournament, settings, tmp_path):
    from tests.downloads import file_of

    settings.SITE_URL = "http://192.168.1.20:8000/"
    entry = EntryFactory(tournament=tournament)
    response = director_client.get(reverse("manage:player-cards", args=[tournament.slug]))
    codes = decoded_qr_codes(file_of(response), tmp_path)
    assert codes == [
        "http://192.168.1.20:8000" + reverse("registration-personal", args=[entry.token])
    ]


# --- the seat mails of a release -------------------------------------------------------------


@pytest.fixture
def drawn(tournament):
    """Round 1 drawn (not released) for eight players at two tables; start numbers 1-3
    registered online with an e-mail address, 4 online without one, the rest at the desk."""
    entries = [
        EntryFactory(tournament=tournament, start_number=n, player=PlayerFactory(last_name=f"P{n}"))
        for n in range(1, 9)
    ]
    for entry in entries[:3]:
        register_online(entry, email=f"p{entry.start_number}@example.org")
    register_online(entries[3], email="")
    round_ = next_round(tournament, 1, [entries[:4], entries[4:]])
    return round_, entries


def release(client, round_):
    url = reverse("manage:round-release", args=[round_.tournament.slug, round_.number])
    return client.post(url)


def test_the_release_queues_the_seats_and_the_worker_mails_them(
    director_client, drawn, database_queue, django_capture_on_commit_callbacks
):
    round_, entries = drawn
    with django_capture_on_commit_callbacks(execute=True):
        assert release(director_client, round_).status_code == 302
    assert mail.outbox == []  # the request only queued them
    database_queue()
    assert sorted(m.to[0] for m in mail.outbox) == [f"p{n}@example.org" for n in (1, 2, 3)]
    first = next(m for m in mail.outbox if m.to == ["p1@example.org"])
    assert "Table 1, position 1" in first.body and "Round 1" in first.subject
    registration = entries[0].registration
    assert reverse("registration-personal", args=[registration.token]) in first.body
    assert entries[0].confirm_code not in first.body
    assert "P2" in first.body  # who sits with them (consented)
    # The worker again (a task run twice): nobody gets a second mail.
    mail.outbox.clear()
    from tournament.tasks.mail import send_seats

    send_seats.call(round_.pk, "http://testserver")
    assert mail.outbox == []


def test_a_release_again_mails_only_the_changed_seats(
    director_client, drawn, django_capture_on_commit_callbacks
):
    round_, entries = drawn
    with django_capture_on_commit_callbacks(execute=True):
        release(director_client, round_)
    assert len(mail.outbox) == 3
    assert SeatMail.objects.filter(round=round_).count() == 3
    mail.outbox.clear()
    # Taken back and released again with start numbers 1 and 5 swapped.
    Round.objects.filter(pk=round_.pk).update(status=RoundStatus.DRAWN)
    draw.swap(round_, 1, 5, None)
    with django_capture_on_commit_callbacks(execute=True):
        release(director_client, round_)
    assert [m.to for m in mail.outbox] == [["p1@example.org"]]
    assert "Table 2, position 1" in mail.outbox[0].body


def test_no_seat_mails_without_a_mail_server(
    director_client, drawn, settings, database_queue, django_capture_on_commit_callbacks
):
    settings.EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
    round_, _entries = drawn
    with django_capture_on_commit_callbacks(execute=True):
        release(director_client, round_)
    from django_tasks_db.models import DBTaskResult

    assert not DBTaskResult.objects.exists()  # nothing even queued
    database_queue()
    assert mail.outbox == []
    round_.refresh_from_db()
    assert round_.status == RoundStatus.RELEASED


def test_a_correction_of_a_closed_round_shows_on_the_page(en, day_one, director_user):
    """A closed round's sheet is kept until what the closed rounds count changes; the
    keepers' saves elsewhere leave it, the office's correction does not."""
    table, entries = day_one
    play(table, [("normal", None, (2, -2, 2, -2))])
    Round.objects.filter(pk=table.round_id).update(status=RoundStatus.CLOSED)
    settle(table.round.tournament)
    assert "-2</td>" in page_of(en, entries[0].token).split('id="sheet-1"')[1]
    actor = sheet_domain.Actor(label="office", privileged=True, director=True, user=director_user)
    game = Game.objects.get(table=table, number=1)
    sheet_domain.replace_rows(
        table,
        actor,
        [sheet_domain.RowInput("normal", None, (5, -5, 5, -5))],
        {1: game.version},
        reason="Tippfehler",
    )
    sheet = page_of(en, entries[0].token).split('id="sheet-1"')[1].split("</details>")[0]
    assert "-5</td>" in sheet and "-2</td>" not in sheet
    assert "Rank 1 · 5 points" in text(page_of(en, entries[0].token))


def test_a_player_without_a_seat_in_the_running_round_is_told_so(en, day_one, tournament):
    late = EntryFactory(tournament=tournament, start_number=9, checked_in=True)
    words = text(page_of(en, late.token))
    assert "Round 1 is being played without you." in words
    assert late.confirm_code in page_of(en, late.token)


def test_a_withdrawn_desk_entry_is_told_and_has_no_code_to_use(en, tournament):
    entry = EntryFactory(tournament=tournament, status="withdrawn")
    html = page_of(en, entry.token)
    assert 'id="entry-withdrawn"' in html
    assert entry.confirm_code not in html


@pytest.mark.django_db(transaction=True)
def test_the_migration_gives_every_existing_entry_its_own_page():
    from tests.migrations import migrate_to, migrated_back

    with migrated_back([("tournament", "0031_unverify_online_players")]) as apps:
        old = apps.get_model("tournament", "Tournament").objects.create(
            name="Alt", slug="alt", date="2026-11-21", projector_token="token-alt"
        )
        players = apps.get_model("tournament", "Player").objects
        entries = apps.get_model("tournament", "Entry").objects
        for number in (1, 2, 3):
            player = players.create(last_name=f"Bisher{number}")
            entries.create(tournament=old, player=player, start_number=number)
        apps = migrate_to([("tournament", "0032_personal_page")])
        tokens = list(apps.get_model("tournament", "Entry").objects.values_list("token", flat=True))
        assert len(tokens) == 3 and all(t and len(t) >= 32 for t in tokens)
        assert len(set(tokens)) == 3


def test_a_page_whose_place_was_given_up_reloads_whole(en, tournament):
    entry = EntryFactory(tournament=tournament)
    registration = register_online(entry)
    registration.state = RegistrationState.CANCELLED
    registration.save()
    response = en.get(
        reverse("registration-personal", args=[registration.token]),
        HTTP_HX_REQUEST="true",
        HTTP_HX_TARGET="day",
    )
    assert response.status_code == 204 and response["HX-Refresh"] == "true"


def test_a_lost_card_can_be_printed_again_from_the_players_page(director_client, tournament):
    """A player who lost the card lost the way to their page: the director prints that one
    card again from the player's row (next to the code)."""
    entry = EntryFactory(tournament=tournament, start_number=7)
    page = director_client.get(reverse("manage:entry-list", args=[tournament.slug]))
    link = reverse("manage:player-cards", args=[tournament.slug]) + "?nummern=7"
    assert f'href="{link}" id="card-{entry.pk}"' in page.content.decode()
