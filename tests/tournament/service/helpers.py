"""Helpers of the results service's tests: clubs with keys, a hall's tournament turned into a
published snapshot, and the request that publishes it (tournament/publishing/protocol.py)."""

import datetime
from dataclasses import dataclass

from django.urls import reverse

from tests.factories import PlayerFactory, played_tournament
from tournament import archive
from tournament.models import Player
from tournament.publishing import protocol
from tournament.service import clubs


@dataclass
class Hall:
    """A club on the service with its key, as the club's laptop holds it."""

    club: object
    key: protocol.Key


def make_hall(name: str, slug: str) -> Hall:
    club = clubs.add_club(name, slug=slug)
    return Hall(club, clubs.issue_key(club))


def snapshot(tournament, *, now=None) -> dict:
    """The public archive's doc of a hall's ``tournament``; the hall's rows are then deleted
    (tournament and players), so that the database is the service's alone, as on the
    internet."""
    doc = archive.build(tournament, profile="public", now=now)
    forget_hall(tournament)
    return doc


def forget_hall(tournament) -> None:
    players = list(
        Player.objects.filter(entries__tournament=tournament).values_list("pk", flat=True)
    )
    tournament.rounds.all().delete()  # seats first: they hold the entries
    tournament.delete()
    Player.objects.filter(pk__in=players, entries__isnull=True).delete()


def hall_tournament(*, slug="herbst", name="Herbstturnier", ddv=("", "", "", "")):
    """A public hall tournament of two closed rounds at one table: players A to D (with the
    DDV numbers ``ddv``), A ahead; D's name not published."""
    people = [
        PlayerFactory(first_name=letter, last_name=f"Spieler {letter}", ddv_number=number)
        for letter, number in zip("ABCD", ddv, strict=True)
    ]
    a, b, c, d = people
    t, entries = played_tournament(
        datetime.date.today(), 2, [{a: 6, b: 2, c: -2, d: -6}, {a: 3, b: -3, c: 1, d: -1}]
    )
    t.slug, t.name, t.is_public = slug, name, True
    t.save()
    entries[d.pk].publish = False
    entries[d.pk].save()
    return t


def publish(client, hall: Hall, doc_or_body, sequence: int, *, uid=None, sign=None, **extra):
    """POST a publication: ``doc_or_body`` packed (a dict) or as it is (bytes), signed with the
    hall's key unless ``sign`` gives other headers."""
    body = archive.pack(doc_or_body) if isinstance(doc_or_body, dict) else doc_or_body
    if uid is None:
        uid = doc_or_body["tournament"]["uid"] if isinstance(doc_or_body, dict) else ""
    headers = sign or protocol.signed_headers(hall.key, str(uid), sequence, body)
    headers = {**headers, **extra}
    content_type = headers.pop("Content-Type", protocol.CONTENT_TYPE)
    return client.post(reverse("publish"), data=body, content_type=content_type, headers=headers)
