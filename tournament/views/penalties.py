"""The referees' side: dashboard, penalty entry with preview and signature, the list of all
penalties with their history, revocation and replacement, calls from the tables, and the
director's page for referee accounts."""

from __future__ import annotations

import uuid

from django.contrib import messages
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from ..base.site_url import public_url
from ..domain import penalties as penalty_domain
from ..domain import referees
from ..errors import DomainError
from ..exports import downloads
from ..exports.export import download
from ..forms.penalties import PenaltyForm, RefereeAccountForm, RevokeForm, facts_key, initial_for
from ..models import Penalty, PenaltyState, RefereeCall, Table
from ..models.audit import history_reason, role_label
from ..models.penalty import points_of, signed_points, state_label
from ..permissions import (
    director_required,
    get_managed_tournament,
    get_office_table,
    get_officiated_tournament,
    manages,
    official_required,
    officiated_tournaments,
)
from ..queries import sheets as reads
from ..queries.sheets import current_round
from ..sheets.display import board_rows, sheet_context
from ..wording.profile_notes import penalty_notes

RECENT = 10
STATE_FILTERS = {"signed", "draft", "revoked"}


def _penalties(tournament):
    return Penalty.objects.filter(table__round__tournament=tournament).select_related(
        "table__round", "offender__player", "referee", "revoked_by"
    )


@official_required
def referee_home(request):
    """A referee's start: their tournament's dashboard, or the list when they have several."""
    tournaments = list(officiated_tournaments(request.user).order_by("-date", "name"))
    if len(tournaments) == 1:
        return redirect("manage:referee", tournaments[0].slug)
    return render(request, "tournament/referee/home.html", {"tournaments": tournaments})


@official_required
def referee_dashboard(request, slug):
    """Tables of the current round, open questions (calls from the tables, unsigned
    penalties, sheets with errors) and the latest penalties."""
    tournament = get_officiated_tournament(request, slug)
    round_ = current_round(tournament)
    rows = board_rows(round_) if round_ else []
    calls = list(
        RefereeCall.objects.filter(table__round__tournament=tournament, handled_at__isnull=True)
        .select_related("table__round")
        .order_by("created_at")
    )
    calls_by_table: dict[int, list[RefereeCall]] = {}
    for call in calls:
        calls_by_table.setdefault(call.table_id, []).append(call)
    for row in rows:
        row["calls"] = calls_by_table.get(row["table"].pk, [])
    penalties = _penalties(tournament)
    director = manages(request.user, tournament)
    drafts = penalty_domain.drafts_to_sign(penalties, director=director)
    context = {
        "tournament": tournament,
        "round": round_,
        "rows": rows,
        "calls": calls,
        "drafts": list(drafts),
        "faulty": [row for row in rows if row["errors"]],
        "recent": list(penalties.order_by("-created_at", "-pk")[:RECENT]),
        "is_director": director,
    }
    template = "tournament/referee/dashboard.html"
    if request.htmx:
        template = "tournament/referee/_dashboard_body.html"
    return render(request, template, context)


def _form_page(request, sheet, form, *, decision=None, status=200):
    """The penalty form with the table's sheet (loaded once per request by the caller)."""
    table = sheet.table
    profile = table.round.tournament.profile
    context = sheet_context(sheet)
    context.update(
        {
            "form": form,
            "decision": decision,
            "preview_points": list(zip(sheet.seats, decision.points, strict=False))
            if decision
            else None,
            # Where the profile's points do not come from its own rule text.
            "penalty_notes": penalty_notes(profile),
            "decision_notes": penalty_notes(profile, decision.facts.category) if decision else [],
            "replacing": form.replacing,
            "is_director": manages(request.user, table.round.tournament),
        }
    )
    return render(request, "tournament/referee/penalty_form.html", context, status=status)


@official_required
def penalty_add(request, slug, number, table_number):
    """Enter a decision: the facts, then the row the rules give (preview), then sign it or
    keep it as a draft for another referee to sign."""
    table = get_office_table(request, slug, number, table_number)
    tournament = table.round.tournament
    director = manages(request.user, tournament)
    try:
        if request.method == "POST":
            done = penalty_domain.already_stored(table, _client_id(request))
            if done is not None:  # the same form again (back button, double tap)
                messages.info(request, _("This penalty has already been saved."))
                return redirect("manage:penalty-detail", slug, done.pk)
        replacing = _replacing(request, table)
    except DomainError as exc:
        messages.error(request, exc.message)
        return redirect("manage:referee", slug)
    sheet = reads.load(table)
    kwargs = {"sheet": sheet, "profile": tournament.profile, "replacing": replacing}
    if request.method != "POST":
        game = request.GET.get("spiel", "")
        if game.isdecimal() and len(game) < 3:
            number = int(game)
        else:
            number = penalty_domain.game_in_question(sheet)
        initial = initial_for(replacing) if replacing else {"game_number": number}
        return _form_page(request, sheet, PenaltyForm(initial=initial, **kwargs))
    form = PenaltyForm(request.POST, **kwargs)
    if not form.is_valid():
        return _form_page(request, sheet, form, status=422)
    facts = form.facts()
    try:
        decision = penalty_domain.check(table, facts, director=director, replacing=replacing)
    except DomainError as exc:
        form.add_error(None, exc.message)
        return _form_page(request, sheet, form, status=422)
    action = request.POST.get("action")
    key = facts_key(decision.facts, decision.points)
    if action not in ("sign", "draft") or form.cleaned_data.get("previewed") != key:
        # First the row, then the signature: the referee signs what they have seen.
        data = request.POST.copy()
        data["previewed"] = key
        form = PenaltyForm(data, **kwargs)
        form.is_valid()
        if action in ("sign", "draft"):
            messages.warning(request, _("The facts changed: check the row again, then sign."))
        return _form_page(request, sheet, form, decision=decision)
    try:
        penalty = penalty_domain.enter(
            table,
            facts,
            request.user,
            sign=action == "sign",
            director=director,
            replaces=replacing,
            revoke_reason=form.cleaned_data.get("revoke_reason") or "",
            client_id=form.cleaned_data.get("client_id"),
        )
    except DomainError as exc:
        form.add_error(None, exc.message)
        return _form_page(request, sheet, form, status=422)
    if penalty.is_signed:
        messages.success(
            request,
            _("Penalty signed: %(points)s. It is on the table's sheet and counts in the standings.")
            % {"points": signed_points(penalty.points)},
        )
    else:
        messages.success(request, _("Penalty saved unsigned: it counts once a referee signs it."))
    return redirect("manage:penalty-detail", slug, penalty.pk)


def _client_id(request) -> uuid.UUID | None:
    try:
        return uuid.UUID(request.POST.get("client_id", ""))
    except ValueError:
        return None


def _replacing(request, table: Table) -> Penalty | None:
    raw = request.POST.get("replaces") or request.GET.get("ersetzt")
    if not raw:
        return None
    if not str(raw).isdecimal():
        raise Http404
    penalty = get_object_or_404(Penalty, pk=int(raw), table=table)
    penalty_domain.may_replace(penalty)
    return penalty


@official_required
def penalty_list(request, slug):
    """Every penalty of the tournament: who, when, table, game, category, points, referee,
    reason, state."""
    tournament = get_officiated_tournament(request, slug)
    penalties = _penalties(tournament).order_by("-created_at", "-pk")
    state = request.GET.get("state", "")
    if state == "signed":
        penalties = penalties.counting()
    elif state == "draft":
        penalties = penalties.filter(signed_at__isnull=True, revoked_at__isnull=True)
    elif state == "revoked":
        penalties = penalties.filter(revoked_at__isnull=False)
    else:
        state = ""
    context = {
        "tournament": tournament,
        "penalties": list(penalties),
        "state": state,
        "states": PenaltyState.choices,
        "is_director": manages(request.user, tournament),
    }
    return render(request, "tournament/referee/penalty_list.html", context)


@official_required
def penalty_export(request, slug):
    tournament = get_officiated_tournament(request, slug)
    return download(downloads.penalties(tournament), private=True)


@official_required
def penalty_detail(request, slug, pk):
    """One penalty: the facts, the row, who signed and when, and every change."""
    tournament = get_officiated_tournament(request, slug)
    penalty = get_object_or_404(_penalties(tournament).select_related("entered_by"), pk=pk)
    records = list(
        Penalty.history.filter(id=penalty.pk)
        .select_related("history_user")
        .order_by("history_date", "history_id")
    )
    seats = {s.position: s for s in penalty.table.seats.select_related("entry__player")}
    earlier = (
        _penalties(tournament)
        .filter(offender=penalty.offender)
        .exclude(pk=penalty.pk)
        .order_by("created_at")
    )
    director = manages(request.user, tournament)
    context = {
        "tournament": tournament,
        "penalty": penalty,
        "row": [(seats.get(p), v) for p, v in enumerate(penalty.points, start=1)],
        "records": [
            (
                r,
                state_label(r),
                signed_points(points_of(r)),
                role_label(r.history_role),
                history_reason(r),
            )
            for r in records
        ],
        "earlier": earlier,
        "revoke_form": RevokeForm(),
        "replaced_by": Penalty.objects.filter(replaces=penalty).first(),
        "is_director": director,
        "writable": penalty_domain.writable(penalty.table.round, director=director),
    }
    return render(request, "tournament/referee/penalty_detail.html", context)


@official_required
@require_POST
def penalty_action(request, slug, pk, action):
    """Sign a draft, or revoke a penalty (with a reason)."""
    tournament = get_officiated_tournament(request, slug)
    penalty = get_object_or_404(_penalties(tournament), pk=pk)
    director = manages(request.user, tournament)
    try:
        if action == "sign":
            penalty_domain.sign(penalty, request.user, director=director)
            messages.success(request, _("Penalty signed: it counts now."))
        else:
            form = RevokeForm(request.POST)
            if not form.is_valid():
                raise DomainError(_("Revoking a penalty needs a reason."))
            reason = form.cleaned_data["reason"]
            penalty_domain.revoke(penalty, request.user, reason, director=director)
            messages.success(request, _("Penalty revoked: it no longer counts."))
    except DomainError as exc:
        messages.error(request, exc.message)
    return redirect("manage:penalty-detail", slug, pk)


@official_required
@require_POST
def call_done(request, slug, pk):
    """A referee has dealt with a table's call."""
    tournament = get_officiated_tournament(request, slug)
    call = get_object_or_404(RefereeCall, pk=pk, table__round__tournament=tournament)
    try:
        call = referees.handle_call(call, request.user)
    except DomainError as exc:
        messages.info(request, exc.message)
        return redirect("manage:referee", slug)
    messages.success(request, _("Call from table %(table)s done.") % {"table": call.table.number})
    return redirect("manage:referee", slug)


@director_required
def referee_accounts(request, slug):
    """The tournament's referees: add an existing account or create one, remove one."""
    tournament = get_managed_tournament(request, slug)
    form = RefereeAccountForm()
    if request.method == "POST":
        if request.POST.get("remove"):
            _remove_referee(request, tournament)
            return redirect("manage:referees", slug)
        form = RefereeAccountForm(request.POST)
        try:
            user = _add_referee(request, tournament, form) if form.is_valid() else None
        except DomainError as exc:  # the account changed since the form looked at it
            form.add_error("username", str(exc))
            user = None
        if user is not None:
            messages.success(
                request,
                _("%(name)s is a referee of this tournament now.")
                % {"name": user.get_full_name() or user.get_username()},
            )
            if form.existing is not None and form.cleaned_data.get("password"):
                messages.info(
                    request,
                    _("The account existed already: its password and name stay as they were."),
                )
            return redirect("manage:referees", slug)
    context = {
        "tournament": tournament,
        "referees": tournament.referees.order_by("username"),
        "form": form,
        "login_url": public_url(request, reverse("login")),
    }
    return render(
        request,
        "tournament/referee/accounts.html",
        context,
        status=422 if form.errors else 200,
    )


def _add_referee(request, tournament, form):
    data = form.cleaned_data
    account = form.existing or referees.NewAccount(
        username=data["username"],
        password=data["password"],
        first_name=data.get("first_name", ""),
        last_name=data.get("last_name", ""),
    )
    return referees.add_referee(tournament, account, request.user)


def _remove_referee(request, tournament) -> None:
    raw = request.POST.get("remove", "")
    user = tournament.referees.filter(pk=int(raw)).first() if raw.isdecimal() else None
    try:
        if user is None:
            raise DomainError(_("This account is not a referee of the tournament."))
        referees.remove_referee(tournament, user, request.user)
    except DomainError as exc:
        messages.error(request, exc.message)
        return
    messages.success(
        request,
        _("%(name)s is no longer a referee of this tournament.")
        % {"name": user.get_full_name() or user.get_username()},
    )
