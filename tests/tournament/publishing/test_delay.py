"""Holding results back: "closed rounds only" and a delay after a round closes. The table plan
goes out at once; a round's results when its time has come, by the clock alone."""

from datetime import timedelta

import pytest
from django.utils import timezone

from tests.factories import released_table, settle
from tournament.models import Game, Publication, PublishChange, Round, RoundStatus
from tournament.publishing.publisher import Publisher
from tournament.publishing.visibility import round_visible, visibility

pytestmark = pytest.mark.django_db

NOW = timezone.now()
CLOSED, RELEASED = RoundStatus.CLOSED, RoundStatus.RELEASED


@pytest.mark.parametrize(
    ("status", "closed_minutes_ago", "delay", "closed_only", "visible"),
    [
        (RELEASED, None, 0, False, True),  # no limits: everything at once
        (RELEASED, None, 0, True, False),  # closed rounds only: an open round waits
        (CLOSED, 1, 0, True, True),
        (RELEASED, None, 15, False, False),  # a delay holds an open round back until it closes
        (CLOSED, 14, 15, False, False),  # ... plus the delay
        (CLOSED, 15, 15, False, True),
        (CLOSED, 15, 15, True, True),
    ],
)
def test_when_a_rounds_results_may_leave_the_hall(
    status, closed_minutes_ago, delay, closed_only, visible
):
    closed_at = None if closed_minutes_ago is None else NOW - timedelta(minutes=closed_minutes_ago)
    shown = round_visible(status, closed_at, delay_minutes=delay, closed_only=closed_only, now=NOW)
    assert shown is visible


def test_a_delayed_round_goes_out_when_its_time_has_come(hall, published, clock):
    published.publish_delay_minutes = 10
    published.save()
    table = released_table(published)
    round_ = table.round
    Game.objects.create(table=table, number=1, kind="normal", p1=2, p2=-2, p3=2, p4=-2)
    Round.objects.filter(pk=round_.pk).update(status=CLOSED, closed_at=clock.now)
    settle(published)  # the round's results stored, as closing it does
    publisher = Publisher(clock=clock)

    publisher.run_once()
    held_back = Publication.objects.get(tournament=published)
    assert held_back.due_at == clock.now + timedelta(minutes=10)
    assert not visibility(published, clock.now)(round_)

    clock.advance(9 * 60)
    publisher.run_once()
    assert PublishChange.objects.count() == 1  # nothing new: still within the delay

    clock.advance(60)
    publisher.run_once()  # the clock alone makes the round's results visible
    assert visibility(published, clock.now)(round_)
    assert [s for _uid, s, _body in hall.accepted] == [1, 2]
    assert Publication.objects.get(tournament=published).due_at is None


def test_closed_rounds_only_holds_the_running_round_back(hall, published, clock):
    published.publish_closed_rounds_only = True
    published.save()
    round_ = released_table(published).round
    publisher = Publisher(clock=clock)
    publisher.run_once()
    assert not visibility(published, clock.now)(round_)

    Round.objects.filter(pk=round_.pk).update(status=CLOSED, closed_at=clock.now)
    published.save()
    publisher.run_once()
    assert visibility(published, clock.now)(round_)
    assert [s for _uid, s, _body in hall.accepted] == [1, 2]
