"""The service's end of publishing: a hall's signed snapshot of a tournament becomes (or
replaces) the club's replica of it.

Every refusal of tournament/publishing/protocol.py, cheapest first: an unknown or revoked key
(401) is refused on one indexed query, before anything else; a signature that does not match
(401) before the body is opened; a tournament of another club (403) and an older sequence
number (409) before the archive is unpacked. What passes is unpacked and checked outside the
write transaction; the transaction then locks the club, checks again (another publication of
the same club may have come first) and restores the archive into the replica, its series and
its published_* fields together: a reader sees the old state or the new, never half.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from django.conf import settings
from django.db import DatabaseError, IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from .. import archive as _archive
from ..errors import DomainError
from ..models import Club, PublishingKey, Tournament
from ..models.locks import lock
from ..publishing import protocol
from . import players, series
from .slugs import unique_slug

# Part A's interface (tournament/archive: unpack, digest, restore, ArchiveError), reached
# through the package so that tests can put their own in its place.
archive: Any = _archive

# The answer's code when the service asks to be sent again shortly (429 busy, 503 a database
# error such as a deadlock): the hall backs off briefly, as after a network error.
BUSY = "busy"
# The highest sequence number taken (the column is a 64-bit integer; a laptop counts 1, 2, 3).
MAX_SEQUENCE = 10**18 - 1
# What an archive may hold unzipped, as a multiple of what it may weigh zipped
# (SERVICE_MAX_ARCHIVE_BYTES), and how many JSON values: a 1,000-player field over 12
# rounds stays far below both; a file of millions of "{}" is refused before it is parsed.
CONTENT_PER_ARCHIVE = 2
MAX_VALUES = 3_000_000


@dataclass(frozen=True)
class Receipt:
    """The answer to a publishing request: an HTTP status and its JSON body."""

    status: int
    data: dict = field(default_factory=dict)


def refusal(status: int, code: str, message: str, **extra) -> Receipt:
    return Receipt(status, {"error": code, "message": message, **extra})


def usable_key(key_id: str) -> PublishingKey | None:
    """The unrevoked key ``key_id`` with its club, or None: one indexed query, so that a flood
    of made-up keys costs the service next to nothing."""
    if not protocol.valid_key_id(key_id or ""):
        return None
    return PublishingKey.objects.usable().select_related("club").filter(key_id=key_id).first()


def bad_key() -> Receipt:
    return refusal(401, protocol.BAD_KEY, _("This publishing key is unknown or revoked."))


def _stale(held: int) -> Receipt:
    return refusal(
        409,
        protocol.STALE,
        _("The service holds state %(held)s of this tournament already.") % {"held": held},
        sequence=held,
    )


def _foreign() -> Receipt:
    return refusal(
        403, protocol.FOREIGN, _("This tournament is published by another club on this service.")
    )


def _created_at(doc: dict) -> datetime:
    """The hall's time of the snapshot (the doc's "created_at"); the arrival if it has none."""
    text = doc.get("created_at")
    try:
        moment = datetime.fromisoformat(text) if isinstance(text, str) else None
    except ValueError:
        moment = None
    if moment is None:
        return timezone.now()
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def receive(
    *,
    key_id: str,
    tournament_uid: str,
    sequence: int,
    signature: str,
    body: bytes,
    absolute: Callable[[str], str] | None = None,
) -> Receipt:
    """Take (or refuse) one publication; ``absolute`` turns the replica's path into the
    address the answer gives (the request's host, or SITE_URL)."""
    key = usable_key(key_id)
    if key is None:
        return bad_key()
    if not signature.isascii():  # no signature of ours; compare_digest would raise
        return refusal(401, protocol.BAD_SIGNATURE, _("The request's signature does not match."))
    if not protocol.verify(key.secret, key_id, tournament_uid, sequence, body, signature):
        return refusal(401, protocol.BAD_SIGNATURE, _("The request's signature does not match."))
    try:
        uid = uuid.UUID(tournament_uid)
    except ValueError:
        return refusal(400, protocol.BAD_REQUEST, _("The tournament's uid is malformed."))
    if not 1 <= sequence <= MAX_SEQUENCE:
        return refusal(400, protocol.BAD_REQUEST, _("The sequence number must be 1 or more."))
    held = Tournament.objects.filter(uid=uid).values("club_id", "published_sequence").first()
    if held is not None:
        if held["club_id"] != key.club_id:
            return _foreign()
        if sequence < held["published_sequence"]:
            return _stale(held["published_sequence"])
    try:
        doc = archive.unpack(
            body,
            max_content=CONTENT_PER_ARCHIVE * settings.SERVICE_MAX_ARCHIVE_BYTES,
            max_values=MAX_VALUES,
        )
    except archive.ArchiveError as exc:
        return refusal(400, protocol.BAD_REQUEST, str(exc.message))
    if doc["profile"] != "public":
        return refusal(
            400,
            protocol.BAD_REQUEST,
            _("The service takes only a tournament's public archive, not the whole file."),
        )
    header = doc.get("tournament") if isinstance(doc.get("tournament"), dict) else {}
    if str(header.get("uid")) != str(uid):
        return refusal(
            400, protocol.BAD_REQUEST, _("The archive is of another tournament than the request.")
        )
    digest = archive.digest(doc)
    try:
        outcome = _apply_once_more_on_a_race(key.club, uid, sequence, doc, digest)
    except archive.ArchiveError as exc:
        return refusal(400, protocol.BAD_REQUEST, str(exc.message))
    except DomainError as exc:
        return refusal(400, protocol.BAD_REQUEST, str(exc.message))
    except DatabaseError:  # a deadlock, a lock's timeout, a collision twice: soon again
        return busy(503)
    if isinstance(outcome, Receipt):
        return outcome
    PublishingKey.objects.filter(pk=key.pk).update(last_used_at=timezone.now())
    replica, status = outcome
    path = reverse("tournament-public", args=[replica.slug])
    return Receipt(
        200, {"status": status, "sequence": sequence, "url": absolute(path) if absolute else path}
    )


def busy(status: int) -> Receipt:
    """Send again shortly: the lane is full (429) or the database failed for now (503)."""
    return refusal(status, BUSY, _("The service is busy; please send again shortly."))


def _apply_once_more_on_a_race(
    club: Club, uid: uuid.UUID, sequence: int, doc: dict, digest: str
) -> Receipt | tuple[Tournament, str]:
    """:func:`_apply` in a transaction; once more if it collided with another club's
    publication committed meanwhile (on PostgreSQL two clubs' publications run side by side:
    the same new tournament, or a new player with the same DDV number). The second try reads
    what the other committed: another club's tournament is then refused (403), the player
    found. A collision the second try meets as well is the archive's own (400)."""
    try:
        with transaction.atomic():
            return _apply(club, uid, sequence, doc, digest)
    except (IntegrityError, archive.ArchiveConflict):
        with transaction.atomic():
            return _apply(club, uid, sequence, doc, digest)


def _apply(
    club: Club, uid: uuid.UUID, sequence: int, doc: dict, digest: str
) -> Receipt | tuple[Tournament, str]:
    """Inside the transaction: the club locked, the checks again, then the restore."""
    lock(Club.objects.filter(pk=club.pk)).first()
    replica = lock(Tournament.objects.filter(uid=uid)).first()
    if replica is not None:
        if replica.club_id != club.pk:
            return _foreign()
        if sequence < replica.published_sequence:
            return _stale(replica.published_sequence)
        if sequence == replica.published_sequence:
            if digest == replica.published_digest:
                return replica, "unchanged"  # sent again after a lost answer
            return _stale(replica.published_sequence)
    header = doc["tournament"]
    hall_slug = header.get("slug") if isinstance(header.get("slug"), str) else ""
    before = list(replica.entries.values_list("player_id", flat=True)) if replica else []
    restored = archive.restore(
        doc,
        target=replica,
        find_player=players.player_finder(club, doc.get("players") or []),
        with_series=False,
        slug=None if replica else unique_slug(Tournament, f"{club.slug}-{hall_slug}"),
        public_only=True,
    )
    Tournament.objects.filter(pk=restored.pk).update(
        club=club,
        published_at=_created_at(doc),
        published_sequence=sequence,
        published_digest=digest,
        published_slug=hall_slug[:60],
        # Nobody registers or checks in on the service: that happens in the hall.
        registration_open=False,
        checkin_open=False,
    )
    restored.refresh_from_db()
    players.forget_unplayed(before)
    series.upsert(club, restored, doc.get("series") or [])
    return restored, "accepted"
