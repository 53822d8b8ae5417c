"""Taking a tournament off the results service: publishing switched off, the tournament made
private, or deleted on the laptop. One last state (only who it is, not public) goes like any
change, numbered, kept until the service confirms it; after that nothing more is sent."""

import pytest
from django.utils import timezone, translation

from tests.tournament.publishing.fake_service import Held
from tournament import archive
from tournament.models import Publication, PublishChange, Withdrawal
from tournament.publishing.publisher import Publisher, backoff
from tournament.publishing.status import status

pytestmark = pytest.mark.django_db


def sent(service, uid):
    """The documents the service accepted for ``uid``, by sequence."""
    return [
        (sequence, archive.unpack(body))
        for got, sequence, body in service.accepted
        if got == str(uid)
    ]


def assert_withdrawal(doc, tournament):
    assert doc["tournament"] == {
        "uid": str(tournament.uid),
        "slug": tournament.slug,
        "name": tournament.name,
        "date": tournament.date.isoformat(),
        "is_public": False,
    }
    assert doc["profile"] == "public"
    assert [doc[key] for key in ("teams", "players", "entries", "rounds", "series")] == [[]] * 5


def text(tournament, language):
    with translation.override(language):
        return status(tournament).text


@pytest.mark.parametrize("switch", ["publish_results", "is_public"])
def test_switching_publishing_off_sends_one_withdrawal_and_then_nothing(
    hall, published, clock, switch
):
    publisher = Publisher(clock=clock)
    publisher.run_once()
    setattr(published, switch, False)
    published.save()
    publisher.run_once()

    [(first, _doc), (second, withdrawal)] = sent(hall, published.uid)
    assert (first, second) == (1, 2)
    assert_withdrawal(withdrawal, published)
    published.name = "Umbenannt"
    published.save()
    clock.advance(3600)
    publisher.run_once()
    Publisher(clock=clock).run_once()  # after a restart neither
    assert len(hall.requests) == 2
    assert text(published, "de").startswith("vom Ergebnisdienst genommen")
    assert text(published, "en").startswith("taken off the results service")


def test_a_withdrawal_is_kept_until_the_service_confirms_it(hall, published, clock):
    publisher = Publisher(clock=clock)
    publisher.run_once()
    published.publish_results = False
    published.save()
    hall.trouble.append((503, {}))
    publisher.run_once()
    assert PublishChange.objects.get(sent_at__isnull=True).sequence == 2
    assert text(published, "de").startswith("wird vom Ergebnisdienst genommen")
    assert text(published, "en").startswith("being taken off the results service")

    clock.advance(backoff(1))
    publisher.run_once()
    [(sequence, withdrawal)] = sent(hall, published.uid)[1:]
    assert sequence == 2
    assert_withdrawal(withdrawal, published)
    assert not PublishChange.objects.filter(sent_at__isnull=True).exists()


def test_published_again_after_a_withdrawal_the_whole_state_goes(hall, published, clock):
    publisher = Publisher(clock=clock)
    publisher.run_once()
    published.publish_results = False
    published.save()
    publisher.run_once()
    published.publish_results = True
    published.save()
    publisher.run_once()

    [*_, (sequence, doc)] = sent(hall, published.uid)
    assert sequence == 3
    assert doc["tournament"]["is_public"] is True
    assert Publication.objects.get(tournament=published).withdrawn_at is None
    assert text(published, "en").startswith("published: as of")


def test_a_tournament_never_published_sends_nothing_when_switched_off(hall, published, clock):
    published.publish_results = False
    published.save()
    Publisher(clock=clock).run_once()
    published.delete()
    Publisher(clock=clock).run_once()
    assert hall.requests == []
    assert not Withdrawal.objects.exists()


def test_a_deleted_published_tournament_is_taken_off_the_service(hall, published, clock):
    publisher = Publisher(clock=clock)
    publisher.run_once()
    uid, copy = published.uid, Publication.objects.get(tournament=published).tournament
    published.delete()
    assert Withdrawal.objects.get(uid=uid).sequence == 2

    hall.trouble.append("drop")  # no connection at first: the withdrawal waits
    publisher.run_once()
    assert Withdrawal.objects.filter(uid=uid).exists()
    clock.advance(backoff(1))
    publisher.run_once()

    [(first, _doc), (second, withdrawal)] = sent(hall, uid)
    assert (first, second) == (1, 2)
    assert_withdrawal(withdrawal, copy)
    assert not Withdrawal.objects.exists()
    clock.advance(3600)
    Publisher(clock=clock).run_once()
    assert len(hall.requests) == 3  # the first state, the dropped attempt, the withdrawal


def test_deleted_while_its_withdrawal_waits_the_same_withdrawal_goes(hall, published, clock):
    publisher = Publisher(clock=clock)
    publisher.run_once()
    published.is_public = False
    published.save()
    hall.trouble.append((503, {}))
    publisher.run_once()
    uid = published.uid
    published.delete()

    assert Withdrawal.objects.get(uid=uid).sequence == 2
    clock.advance(backoff(1))
    publisher.run_once()
    assert [sequence for sequence, _doc in sent(hall, uid)] == [1, 2]
    assert not Withdrawal.objects.exists()


def test_deleted_after_its_withdrawal_was_confirmed_nothing_more_goes(hall, published, clock):
    publisher = Publisher(clock=clock)
    publisher.run_once()
    published.publish_results = False
    published.save()
    publisher.run_once()
    published.delete()
    publisher.run_once()
    assert not Withdrawal.objects.exists()
    assert len(hall.requests) == 2


def test_a_withdrawal_behind_the_services_numbering_is_numbered_above_it(hall, published, clock):
    publisher = Publisher(clock=clock)
    publisher.run_once()
    uid = str(published.uid)
    hall.held[uid] = Held(7, "another laptop's state")
    published.delete()
    publisher.run_once()
    assert [sequence for sequence, _doc in sent(hall, uid)] == [1, 8]
    assert not Withdrawal.objects.exists()


def test_the_status_names_the_moment_it_was_taken_off(hall, published, clock):
    clock.now = timezone.localtime().replace(hour=14, minute=32)
    publisher = Publisher(clock=clock)
    publisher.run_once()
    published.publish_results = False
    published.save()
    publisher.run_once()
    assert text(published, "de") == "vom Ergebnisdienst genommen (14:32)"
    assert text(published, "en") == "taken off the results service (14:32)"


def test_a_state_that_never_left_the_laptop_needs_no_withdrawal(hall, published, clock):
    Publisher(clock=clock).collect(published)  # queued, never sent (e.g. the service removed)
    published.publish_results = False
    published.save()
    Publisher(clock=clock).run_once()
    published.delete()
    Publisher(clock=clock).run_once()
    assert hall.requests == []
    assert not Withdrawal.objects.exists()
