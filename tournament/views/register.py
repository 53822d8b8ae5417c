"""Online registration for players, no login: the public form of a tournament, the personal
page behind the link from the e-mail (see, change, cancel, "I am here", print the QR code) and
"send my link again".

The form is a public write: it is limited per network (an IPv4 address or an IPv6 /64:
``REGISTRATION_PER_ADDRESS`` in ``REGISTRATION_WINDOW``), per tournament
(``REGISTRATIONS_PER_MINUTE``, ``REGISTRATIONS_PER_HOUR``: a flood from ever new addresses),
per e-mail address (``REGISTRATIONS_PER_EMAIL_HOUR``; open registrations per address and
tournament in the domain), the director can pause it, it refuses bots that fill the honeypot,
and caps every field and refuses control characters in it. Mails are queued for the background
worker (tournament/tasks/mail.py), never sent in the request. A personal
link is a secret: its pages show that one registration only, are never cached, and unknown
links count against the address (``REGISTRATION_LINK_FAILURES``); past the limit every
personal page answers 429 until the window ends. The verbs are in
:mod:`tournament.domain.registrations`, the reads in :mod:`tournament.queries.registrations`;
the director's side of registration is :mod:`tournament.views.registrations`.
"""

from __future__ import annotations

import re
from contextlib import nullcontext
from functools import partial, wraps

from django.conf import settings
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from ..base import ratelimit
from ..domain import registrations
from ..domain.entries import check_in as check_in_by_card
from ..errors import DomainError
from ..exports.printpack import qr_svg
from ..forms.registrations import CancelForm, ChangeForm, RegisterForm, ResendForm, filled_honeypot
from ..models import Entry, EntryStatus, Registration, RegistrationState, Tournament
from ..models.registration import OPEN_STATES
from ..queries import personal as personal_domain
from ..queries import registrations as registrations_queries
from ..queries.registrations import waiting_list, waiting_position
from ..tasks.mail import RequestMailer, address_key, personal_url, queue_links

# Seconds between two refreshes of the player's day on their page (htmx: plain http, as in
# the hall).
DAY_POLL_SECONDS = 20

# A personal link is 32 URL-safe characters; anything else is not one (no database query).
TOKEN_SHAPE = re.compile(r"[A-Za-z0-9_-]{1,64}")


def _unavailable(request: HttpRequest) -> HttpResponse:
    return render(request, "tournament/register/unavailable.html", status=404)


def _address(request: HttpRequest) -> str:
    """The client's network: an IPv4 address, an IPv6 /64 (see ratelimit.network)."""
    return ratelimit.network(request)


def _count_write(request: HttpRequest, kind: str) -> int | None:
    """Count one public write of ``kind`` for the address; the seconds to wait when it is
    over ``REGISTRATION_PER_ADDRESS`` in ``REGISTRATION_WINDOW``, else None."""
    key = f"{kind}:{_address(request)}"
    limit, window = settings.REGISTRATION_PER_ADDRESS, settings.REGISTRATION_WINDOW
    return ratelimit.take(key, limit, window).wait


# What refused a registration: the network, the e-mail address or the tournament.
NETWORK, EMAIL, TOURNAMENT = "network", "email", "tournament"


def _take_signup_limits(
    request: HttpRequest, tournament: Tournament, email: str
) -> tuple[tuple[str, int] | None, list[ratelimit.Slot]]:
    """Count one registration in each of its limits; when one is over, every count is given
    back and (which limit, seconds to wait) returned, else None with the slots taken by the
    tournament's and the e-mail address's limits (given back if the registration is then
    refused: refused attempts must not use up a tournament's or somebody's address's
    share). In a hall all phones may share one address and on the internet a flood may come
    from ever new ones: the tournament's and the e-mail address's limits hold whatever the
    address."""
    limits = [
        (
            NETWORK,
            f"signup:{_address(request)}",
            settings.REGISTRATION_PER_ADDRESS,
            settings.REGISTRATION_WINDOW,
        ),
        (EMAIL, f"signup-email:{address_key(email)}", settings.REGISTRATIONS_PER_EMAIL_HOUR, 3600),
        (TOURNAMENT, f"signup-minute:{tournament.pk}", settings.REGISTRATIONS_PER_MINUTE, 60),
        (TOURNAMENT, f"signup-hour:{tournament.pk}", settings.REGISTRATIONS_PER_HOUR, 3600),
    ]
    slots = [(which, ratelimit.take(key, limit, window)) for which, key, limit, window in limits]
    over = [(which, slot.wait) for which, slot in slots if slot.wait is not None]
    if not over:
        return None, [slot for which, slot in slots if which != NETWORK]
    ratelimit.give_back(slot for _which, slot in slots)
    return (over[0][0], max(wait for _which, wait in over)), []


# --- the public form -----------------------------------------------------------------------


def _form_page(request, tournament: Tournament, form: RegisterForm, status: int = 200):
    phase = registrations_queries.phase(tournament)
    context = {
        "tournament": tournament,
        "phase": phase,
        "form": form,
        "free": registrations_queries.places_free(tournament),
        "waiting": waiting_list(tournament).count(),
    }
    return render(request, "tournament/register/form.html", context, status=status)


@require_http_methods(["GET", "POST"])
def register_form(request, slug):
    """The registration form of a public tournament with online registration switched on;
    before the opening and after the closing time it says so instead."""
    tournament = Tournament.objects.filter(
        slug=slug, is_public=True, registration_open=True
    ).first()
    if tournament is None:
        return _unavailable(request)
    if request.method != "POST":
        return _form_page(request, tournament, RegisterForm(tournament=tournament))
    if filled_honeypot(request.POST):
        # A bot: a neutral answer that teaches it nothing; nothing is written.
        return render(request, "tournament/register/refused.html", status=400)
    form = RegisterForm(request.POST, tournament=tournament)
    if form.is_valid():
        # Only what would be saved counts against the limits: a player correcting a typo,
        # or a club registering its members from one computer, is not locked out by errors.
        refused, shared = _take_signup_limits(request, tournament, form.cleaned_data["email"])
        if refused is not None:
            return _refused(request, tournament, form, *refused)
        try:
            registration = registrations.submit(
                tournament,
                form.details(),
                consent=form.consent_text,
                mail=RequestMailer(request),
            )
        except DomainError as exc:
            # Counted for the network: no free probing of names and member numbers. Not for
            # the tournament or the e-mail address: refused attempts would use up their
            # share, and anybody could block a tournament's registration with them.
            ratelimit.give_back(shared)
            form.add_error(None, exc.message)
        else:
            messages.success(
                request,
                _(
                    "Thank you for registering. We have sent you an e-mail with your personal "
                    "link: keep it to see, change or cancel your registration."
                ),
            )
            return redirect("registration-personal", registration.token)
    return _form_page(request, tournament, form, status=400)


def _refused(request, tournament: Tournament, form: RegisterForm, which: str, wait: int):
    """The answer when a limit refused a registration: the form as typed, with a message
    that says which limit and how long to wait (nothing was saved, nothing typed is lost)."""
    minutes = ratelimit.minutes_of(wait)
    if which == NETWORK:
        message = ngettext(
            "Very many registrations came from your network just now (a shared Wi-Fi counts "
            "once). Please try again in %(minutes)s minute.",
            "Very many registrations came from your network just now (a shared Wi-Fi counts "
            "once). Please try again in %(minutes)s minutes.",
            minutes,
        )
        form.add_error(None, message % {"minutes": minutes})
    elif which == EMAIL:
        message = ngettext(
            "Too many registrations with this e-mail address just now. Please try again in "
            "%(minutes)s minute.",
            "Too many registrations with this e-mail address just now. Please try again in "
            "%(minutes)s minutes.",
            minutes,
        )
        form.add_error("email", message % {"minutes": minutes})
    else:
        message = ngettext(
            "Very many registrations are arriving for this tournament just now. Please try "
            "again in %(minutes)s minute.",
            "Very many registrations are arriving for this tournament just now. Please try "
            "again in %(minutes)s minutes.",
            minutes,
        )
        form.add_error(None, message % {"minutes": minutes})
    response = _form_page(request, tournament, form, status=429)
    response["Retry-After"] = str(wait)
    return response


# --- the personal link ---------------------------------------------------------------------


def _private(response: HttpResponse) -> HttpResponse:
    """A personal page holds somebody's data and its address is their secret: never cached,
    never indexed. The site's Referrer-Policy (same-origin) already keeps the address from
    other sites; "no-referrer" would make the browser send "Origin: null" with the page's
    forms, which the CSRF check refuses."""
    response["Cache-Control"] = "private, no-store"
    response["X-Robots-Tag"] = "noindex, nofollow"
    return response


def _personal_view(view=None, *, entries: bool = False):
    """Look up the registration of the link ``token`` and call ``view(request,
    registration)`` in the registration's language (unless the visitor chose one with the
    language switcher). With ``entries``, the token may also be an entry's (the QR code of a
    player card, also for players entered at the desk): then ``view(request, None,
    entry=entry)``; the views without it send an entry's link to its page. An unknown or
    deleted link gives a friendly 404 and counts against the address; past the limit every
    personal page answers 429 until the window ends."""
    if view is None:
        return partial(_personal_view, entries=entries)

    @wraps(view)
    def wrapper(request, token, *args, **kwargs):
        registration = entry = None
        if TOKEN_SHAPE.fullmatch(token):
            registration = (
                Registration.objects.select_related("tournament", "entry__player")
                .filter(token=token)
                .first()
            )
            if registration is None:
                entry = (
                    Entry.objects.select_related("tournament", "player", "registration")
                    .filter(token=token)
                    .first()
                )
        if registration is None and entry is None:
            # Only guesses are limited: a valid link always works, also for the other phones
            # in a hall that shares one address with somebody who mistyped.
            key = f"signup-link:{_address(request)}"
            limit, window = settings.REGISTRATION_LINK_FAILURES, settings.REGISTRATION_WINDOW
            wait = ratelimit.retry_after(key, limit, window)
            if wait is not None:
                return _private(ratelimit.too_many(request, wait))
            ratelimit.hit(key, window)
            response = render(request, "tournament/register/invalid_link.html", status=404)
            if request.htmx:
                response["HX-Refresh"] = "true"  # a page polling a link renewed meanwhile
            return _private(response)
        if registration is None and not entries:
            return redirect("registration-personal", token)
        language = registration.language if registration else _entry_language(entry)
        chosen = settings.LANGUAGE_COOKIE_NAME in request.COOKIES
        with nullcontext() if chosen or not language else translation.override(language):
            if entries:
                kwargs["entry"] = entry
            response = view(request, registration, *args, **kwargs)
        return _private(response)

    return wrapper


def _entry_language(entry) -> str | None:
    """The language of an entry's page: its online registration's, else the visitor's."""
    registration = getattr(entry, "registration", None)
    return registration.language if registration is not None else None


def _personal_page(
    request,
    registration: Registration | None,
    *,
    entry: Entry | None = None,
    status: int = 200,
    cancel_form: CancelForm | None = None,
    error: str | None = None,
):
    """The player's page: the registration (on a registration's link) and, once the player
    has a start number, the day (:mod:`tournament.queries.personal`)."""
    if registration is not None:
        context = _registration_context(registration, cancel_form)
        entry = context["entry"]
        tournament = registration.tournament
    else:
        assert entry is not None
        tournament = entry.tournament
        context = {"registration": None, "tournament": tournament, "entry": entry}
    if entry is not None:
        entry.tournament = tournament
        context["day"] = personal_domain.day(entry)
    token = request.resolver_match.kwargs["token"]
    context.update(error=error, token=token, poll_seconds=DAY_POLL_SECONDS)
    if request.htmx and request.htmx.target == "day":
        if "day" not in context:  # the place was given up meanwhile: the whole page again
            response = HttpResponse(status=204)
            response["HX-Refresh"] = "true"
            return response
        return render(request, "tournament/register/_day.html", context, status=status)
    return render(request, "tournament/register/personal.html", context, status=status)


def _registration_context(registration: Registration, cancel_form: CancelForm | None) -> dict:
    tournament = registration.tournament
    entry = registration.entry
    open_ = registration.state in OPEN_STATES
    started = tournament.rounds.exists()
    return {
        "registration": registration,
        "tournament": tournament,
        "entry": entry if registration.state == RegistrationState.CONFIRMED else None,
        # The director withdrew the player on the players page.
        "withdrawn": registration.state == RegistrationState.CONFIRMED
        and entry is not None
        and entry.status != EntryStatus.ACTIVE,
        "position": waiting_position(registration),
        "waiting": waiting_list(tournament).count(),
        "can_change": open_,
        "can_cancel": open_ and not started,
        "cancel_form": cancel_form or CancelForm(),
        "cancel_open": cancel_form is not None,
        "can_register_again": registrations_queries.phase(tournament) == registrations_queries.OPEN,
        "started": started,  # nobody moves up from the waiting list any more
    }


@require_safe
@_personal_view(entries=True)
def personal(request, registration, entry=None):
    """The personal page: the registration, its state in words, what the player can do, and
    on the day their seat, code and points. It polls itself (htmx, target "day")."""
    return _personal_page(request, registration, entry=entry)


@require_http_methods(["GET", "POST"])
@_personal_view
def personal_edit(request, registration):
    if registration.state not in OPEN_STATES:
        messages.error(request, _("This registration is cancelled and cannot be changed."))
        return redirect("registration-personal", registration.token)
    lock = registrations_queries.name_lock(registration)
    team_locked = registrations_queries.team_locked(registration)
    if request.method == "POST":
        form = ChangeForm(
            request.POST, registration=registration, name_lock=lock, team_locked=team_locked
        )
        if form.is_valid():
            old_address = registration.email
            try:
                registration = registrations.change_details(registration, form.details())
            except DomainError as exc:
                form.add_error(None, exc.message)
            else:
                messages.success(request, _("Your details are saved."))
                if registration.email.casefold() != old_address.casefold():
                    # The link goes to the new address: a typo there shows at once.
                    RequestMailer(request).send(registration, "link")
                    messages.info(
                        request,
                        _("We have sent your personal link to %(email)s.")
                        % {"email": registration.email},
                    )
                return redirect("registration-personal", registration.token)
        status = 400
    else:
        form = ChangeForm(registration=registration, name_lock=lock, team_locked=team_locked)
        status = 200
    context = {"registration": registration, "tournament": registration.tournament, "form": form}
    return render(request, "tournament/register/edit.html", context, status=status)


@require_POST
@_personal_view
def personal_cancel(request, registration):
    """Cancel, after the player ticked that they mean it. The first on the waiting list moves
    up and is told by e-mail."""
    form = CancelForm(request.POST)
    if not form.is_valid():
        return _personal_page(request, registration, status=400, cancel_form=form)
    try:
        registrations.cancel(registration, mail=RequestMailer(request))
    except DomainError as exc:
        return _personal_page(request, registration, status=400, error=exc.message)
    messages.success(request, _("Your registration is cancelled. We have sent you an e-mail."))
    return redirect("registration-personal", registration.token)


@require_POST
@_personal_view(entries=True)
def personal_checkin(request, registration, entry=None):
    """ "I am here", once the director has opened check-in."""
    try:
        if registration is not None:
            registrations.check_in(registration)
        else:
            check_in_by_card(entry)
    except DomainError as exc:
        return _personal_page(request, registration, entry=entry, status=400, error=exc.message)
    return redirect("registration-personal", request.resolver_match.kwargs["token"])


@require_safe
@_personal_view
def personal_print(request, registration):
    """A page to print: the personal link as a QR code (the check-in on the day), the name
    and the tournament."""
    link = personal_url(request, registration)
    context = {
        "registration": registration,
        "tournament": registration.tournament,
        "entry": registration.entry if registration.state == RegistrationState.CONFIRMED else None,
        "link": link,
        "qr": qr_svg(link),
    }
    return render(request, "tournament/register/print.html", context)


# --- send my link again --------------------------------------------------------------------


@require_http_methods(["GET", "POST"])
def resend_link(request):
    """ "Send my link again": one e-mail with the links of every registration of the address.
    The answer is the same, in the same time, whether the address is known or not: the
    request only queues the address, the worker looks it up and sends (tournament/tasks/mail.py)."""
    if request.method != "POST":
        return render(request, "tournament/register/resend.html", {"form": ResendForm()})
    wait = _count_write(request, "signup-resend")
    if wait is not None:
        return ratelimit.too_many(request, wait)
    if filled_honeypot(request.POST):
        return render(request, "tournament/register/refused.html", status=400)
    form = ResendForm(request.POST)
    if not form.is_valid():
        return render(request, "tournament/register/resend.html", {"form": form}, status=400)
    queue_links(request, form.cleaned_data["email"])
    context = {"form": ResendForm(), "sent": True}
    return render(request, "tournament/register/resend.html", context)
