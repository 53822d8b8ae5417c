"""Messages to players who registered online, in their language, sent once the change that
causes them is committed (a rolled-back registration sends nothing).

Django's mail: the console backend unless ``EMAIL_HOST`` is set (see settings); tests read
``django.core.mail.outbox``. A message that cannot be delivered is logged, never shown to the
player as an error: their registration is saved, and the personal page says what the mail
would have said.
"""

import logging

from django.conf import settings
from django.contrib import messages
from django.core.mail import send_mail
from django.db import transaction
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _

from .models import Registration
from .site_url import public_url

log = logging.getLogger(__name__)

KINDS = ("registered", "moved-up", "confirmed", "declined", "cancelled", "link")


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


def deliver(registration: Registration, kind: str, link: str) -> None:
    """Render and send message ``kind`` now, in the registration's language."""
    from .domain.signup import waiting_position

    if kind not in KINDS:
        raise ValueError(kind)
    registration = Registration.objects.select_related("tournament", "entry").get(
        pk=registration.pk
    )
    if not registration.email:
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


class RequestMailer:
    """The :class:`~tournament.domain.signup.Mailer` of a page: links are built from the
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
        link = personal_url(self.request, registration)
        transaction.on_commit(lambda: deliver(registration, kind, link))

    def report_moved_up(self) -> None:
        """Tell the director on the next page who moved up from the waiting list."""
        if self.moved_up and self.request is not None:
            names = ", ".join(r.full_name for r in self.moved_up)
            messages.info(
                self.request, _("Moved up from the waiting list: %(names)s.") % {"names": names}
            )
