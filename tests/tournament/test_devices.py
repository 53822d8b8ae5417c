"""A tablet that stays at its table (issue 35): the director makes a one-time pairing code for
a table number, a tablet gives it once and then follows that table number from round to round
without scanning anything; the director revokes it, and what it still sends is refused with a
message."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.factories import TournamentFactory, director, released_table
from tournament.domain import devices as domain
from tournament.domain import draw
from tournament.models import Game, Round, RoundStatus, Seat, Table, TableDevice
from tournament.web import devices

pytestmark = pytest.mark.django_db

GAME = {"kind": "normal", "mode": "direct", "reason": "", "number": 1}
GAME.update({f"p{i}": v for i, v in enumerate((1, -1, 1, -1), start=1)})


def make_code(director_client, tournament, number=1, label=""):
    """The director's page makes a code and shows it once; returns it as shown."""
    url = reverse("manage:device-list", args=[tournament.slug])
    response = director_client.post(url, {"table_number": number, "label": label})
    assert response.status_code == 302
    page = director_client.get(url)
    assert page.status_code == 200
    return page.context["new"]["code"]


def pair(client, code, address="192.0.2.10"):
    return client.post(reverse("device-pair"), {"code": code}, REMOTE_ADDR=address)


def next_round(table: Table, user) -> Table:
    """Round 1 closed, round 2 drawn with the same players at a table of the same number,
    and released as the director does."""
    round_1 = table.round
    Round.objects.filter(pk=round_1.pk).update(status=RoundStatus.CLOSED)
    round_2 = Round.objects.create(
        tournament=round_1.tournament, number=round_1.number + 1, status=RoundStatus.DRAWN
    )
    other = Table.objects.create(round=round_2, number=table.number, size=table.size)
    for seat in table.seats.order_by("-position"):
        Seat.objects.create(
            round=round_2, table=other, entry=seat.entry, position=table.size + 1 - seat.position
        )
    draw.release(round_2, user)
    return other


@pytest.fixture
def table(tournament):
    return released_table(tournament, table_number=5)


@pytest.fixture
def tablet(client, director_client, tournament, table):
    """A test client that is a tablet paired with table 5 (the director has a client of
    their own: the tablet is anonymous)."""
    from django.test import Client

    device = Client()
    code = make_code(director_client, tournament, 5, "Tablet blau")
    response = pair(device, code)
    assert response.status_code == 302
    return device


def test_it_stores_neither_the_code_nor_the_device_token(director_client, tournament, client):
    code = make_code(director_client, tournament, 5)
    stored = TableDevice.objects.get()
    assert code.replace("-", "") not in repr(stored.__dict__)
    assert stored.code_hash == domain._hash(code.replace("-", ""))
    pair(client, code)
    token = client.cookies[devices.COOKIE].value
    stored.refresh_from_db()
    assert len(token) >= 40 and token not in repr(stored.__dict__)
    assert stored.token_hash == domain._hash(token) and stored.code_hash == ""


def test_the_code_is_shown_once(director_client, tournament):
    make_code(director_client, tournament, 5)
    again = director_client.get(reverse("manage:device-list", args=[tournament.slug]))
    assert "new" not in again.context
    assert b"pairing-code" not in again.content


def test_a_paired_tablet_opens_its_table_of_the_running_round(tablet, table):
    response = tablet.get(reverse("device-home"))
    assert response.status_code == 302
    assert response.url == reverse("keeper-sheet", args=[table.token])
    page = tablet.get(response.url)
    assert b'id="device-follow"' in page.content  # the page follows the table


def test_the_cookie_works_on_the_halls_plain_http(tablet, settings):
    cookie = tablet.cookies[devices.COOKIE]
    assert cookie["httponly"] and cookie["samesite"] == "Lax"
    assert not cookie["secure"]  # the hall: no TLS, a Secure cookie would never come back
    assert cookie["max-age"] == devices.COOKIE_SECONDS


def test_it_follows_the_same_table_number_into_the_next_round(tablet, table, director_user):
    assert tablet.post(reverse("keeper-sheet", args=[table.token]), GAME).status_code == 200
    Round.objects.filter(pk=table.round_id).update(status=RoundStatus.CLOSED)
    # Between rounds: the closed sheet says it waits, the device page is the waiting screen.
    closed = tablet.get(reverse("keeper-sheet", args=[table.token]))
    assert b'data-waiting="1"' in closed.content
    waiting = tablet.get(reverse("device-home"))
    assert waiting.status_code == 200
    assert "Runde 1 ist abgeschlossen" in waiting.content.decode()
    assert tablet.get(reverse("device-state")).json() == {"state": "paired", "url": None}
    Round.objects.filter(pk=table.round_id).update(status=RoundStatus.RELEASED)
    second = next_round(table, director_user)
    url = reverse("keeper-sheet", args=[second.token])
    assert tablet.get(reverse("device-state")).json() == {"state": "paired", "url": url}
    assert tablet.get(reverse("device-home")).url == url
    assert second.number == table.number == 5 and second.token != table.token


def test_a_round_without_its_table_number_waits(tablet, tournament, table):
    Round.objects.filter(pk=table.round_id).update(status=RoundStatus.CLOSED)
    released_table(tournament, round_number=2, table_number=1, first_start=10)
    page = tablet.get(reverse("device-home"))
    assert page.status_code == 200
    assert "Runde 2 hat keinen Tisch 5" in page.content.decode()


def test_a_code_pairs_once(director_client, tournament, table, client):
    from django.test import Client

    code = make_code(director_client, tournament, 5)
    assert pair(client, code).status_code == 302
    second = Client()
    refused = pair(second, code)
    assert refused.status_code == 422
    assert "nicht (mehr) gültig" in refused.content.decode()
    assert devices.COOKIE not in second.cookies
    assert TableDevice.objects.filter(token_hash__isnull=False).count() == 1


def test_an_expired_code_pairs_nobody(director_client, tournament, client):
    code = make_code(director_client, tournament, 5)
    TableDevice.objects.update(code_expires_at=timezone.now() - timedelta(seconds=1))
    assert pair(client, code).status_code == 422
    assert not TableDevice.objects.filter(token_hash__isnull=False).exists()


def test_a_typed_code_may_be_lower_case_and_without_the_dash(director_client, tournament, client):
    code = make_code(director_client, tournament, 5)
    assert pair(client, code.replace("-", " ").lower()).status_code == 302


def test_wrong_codes_are_limited_per_network_and_the_right_one_passes_elsewhere(
    director_client, tournament, client
):
    from django.test import Client

    code = make_code(director_client, tournament, 5)
    for _ in range(domain.PAIRING_FAILURES):
        assert pair(client, "AAAA-AAAA", "198.51.100.7").status_code == 422
    refused = pair(client, code, "198.51.100.7")
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    assert "Zu viele falsche Kopplungscodes" in refused.content.decode()
    assert not TableDevice.objects.filter(token_hash__isnull=False).exists()
    assert pair(Client(), code, "198.51.100.8").status_code == 302


def test_a_right_code_does_not_count_against_the_network(director_client, tournament):
    from django.test import Client

    for number in range(1, domain.PAIRING_FAILURES + 3):
        code = make_code(director_client, tournament, number)
        assert pair(Client(), code, "198.51.100.9").status_code == 302


def test_revoked_the_tablet_says_so_and_its_queued_saves_are_refused(
    tablet, director_client, tournament, table, client
):
    device = TableDevice.objects.get(token_hash__isnull=False)
    revoke = reverse("manage:device-revoke", args=[tournament.slug, device.pk])
    assert director_client.post(revoke).status_code == 302
    # A game the tablet held while offline arrives after the revocation: not saved, 410 (the
    # outbox then reloads the page), and the page says why.
    late = tablet.post(
        reverse("keeper-sheet", args=[table.token]),
        GAME,
        HTTP_HX_REQUEST="true",
        HTTP_HX_TARGET="sheet",
    )
    assert late.status_code == 410
    assert not Game.objects.filter(table=table).exists()
    page = tablet.get(reverse("keeper-sheet", args=[table.token]))
    assert page.status_code == 403
    text = page.content.decode()
    assert "nicht mehr mit Tisch 5 gekoppelt" in text
    assert 'data-closed="1"' in text  # outbox.js lists what it still holds, not on the list
    assert tablet.get(reverse("device-state")).json()["state"] == "revoked"
    home = tablet.get(reverse("device-home"))
    assert home.status_code == 200 and "nicht mehr mit Tisch 5 gekoppelt" in home.content.decode()
    # Every other phone at the table keeps its link.
    assert client.post(reverse("keeper-sheet", args=[table.token]), GAME).status_code == 200
    assert Game.objects.filter(table=table).count() == 1


def test_a_revoked_tablet_can_forget_and_pair_again(tablet, director_client, tournament):
    device = TableDevice.objects.get(token_hash__isnull=False)
    domain.revoke(device, None)
    tablet.post(reverse("device-forget"))
    assert tablet.get(reverse("device-state")).json()["state"] == "unpaired"
    assert pair(tablet, make_code(director_client, tournament, 5)).status_code == 302
    assert tablet.get(reverse("device-state")).json()["state"] == "paired"


def test_pairing_again_replaces_the_old_pairing(tablet, director_client, tournament):
    old = TableDevice.objects.get(token_hash__isnull=False)
    pair(tablet, make_code(director_client, tournament, 6))
    old.refresh_from_db()
    assert old.revoked_at is not None
    assert TableDevice.objects.filter(revoked_at__isnull=True).get().table_number == 6


def test_a_revoked_tablet_of_another_tournament_is_a_plain_phone_here(tablet, director_user, table):
    domain.revoke(TableDevice.objects.get(token_hash__isnull=False), None)
    elsewhere = released_table(TournamentFactory(directors=[director_user]))
    response = tablet.post(reverse("keeper-sheet", args=[elsewhere.token]), GAME)
    assert response.status_code == 200
    assert Game.objects.filter(table=elsewhere).count() == 1


def test_the_directors_page_lists_devices_per_table_with_last_seen(
    tablet, director_client, tournament, table
):
    TableDevice.objects.update(last_seen_at=timezone.now() - timedelta(minutes=5))
    tablet.get(reverse("device-state"))  # the tablet asks: seen now
    page = director_client.get(reverse("manage:device-list", args=[tournament.slug]))
    text = page.content.decode()
    assert "Tablet blau" in text and "gekoppelt" in text and "gerade eben" in text
    device = page.context["devices"][0]
    assert timezone.now() - device.last_seen_at < timedelta(seconds=30)
    assert reverse("manage:device-revoke", args=[tournament.slug, device.pk]) in text


def test_last_seen_is_written_at_most_once_a_minute(tablet, django_assert_num_queries):
    tablet.get(reverse("device-state"))  # seen just now
    with django_assert_num_queries(2):  # the device, its table: no write
        tablet.get(reverse("device-state"))


def test_another_director_can_neither_see_nor_revoke(tablet, client, tournament):
    other = director(username="fremd")
    client.force_login(other)
    device = TableDevice.objects.get(token_hash__isnull=False)
    assert client.get(reverse("manage:device-list", args=[tournament.slug])).status_code == 404
    revoke = reverse("manage:device-revoke", args=[tournament.slug, device.pk])
    assert client.post(revoke).status_code == 404
    device.refresh_from_db()
    assert device.revoked_at is None


def test_a_bad_table_number_or_label_changes_nothing(director_client, tournament):
    url = reverse("manage:device-list", args=[tournament.slug])
    for data in ({"table_number": 0}, {"table_number": 501}, {"table_number": 3, "label": "a\nb"}):
        response = director_client.post(url, data)
        assert response.status_code == 422
    assert not TableDevice.objects.exists()


def test_a_phone_without_pairing_gets_no_follow_poll(client, table):
    page = client.get(reverse("keeper-sheet", args=[table.token]))
    assert b'id="device-follow"' not in page.content


def test_the_pairing_page_in_english(client, settings):
    page = client.get(reverse("device-home"), HTTP_ACCEPT_LANGUAGE="en")
    assert "Pair a tablet with a table" in page.content.decode()


def test_pairing_and_revoking_leave_history_naming_who(tablet, director_client, tournament):
    device = TableDevice.objects.get(token_hash__isnull=False)
    director_client.post(reverse("manage:device-revoke", args=[tournament.slug, device.pk]))
    records = list(device.history.order_by("history_id"))
    assert [(r.history_role, r.history_user and r.history_user.username) for r in records] == [
        ("director", "leiterin"),  # the code made
        ("list-keeper", None),  # the tablet paired with it
        ("director", "leiterin"),  # revoked
    ]
