"""A hall takes its tournament off the service (publishing switched off, made private or
deleted: tournament/publishing/publisher.py): the header-only state it sends, through the real
receive path, hides the replica: every public page of it is gone, and so are its results."""

import pytest
from django.urls import reverse
from django.utils import timezone

from tournament import archive
from tournament.models import Entry, Tournament
from tournament.publishing import snapshot

from .helpers import forget_hall, hall_tournament, publish
from .test_pages import public_pages

pytestmark = pytest.mark.django_db


def test_a_withdrawal_hides_the_replica_on_the_service(client, koeln):
    hall = hall_tournament()
    now = timezone.now()
    state = archive.build(hall, profile="public", now=now)
    withdrawal = snapshot.withdrawal(hall, now)
    forget_hall(hall)
    assert publish(client, koeln, state, 1).status_code == 200
    replica = Tournament.objects.get(club=koeln.club)
    pages = public_pages(replica)
    assert all(client.get(url).status_code == 200 for url in pages)
    club_url = reverse("club", args=[koeln.club.slug])
    assert replica.name in client.get(club_url).content.decode()

    answer = publish(client, koeln, withdrawal, 2)

    assert answer.status_code == 200, answer.json()
    replica.refresh_from_db()
    assert replica.is_public is False
    assert not Entry.objects.filter(tournament=replica).exists()
    for url in pages:
        assert client.get(url).status_code == 404, url
    assert replica.name not in client.get(club_url).content.decode()
    assert replica.name not in client.get(reverse("home")).content.decode()
