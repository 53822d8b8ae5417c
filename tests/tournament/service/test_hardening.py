"""What a club's hall (or anybody holding a key) cannot do to the service: take over another
club's player, exhaust a worker with a small file, store private data, turn a passing database
error into a refusal, block the lane with a slow upload, or cause an error with odd headers."""

import io
import threading

import pytest
from django.db import OperationalError
from django.test import RequestFactory
from django.urls import reverse

from tournament import archive
from tournament.models import Entry, Player, Table, Tournament
from tournament.publishing import protocol
from tournament.service import players as service_players
from tournament.service import receive as service_receive
from tournament.views import service as service_view

from .helpers import forget_hall, hall_tournament, publish, snapshot

pytestmark = pytest.mark.django_db

ENGLISH = {"Accept-Language": "en"}


def player_dict(doc, letter):
    return next(p for p in doc["players"] if p["last_name"] == f"Spieler {letter}")


# Finding 1: a DDV number alone links nobody.


def test_a_ddv_number_without_the_name_takes_over_nobody(client, koeln, bonn):
    koeln_doc = snapshot(hall_tournament(slug="koeln", ddv=("1001", "", "", "")))
    bonn_doc = snapshot(hall_tournament(slug="bonn"))
    impostor = player_dict(bonn_doc, "A")
    impostor |= {"first_name": "Evil", "last_name": "Impostor", "ddv_number": "1001"}
    assert publish(client, koeln, koeln_doc, 1).status_code == 200
    assert publish(client, bonn, bonn_doc, 1).status_code == 200
    real = Player.objects.get(ddv_number="1001")
    assert (real.first_name, real.last_name) == ("A", "Spieler A")
    assert real.entries.get().tournament.club == koeln.club  # Bonn's results are not A's
    evil = Player.objects.get(last_name="Impostor")
    assert evil.pk != real.pk and evil.entries.get().tournament.club == bonn.club
    bonn_doc["tournament"]["name"] = "Bonn, zweiter Stand"
    assert publish(client, bonn, bonn_doc, 2).status_code == 200
    real.refresh_from_db()
    assert (real.first_name, real.last_name, real.entries.count()) == ("A", "Spieler A", 1)


def test_a_player_two_clubs_share_keeps_its_name_whatever_one_club_spells(client, koeln, bonn):
    koeln_doc = snapshot(hall_tournament(slug="koeln", ddv=("1001", "", "", "")))
    bonn_doc = snapshot(hall_tournament(slug="bonn", ddv=("1001", "", "", "")))
    player_dict(koeln_doc, "A").update(first_name="Jürgen", last_name="Schäfer")
    player_dict(bonn_doc, "A").update(first_name="Juergen", last_name="Schaefer")
    assert publish(client, koeln, koeln_doc, 1).status_code == 200
    assert publish(client, bonn, bonn_doc, 1).status_code == 200
    shared = Player.objects.get(ddv_number="1001")  # one person: number and name match
    assert shared.entries.count() == 2
    bonn_doc["tournament"]["name"] = "Bonn, zweiter Stand"
    assert publish(client, bonn, bonn_doc, 2).status_code == 200
    shared.refresh_from_db()
    assert (shared.first_name, shared.last_name) == ("Jürgen", "Schäfer")
    assert shared.entries.count() == 2


# Finding 2: the unzipped size and the number of values are capped on the service.


@pytest.mark.parametrize("padding", [200_000, 2_000])
def test_an_archive_that_inflates_far_beyond_its_weight_is_refused_unparsed(
    client, koeln, settings, monkeypatch, padding
):
    settings.SERVICE_MAX_ARCHIVE_BYTES = 64 * 1024  # so at most 128 KB unzipped
    monkeypatch.setattr(service_receive, "MAX_VALUES", 1_000, raising=False)
    doc = snapshot(hall_tournament())
    doc["padding"] = [{}] * padding  # 600 KB (too heavy) or 6 KB of 2,000 values (too many)
    body = archive.pack(doc)
    assert len(body) < settings.SERVICE_MAX_ARCHIVE_BYTES
    response = publish(client, koeln, body, 1, uid=doc["tournament"]["uid"], **ENGLISH)
    assert response.status_code == 400 and response.json()["error"] == protocol.BAD_REQUEST
    assert response.json()["message"] == "The tournament file is too big."
    assert not Tournament.objects.exists()


# Finding 3: public archives only, and only their public part stored.


def test_a_whole_archive_is_refused_and_nothing_of_it_stored(client, koeln):
    t = hall_tournament()
    doc = archive.build(t, profile="full")
    forget_hall(t)
    response = publish(client, koeln, doc, 1, **ENGLISH)
    assert response.status_code == 400 and response.json()["error"] == protocol.BAD_REQUEST
    assert "only a tournament's public archive" in response.json()["message"]
    assert not Tournament.objects.exists() and not Player.objects.exists()


def test_what_a_public_archive_should_not_carry_is_never_stored(client, koeln):
    t = hall_tournament()
    t.projector_token = "hall-projector-secret"
    t.save()
    t.rounds.first().tables.first().referee_calls.create(note="Streit um die Ansage")
    tokens = set(Table.objects.filter(round__tournament=t).values_list("token", flat=True))
    codes = set(t.entries.values_list("confirm_code", flat=True))
    doc = archive.build(t, profile="full") | {"profile": "public"}  # everything, labelled public
    forget_hall(t)
    assert publish(client, koeln, doc, 1).status_code == 200
    replica = Tournament.objects.get()
    assert not Player.objects.filter(last_name="Spieler D").exists()  # D did not consent
    assert replica.entries.get(start_number=4).player.last_name == "N. N."
    assert replica.projector_token != "hall-projector-secret"
    served = set(Table.objects.filter(round__tournament=replica).values_list("token", flat=True))
    assert not served & tokens
    assert not Table.objects.filter(referee_calls__isnull=False).exists()
    assert not Entry.objects.filter(confirm_code__in=codes).exists()


# Finding 4: a collision is tried once more; another database error asks to come again.


def test_a_collision_met_inside_the_real_restore_is_tried_once_more(
    client, koeln, bonn, monkeypatch
):
    """Bonn's replica of the same tournament committed while Köln's publication was inside
    its transaction (PostgreSQL runs two clubs' publications side by side): the restore meets
    it. In this test's one connection Bonn's row goes with the rolled-back first try, so the
    second try takes Köln's publication; on PostgreSQL it finds Bonn's row (403)."""
    doc = snapshot(hall_tournament())
    real, calls = service_receive.unique_slug, []

    def bonn_commits_meanwhile(model, wanted):
        calls.append(wanted)
        if len(calls) == 1:
            Tournament.objects.create(
                uid=doc["tournament"]["uid"], slug="bonn-herbst", name="x", date="2026-01-01",
                club=bonn.club, published_sequence=1,
            )  # fmt: skip
        return real(model, wanted)

    monkeypatch.setattr(service_receive, "unique_slug", bonn_commits_meanwhile)
    response = publish(client, koeln, doc, 1)
    assert response.status_code == 200, response.content
    assert len(calls) == 2 and Tournament.objects.get().club == koeln.club


def test_a_database_error_inside_the_restore_asks_the_hall_to_send_again(
    client, koeln, monkeypatch
):
    doc = snapshot(hall_tournament())

    def locked_out(club, players):
        def find(data):
            raise OperationalError("database is locked")

        return find

    monkeypatch.setattr(service_players, "player_finder", locked_out)
    response = publish(client, koeln, doc, 1)
    assert response.status_code == 503 and response["Retry-After"] == "5"
    assert response.json()["error"] == "busy"
    assert not Tournament.objects.exists()


# Finding 5: the body is read before the publication takes a place in the lane.


class ArrivingSlowly(io.RawIOBase):
    """A request body that, while it arrives, lets ``meanwhile`` run (another club's
    publication over a better line)."""

    def __init__(self, data: bytes, meanwhile) -> None:
        self.data, self.meanwhile = io.BytesIO(data), meanwhile

    def read(self, size=-1):
        if self.meanwhile is not None:
            meanwhile, self.meanwhile = self.meanwhile, None
            meanwhile()
        return self.data.read(size)


def test_a_slow_upload_holds_no_place_in_the_publishing_lane(
    client, koeln, bonn, settings, monkeypatch
):
    settings.SERVICE_PUBLISH_HOLD = 0
    monkeypatch.setattr(service_view, "_places", threading.BoundedSemaphore(1))
    koeln_doc = snapshot(hall_tournament(slug="koeln"))
    bonn_doc = snapshot(hall_tournament(slug="bonn"))
    body = archive.pack(koeln_doc)
    answers = []
    request = RequestFactory().post(
        reverse("publish"),
        data=body,
        content_type=protocol.CONTENT_TYPE,
        headers=protocol.signed_headers(koeln.key, koeln_doc["tournament"]["uid"], 1, body),
    )
    request._stream = ArrivingSlowly(
        body, lambda: answers.append(publish(client, bonn, bonn_doc, 1).status_code)
    )
    assert service_view.publish_endpoint(request).status_code == 200
    assert answers == [200]  # Bonn was not told to come again while Köln's body arrived
    assert Tournament.objects.count() == 2


# Finding 7: odd headers are a bad request, never a server error.


def test_odd_headers_are_a_bad_request_not_a_server_error(client, koeln):
    doc = snapshot(hall_tournament())
    uid = doc["tournament"]["uid"]
    body = archive.pack(doc)
    huge = 10**19  # beyond the column's 64 bits, signed properly
    cases = [
        {protocol.HEADER_SEQUENCE: "²"},  # a digit to str.isdigit, none to int()
        protocol.signed_headers(koeln.key, uid, huge, body),
        {protocol.HEADER_SIGNATURE: "sha256=" + "ä" * 64},  # compare_digest: ASCII only
    ]
    for odd in cases:
        headers = {**protocol.signed_headers(koeln.key, uid, 1, body), **odd}
        response = publish(client, koeln, body, 1, sign=headers)
        assert response.status_code == 400, odd
        assert response.json()["error"] == protocol.BAD_REQUEST
    assert not Tournament.objects.exists()
    # A signature of the right form that does not match stays a 401.
    forged = {protocol.HEADER_SIGNATURE: "sha256=" + "0" * 64}
    response = publish(client, koeln, body, 1, uid=uid, **forged)
    assert response.status_code == 401 and response.json()["error"] == protocol.BAD_SIGNATURE
