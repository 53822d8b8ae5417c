"""The publisher: one pass collects every opted-in tournament's public state into the outbox
and sends what is pending (``manage.py publisher`` runs passes in a loop; ``--once`` one).

Sending: only the newest pending change of a tournament (it is the whole state and supersedes
the older ones). The service's answer decides:

* 200: that change and every older one are sent;
* no connection, 5xx, 429: again after a pause that doubles from 2 s up to 5 minutes
  (deterministic: ``backoff``), so a phone's hotspot for a minute is enough;
* 401, 403, 400, 413 (and anything else): kept; the director sees the error in words, and it
  is tried again only every 15 minutes (or at once on "send now");
* 409 stale, the service holding our number or a higher one (a backup brought back on this
  laptop): the numbering continues above the service's and the change goes again at once.

A tournament no longer to be published (publishing switched off, or made private) gets one
last change, its withdrawal: the public archive of a tournament that is not public, which
hides it on the service; nothing is sent for it after the service confirmed that. A published
tournament deleted here leaves its withdrawal in a ``Withdrawal`` row (withdrawals.py), sent
the same way and removed once confirmed.

Nothing lives only in memory: a new publisher after a restart (or a cut power cable) finds
the outbox and the backoff in the database and goes on where the old one stopped.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.utils import timezone

from tournament.models import Publication, Tournament, Withdrawal

from . import config, outbox, protocol, sender, snapshot
from .visibility import visibility

logger = logging.getLogger(__name__)

FIRST_PAUSE = 2  # seconds after the first failed attempt
SLOW_PAUSE = 15 * 60  # after a refusal that a retry will not cure by itself
MIXED_TRIES = 3  # builds that saw a write meanwhile before one is taken as it is

# The error codes of a failed attempt besides the protocol's (status.py says them in words).
UNREACHABLE = "unreachable"
SERVER_ERROR = "server_error"


def backoff(attempts: int) -> float:
    """Seconds before the next try after ``attempts`` failed ones in a row: 2, 4, 8, ...,
    at most ``PUBLISH_LONGEST_PAUSE`` (5 minutes)."""
    return min(settings.PUBLISH_LONGEST_PAUSE, FIRST_PAUSE * 2 ** max(0, attempts - 1))


class Publisher:
    def __init__(self, *, clock: Callable[[], datetime] = timezone.now) -> None:
        self.clock = clock
        # Per tournament: the state last built and when, so that a state built again with the
        # same digest (a game saved into an unconfirmed sheet) writes nothing.
        self._built: dict[int, tuple[list | None, datetime]] = {}
        self._mixed: dict[int, int] = {}  # builds in a row that saw a write meanwhile
        self._target: tuple[str, str] | None = None

    def run_once(self) -> bool:
        """One pass over the opted-in tournaments; False when no service is set up."""
        target = config.target()
        if target is None:
            return False
        if (target.url, target.key.key_id) != self._target:
            # Another service or key: every tournament's state is built (and sent) anew.
            self._target = (target.url, target.key.key_id)
            self._built.clear()
        opted_in = Tournament.objects.filter(publish_results=True, is_public=True)
        for tournament in opted_in.order_by("pk"):
            try:
                self.collect(tournament)
                self.send(tournament, target)
            except Exception:  # one tournament's bug must not stop the others' publishing
                logger.exception("publishing tournament %s failed", tournament.pk)
        for tournament in outbox.to_withdraw():
            try:
                self._built.pop(tournament.pk, None)
                outbox.withdraw(tournament, self.clock())
                self.send(tournament, target)
            except Exception:
                logger.exception("withdrawing tournament %s failed", tournament.pk)
        for withdrawal in Withdrawal.objects.order_by("pk"):
            try:
                self.send_withdrawal(withdrawal, target)
            except Exception:
                logger.exception("withdrawing deleted tournament %s failed", withdrawal.uid)
        return True

    def collect(self, tournament: Tournament) -> bool:
        """Queue the tournament's public state if it changed; True when a change was
        recorded."""
        now = self.clock()
        visible = visibility(tournament, now)
        state = outbox.state_of(tournament, visible)
        remembered = self._built.get(tournament.pk)
        if remembered is not None:
            if remembered[0] == state:
                return False
            if now - remembered[1] < timedelta(seconds=settings.PUBLISH_MIN_INTERVAL):
                return False  # built a moment ago: the next pass takes this change in
        publication = Publication.objects.filter(tournament=tournament).first()
        if publication is not None and publication.built_state == state:
            self._built[tournament.pk] = (state, now)
            return False
        doc = snapshot.build(tournament, visible, now)
        if outbox.current_version(tournament) != tournament.version:
            # Written to while it was read: perhaps half a keeper's save. Built again after
            # the interval; under a constant stream of saves it is taken after a few tries
            # anyway: it is recorded as built from the version before, so the next quiet
            # moment builds and sends the state after it.
            mixed = self._mixed.get(tournament.pk, 0) + 1
            if mixed < MIXED_TRIES:
                self._mixed[tournament.pk] = mixed
                self._built[tournament.pk] = (None, now)
                return False
        self._mixed.pop(tournament.pk, None)
        self._built[tournament.pk] = (state, now)
        digest = snapshot.digest(doc)
        if publication is not None and publication.digest == digest:
            return False
        outbox.record(tournament, doc, digest, state, visible, now)
        return True

    def send(self, tournament: Tournament, target: config.Target, *, again: bool = True) -> None:
        """Send the tournament's newest pending change if its time has come."""
        publication = Publication.objects.filter(tournament=tournament).first()
        now = self.clock()
        if publication is None or (publication.next_try_at and now < publication.next_try_at):
            return
        change = outbox.pending(tournament)
        if change is None:
            return
        attempts = publication.attempts + 1
        outcome = self._attempt(target, str(tournament.uid), change.sequence, bytes(change.body))
        if isinstance(outcome, Accepted):
            outbox.accepted(publication, change, outcome.url, self.clock())
        elif isinstance(outcome, Behind) and again and outcome.held >= change.sequence:
            outbox.renumber(publication, change, outcome.held)
            self.send(tournament, target, again=False)
        else:
            code, detail, pause = self._failure(outcome, attempts)
            retry = now + timedelta(seconds=pause)
            outbox.failed(publication, code, detail, attempts=attempts, retry_at=retry)

    def send_withdrawal(
        self, withdrawal: Withdrawal, target: config.Target, *, again: bool = True
    ) -> None:
        """Send a deleted tournament's withdrawal if its time has come; kept until the
        service confirms it, with the same pauses and renumbering as any change."""
        now = self.clock()
        if withdrawal.next_try_at and now < withdrawal.next_try_at:
            return
        attempts = withdrawal.attempts + 1
        outcome = self._attempt(
            target, str(withdrawal.uid), withdrawal.sequence, bytes(withdrawal.body)
        )
        if isinstance(outcome, Accepted):
            outbox.withdrawal_accepted(withdrawal)
        elif isinstance(outcome, Behind) and again and outcome.held >= withdrawal.sequence:
            outbox.withdrawal_renumbered(withdrawal, outcome.held)
            self.send_withdrawal(withdrawal, target, again=False)
        else:
            code, detail, pause = self._failure(outcome, attempts)
            retry = now + timedelta(seconds=pause)
            outbox.withdrawal_failed(withdrawal, code, detail, attempts=attempts, retry_at=retry)

    def _attempt(
        self, target: config.Target, uid: str, sequence: int, body: bytes
    ) -> Accepted | Behind | sender.Answer | sender.NoConnection:
        try:
            answer = sender.post(target, uid, sequence, body, settings.PUBLISH_TIMEOUT)
        except sender.NoConnection as error:
            return error
        if answer.status == 200:
            return Accepted(str(answer.data.get("url") or ""))
        held = answer.data.get("sequence")
        stale = answer.status == 409 and answer.data.get("error") == protocol.STALE
        if stale and isinstance(held, int) and not isinstance(held, bool):
            return Behind(held, answer)
        return answer

    def _failure(
        self, outcome: Behind | sender.Answer | sender.NoConnection, attempts: int
    ) -> tuple[str, str, float]:
        """A failed attempt's code, detail and the pause before the next one."""
        if isinstance(outcome, sender.NoConnection):
            return UNREACHABLE, str(outcome), backoff(attempts)
        answer = outcome.answer if isinstance(outcome, Behind) else outcome
        if answer.status >= 500 or answer.status == 429:
            return SERVER_ERROR, str(answer.status), backoff(attempts)
        code = str(answer.data.get("error") or "")
        message = str(answer.data.get("message") or "")
        detail = message if code == sender.MOVED else f"{answer.status} {message}".strip()
        return code or f"http_{answer.status}", detail, SLOW_PAUSE


@dataclass(frozen=True)
class Accepted:
    url: str


@dataclass(frozen=True)
class Behind:
    """409 stale: the service holds sequence ``held``."""

    held: int
    answer: sender.Answer
