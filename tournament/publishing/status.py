"""What the director reads about a tournament's publishing: "veröffentlicht: Stand 14:32",
"3 Änderungen warten auf eine Verbindung", the last error in words, or "nicht
veröffentlicht" (a read: two queries)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.utils import timezone
from django.utils.formats import date_format, time_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournament.models import Publication, PublishChange, Tournament

from . import config, protocol
from .publisher import SERVER_ERROR, UNREACHABLE
from .sender import MOVED

# The failures that are the link's, not the service's answer.
NO_CONNECTION = (UNREACHABLE, SERVER_ERROR)


@dataclass(frozen=True)
class Status:
    published: bool  # the service holds a state of the tournament
    text: str  # the line the director reads first
    waiting: str  # the changes not sent yet, or ""
    error: str  # the last attempt's failure in words, or ""
    url: str  # the tournament on the results service, or ""


def moment(value: datetime) -> str:
    """14:32 today, else with the date: in the site's time zone and the reader's language."""
    local = timezone.localtime(value)
    clock = time_format(local, "H:i")
    if local.date() == timezone.localdate():
        return clock
    return f"{date_format(local, 'SHORT_DATE_FORMAT')} {clock}"


def error_text(code: str, detail: str) -> str:
    """A failed attempt in words (codes: the protocol's and the publisher's own)."""
    if code == UNREACHABLE:
        return _("No connection to the results service; the laptop tries again by itself.")
    if code == SERVER_ERROR:
        return _(
            "The results service had a problem (HTTP %(status)s); the laptop tries again by itself."
        ) % {"status": detail}
    if code == protocol.BAD_KEY:
        return _(
            "The results service does not know the publishing key, or it was revoked: enter "
            "the club's current key on the page “Results service”."
        )
    if code == protocol.BAD_SIGNATURE:
        return _(
            "The results service refused the signature: check the publishing key on the page "
            "“Results service”."
        )
    if code == protocol.FOREIGN:
        return _(
            "Another club has already published this tournament on the results service; this "
            "club's key cannot change it."
        )
    if code == protocol.TOO_LARGE:
        return _("The tournament is too large for the results service.")
    if code == protocol.BAD_REQUEST:
        return _(
            "The results service did not accept the data (%(detail)s). Is Kreuzdame on this "
            "laptop up to date?"
        ) % {"detail": detail}
    if code == MOVED:
        return _(
            "The results service's address leads elsewhere (%(detail)s): enter that address "
            "on the page “Results service”."
        ) % {"detail": detail}
    if code == protocol.STALE:
        return _("The results service holds a newer state of this tournament than this laptop.")
    return _("The results service answered: %(detail)s.") % {"detail": detail or code}


def status(tournament: Tournament) -> Status:
    publication = Publication.objects.filter(tournament=tournament).first()
    if publication is not None and publication.withdrawn_at is not None:
        return _withdrawn(tournament, publication)
    if not tournament.publish_results:
        return Status(False, _("not published"), "", "", "")
    waiting_count = PublishChange.objects.filter(
        tournament=tournament, sent_at__isnull=True
    ).count()
    refused = publication is not None and publication.last_error not in ("", *NO_CONNECTION)
    if not waiting_count:
        waiting = ""
    elif refused:  # a connection exists; the service says no (the error says why)
        waiting = ngettext(
            "%(count)s change not sent yet", "%(count)s changes not sent yet", waiting_count
        ) % {"count": waiting_count}
    else:
        waiting = ngettext(
            "%(count)s change waiting for a connection",
            "%(count)s changes waiting for a connection",
            waiting_count,
        ) % {"count": waiting_count}
    error = ""
    if publication is not None and publication.last_error:
        error = error_text(publication.last_error, publication.last_error_detail)
    if publication is not None and publication.sent_snapshot_at is not None:
        text = _("published: as of %(time)s") % {"time": moment(publication.sent_snapshot_at)}
        return Status(True, text, waiting, error, publication.public_url)
    if config.target() is None:
        text = _("not published: no results service is set up")
    elif waiting:
        text, waiting = _("not published yet"), waiting
    else:
        text = _("not published yet (the first state is being prepared)")
    return Status(False, text, waiting, error, "")


def _withdrawn(tournament: Tournament, publication: Publication) -> Status:
    """Publishing switched off, or the tournament made private: its withdrawal waits, or the
    service has taken it off."""
    error = error_text(publication.last_error, publication.last_error_detail)
    if not publication.last_error:
        error = ""
    if PublishChange.objects.filter(tournament=tournament, sent_at__isnull=True).exists():
        text = _(
            "being taken off the results service: the laptop tells the service as soon as it "
            "has a connection"
        )
        waiting = ngettext(
            "%(count)s change waiting for a connection",
            "%(count)s changes waiting for a connection",
            1,
        ) % {"count": 1}
        return Status(True, text, waiting, error, publication.public_url)
    when = publication.sent_at or publication.withdrawn_at or timezone.now()
    text = _("taken off the results service (%(time)s)") % {"time": moment(when)}
    return Status(False, text, "", "", "")
