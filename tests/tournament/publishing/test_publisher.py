"""The publisher against a results service on loopback (tests/tournament/publishing/
fake_service.py): changes go in order, a resend is harmless, failures back off, a restart
loses nothing, a laptop whose numbering fell behind catches up."""

from datetime import timedelta

import pytest
from django.core.management import call_command

from tests.factories import EntryFactory
from tests.tournament.publishing.fake_service import Held
from tournament.base.versions import mark_changed
from tournament.models import Publication, PublishChange
from tournament.publishing import protocol
from tournament.publishing.publisher import MIXED_TRIES, SLOW_PAUSE, Publisher, backoff

pytestmark = pytest.mark.django_db


def publication(tournament):
    return Publication.objects.get(tournament=tournament)


def sequences(service, tournament):
    return [sequence for uid, sequence, _body in service.accepted if uid == str(tournament.uid)]


def test_it_sends_each_new_public_state_in_order(hall, published, clock):
    publisher = Publisher(clock=clock)
    publisher.run_once()
    EntryFactory(tournament=published)
    publisher.run_once()
    published.name = "Herbstturnier 2026"
    published.save()
    publisher.run_once()

    assert sequences(hall, published) == [1, 2, 3]
    assert hall.held[str(published.uid)].sequence == 3
    sent = publication(published)
    assert (sent.sequence, sent.sent_sequence, sent.last_error) == (3, 3, "")
    assert sent.public_url == hall.page(str(published.uid))
    # Sent changes older than the newest are gone; the newest keeps no body.
    assert list(PublishChange.objects.values_list("sequence", "body")) == [(3, b"")]


def test_an_unchanged_public_state_is_not_sent_again(hall, published, clock):
    publisher = Publisher(clock=clock)
    publisher.run_once()
    mark_changed(published)  # the version moves, what the public sees does not
    publisher.run_once()
    Publisher(clock=clock).run_once()  # a new publisher after a restart neither

    assert sequences(hall, published) == [1]
    assert PublishChange.objects.count() == 1


def test_only_opted_in_tournaments_are_sent(hall, tournament, clock):
    tournament.is_public = True
    tournament.save()
    Publisher(clock=clock).run_once()
    assert hall.requests == []
    assert not PublishChange.objects.exists()


def test_nothing_happens_without_a_service(settings, published, clock):
    settings.RESULTS_SERVICE_URL = settings.RESULTS_SERVICE_KEY = ""
    assert Publisher(clock=clock).run_once() is False
    assert not PublishChange.objects.exists()


def test_a_lost_answer_is_sent_again_and_taken_once(hall, published, clock):
    hall.trouble.append("take-and-drop")  # the service stores it, the answer never arrives
    publisher = Publisher(clock=clock)
    publisher.run_once()
    assert sequences(hall, published) == [1]
    assert publication(published).sent_sequence == 0
    assert publication(published).last_error == "unreachable"

    clock.advance(backoff(1))
    publisher.run_once()

    assert hall.requests == [(str(published.uid), 1)] * 2  # the same change again
    assert sequences(hall, published) == [1]  # the service took it once
    assert publication(published).sent_sequence == 1
    assert publication(published).last_error == ""


def test_failures_back_off_doubling_up_to_five_minutes(hall, published, clock):
    assert [backoff(n) for n in range(1, 11)] == [2, 4, 8, 16, 32, 64, 128, 256, 300, 300]
    hall.trouble += [(503, {})] * 3 + ["drop"] + [(429, {})]
    publisher = Publisher(clock=clock)
    started = clock.now
    tries = []
    for _second in range(200):
        before = len(hall.requests)
        publisher.run_once()
        if len(hall.requests) > before:
            tries.append((clock.now - started).total_seconds())
        clock.advance(1)

    # Tried at once, then after 2, 4, 8, 16 and 32 seconds: accepted at the sixth attempt.
    assert tries == [0, 2, 6, 14, 30, 62]
    assert sequences(hall, published) == [1]
    assert publication(published).attempts == 0


def test_a_restarted_laptop_sends_what_is_queued(hall, published, clock):
    hall.trouble += [(503, {})] * 2
    first = Publisher(clock=clock)
    first.run_once()  # change 1 queued, the service fails
    EntryFactory(tournament=published)
    clock.advance(1)
    first.run_once()  # change 2 queued (supersedes 1), not yet tried again
    assert PublishChange.objects.filter(sent_at__isnull=True).count() == 2
    del first  # the laptop is switched off

    clock.advance(backoff(1))
    Publisher(clock=clock).run_once()  # the service fails once more
    clock.advance(backoff(2))
    Publisher(clock=clock).run_once()

    assert sequences(hall, published) == [2]  # the newest state: it holds the older one
    assert PublishChange.objects.filter(sent_at__isnull=True).count() == 0
    assert publication(published).sent_sequence == 2


def test_a_laptop_behind_the_service_numbers_on_above_it(hall, published, clock):
    # The service holds sequence 7 of this tournament (a backup was brought back here).
    hall.held[str(published.uid)] = Held(7, "0" * 64)
    Publisher(clock=clock).run_once()

    assert sequences(hall, published) == [8]
    assert publication(published).sequence == 8
    assert publication(published).sent_sequence == 8


@pytest.mark.parametrize(
    ("answer", "code"),
    [
        ((401, {"error": protocol.BAD_KEY}), protocol.BAD_KEY),
        ((403, {"error": protocol.FOREIGN}), protocol.FOREIGN),
        ((413, {"error": protocol.TOO_LARGE}), protocol.TOO_LARGE),
        ((400, {"error": protocol.BAD_REQUEST, "message": "no zip"}), protocol.BAD_REQUEST),
    ],
)
def test_a_refusal_is_kept_and_tried_again_only_slowly(hall, published, clock, answer, code):
    hall.trouble.append(answer)
    publisher = Publisher(clock=clock)
    publisher.run_once()
    refused = publication(published)
    assert refused.last_error == code
    assert refused.next_try_at == clock.now + timedelta(seconds=SLOW_PAUSE)
    clock.advance(backoff(10))
    publisher.run_once()
    assert len(hall.requests) == 1  # not hammered

    clock.advance(SLOW_PAUSE)
    publisher.run_once()
    assert sequences(hall, published) == [1]


def test_a_wrong_key_is_refused_by_the_signature(settings, hall, published, clock):
    forged = protocol.Key(hall.key.key_id, protocol.new_key().secret)
    settings.RESULTS_SERVICE_KEY = str(forged)
    Publisher(clock=clock).run_once()
    assert hall.accepted == []
    assert publication(published).last_error == protocol.BAD_SIGNATURE


def test_the_command_makes_one_pass(hall, published):
    call_command("publisher", once=True)
    assert sequences(hall, published) == [1]


def test_a_state_read_while_a_keeper_saves_waits_for_a_quiet_moment(
    hall, published, clock, monkeypatch
):
    from tournament.publishing import snapshot

    build = snapshot.build
    builds = []

    def build_during_a_save(tournament, visible, now):
        builds.append(tournament.version)
        doc = build(tournament, visible, now)
        if len(builds) <= MIXED_TRIES:
            mark_changed(tournament)  # a keeper's save lands while the state is read
        return doc

    monkeypatch.setattr(snapshot, "build", build_during_a_save)
    publisher = Publisher(clock=clock)
    for _pass in range(MIXED_TRIES - 1):
        publisher.run_once()
    assert hall.requests == []  # perhaps half a save: not sent

    publisher.run_once()  # saves keep coming: taken as it is after a few tries ...
    assert sequences(hall, published) == [1]
    publisher.run_once()  # ... and the quiet moment after builds the state after the save
    publisher.run_once()
    assert len(builds) == MIXED_TRIES + 1
    assert builds[-1] == type(published).objects.get(pk=published.pk).version
