"""Directors: the online registrations of a tournament — the state of registration, who waits
for approval, who has a place, the waiting list in order, who cancelled — with approve,
decline, cancel, moving on the waiting list and accepting who a registrant says they are
(name and DDV member number: until then they bind nothing in the shared player database);
and deleting the personal data of a finished tournament's registrations."""

from django import forms
from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_POST

from ..base.site_url import public_url
from ..domain import registrations as registrations_domain
from ..domain.personal_data import forget_personal_data
from ..errors import DomainError
from ..models import RegistrationState, TournamentStatus
from ..permissions import director_required, get_managed_tournament
from ..queries import registrations as registrations_queries
from ..tasks.mail import RequestMailer


class ForgetForm(forms.Form):
    confirm = forms.BooleanField(
        label=gettext_lazy(
            "Yes, delete the e-mail addresses and personal links of this tournament's "
            "registrations."
        ),
        error_messages={"required": gettext_lazy("Tick the box to confirm the deletion.")},
    )


PHASE_LABELS = {
    registrations_queries.OFF: gettext_lazy("Online registration is off."),
    registrations_queries.NOT_YET: gettext_lazy("Online registration is not open yet."),
    registrations_queries.OPEN: gettext_lazy("Online registration is open."),
    registrations_queries.CLOSED: gettext_lazy("Online registration is closed."),
    registrations_queries.PAUSED: gettext_lazy(
        "Online registration is paused: the form says so and takes no registrations."
    ),
}


def _mark_doubles(tournament, confirmed: list) -> None:
    """Give each registration not yet accepted whose typed DDV number belongs to another
    entry of this tournament that entry as ``double``: most likely one person entered twice
    (at the desk and online, spelled differently: the same name is refused at the form), to
    be merged rather than accepted."""
    open_ = [r for r in confirmed if r.entry is not None and r.entry.player.unverified]
    if not open_:
        return
    others = tournament.entries.select_related("player").exclude(pk__in=[r.entry_id for r in open_])
    by_number = {e.player.ddv_number: e for e in others if e.player.ddv_number}
    for registration in open_:
        number = registration.ddv_number.strip()
        registration.double = by_number.get(number) if number else None


def _page(request, tournament, forget_form=None, status=200):
    registrations = tournament.registrations.select_related("entry__player").order_by("position")
    groups: dict[str, list] = {state: [] for state in RegistrationState.values}
    for registration in registrations:
        groups[registration.state].append(registration)
    _mark_doubles(tournament, groups[RegistrationState.CONFIRMED])
    closed = groups[RegistrationState.CANCELLED] + groups[RegistrationState.DECLINED]
    closed.sort(key=lambda r: r.position)
    finished = tournament.status == TournamentStatus.FINISHED
    form_path = reverse("registration-form", args=[tournament.slug])
    phase = registrations_queries.phase(tournament)
    context = {
        "tournament": tournament,
        "phase": phase,
        "phase_label": PHASE_LABELS[phase],
        "taken": registrations_queries.places_taken(tournament),
        "free": registrations_queries.places_free(tournament),
        "form_path": form_path,
        "form_url": public_url(request, form_path),
        "pending": groups[RegistrationState.PENDING],
        "confirmed": groups[RegistrationState.CONFIRMED],
        "unaccepted": sum(
            registrations_queries.needs_acceptance(r) for r in groups[RegistrationState.CONFIRMED]
        ),
        "waiting": groups[RegistrationState.WAITING],
        "closed": closed,
        # Cancelling is for before the first draw; then the players page withdraws.
        "can_cancel": not tournament.rounds.exists(),
        "finished": finished,
        "personal_data_left": any(r.personal_data_deleted_at is None for r in registrations),
        "forget_form": forget_form or ForgetForm(),
    }
    return render(request, "tournament/manage/registrations.html", context, status=status)


@director_required
def registration_list(request, slug):
    return _page(request, get_managed_tournament(request, slug))


# action -> the message after it ("%(name)s")
ACTION_MESSAGES = {
    "approve": gettext_lazy("%(name)s has a place now."),
    "decline": gettext_lazy("The registration of %(name)s is declined."),
    "cancel": gettext_lazy("The registration of %(name)s is cancelled."),
    "up": gettext_lazy("%(name)s moved up the waiting list."),
    "down": gettext_lazy("%(name)s moved down the waiting list."),
    "accept": gettext_lazy("The name and DDV member number of %(name)s are accepted."),
}


def _carry_out(request, registration, action, mail: RequestMailer):
    if action == "approve":
        return registrations_domain.approve(registration, request.user, mail=mail)
    if action == "decline":
        return registrations_domain.decline(registration, request.user, mail=mail)
    if action == "cancel":
        return registrations_domain.cancel(registration, user=request.user, mail=mail)
    if action == "accept":
        registrations_domain.accept_identity(registration, request.user)
        return registration
    return registrations_domain.move(registration, request.user, up=action == "up")


@director_required
@require_POST
def registration_action(request, slug, pk, action):
    tournament = get_managed_tournament(request, slug)
    registration = get_object_or_404(tournament.registrations, pk=pk)
    mail = RequestMailer(request)
    try:
        registration = _carry_out(request, registration, action, mail)
    except DomainError as exc:
        messages.error(request, exc.message)
        return redirect("manage:registration-list", slug=tournament.slug)
    messages.success(request, ACTION_MESSAGES[action] % {"name": registration.full_name})
    mail.report_moved_up()  # a declined or cancelled place goes to the waiting list
    return redirect("manage:registration-list", slug=tournament.slug)


@director_required
@require_POST
def registration_forget(request, slug):
    """Delete the e-mail addresses and personal links of a finished tournament's
    registrations; names, entries and results stay."""
    tournament = get_managed_tournament(request, slug)
    if tournament.status != TournamentStatus.FINISHED:
        messages.error(
            request,
            _(
                "Personal data can be deleted once the tournament is finished (all planned "
                "rounds closed): until then the players need their links."
            ),
        )
        return redirect("manage:registration-list", slug=tournament.slug)
    form = ForgetForm(request.POST)
    if not form.is_valid():
        return _page(request, tournament, forget_form=form, status=400)
    try:
        count = forget_personal_data([tournament], user=request.user)
    except DomainError as exc:
        messages.error(request, exc.message)
        return redirect("manage:registration-list", slug=tournament.slug)
    messages.success(
        request,
        ngettext(
            "The e-mail address and personal link of %(count)s registration are deleted.",
            "The e-mail addresses and personal links of %(count)s registrations are deleted.",
            count,
        )
        % {"count": count},
    )
    return redirect("manage:registration-list", slug=tournament.slug)
