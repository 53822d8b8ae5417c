"""Messages to players who registered online, in their language, queued once the change that
causes them is committed (a rolled-back registration sends nothing) and sent by the background
worker (``manage.py worker``, queue ``mail``): a request never waits for the mail server, so
"send my link again" answers in the same time for a known address and an unknown one (the
request only queues; the worker looks the address up).

At most ``MAILS_PER_ADDRESS`` messages go to one address per hour, whatever asked for them:
beyond that they are dropped and logged (the personal page says what the mail would have
said). "Send my link again" sends one message with every link of the address.

Django's mail: the console backend unless ``EMAIL_HOST`` is set (see settings); tests read
``django.core.mail.outbox``. A message that cannot be delivered is logged, never shown to the
player as an error: their registration is saved, and the personal page says what the mail
would have said.
"""

import logging
from functools import partial

from django.conf import settings
from django.contrib import messages
from django.core.mail import send_mail
from django.db import transaction
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.crypto import salted_hmac
from django.utils.translation import gettext as _
from django_tasks import task

from ..base import ratelimit
from ..base.site_url import public_url
from ..models import (
    Registration,
    RegistrationState,
    Round,
    RoundStatus,
    Seat,
    SeatMail,
    TournamentStatus,
)
from ..queries.registrations import waiting_position

log = logging.getLogger(__name__)

KINDS = ("registered", "moved-up", "confirmed", "declined", "cancelled", "link")
MAIL_WINDOW = 3600  # seconds: the cap on messages per address counts per hour


# Backends that keep the message on the server: printed, written to files, or dropped.
LOCAL_BACKENDS = ("console.EmailBackend", "filebased.EmailBackend", "dummy.EmailBackend")


def leaves_server() -> bool:
    """False when no mail server is set up (no EMAIL_HOST): messages are only printed in the
    server's terminal."""
    return not settings.EMAIL_BACKEND.endswith(LOCAL_BACKENDS)


def address_key(email: str) -> str:
    """A stable key of an e-mail address for the limits (every spelling of its case alike):
    a keyed hash, so that the table of counters holds no addresses."""
    return salted_hmac("tournament.mail.address", email.strip().casefold()).hexdigest()[:40]


def _within_cap(email: str) -> bool:
    """Count one message to ``email``; False when the address had its share this hour."""
    slot = ratelimit.take(f"mail:{address_key(email)}", settings.MAILS_PER_ADDRESS, MAIL_WINDOW)
    return slot.wait is None


def _subject(kind: str, registration: Registration) -> str:
    name = registration.tournament.name
    subjects = {
        "registered": _("Your registration for %(tournament)s"),
        "moved-up": _("A place for you at %(tournament)s"),
        "confirmed": _("Registration confirmed: %(tournament)s"),
        "declined": _("Your registration for %(tournament)s was declined"),
        "cancelled": _("Registration cancelled: %(tournament)s"),
        "link": _("Your personal link for %(tournament)s"),
    }
    if kind == "moved-up" and registration.state != "confirmed":  # awaiting approval
        return _("Moved up from the waiting list: %(tournament)s") % {"tournament": name}
    return subjects[kind] % {"tournament": name}


def personal_url(request: HttpRequest | None, registration: Registration) -> str:
    return public_url(request, reverse("registration-personal", args=[registration.token]))


def site_base(request: HttpRequest | None) -> str:
    """The site's address without the final "/", for links the worker builds."""
    return public_url(request, "/").rstrip("/")


def deliver(registration: Registration, kind: str, link: str) -> None:
    """Render and send message ``kind`` now, in the registration's language (the worker's
    part; also for commands). Dropped beyond the cap of messages per address."""

    if kind not in KINDS:
        raise ValueError(kind)
    registration = Registration.objects.select_related("tournament", "entry").get(
        pk=registration.pk
    )
    if not registration.email:
        return
    if not _within_cap(registration.email):
        log.warning("mail cap reached: %s to registration %s not sent", kind, registration.pk)
        return
    with translation.override(registration.language):
        context = {
            "kind": kind,
            "registration": registration,
            "tournament": registration.tournament,
            "position": waiting_position(registration),
            "link": link,
        }
        subject = _subject(kind, registration)
        body = render_to_string("registration/mail/message.txt", context)
    try:
        send_mail(subject, body, None, [registration.email])
    except OSError:
        log.exception("could not send %s to registration %s", kind, registration.pk)


@task(queue_name="mail")
def send_message(registration_id: int, kind: str, base: str) -> None:
    """The worker sends message ``kind`` to a registration, its link under the site's address
    ``base`` (gone meanwhile, or its personal data deleted: nothing)."""
    registration = Registration.objects.filter(pk=registration_id).first()
    if registration is not None and registration.token:
        link = base + reverse("registration-personal", args=[registration.token])
        deliver(registration, kind, link)


def queue_message(registration: Registration, kind: str, base: str) -> None:
    """Queue message ``kind`` for the worker once the current transaction commits. The queue
    (a table of the database) holds the registration's number, never its secret link."""
    if kind not in KINDS:
        raise ValueError(kind)
    transaction.on_commit(partial(send_message.enqueue, registration.pk, kind, base))


def links_of(email: str) -> list[Registration]:
    """The registrations with this address whose tournament is not finished and whose link
    still works, the newest first."""
    found = (
        Registration.objects.filter(email__iexact=email.strip(), token__isnull=False)
        .select_related("tournament")
        .order_by("-pk")
    )
    return [r for r in found if r.tournament.status != TournamentStatus.FINISHED]


@task(queue_name="mail")
def send_links(email: str, base: str, language: str) -> None:
    """ "Send my link again", the worker's part: one message with every link of the address,
    in the language of its newest registration; nothing for an unknown address."""
    registrations = links_of(email)
    if not registrations:
        return
    if not _within_cap(email):
        log.warning("mail cap reached: links not sent")
        return
    path = partial(reverse, "registration-personal")
    links = [(r, base + path(args=[r.token])) for r in registrations]
    with translation.override(registrations[0].language or language):
        subject = _("Your personal links")
        if len(links) == 1:
            subject = _subject("link", registrations[0])
        body = render_to_string("registration/mail/links.txt", {"links": links})
    try:
        send_mail(subject, body, None, [registrations[0].email])
    except OSError:
        log.exception("could not send the links of registration %s", registrations[0].pk)


def queue_links(request: HttpRequest, email: str) -> None:
    """Queue "send my link again" for ``email``: the same single write whether the address is
    known or not (the worker looks it up)."""
    language = translation.get_language() or settings.LANGUAGE_CODE
    base = site_base(request)
    transaction.on_commit(partial(send_links.enqueue, email.strip(), base, language))


class RequestMailer:
    """The :class:`~tournament.domain.registrations.Mailer` of a page: links are built from the
    request (or ``SITE_URL``), messages go out after the commit. Without a request (a
    command) and without ``SITE_URL`` there is no link to give: nothing is sent, and
    ``moved_up`` still says who moved up."""

    def __init__(self, request: HttpRequest | None):
        self.request = request
        self.moved_up: list[Registration] = []

    @property
    def sends(self) -> bool:
        return self.request is not None or bool(settings.SITE_URL)

    def send(self, registration: Registration, kind: str) -> None:
        if kind == "moved-up":
            self.moved_up.append(registration)
        if not registration.token or not self.sends:
            return
        queue_message(registration, kind, site_base(self.request))

    def seats(self, round_: Round) -> None:
        """The seats of a round just released, to its players with an e-mail address."""
        if self.sends:
            queue_seats(self.request, round_)

    def report_moved_up(self) -> None:
        """Tell the director on the next page who moved up from the waiting list."""
        if self.moved_up and self.request is not None:
            names = ", ".join(r.full_name for r in self.moved_up)
            messages.info(
                self.request, _("Moved up from the waiting list: %(names)s.") % {"names": names}
            )


# --- the seat of a released round ----------------------------------------------------------


def _seat_lines(seat: Seat, seats: list[Seat]) -> list[str]:
    """The table in the mail: position and name of each seat, the others named as the public
    pages name them (without their consent: "Player 17"), the list keeper marked."""
    keeper = max(s.position for s in seats)
    lines = []
    for other in seats:
        name = other.entry.player.full_name if other.pk == seat.pk else other.entry.public_name
        mark = ""
        if other.pk == seat.pk:
            mark = " (" + _("you") + ")"
        if other.position == keeper:
            mark += " · " + _("keeps the list")
        lines.append(f"{other.position}. {name}{mark}")
    return lines


@task(queue_name="mail")
def send_seats(round_id: int, base: str) -> None:
    """The worker mails every player of a released round who registered with an e-mail
    address their table and position, with the link to their page; only those whose seat
    differs from what they were told before for this round (a round released again mails
    only the changed seats, and a task run twice nobody twice)."""
    round_ = Round.objects.select_related("tournament").filter(pk=round_id).first()
    if round_ is None or round_.status != RoundStatus.RELEASED or not leaves_server():
        return
    seats = list(
        Seat.objects.filter(round=round_)
        .select_related("table", "entry__player", "entry__registration")
        .order_by("table__number", "position")
    )
    told = {m.entry_id: (m.table_number, m.position) for m in SeatMail.objects.filter(round=round_)}
    by_table: dict[int, list[Seat]] = {}
    for seat in seats:
        by_table.setdefault(seat.table_id, []).append(seat)
    for seat in seats:
        registration = getattr(seat.entry, "registration", None)
        if (
            registration is None
            or not registration.email
            or not registration.token
            or registration.state != RegistrationState.CONFIRMED
            or told.get(seat.entry_id) == (seat.table.number, seat.position)
        ):
            continue
        link = base + reverse("registration-personal", args=[registration.token])
        if _send_seat(registration, round_, seat, by_table[seat.table_id], link):
            SeatMail.objects.update_or_create(
                round=round_,
                entry_id=seat.entry_id,
                defaults={"table_number": seat.table.number, "position": seat.position},
            )


def _send_seat(registration: Registration, round_: Round, seat: Seat, seats, link: str) -> bool:
    """Send one seat mail now; False when it was not sent (the cap, the mail server)."""
    if not _within_cap(registration.email):
        log.warning("mail cap reached: seat to registration %s not sent", registration.pk)
        return False
    with translation.override(registration.language):
        context = {
            "registration": registration,
            "tournament": round_.tournament,
            "round": round_,
            "seat": seat,
            "lines": _seat_lines(seat, seats),
            "link": link,
        }
        subject = _("Round %(round)s: table %(table)s, position %(position)s") % {
            "round": round_.number,
            "table": seat.table.number,
            "position": seat.position,
        }
        body = render_to_string("registration/mail/seat.txt", context)
    try:
        send_mail(subject, body, None, [registration.email])
    except OSError:
        log.exception("could not send the seat to registration %s", registration.pk)
        return False
    return True


def queue_seats(request: HttpRequest | None, round_: Round) -> None:
    """Queue the seat mails of ``round_`` just released, once the release commits; nothing
    without a mail server (nobody would receive them) or without an address for the links.
    The queue holds the round's number only; the worker reads the seats and addresses."""
    if not leaves_server() or (request is None and not settings.SITE_URL):
        return
    transaction.on_commit(partial(send_seats.enqueue, round_.pk, site_base(request)))
