"""Which rounds' results may leave the hall, by the tournament's publishing settings and the
clock. A round's table plan always goes out once released; its results (games, sheets,
round results, penalties) only when

    (not closed_rounds_only or the round is closed)
    and (delay == 0 or (the round is closed and now >= closed_at + delay)).

So with a delay, an open round's results stay in the hall until it closes plus the delay.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from tournament.models import Round, RoundStatus, Tournament


def round_visible(
    status: str,
    closed_at: datetime | None,
    *,
    delay_minutes: int,
    closed_only: bool,
    now: datetime,
) -> bool:
    closed = status == RoundStatus.CLOSED
    if closed_only and not closed:
        return False
    if delay_minutes == 0:
        return True
    # A closed round without its moment (closed before rounds had a clock) is long closed.
    return closed and (closed_at is None or now >= closed_at + timedelta(minutes=delay_minutes))


@dataclass(frozen=True)
class Visibility:
    """The rounds (primary keys) whose results may be published now, and the next moment
    that changes by the clock alone (a closed round's delay running out), if any."""

    everything: bool
    rounds: frozenset[int]
    due_at: datetime | None

    def __call__(self, round_: Round) -> bool:
        return self.everything or round_.pk in self.rounds

    def for_archive(self) -> Visibility | None:
        """What ``archive.build(results_visible=...)`` takes: None when nothing is held back."""
        return None if self.everything else self

    def state(self) -> list:
        """For the outbox's "built from" record: JSON, equal for equal visibility."""
        return ["all"] if self.everything else sorted(self.rounds)


def visibility(tournament: Tournament, now: datetime) -> Visibility:
    """The tournament's visibility at ``now`` (one query, none without a delay or limit)."""
    delay = tournament.publish_delay_minutes
    closed_only = tournament.publish_closed_rounds_only
    if delay == 0 and not closed_only:
        return Visibility(True, frozenset(), None)
    rows = Round.objects.filter(tournament=tournament).values_list("pk", "status", "closed_at")
    shown: set[int] = set()
    due: list[datetime] = []
    for pk, status, closed_at in rows:
        if round_visible(status, closed_at, delay_minutes=delay, closed_only=closed_only, now=now):
            shown.add(pk)
        elif status == RoundStatus.CLOSED and closed_at is not None:
            due.append(closed_at + timedelta(minutes=delay))
    return Visibility(False, frozenset(shown), min(due, default=None))
