"""The outbox on the laptop: each new public state of a tournament becomes a numbered
``PublishChange`` (1, 2, 3, ...), recorded only when the public digest changed.

The publisher reads the keepers' tables with plain reads (SQLite in WAL mode: no lock) and
writes only its own rows, each time in one short transaction; the archive is built and packed
before it. A keeper's save never waits for it beyond that moment.
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.db.models import Q, QuerySet

from tournament.models import Publication, PublishChange, Series, Tournament, Withdrawal

from . import config, snapshot
from .visibility import Visibility


def state_of(tournament: Tournament, visible: Visibility) -> list:
    """What a public state is built from (JSON): the tournament's version (every change to
    its data moves it), the rounds whose results may be shown, and each of its series'
    version with the public tournaments in it (the archive lists them). Two queries."""
    series = list(
        Series.objects.filter(tournaments=tournament).order_by("pk").values_list("pk", "version")
    )
    links = Series.tournaments.through.objects.filter(
        series_id__in=[pk for pk, _version in series], tournament__is_public=True
    ).values_list("series_id", "tournament_id")
    members: dict[int, list[int]] = {}
    for series_id, tournament_id in links:
        members.setdefault(series_id, []).append(tournament_id)
    return [
        tournament.version,
        visible.state(),
        [[pk, version, sorted(members.get(pk, []))] for pk, version in series],
    ]


def current_version(tournament: Tournament) -> int | None:
    return Tournament.objects.filter(pk=tournament.pk).values_list("version", flat=True).first()


def record(
    tournament: Tournament, doc: dict, digest: str, state: list, visible: Visibility, now: datetime
) -> PublishChange:
    """Queue ``doc`` as the tournament's next state. Older changes not sent yet are
    superseded (a change is the whole state): their bodies go, their rows stay counted."""
    body = snapshot.pack(doc)
    with transaction.atomic():
        publication, _created = Publication.objects.get_or_create(tournament=tournament)
        sequence = publication.sequence + 1
        PublishChange.objects.filter(tournament=tournament, sent_at__isnull=True).update(body=b"")
        change = PublishChange.objects.create(
            tournament=tournament, sequence=sequence, created_at=now, digest=digest, body=body
        )
        # Only the fields the publisher owns: a director's "send now" (next_try_at) stays.
        Publication.objects.filter(pk=publication.pk).update(
            sequence=sequence,
            digest=digest,
            built_state=state,
            built_at=now,
            due_at=visible.due_at,
            withdrawn_at=None,
        )
    return change


def left_the_laptop(publication: Publication) -> bool:
    """Whether a state of the tournament may be on the service: one was accepted, or one was
    sent at least once (its answer may have been lost). A tournament whose states never left
    (no service set up yet) has nothing to take off."""
    return publication.sequence > 0 and (publication.sent_sequence > 0 or publication.attempts > 0)


def to_withdraw() -> QuerySet[Tournament]:
    """The tournaments the service holds (or may hold) a state of that are no longer to be
    published (publishing switched off, or not public), whose withdrawal is not recorded yet
    or not confirmed yet."""
    return (
        Tournament.objects.filter(publication__sequence__gt=0)
        .filter(Q(publication__sent_sequence__gt=0) | Q(publication__attempts__gt=0))
        .exclude(publish_results=True, is_public=True)
        .filter(
            Q(publication__withdrawn_at__isnull=True) | Q(publish_changes__sent_at__isnull=True)
        )
        .distinct()
        .order_by("pk")
    )


def withdraw(tournament: Tournament, now: datetime) -> PublishChange | None:
    """Queue the withdrawal of ``tournament`` (snapshot.withdrawal) as its next change, once:
    None when it is queued already. It supersedes the waiting changes like any newer state."""
    doc = snapshot.withdrawal(tournament, now)
    body = snapshot.pack(doc)
    with transaction.atomic():
        publication = Publication.objects.filter(tournament=tournament).first()
        if publication is None or not left_the_laptop(publication) or publication.withdrawn_at:
            return None
        sequence = publication.sequence + 1
        PublishChange.objects.filter(tournament=tournament, sent_at__isnull=True).update(body=b"")
        change = PublishChange.objects.create(
            tournament=tournament,
            sequence=sequence,
            created_at=now,
            digest=snapshot.digest(doc),
            body=body,
        )
        # The state built is forgotten: published again, the tournament is built anew.
        Publication.objects.filter(pk=publication.pk).update(
            sequence=sequence, digest="", built_state=[], withdrawn_at=now, due_at=None
        )
    return change


def withdraw_deleted(tournament: Tournament, now: datetime) -> Withdrawal | None:
    """``tournament`` is being deleted: if the service holds (or may hold) a state of it that
    its withdrawal has not replaced yet, the withdrawal is recorded in a row that outlives it.
    Called inside the deleting transaction, before the tournament's rows go."""
    publication = Publication.objects.filter(tournament=tournament).first()
    if publication is None or not left_the_laptop(publication):
        return None
    change = pending(tournament)
    if publication.withdrawn_at is not None:
        if change is None:
            return None  # taken off already, and the service confirmed it
        sequence, body = change.sequence, bytes(change.body)
    else:
        sequence = publication.sequence + 1
        body = snapshot.pack(snapshot.withdrawal(tournament, now))
    Withdrawal.objects.filter(uid=tournament.uid).delete()  # the same file imported again
    return Withdrawal.objects.create(
        uid=tournament.uid,
        name=tournament.name[:200],
        sequence=sequence,
        created_at=now,
        body=body,
        # A pause after failed attempts goes on; a service that refused waits for none.
        next_try_at=publication.next_try_at,
        attempts=publication.attempts,
    )


def pending(tournament: Tournament) -> PublishChange | None:
    """The newest change the service has not accepted: the one to send."""
    return (
        PublishChange.objects.filter(tournament=tournament, sent_at__isnull=True)
        .order_by("-sequence")
        .first()
    )


def accepted(publication: Publication, change: PublishChange, url: str, now: datetime) -> None:
    """The service holds ``change``: it and every older one count as sent; the older rows are
    no use any more."""
    tournament_id = publication.tournament_id
    with transaction.atomic():
        PublishChange.objects.filter(
            tournament_id=tournament_id, sequence__lt=change.sequence
        ).delete()
        PublishChange.objects.filter(pk=change.pk).update(sent_at=now, body=b"")
        Publication.objects.filter(pk=publication.pk).update(
            sent_sequence=change.sequence,
            sent_at=now,
            sent_snapshot_at=change.created_at,
            # Shown as a link to the director: an http(s) address only.
            public_url=url[:500] if config.valid_url(url) else "",
            last_error="",
            last_error_detail="",
            attempts=0,
            next_try_at=None,
        )


def renumber(publication: Publication, change: PublishChange, held: int) -> PublishChange:
    """The service holds sequence ``held``, at or above ours (a backup brought back on this
    laptop, or another laptop went on): the laptop's numbering continues above it."""
    sequence = held + 1
    with transaction.atomic():
        PublishChange.objects.filter(pk=change.pk).update(sequence=sequence)
        Publication.objects.filter(pk=publication.pk).update(sequence=sequence)
    change.sequence = sequence
    return change


def failed(
    publication: Publication, code: str, detail: str, *, attempts: int, retry_at: datetime
) -> None:
    Publication.objects.filter(pk=publication.pk).update(
        last_error=code[:40],
        last_error_detail=detail[:300],
        attempts=attempts,
        next_try_at=retry_at,
    )


def withdrawal_accepted(withdrawal: Withdrawal) -> None:
    """The service has hidden the deleted tournament: nothing more is sent for it."""
    Withdrawal.objects.filter(pk=withdrawal.pk, sequence=withdrawal.sequence).delete()


def withdrawal_renumbered(withdrawal: Withdrawal, held: int) -> None:
    withdrawal.sequence = held + 1
    Withdrawal.objects.filter(pk=withdrawal.pk).update(sequence=withdrawal.sequence)


def withdrawal_failed(
    withdrawal: Withdrawal, code: str, detail: str, *, attempts: int, retry_at: datetime
) -> None:
    Withdrawal.objects.filter(pk=withdrawal.pk).update(
        last_error=code[:40],
        last_error_detail=detail[:300],
        attempts=attempts,
        next_try_at=retry_at,
    )
