"""Entry fees and check-in on the director's players page (issue 20, points 4 and 5): one tap
ticks a fee (who and when kept), the sums in the reader's money format, the treasurer's Excel
list, opening check-in by personal link, the page that keeps itself up to date, and players
who did not check in being left out of the draw and the ranking."""

import datetime
import io
import re
from decimal import Decimal

import openpyxl
import pytest
from django.urls import reverse
from django.utils import timezone, translation

from tests.factories import EntryFactory, PlayerFactory, TournamentFactory, director
from tournament.domain import draw, fees, registrations
from tournament.domain.entries import register, set_checked_in, set_status
from tournament.models import EntryStatus, FeeStatus, RegistrationState
from tournament.queries import fees as fee_queries
from tournament.queries import standings as standings_domain
from tournament.queries.players import PlayerData
from tournament.templatetags.fees import money_text

pytestmark = pytest.mark.django_db

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def english(client):
    client.cookies["django_language"] = "en"
    return client


def page_url(tournament):
    return reverse("manage:entry-list", args=[tournament.slug])


def fee_url(tournament, entry):
    return reverse("manage:entry-fee", args=[tournament.slug, entry.pk])


@pytest.fixture
def feed(tournament, director_user):
    """The Herbstturnier with a 12.50 € fee and four players typed in by the director."""
    tournament.entry_fee = Decimal("12.50")
    tournament.save()
    names = [("Jürgen", "Müller"), ("Anna", "Schäfer"), ("Bernd", "Wolf"), ("Carla", "Vogt")]
    entries = [
        register(tournament, PlayerData(first, last, "Doko-Freunde Kassel"), director=director_user)
        for first, last in names
    ]
    return tournament, entries


def online(tournament, first, last):
    """A player who registered on the public form and got a place."""
    details = registrations.Details(first, last, email=f"{last.lower()}@example.org")
    registration = registrations.submit(tournament, details, consent="ok")
    assert registration.state == RegistrationState.CONFIRMED
    return registration


# --- fees ------------------------------------------------------------------------------------


def test_one_tap_ticks_a_fee_paid_and_the_page_says_who_and_when(director_client, feed):
    tournament, (entry, *_rest) = feed
    english(director_client)
    before = timezone.now()
    response = director_client.post(fee_url(tournament, entry), {"fee": "paid"})
    assert response.status_code == 302
    assert response["Location"] == f"{page_url(tournament)}#entry-{entry.pk}"
    entry.refresh_from_db()
    assert entry.fee == FeeStatus.PAID
    assert entry.fee_changed_by.username == "leiterin"
    assert before <= entry.fee_changed_at <= timezone.now()
    # The history keeps every tick with its author.
    assert entry.history.first().history_user.username == "leiterin"

    page = director_client.get(page_url(tournament)).content.decode()
    assert "Entry fee of Jürgen Müller: paid." in page
    clock = timezone.localtime(entry.fee_changed_at).strftime("%H:%M")
    cell = re.search(rf'<span class="fee" id="fee-{entry.pk}".*?</td>', page, re.S)
    assert f"paid · leiterin · {clock}" in cell.group(0)
    assert re.search(r'value="paid" class="[^"]* on" aria-pressed="true"', cell.group(0))


def test_with_htmx_the_answer_is_the_fee_cell_and_the_sums(director_client, feed):
    tournament, (entry, *_rest) = feed
    english(director_client)
    response = director_client.post(
        fee_url(tournament, entry), {"fee": "waived"}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert html.lstrip().startswith(f'<span class="fee" id="fee-{entry.pk}" data-fee="waived"')
    assert 'id="fee-sums" hx-swap-oob="true"' in html
    assert "<html" not in html
    entry.refresh_from_db()
    assert entry.fee == FeeStatus.WAIVED


def test_another_directors_tournament_is_not_found_and_nothing_is_ticked(client, feed):
    tournament, (entry, *_rest) = feed
    client.force_login(director(username="nachbar"))
    response = client.post(fee_url(tournament, entry), {"fee": "paid"})
    assert response.status_code == 404
    entry.refresh_from_db()
    assert (entry.fee, entry.fee_changed_by, entry.fee_changed_at) == ("open", None, None)


def test_an_entry_of_another_tournament_is_not_found(director_client, feed, director_user):
    tournament, _entries = feed
    other = TournamentFactory(directors=[director_user])
    stranger = EntryFactory(tournament=other)
    assert director_client.post(fee_url(tournament, stranger), {"fee": "paid"}).status_code == 404
    stranger.refresh_from_db()
    assert stranger.fee == FeeStatus.OPEN


@pytest.mark.parametrize("value", ["", "bezahlt", "PAID", "paid "])
def test_an_unknown_fee_is_refused_with_400_and_nothing_is_written(director_client, feed, value):
    tournament, (entry, *_rest) = feed
    english(director_client)
    history = entry.history.count()
    response = director_client.post(fee_url(tournament, entry), {"fee": value})
    assert response.status_code == 400
    assert "Unknown fee status." in response.content.decode()
    entry.refresh_from_db()
    assert (entry.fee, entry.fee_changed_by) == (FeeStatus.OPEN, None)
    assert entry.history.count() == history
    # With htmx too: the cell says why, nothing changes.
    response = director_client.post(fee_url(tournament, entry), {"fee": value}, HTTP_HX_REQUEST="1")
    assert response.status_code == 400
    assert "Unknown fee status." in response.content.decode()
    entry.refresh_from_db()
    assert entry.fee == FeeStatus.OPEN


def test_fees_are_posted_only(director_client, feed):
    tournament, (entry, *_rest) = feed
    assert director_client.get(fee_url(tournament, entry)).status_code == 405


def test_the_fee_column_and_sums_appear_only_where_a_fee_is_taken(director_client, tournament):
    entry = EntryFactory(tournament=tournament)
    page = director_client.get(page_url(tournament)).content.decode()
    assert f'id="fee-{entry.pk}"' not in page and 'class="summary fee-sums"' not in page
    # A fee ticked anyway (a donation box, a fee of 0 € set later) shows the column again.
    fees.set_fee(entry, FeeStatus.WAIVED, None)
    page = director_client.get(page_url(tournament)).content.decode()
    assert f'id="fee-{entry.pk}"' in page and 'class="summary fee-sums"' in page


def sums_on_the_page(client, tournament) -> dict[str, str]:
    html = client.get(page_url(tournament)).content.decode()
    block = re.search(r'<div id="fee-sums">(.*?)</div>', html, re.S).group(1)
    found = dict(re.findall(r'<strong class="money" id="fee-(\w+)">([^<]*)</strong>', block))
    found["text"] = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", block)).strip()
    return found


@pytest.fixture
def ticked(feed, director_user):
    """Two paid, one waived, one not paid; a withdrawn player who paid still counts as
    collected, a withdrawn one who did not owes nothing."""
    tournament, (a, b, c, d) = feed
    fees.set_fee(a, FeeStatus.PAID, director_user)
    fees.set_fee(b, FeeStatus.PAID, director_user)
    fees.set_fee(c, FeeStatus.WAIVED, director_user)
    gone = register(tournament, PlayerData("Gerd", "Weg"), director=director_user)
    fees.set_fee(gone, FeeStatus.PAID, director_user)
    set_status(gone, EntryStatus.WITHDRAWN, director_user, "ill")
    owes_nothing = register(tournament, PlayerData("Hanna", "Fort"), director=director_user)
    set_status(owes_nothing, EntryStatus.WITHDRAWN, director_user, "ill")
    return tournament, (a, b, c, d, gone, owes_nothing)


def test_the_row_amounts_add_up_to_the_sums(ticked):
    """One rule for the treasurer's rows and the page's sums: what the paid rows stand for
    is what was collected, the open rows of players still playing what is outstanding, a
    waived fee is nothing and a withdrawn player who did not pay owes nothing."""
    tournament, (a, b, c, d, gone, owes_nothing) = ticked
    sums = fee_queries.fee_sums(tournament)
    fee = tournament.entry_fee
    rows = {e.pk: e for e in tournament.entries.all()}
    amounts = {pk: fee_queries.amount_of(entry, fee) for pk, entry in rows.items()}
    paid = [pk for pk, entry in rows.items() if entry.fee == FeeStatus.PAID]
    still_owing = [pk for pk, entry in rows.items() if entry.fee == FeeStatus.OPEN and amounts[pk]]
    assert (sums.paid, sums.open, sums.waived) == (3, 1, 1)
    assert sum(amounts[pk] for pk in paid) == sums.collected == Decimal("37.50")
    assert sum(amounts[pk] for pk in still_owing) == sums.outstanding == Decimal("12.50")
    assert amounts[c.pk] == Decimal("0") and amounts[owes_nothing.pk] is None


def test_the_sums_in_german(director_client, ticked):
    tournament, _entries = ticked
    director_client.cookies["django_language"] = "de"
    sums = sums_on_the_page(director_client, tournament)
    assert sums["amount"] == "12,50 €"
    assert sums["collected"] == "37,50 €"  # three paid, one of them withdrawn since
    assert sums["outstanding"] == "12,50 €"  # only Carla Vogt, who is still playing


def test_the_sums_in_english(director_client, ticked):
    tournament, _entries = ticked
    english(director_client)
    sums = sums_on_the_page(director_client, tournament)
    assert (sums["amount"], sums["collected"], sums["outstanding"]) == (
        "€12.50",
        "€37.50",
        "€12.50",
    )
    assert "3 paid: €37.50 collected" in sums["text"]
    assert "1 not paid: €12.50 outstanding" in sums["text"]
    assert "1 waived" in sums["text"]


def test_large_sums_are_grouped_the_way_the_language_writes_them():
    with translation.override("de"):
        assert money_text(Decimal("1234.5")) == "1.234,50 €"
        assert money_text(Decimal("0")) == "0,00 €"
    with translation.override("en"):
        assert money_text(Decimal("1234.5")) == "€1,234.50"
    assert money_text(None) == ""


def test_a_negative_amount_puts_the_minus_first_in_both_languages():
    with translation.override("en"):
        assert money_text(Decimal("-35.5")) == "-€35.50"
        assert money_text(Decimal("-1234")) == "-€1,234.00"
    with translation.override("de"):
        assert money_text(Decimal("-35.5")) == "-35,50 €"


# --- the treasurer's Excel list --------------------------------------------------------------


def test_the_treasurers_list_reads_back_with_amounts_times_and_totals(director_client, ticked):
    tournament, (a, b, c, d, gone, owes_nothing) = ticked
    english(director_client)
    response = director_client.get(reverse("manage:entry-fees-export", args=[tournament.slug]))
    assert response.status_code == 200
    assert response["Content-Type"] == XLSX
    assert f'filename="{tournament.slug}-' in response["Content-Disposition"]
    book = openpyxl.load_workbook(io.BytesIO(response.content))
    sheet = book.worksheets[0]
    rows = [list(row) for row in sheet.iter_rows()]
    assert rows[0][0].value == tournament.name
    header = next(i for i, row in enumerate(rows) if row[0].value == "No.")
    labels = [cell.value for cell in rows[header]]
    assert labels == [
        "No.",
        "Name",
        "Club",
        "Status",
        "Entry fee",
        "Amount",
        "Ticked by",
        "Ticked at",
    ]
    body = {row[0].value: row for row in rows[header + 1 : header + 7]}
    assert sorted(body) == [1, 2, 3, 4, 5, 6]
    first = body[a.start_number]
    assert [cell.value for cell in first[1:6]] == [
        "Jürgen Müller",
        "Doko-Freunde Kassel",
        "active",
        "paid",
        12.5,
    ]
    assert first[5].number_format == '#,##0.00 "€"'
    assert first[6].value == "leiterin"
    # A real date and time (local, as the clock of the hall), not text.
    a.refresh_from_db()
    stamped = first[7].value
    assert isinstance(stamped, datetime.datetime)
    local = timezone.localtime(a.fee_changed_at).replace(tzinfo=None, microsecond=0)
    assert abs(stamped - local) < datetime.timedelta(seconds=1)
    assert "YY" in first[7].number_format and "HH:MM" in first[7].number_format
    assert [body[c.start_number][i].value for i in (4, 5)] == ["waived", 0]
    assert [body[d.start_number][i].value for i in (4, 5, 6, 7)] == ["not paid", 12.5, None, None]
    assert [body[gone.start_number][i].value for i in (3, 4, 5)] == ["withdrawn", "paid", 12.5]
    assert [body[owes_nothing.start_number][i].value for i in (4, 5)] == ["not paid", None]

    totals = {row[1].value: row for row in rows[header + 7 :] if row[1].value}
    assert [cell.value for cell in totals["Totals"][1:6]] == [
        "Totals",
        "Players",
        None,
        None,
        "Amount",
    ]
    assert totals["Entry fee"][5].value == 12.5
    assert (totals["Collected"][2].value, totals["Collected"][5].value) == (3, 37.5)
    assert (totals["Outstanding"][2].value, totals["Outstanding"][5].value) == (1, 12.5)
    assert totals["Waived"][2].value == 1
    assert totals["Collected"][5].number_format == '#,##0.00 "€"'


def test_the_players_page_links_the_treasurers_list(director_client, feed):
    tournament, _entries = feed
    page = director_client.get(page_url(tournament)).content.decode()
    assert reverse("manage:entry-fees-export", args=[tournament.slug]) in page


def test_the_treasurers_list_is_the_directors_own(client, feed):
    tournament, _entries = feed
    client.force_login(director(username="nachbar"))
    url = reverse("manage:entry-fees-export", args=[tournament.slug])
    assert client.get(url).status_code == 404


def test_a_name_that_looks_like_a_formula_stays_text_in_the_list(director_client, tournament):
    player = PlayerFactory(first_name="", last_name='=HYPERLINK("http://x.example")')
    EntryFactory(tournament=tournament, player=player)
    response = director_client.get(reverse("manage:entry-fees-export", args=[tournament.slug]))
    sheet = openpyxl.load_workbook(io.BytesIO(response.content)).worksheets[0]
    names = [row[1] for row in sheet.iter_rows(values_only=True)]
    assert player.last_name in names
    cell = next(c for row in sheet.iter_rows() for c in row if c.value == player.last_name)
    assert cell.data_type == "s"


# --- check-in by personal link ---------------------------------------------------------------


def toggle(client, tournament, **data):
    return client.post(reverse("manage:checkin-link-toggle", args=[tournament.slug]), data)


def test_the_director_opens_and_closes_check_in_by_personal_link(director_client, tournament):
    tournament.registration_open = True
    tournament.save()
    english(director_client)
    page = director_client.get(page_url(tournament)).content.decode()
    assert "Check-in by personal link: closed" in page
    assert "Open check-in by personal link" in page

    response = toggle(director_client, tournament, open="1")
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.checkin_open
    record = tournament.history.first()
    assert (record.checkin_open, record.history_user.username) == (True, "leiterin")
    page = director_client.get(page_url(tournament)).content.decode()
    assert (
        "Check-in by personal link is open: players who registered online can tap "
        "&#x27;I am here&#x27;." in page
    )
    assert "Check-in by personal link: open" in page
    assert "Close check-in by personal link" in page

    toggle(director_client, tournament, open="1")  # a second tap of the same button
    tournament.refresh_from_db()
    assert tournament.checkin_open
    toggle(director_client, tournament, open="0")
    tournament.refresh_from_db()
    assert not tournament.checkin_open
    toggle(director_client, tournament)  # without a choice: turned over
    tournament.refresh_from_db()
    assert tournament.checkin_open


def test_a_bad_choice_for_the_check_in_link_is_refused(director_client, tournament, client):
    english(director_client)
    response = toggle(director_client, tournament, open="yes")
    assert response.status_code == 400
    assert "Unknown choice for check-in by personal link." in response.content.decode()
    tournament.refresh_from_db()
    assert not tournament.checkin_open
    assert (
        director_client.get(
            reverse("manage:checkin-link-toggle", args=[tournament.slug])
        ).status_code
        == 405
    )
    client.force_login(director(username="nachbar"))
    assert toggle(client, tournament, open="1").status_code == 404
    tournament.refresh_from_db()
    assert not tournament.checkin_open


def test_the_check_in_link_button_is_offered_where_players_register_online(
    director_client, tournament
):
    english(director_client)
    page = director_client.get(page_url(tournament)).content.decode()
    assert 'id="checkin-link-form"' not in page  # nobody has a personal link
    tournament.registration_open = True
    tournament.save()
    page = director_client.get(page_url(tournament)).content.decode()
    assert 'id="checkin-link-form"' in page


# --- the live players page -------------------------------------------------------------------


@pytest.fixture
def hall(tournament, director_user):
    """Online registration with check-in by link open: two typed in, two registered online."""
    tournament.registration_open = True
    tournament.checkin_open = True
    tournament.save()
    for first, last in [("Jürgen", "Müller"), ("Anna", "Schäfer")]:
        register(tournament, PlayerData(first, last), director=director_user)
    ada, bert = online(tournament, "Ada", "Lovelace"), online(tournament, "Bert", "Brecht")
    return tournament, ada, bert


def missing_numbers(html: str) -> list[int]:
    block = re.search(r'<div id="missing-players"[^>]*>(.*?)</div>', html, re.S).group(1)
    return [int(n) for n in re.findall(r'data-start="(\d+)"', block)]


def poll(client, tournament, state=None):
    headers = {"HTTP_HX_REQUEST": "true"}
    if state:
        headers["HTTP_X_PLAYERS_STATE"] = state
    return client.get(page_url(tournament), **headers)


def test_the_live_part_brings_a_check_in_made_on_the_personal_link(director_client, hall):
    tournament, ada, _bert = hall
    english(director_client)
    page = director_client.get(page_url(tournament)).content.decode()
    assert 'hx-trigger="every 4s"' in page
    state = re.search(r'data-state="(\w+)"', page).group(1)
    assert missing_numbers(page) == [1, 2, 3, 4]

    # Nothing changed: nothing to swap.
    assert poll(director_client, tournament, state).status_code == 204

    registrations.check_in(ada)  # the player taps "I am here" on the phone
    response = poll(director_client, tournament, state)
    assert response.status_code == 200
    html = response.content.decode()
    assert "<html" not in html and 'id="add-entry-form"' not in html
    assert 'id="quick-checkin"' not in html  # the field the desk types in stays as it is
    assert html.lstrip().startswith('<div id="players-live"')
    assert "4 active players, 1 checked in." in html
    assert missing_numbers(html) == [1, 2, 4]
    assert ada.entry.start_number == 3
    cell = re.search(rf'id="checkin-{ada.entry.pk}".*?</span>', html, re.S).group(0)
    assert 'aria-pressed="true"' in cell
    # Only what changed: Ada's row (swapped by its id), not the whole table.
    assert 'id="entries-table"' not in html
    assert changed_rows(html) == [ada.entry.pk]
    assert 'id="missing-players" hx-swap-oob="true"' in html
    # The new state: asked again, nothing to swap.
    new_state = re.search(r'data-state="(\w+)"', html).group(1)
    assert new_state != state
    assert poll(director_client, tournament, new_state).status_code == 204


def changed_rows(html: str) -> list[int]:
    """The rows a poll sends on their own, each for htmx to swap by its id."""
    return [
        int(pk) for pk in re.findall(r'<template><tr hx-swap-oob="true" id="entry-(\d+)"', html)
    ]


def state_of(html: str) -> str:
    return re.search(r'data-state="(\w+)"', html).group(1)


def test_the_live_part_sends_only_the_rows_that_changed(director_client, hall, director_user):
    tournament, ada, bert = hall
    tournament.entry_fee = Decimal("8")
    tournament.save()
    english(director_client)
    state = state_of(director_client.get(page_url(tournament)).content.decode())
    jurgen = tournament.entries.get(start_number=1)

    # A fee ticked at another desk: that row and the sums; the missing list did not change.
    fees.set_fee(bert.entry, FeeStatus.PAID, director_user)
    html = poll(director_client, tournament, state).content.decode()
    assert changed_rows(html) == [bert.entry.pk]
    assert 'id="entries-table"' not in html and 'id="missing-players"' not in html
    assert 'id="all-present"' not in html  # as many waiting as before
    row = re.search(r"<template>(.*?)</template>", html, re.S).group(1)
    assert 'class="small toggle fee-paid on"' in row and "Brecht" in row
    # The row's forms carry this visitor's CSRF token.
    token = re.search(r'name="csrfmiddlewaretoken" value="(\w+)"', row).group(1)
    assert "placeholder" not in token and len(token) == 64

    # Two players checked in, one of them twice back and forth: their rows, the missing list
    # and "all present"; the state the page sent before stays usable.
    state = state_of(html)
    registrations.check_in(ada)
    set_checked_in(jurgen, True, director_user)
    html = poll(director_client, tournament, state).content.decode()
    assert sorted(changed_rows(html)) == sorted([ada.entry.pk, jurgen.pk])
    assert missing_numbers(html) == [2, 4]
    assert 'id="all-present" hx-swap-oob="true"' in html
    assert "4 active players, 2 checked in." in html
    assert poll(director_client, tournament, state_of(html)).status_code == 204

    # Undone: the row is sent again as it was, not as it was kept from before.
    set_checked_in(jurgen, False, director_user)
    html = poll(director_client, tournament, state_of(html)).content.decode()
    assert changed_rows(html) == [jurgen.pk]
    cell = re.search(rf'id="checkin-{jurgen.pk}".*?</span>', html, re.S).group(0)
    assert 'aria-pressed="false"' in cell


def test_the_live_part_sends_the_whole_table_when_rows_came_or_moved(
    director_client, hall, director_user
):
    tournament, ada, _bert = hall
    english(director_client)
    state = state_of(director_client.get(page_url(tournament)).content.decode())
    register(tournament, PlayerData("Clara", "Zetkin"), director=director_user)
    html = poll(director_client, tournament, state).content.decode()
    assert 'id="entries-table" hx-swap-oob="true"' in html and changed_rows(html) == []
    assert "Zetkin" in html

    # Sorted by check-in: a check-in moves the row, so the table comes whole, still sorted.
    sorted_url = page_url(tournament) + "?sort=checked_in"
    state = state_of(director_client.get(sorted_url).content.decode())
    registrations.check_in(ada)
    html = director_client.get(
        sorted_url, HTTP_HX_REQUEST="true", HTTP_X_PLAYERS_STATE=state
    ).content.decode()
    assert 'id="entries-table" hx-swap-oob="true"' in html
    order = [int(pk) for pk in re.findall(r'<tr id="entry-(\d+)"', html)]
    assert order[-1] == ada.entry.pk and len(order) == 5


def test_the_first_fee_ticked_brings_the_whole_table_with_its_fee_column(
    director_client, hall, director_user
):
    tournament, ada, _bert = hall
    assert tournament.entry_fee == 0
    english(director_client)
    page = director_client.get(page_url(tournament)).content.decode()
    assert "Entry fee</a></th>" not in page
    fees.set_fee(ada.entry, FeeStatus.PAID, director_user)
    html = poll(director_client, tournament, state_of(page)).content.decode()
    assert 'id="entries-table" hx-swap-oob="true"' in html and changed_rows(html) == []
    assert "Entry fee</a></th>" in html
    assert len(re.findall(r'<span class="fee" id="fee-', html)) == 4


def test_a_kept_row_is_filed_under_the_same_fingerprint_the_poll_reads(
    director_client, hall, director_user
):
    """The fingerprint of a rendered row and the one read for the poll describe the same
    fields; were they to differ, a kept row would be rendered again on every load, or worse,
    served after it changed."""
    from tournament.views.entries import _entries
    from tournament.web import live_rows

    tournament, ada, _bert = hall
    fees.set_fee(ada.entry, FeeStatus.PAID, director_user)
    registrations.check_in(ada)
    entries = _entries(tournament).order_by("pk")
    read = list(entries.values_list(*live_rows.ROW_FIELDS))
    rendered = [live_rows._record_values(record) for record in entries]
    assert rendered == read and len(read) == 4


@pytest.mark.parametrize("state", ["0" * 24, "not-a-state", "'><script>"])
def test_a_state_the_site_does_not_know_gets_the_whole_live_part(director_client, hall, state):
    tournament, _ada, _bert = hall
    response = poll(director_client, tournament, state)
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="entries-table" hx-swap-oob="true"' in html
    assert len(re.findall(r'<tr id="entry-', html)) == 4
    assert "<script>" not in html


def test_rows_kept_from_an_earlier_load_follow_the_language_and_changes(
    director_client, hall, director_user
):
    tournament, ada, _bert = hall
    english(director_client)
    assert "Check in</button>" in director_client.get(page_url(tournament)).content.decode()
    director_client.cookies["django_language"] = "de"
    page = director_client.get(page_url(tournament)).content.decode()
    assert "Check in</button>" not in page and "Einchecken</button>" in page
    player = ada.entry.player
    player.last_name = "Byron"
    player.save()
    page = director_client.get(page_url(tournament)).content.decode()
    assert "Byron" in page and "Lovelace" not in page
    assert "csrf-token-placeholder" not in page


def test_the_live_part_keeps_the_filter_of_the_page(director_client, hall):
    tournament, _ada, _bert = hall
    page = director_client.get(page_url(tournament), {"q": "Lovelace"}).content.decode()
    assert f'hx-get="{page_url(tournament)}?q=Lovelace"' in page
    html = director_client.get(
        page_url(tournament), {"q": "Lovelace"}, HTTP_HX_REQUEST="true"
    ).content.decode()
    table = re.search(r'<div class="entries-scroll" id="entries-table".*', html, re.S).group(0)
    assert "Lovelace" in table and "Brecht" not in table


def test_registered_online_players_are_marked_in_the_table(director_client, hall, director_user):
    tournament, _ada, _bert = hall
    english(director_client)
    page = director_client.get(page_url(tournament)).content.decode()
    rows = dict(re.findall(r'<tr id="entry-(\d+)"(.*?)</tr>', page, re.S))
    marked = sorted(int(pk) for pk, row in rows.items() if 'class="badge online"' in row)
    assert marked == sorted(
        tournament.entries.filter(registration__isnull=False).values_list("pk", flat=True)
    )
    assert len(marked) == 2 and len(rows) == 4
    # The marker, the fee and who ticked it come with the rows: more online players, more
    # fees ticked, not one query more.
    tournament.entry_fee = Decimal("5")
    tournament.save()
    few = queries_of(director_client, tournament)
    for number in range(6):
        entry = online(tournament, "Neu", f"Spieler{number}").entry
        fees.set_fee(entry, FeeStatus.PAID, director_user)
    assert queries_of(director_client, tournament) == few


def queries_of(client, tournament) -> int:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as captured:
        assert client.get(page_url(tournament)).status_code == 200
    return len(captured.captured_queries)


def test_the_missing_list_appears_once_check_in_is_under_way(director_client, tournament):
    first = EntryFactory(tournament=tournament, start_number=1)
    EntryFactory(tournament=tournament, start_number=2)
    page = director_client.get(page_url(tournament)).content.decode()
    assert missing_numbers(page) == []  # before anybody is checked in: no list
    set_checked_in(first, True, None)
    page = director_client.get(page_url(tournament)).content.decode()
    assert missing_numbers(page) == [2]


def test_a_check_in_on_the_page_updates_the_missing_list_at_once(director_client, hall):
    tournament, ada, _bert = hall
    url = reverse("manage:entry-checkin", args=[tournament.slug, ada.entry.pk])
    html = director_client.post(url, {"checked_in": "1"}, HTTP_HX_REQUEST="true").content.decode()
    assert missing_numbers(html) == [1, 2, 4]
    url = reverse("manage:entry-checkin-number", args=[tournament.slug])
    html = director_client.post(url, {"number": "1"}, HTTP_HX_REQUEST="true").content.decode()
    assert missing_numbers(html) == [2, 4]


# --- who is not checked in is not drawn and not ranked ---------------------------------------


def test_registered_players_not_checked_in_are_not_drawn_and_not_ranked(
    director_client, tournament, director_user
):
    tournament.registration_open = True
    tournament.checkin_open = True
    tournament.save()
    typed = [
        register(tournament, PlayerData(first, "Hier"), director=director_user)
        for first in ("Ada", "Bea", "Cem")
    ]
    here = online(tournament, "Dora", "Dabei")
    away = online(tournament, "Emil", "Verschlafen")
    for entry in typed:
        set_checked_in(entry, True, director_user)
    registrations.check_in(here)

    english(director_client)
    page = director_client.get(page_url(tournament)).content.decode()
    assert missing_numbers(page) == [away.entry.start_number]

    result = draw.draw(tournament, director_user, seed=7, time_limit=2)
    round_ = result.rounds[0]
    seated = set(round_.seats.values_list("entry_id", flat=True))
    assert seated == {e.pk for e in typed} | {here.entry_id}
    assert away.entry_id not in seated
    draw.release(round_, director_user)

    standings = standings_domain.compute(tournament)
    assert away.entry_id not in {line.entry.pk for line in standings.lines}
    assert [line.entry.pk for line in standings.absent] == [away.entry_id]
    assert all(line.rank is None for line in standings.absent)
    away.refresh_from_db()
    assert away.state == RegistrationState.CONFIRMED  # still registered, just not playing
    # The standings page lists the player apart ("not started"), without a rank.
    html = director_client.get(reverse("manage:standings", args=[tournament.slug])).content
    html = html.decode()
    number = away.entry.start_number
    apart = re.search(rf'<li id="absent-{number}">(.*?)</li>', html, re.S)
    assert apart and "Emil Verschlafen" in apart.group(1)
    ranked = html[: html.index('class="absent-list"')]
    assert "Verschlafen" not in ranked
