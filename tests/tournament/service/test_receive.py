"""The service's end of publishing: what a club's hall sends becomes the club's replica, and
every refusal of the protocol (tournament/publishing/protocol.py) changes nothing."""

import io

import pytest
from django.test import RequestFactory
from django.urls import reverse

from tournament.models import Entry, Player, PublishingKey, Tournament
from tournament.publishing import protocol
from tournament.service import clubs
from tournament.views.service import publish_endpoint

from .helpers import hall_tournament, make_hall, publish, snapshot

pytestmark = pytest.mark.django_db


def rows():
    """What a publication could change."""
    return (
        list(Tournament.objects.values_list("pk", "name", "published_sequence", "club_id")),
        Entry.objects.count(),
        Player.objects.count(),
    )


@pytest.fixture
def doc():
    return snapshot(hall_tournament())


def test_a_publication_becomes_the_clubs_replica(client, koeln, doc):
    response = publish(client, koeln, doc, 1)
    assert response.status_code == 200, response.content
    answer = response.json()
    replica = Tournament.objects.get(uid=doc["tournament"]["uid"])
    assert answer == {
        "status": "accepted",
        "sequence": 1,
        "url": f"http://testserver/t/{replica.slug}/",
    }
    assert replica.slug == "koeln-herbst" and replica.published_slug == "herbst"
    assert replica.club == koeln.club and replica.published_sequence == 1
    assert replica.published_digest == protocol_digest(doc)
    assert replica.published_at is not None
    assert PublishingKey.objects.get(key_id=koeln.key.key_id).last_used_at is not None
    page = client.get(answer["url"]).content.decode()
    assert "Spieler A" in page and "Spieler D" not in page  # D did not consent


def protocol_digest(doc):
    from tournament import archive

    return archive.digest(doc)


def test_sending_again_after_a_lost_answer_changes_nothing(client, koeln, doc):
    assert publish(client, koeln, doc, 1).status_code == 200
    before = rows()
    again = publish(client, koeln, doc, 1)
    assert again.status_code == 200 and again.json()["status"] == "unchanged"
    assert rows() == before


def test_a_newer_state_replaces_the_replica_in_place(client, koeln, doc):
    publish(client, koeln, doc, 1)
    replica = Tournament.objects.get(uid=doc["tournament"]["uid"])
    players = Player.objects.count()
    doc["tournament"]["name"] = "Herbstturnier (Endstand)"
    assert publish(client, koeln, doc, 2).json()["status"] == "accepted"
    again = Tournament.objects.get(uid=doc["tournament"]["uid"])
    assert (again.pk, again.slug) == (replica.pk, replica.slug)
    assert again.name == "Herbstturnier (Endstand)" and again.published_sequence == 2
    # The anonymous player of the unpublished entry is made anew, the old one not left over.
    assert Player.objects.count() == players


def test_an_older_state_replayed_or_overtaken_is_refused(client, koeln, doc):
    publish(client, koeln, doc, 1)
    doc["tournament"]["name"] = "Neu"
    publish(client, koeln, doc, 5)
    before = rows()
    doc["tournament"]["name"] = "Alt"
    response = publish(client, koeln, doc, 4)
    assert response.status_code == 409
    assert response.json()["error"] == protocol.STALE and response.json()["sequence"] == 5
    assert rows() == before


def test_the_same_number_with_another_body_is_refused(client, koeln, doc):
    publish(client, koeln, doc, 3)
    before = rows()
    doc["tournament"]["name"] = "Anders"
    response = publish(client, koeln, doc, 3)
    assert response.status_code == 409 and response.json()["sequence"] == 3
    assert rows() == before


def test_a_forged_signature_is_refused(client, koeln, doc):
    forged = protocol.Key(koeln.key.key_id, "x" * 43)
    body = protocol_pack(doc)
    headers = protocol.signed_headers(forged, doc["tournament"]["uid"], 1, body)
    response = publish(client, koeln, body, 1, sign=headers)
    assert response.status_code == 401 and response.json()["error"] == protocol.BAD_SIGNATURE
    assert not Tournament.objects.exists()


def protocol_pack(doc):
    from tournament import archive

    return archive.pack(doc)


def test_a_tampered_body_is_refused(client, koeln, doc):
    body = protocol_pack(doc)
    headers = protocol.signed_headers(koeln.key, doc["tournament"]["uid"], 1, body)
    doc["tournament"]["name"] = "Untergeschoben"
    response = publish(client, koeln, protocol_pack(doc), 1, sign=headers)
    assert response.status_code == 401 and response.json()["error"] == protocol.BAD_SIGNATURE
    assert not Tournament.objects.exists()


OTHER_UID = "12345678-1234-4234-8234-123456789abc"


@pytest.mark.parametrize(
    "header, value", [(protocol.HEADER_SEQUENCE, "2"), (protocol.HEADER_TOURNAMENT, OTHER_UID)]
)
def test_a_tampered_header_is_refused(client, koeln, doc, header, value):
    response = publish(client, koeln, doc, 1, **{header: value})
    assert response.status_code == 401 and response.json()["error"] == protocol.BAD_SIGNATURE
    assert not Tournament.objects.exists()


def test_an_unknown_key_is_refused(client, koeln, doc):
    stranger = protocol.new_key()
    body = protocol_pack(doc)
    headers = protocol.signed_headers(stranger, doc["tournament"]["uid"], 1, body)
    response = publish(client, koeln, body, 1, sign=headers)
    assert response.status_code == 401 and response.json()["error"] == protocol.BAD_KEY
    assert not Tournament.objects.exists()


def test_a_revoked_key_is_refused_and_the_rotated_one_works(client, koeln, doc):
    publish(client, koeln, doc, 1)
    new = clubs.issue_key(koeln.club, revoke_others=True)
    doc["tournament"]["name"] = "Zweiter Stand"
    response = publish(client, koeln, doc, 2)
    assert response.status_code == 401 and response.json()["error"] == protocol.BAD_KEY
    koeln.key = new
    assert publish(client, koeln, doc, 2).status_code == 200
    clubs.revoke_key(new.key_id)
    doc["tournament"]["name"] = "Dritter Stand"
    assert publish(client, koeln, doc, 3).status_code == 401
    assert Tournament.objects.get().name == "Zweiter Stand"


def test_another_clubs_tournament_is_refused(client, koeln, bonn, doc):
    publish(client, koeln, doc, 1)
    before = rows()
    doc["tournament"]["name"] = "Gekapert"
    response = publish(client, bonn, doc, 2)
    assert response.status_code == 403 and response.json()["error"] == protocol.FOREIGN
    assert rows() == before


def test_a_tournament_made_on_the_service_itself_is_foreign_to_every_club(client, koeln):
    own = hall_tournament()  # stays: the service's own tournament, no club
    from tournament import archive

    doc = archive.build(own, profile="public")
    response = publish(client, koeln, doc, 1)
    assert response.status_code == 403
    assert Tournament.objects.get().club is None


def test_a_body_that_is_no_archive_is_refused(client, koeln, doc):
    response = publish(
        client, koeln, b"PK\x03\x04 not really a zip", 1, uid=doc["tournament"]["uid"]
    )
    assert response.status_code == 400 and response.json()["error"] == protocol.BAD_REQUEST
    assert response.json()["message"]
    assert not Tournament.objects.exists()


def test_an_archive_of_another_tournament_than_the_header_says_is_refused(client, koeln, doc):
    other = "12345678-1234-4234-8234-123456789abc"
    response = publish(client, koeln, doc, 1, uid=other)
    assert response.status_code == 400 and response.json()["error"] == protocol.BAD_REQUEST
    assert not Tournament.objects.exists()


def test_a_body_larger_than_the_limit_is_refused(client, koeln, doc, settings):
    settings.SERVICE_MAX_ARCHIVE_BYTES = 100
    response = publish(client, koeln, doc, 1)
    assert response.status_code == 413 and response.json()["error"] == protocol.TOO_LARGE
    assert not Tournament.objects.exists()


def test_the_archive_may_be_larger_than_a_forms_limit(client, koeln, doc, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 100  # for forms; an archive is read in chunks
    assert publish(client, koeln, doc, 1).status_code == 200


def test_only_post_publishes(client):
    response = client.get(reverse("publish"))
    assert response.status_code == 405 and response["Allow"] == "POST"
    assert response.json()["error"] == protocol.BAD_REQUEST


def test_missing_headers_are_a_bad_request(client, koeln, doc):
    response = publish(client, koeln, doc, 1, **{protocol.HEADER_SEQUENCE: "eins"})
    assert response.status_code == 400 and response.json()["error"] == protocol.BAD_REQUEST
    response = client.post(reverse("publish"), data=b"x", content_type=protocol.CONTENT_TYPE)
    assert response.status_code == 400


class Untouchable(io.RawIOBase):
    """A request body that fails the test if anything reads it."""

    def read(self, *args):
        raise AssertionError("the body was read")

    readline = readinto = read


def test_a_made_up_key_or_an_oversized_body_is_refused_before_the_body_is_read(koeln, settings):
    def request(key_id, length):
        made = RequestFactory().post(
            reverse("publish"),
            data=b"",
            content_type=protocol.CONTENT_TYPE,
            headers={
                protocol.HEADER_KEY: key_id,
                protocol.HEADER_TOURNAMENT: "12345678-1234-4234-8234-123456789abc",
                protocol.HEADER_SEQUENCE: "1",
                protocol.HEADER_SIGNATURE: "sha256=" + "0" * 64,
            },
        )
        made.META["CONTENT_LENGTH"] = str(length)
        made._stream = Untouchable()
        return made

    assert publish_endpoint(request("ausgedachtxyz", 10_000_000)).status_code == 401
    settings.SERVICE_MAX_ARCHIVE_BYTES = 1000
    assert publish_endpoint(request(koeln.key.key_id, 1001)).status_code == 413


def test_the_answers_are_in_the_halls_language(client, koeln, doc):
    stranger = protocol.new_key()
    body = protocol_pack(doc)
    headers = protocol.signed_headers(stranger, doc["tournament"]["uid"], 1, body)
    german = publish(client, koeln, body, 1, sign=headers).json()["message"]
    english = publish(client, koeln, body, 1, sign={**headers, "Accept-Language": "en"})
    assert "unbekannt" in german and "unknown" in english.json()["message"]


def test_a_replica_of_a_private_tournament_is_hidden(client, koeln):
    t = hall_tournament()
    t.is_public = False
    t.save()
    doc = snapshot(t)
    assert publish(client, koeln, doc, 1).status_code == 200
    replica = Tournament.objects.get()
    assert client.get(reverse("tournament-public", args=[replica.slug])).status_code == 404
    assert replica.slug not in client.get(reverse("home")).content.decode()


def test_the_slug_of_a_second_club_with_the_same_name_gets_a_number(client, koeln):
    make_hall("Köln Zwei", "koeln-herbst")  # nothing to do with it: only its name is close
    Tournament.objects.create(name="x", slug="koeln-herbst", date="2026-01-01")
    doc = snapshot(hall_tournament())
    publish(client, koeln, doc, 1)
    assert Tournament.objects.get(club=koeln.club).slug == "koeln-herbst-2"
    url = reverse("club-tournament", args=["koeln", "herbst"])
    assert client.get(url).url == reverse("tournament-public", args=["koeln-herbst-2"])


def test_publications_beyond_the_lane_are_told_to_come_again(client, koeln, doc, settings):
    from tournament.views import service

    settings.SERVICE_PUBLISH_HOLD = 0
    taken = 0
    while service._places.acquire(blocking=False):
        taken += 1
    try:
        response = publish(client, koeln, doc, 1)
    finally:
        for _ in range(taken):
            service._places.release()
    assert response.status_code == 429 and response["Retry-After"] == "5"
    assert not Tournament.objects.exists()
    assert publish(client, koeln, doc, 1).status_code == 200  # the lane free again


def test_nobody_registers_for_a_replica_on_the_service(client, koeln):
    t = hall_tournament()
    t.registration_open = True
    t.save()
    doc = snapshot(t)
    doc["tournament"]["registration_open"] = True  # whatever the hall's file says
    publish(client, koeln, doc, 1)
    replica = Tournament.objects.get()
    assert replica.registration_open is False


def test_another_club_first_while_ours_was_unpacked_is_refused(
    client, koeln, bonn, doc, monkeypatch
):
    from tournament import archive

    real = archive.unpack

    def unpack_while_bonn_publishes(data, **limits):
        unpacked = real(data, **limits)
        Tournament.objects.create(
            uid=unpacked["tournament"]["uid"], slug="bonn-herbst", name="x", date="2026-01-01",
            club=bonn.club, published_sequence=1,
        )  # fmt: skip
        return unpacked

    monkeypatch.setattr(archive, "unpack", unpack_while_bonn_publishes)
    response = publish(client, koeln, doc, 1)
    assert response.status_code == 403 and response.json()["error"] == protocol.FOREIGN
    assert Tournament.objects.get().club == bonn.club
