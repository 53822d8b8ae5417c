"""Directors: the entry list, adding and correcting players, withdrawing, re-admitting,
check-in (one by one, by start number, all at once, and opening check-in by personal link),
entry fees and the treasurer's list.

The players page keeps itself up to date: its counts, fee sums, the list of players still
missing and the table are asked for again every few seconds (htmx, see ``_players_live.html``)
and sent only when something in them changed: of the table, only the rows that changed
(``tournament/web/live_rows.py``). The add form and the fast check-in field are
never replaced, so that typing is not disturbed."""

from django.contrib import messages
from django.db.models import Count, Exists, OuterRef, Q
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_POST
from django_tables2 import RequestConfig

from scoring.penalties import Category

from ..domain.entries import (
    EntryAttributes,
    check_in_all,
    check_in_number,
    edit_entry,
    register,
    set_checked_in,
    set_status,
    start_number_locked,
)
from ..domain.fees import set_fee
from ..domain.registrations import after_places_changed
from ..domain.tournaments import update_tournament
from ..errors import DomainError
from ..exports import downloads
from ..exports.export import download
from ..forms import EntryForm
from ..forms.players import EntryEditForm, QuickCheckinForm
from ..forms.wishes import MESSAGE_TAG, ApartGroupForm
from ..listings.filters import EntryFilter
from ..listings.tables import EntryTable
from ..models import EntryStatus, FeeStatus, Registration
from ..models.audit import event, history_reason
from ..permissions import changeable_players, director_required, get_managed_tournament
from ..queries.fees import fee_sums, shows_fees
from ..queries.players import PlayerData
from ..queries.wishes import seat_wishes
from ..tasks.mail import RequestMailer
from ..web import live_rows

# After a fast check-in without JavaScript: the page comes back with the field focused and
# an undo button for the player just checked in.
QUICK_FOCUS, QUICK_UNDO = "quick-checkin-focus", "quick-checkin-undo"
# The live part of the players page sends what it shows in this header; the same state
# again is answered with 204 (nothing to swap), see ``_entry_page``.
LIVE_STATE_HEADER = "X-Players-State"


def _counts(tournament) -> dict:
    counts = tournament.entries.aggregate(
        active=Count("pk", filter=Q(status=EntryStatus.ACTIVE)),
        checked_in=Count("pk", filter=Q(status=EntryStatus.ACTIVE, checked_in=True)),
    )
    counts["waiting"] = counts["active"] - counts["checked_in"]
    return counts


def _live(tournament) -> dict:
    """What the live part of the page shows besides the table: the counts, the fee sums and,
    once check-in is under way (somebody checked in, or check-in by link is open), the active
    players still missing."""
    counts = _counts(tournament)
    shown = bool(counts["checked_in"] or tournament.checkin_open)
    missing = (
        tournament.entries.filter(status=EntryStatus.ACTIVE, checked_in=False)
        .order_by("start_number")
        .values_list("start_number", "player__first_name", "player__last_name")
        if shown
        else []
    )
    return {
        "counts": counts,
        # Withdrawing means another thing once the first round is drawn (the rows say it).
        "begun": start_number_locked(tournament),
        "fees": fee_sums(tournament) if shows_fees(tournament) else None,
        "missing_shown": shown,
        # Plain values, not entries: with check-in just open this is the whole field.
        "missing": [
            {"start_number": number, "full_name": f"{first} {last}".strip()}
            for number, first, last in missing
        ],
    }


def _entries(tournament):
    """The entries as the table shows them, with what the rows need in one query."""
    # Signed, not revoked warnings: a referee sees them again when the player is penalised.
    warned = Q(
        penalties__category=Category.WARNING,
        penalties__signed_at__isnull=False,
        penalties__revoked_at__isnull=True,
    )
    return tournament.entries.select_related("player", "team", "fee_changed_by").annotate(
        warnings=Count("penalties", filter=warned),
        online=Exists(Registration.objects.filter(entry=OuterRef("pk"))),
    )


def _live_parts(live: dict, table) -> dict:
    """What the live parts beside the table show, by part, and the table's columns (see
    ``live_rows.read_state``)."""
    return {
        "columns": [column.name for column in table.columns],
        "counts": (live["counts"], live["fees"], live["missing_shown"]),
        "missing": live["missing"],
        "waiting": live["counts"]["waiting"],
        "begun": live["begun"],
    }


def _quick_form(*, focus: bool) -> QuickCheckinForm:
    form = QuickCheckinForm(auto_id="quick_%s")
    if focus:
        form.fields["number"].widget.attrs["autofocus"] = True
    return form


def _entry_page(request, tournament, form=None, status=200, *, poll=False):
    """The players page; ``poll``: the live part only (htmx asks every few seconds): 204 when
    it shows the same as the page already does, only the parts and rows that changed when the
    page's state is known (``live_rows``), else the whole live part."""
    live = _live(tournament)
    entries = _entries(tournament)
    entry_filter = EntryFilter(request.GET or None, queryset=entries)
    # The filter and the add form both have a club field: without their own ids the label
    # "club" of the add form would focus the filter's field.
    entry_filter.form.auto_id = "filter_%s"
    table = EntryTable(entry_filter.qs, exclude=() if live["fees"] else ("fee",))
    RequestConfig(request, paginate=False).configure(table)
    # The table's rows in the table's order (filtered, sorted): one query of plain values.
    state = live_rows.read_state(table.data.data, _live_parts(live, table))
    live_rows.remember(tournament, state)
    query = request.GET.urlencode()
    live_url = reverse("manage:entry-list", kwargs={"slug": tournament.slug})
    context = {
        "tournament": tournament,
        "table": table,
        "live_state": state.token,
        "live_url": f"{live_url}?{query}" if query else live_url,
        **live,
    }
    if poll:
        sent = request.headers.get(LIVE_STATE_HEADER)
        if sent == state.token:
            return HttpResponse(status=204)
        before = live_rows.recall(tournament, sent)
        # Changed rows alone only where the table keeps its rows, their order and its
        # columns (the fee column comes with the first fee ticked).
        if (
            before is not None
            and before.order == state.order
            and before.parts["columns"] == state.parts["columns"]
            and before.parts.get("begun") == state.parts["begun"]
        ):
            changed = [pk for pk in state.order if before.rows[pk] != state.rows[pk]]
            rows = live_rows.rows_html(
                request, tournament, table, state, entries, changed, begun=live["begun"]
            )
            context |= {
                "changed_rows": live_rows.oob_rows(rows),
                "missing_changed": before.parts["missing"] != state.parts["missing"],
                "waiting_changed": before.parts["waiting"] != state.parts["waiting"],
            }
            return render(request, "tournament/manage/_players_live_changes.html", context)
    rows = live_rows.rows_html(request, tournament, table, state, entries, begun=live["begun"])
    table.body_html = live_rows.table_body(rows, state.order)
    if poll:
        return render(request, "tournament/manage/_players_live_response.html", context)
    top, wish_messages = _wish_messages(request)
    context |= {
        "messages": top,
        "wish_messages": wish_messages,
        "filter": entry_filter,
        "form": form or EntryForm(),
        "quick": _quick_form(focus=request.session.pop(QUICK_FOCUS, False)),
        "checked": tournament.entries.filter(
            pk=request.session.pop(QUICK_UNDO, None), checked_in=True
        ).first(),
        "checkin_link_offered": tournament.checkin_open
        or tournament.registration_open
        or tournament.registrations.exists(),
        # The seat wishes' card (issue 39): outside the live part, its own field ids.
        "wishes": seat_wishes(tournament, live["counts"]),
        "wish_form": ApartGroupForm(auto_id="wish_%s"),
    }
    return render(request, "tournament/manage/entry_list.html", context, status=status)


@director_required
def entry_list(request, slug):
    tournament = get_managed_tournament(request, slug)
    return _entry_page(request, tournament, poll=bool(request.htmx))


@director_required
@require_POST
def entry_add(request, slug):
    tournament = get_managed_tournament(request, slug)
    form = EntryForm(request.POST)
    if not form.is_valid():
        return _entry_page(request, tournament, form, status=400)
    data = form.cleaned_data
    try:
        entry = register(
            tournament,
            PlayerData(data["first_name"], data["last_name"], data["club"], data["ddv_number"]),
            director=request.user,
            start_number=data["start_number"],
            team_name=data["team"],
            publish=data["publish"],
            attributes=EntryAttributes(**form.attributes()),
        )
    except DomainError as exc:
        form.add_error(None, exc.message)
        return _entry_page(request, tournament, form, status=400)
    messages.success(
        request,
        _("%(name)s registered with start number %(number)s.")
        % {"name": entry.player.full_name, "number": entry.start_number},
    )
    return redirect("manage:entry-list", slug=tournament.slug)


# action -> (new status, the reason in the entry's history, the message)
STATUS_ACTIONS = {
    "withdraw": (
        EntryStatus.WITHDRAWN,
        event("withdrawn-by-director"),
        gettext_lazy("%(name)s withdrawn."),
    ),
    "readmit": (
        EntryStatus.ACTIVE,
        event("readmitted-by-director"),
        gettext_lazy("%(name)s re-admitted."),
    ),
}


@director_required
@require_POST
def entry_status(request, slug, pk, action):
    tournament = get_managed_tournament(request, slug)
    entry = get_object_or_404(tournament.entries.select_related("player"), pk=pk)
    status, reason, message = STATUS_ACTIONS[action]
    set_status(entry, status, request.user, reason)
    messages.success(request, message % {"name": entry.player.full_name})
    if action == "withdraw":  # a place came free: the first on the waiting list moves up
        mail = RequestMailer(request)
        after_places_changed(tournament, user=request.user, mail=mail)
        mail.report_moved_up()
    return redirect("manage:entry-list", slug=tournament.slug)


@director_required
@require_POST
def entry_checkin(request, slug, pk):
    tournament = get_managed_tournament(request, slug)
    entry = get_object_or_404(tournament.entries.select_related("player"), pk=pk)
    error = None
    try:
        entry = set_checked_in(entry, request.POST.get("checked_in") == "1", request.user)
    except DomainError as exc:
        error = exc.message
    if request.htmx:
        # 200 even for a refusal: htmx swaps only successful responses, and the cell
        # carries the message.
        # The counts above the table and the "all present" button change with it.
        return render(
            request,
            "tournament/manage/_checkin_response.html",
            {"record": entry, "tournament": tournament, "error": error, **_live(tournament)},
        )
    if error:
        messages.error(request, error)
    return redirect("manage:entry-list", slug=tournament.slug)


@director_required
def entry_edit(request, slug, pk):
    tournament = get_managed_tournament(request, slug)
    entry = get_object_or_404(tournament.entries.select_related("player", "team"), pk=pk)
    player = entry.player
    initial = {
        "first_name": player.first_name,
        "last_name": player.last_name,
        "club": player.club,
        "ddv_number": player.ddv_number,
        "team": entry.team.name if entry.team else "",
        "start_number": entry.start_number,
        "publish": entry.publish,
        "fixed_table": entry.fixed_table,
        **{name: getattr(entry, name) for name in EntryEditForm.ATTRIBUTES},
    }
    locked = start_number_locked(tournament)
    form = EntryEditForm(request.POST or None, initial=initial, number_locked=locked)
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            data = form.cleaned_data
            try:
                entry = edit_entry(
                    entry,
                    PlayerData(
                        data["first_name"], data["last_name"], data["club"], data["ddv_number"]
                    ),
                    team_name=data["team"],
                    start_number=data["start_number"],
                    user=request.user,
                    reason=data["reason"],
                    publish=data["publish"],
                    attributes=EntryAttributes(**form.attributes()),
                    fixed_table=data["fixed_table"],
                )
            except DomainError as exc:
                form.add_error(None, exc.message)
            else:
                messages.success(
                    request,
                    _("Entry %(number)s corrected: %(name)s.")
                    % {"number": entry.start_number, "name": entry.player.full_name},
                )
                return redirect("manage:entry-list", slug=tournament.slug)
    context = {
        "tournament": tournament,
        "entry": entry,
        "form": form,
        "changes": _changes(entry, request.user),
    }
    return render(request, "tournament/manage/entry_edit.html", context, status=status)


@director_required
@require_POST
def entry_checkin_all(request, slug):
    tournament = get_managed_tournament(request, slug)
    count = check_in_all(tournament, user=request.user)
    if count:
        messages.success(
            request,
            ngettext("%(count)s player checked in.", "%(count)s players checked in.", count)
            % {"count": count},
        )
    else:
        messages.info(request, _("All active players were already checked in."))
    return redirect("manage:entry-list", slug=tournament.slug)


@director_required
@require_POST
def entry_checkin_number(request, slug):
    """The fast field: a start number + Enter checks that player in; the field is empty and
    focused again for the next number. Asked by the page's script (HX-Request), the answer
    is the message, with the player's row, the counts and the undo button out of band."""
    tournament = get_managed_tournament(request, slug)
    form = QuickCheckinForm(request.POST, auto_id="quick_%s")
    entry, error = None, None
    if form.is_valid():
        try:
            entry = check_in_number(tournament, form.cleaned_data["number"], user=request.user)
        except DomainError as exc:
            error = exc.message
    else:
        error = form.errors["number"][0]
    if request.htmx:
        context = {
            "tournament": tournament,
            "checked": entry,
            "message": _checked_in_text(entry) if entry else "",
            "error": error,
            **_live(tournament),
        }
        return render(request, "tournament/manage/_quick_checkin_response.html", context)
    if entry is None:
        assert error is not None  # every way that leaves no entry sets the error
        messages.error(request, error)
    else:
        messages.success(request, _checked_in_text(entry))
        request.session[QUICK_UNDO] = entry.pk
    request.session[QUICK_FOCUS] = True
    url = reverse("manage:entry-list", kwargs={"slug": tournament.slug})
    return redirect(f"{url}#quick-checkin")


@director_required
@require_POST
def entry_fee(request, slug, pk):
    """One tap in the fee column: paid, not paid or waived. Asked by htmx, the answer is the
    row's fee cell, with the sums out of band; a refusal (an unknown value) is 400 and
    changes nothing."""
    tournament = get_managed_tournament(request, slug)
    entry = get_object_or_404(tournament.entries.select_related("player"), pk=pk)
    error = None
    try:
        entry = set_fee(entry, request.POST.get("fee", ""), request.user)
    except DomainError as exc:
        error = exc.message
    status = 400 if error else 200
    if request.htmx:
        context = {
            "record": _entries(tournament).get(pk=entry.pk),
            "tournament": tournament,
            "error": error,
            "fee_choices": FeeStatus.choices,
            "fees": fee_sums(tournament) if shows_fees(tournament) else None,
        }
        return render(request, "tournament/manage/_fee_response.html", context, status=status)
    if error:
        messages.error(request, error)
        return _entry_page(request, tournament, status=status)
    messages.success(
        request,
        _("Entry fee of %(name)s: %(fee)s.")
        % {"name": entry.player.full_name, "fee": entry.get_fee_display()},
    )
    url = reverse("manage:entry-list", kwargs={"slug": tournament.slug})
    return redirect(f"{url}#entry-{entry.pk}")


@director_required
def fees_export(request, slug):
    """The treasurer's list: every entry's fee, who ticked it and when, and the totals."""
    tournament = get_managed_tournament(request, slug)
    return download(downloads.fees(tournament), private=True)


@director_required
@require_POST
def checkin_link_toggle(request, slug):
    """Open or close check-in by personal link ("open" = 1 or 0; without it the button
    turns it over)."""
    tournament = get_managed_tournament(request, slug)
    wanted = request.POST.get("open")
    if wanted not in (None, "0", "1"):
        messages.error(request, _("Unknown choice for check-in by personal link."))
        return _entry_page(request, tournament, status=400)
    tournament.checkin_open = (wanted == "1") if wanted is not None else not tournament.checkin_open
    update_tournament(tournament, request.user)
    if tournament.checkin_open:
        messages.success(
            request,
            _(
                "Check-in by personal link is open: players who registered online can tap "
                "'I am here'."
            ),
        )
    else:
        messages.success(request, _("Check-in by personal link is closed."))
    return redirect("manage:entry-list", slug=tournament.slug)


def _wish_messages(request) -> tuple[list, list]:
    """This request's messages: those for the top of the page, and those of the seat wishes'
    card (shown in the card, where the browser lands after changing a wish)."""
    top: list = []
    card: list = []
    for message in messages.get_messages(request):
        (card if MESSAGE_TAG in (message.extra_tags or "").split() else top).append(message)
    return top, card


def _checked_in_text(entry) -> str:
    return _("%(name)s (%(number)s) checked in.") % {
        "name": entry.player.full_name,
        "number": entry.start_number,
    }


def _changes(entry, user, limit: int = 20) -> list[dict]:
    """The latest history of the entry and of its player, newest first, as the edit page
    shows it: when, who, why and the values after the change. The player is shared with
    other tournaments: who changed them and why is shown only when every tournament of the
    player is the reader's (else it may be another director's note)."""
    rows = []
    own = changeable_players(user).filter(pk=entry.player_id).exists()
    for record in entry.player.history.select_related("history_user")[:limit]:
        values = [record.first_name, record.last_name, record.club, record.ddv_number]
        rows.append(
            {
                "record": record,
                "values": " · ".join(v for v in values if v),
                "reason": history_reason(record),
                "hidden": not own,
            }
        )
    for record in entry.history.select_related("history_user", "team")[:limit]:
        team = record.team.name if record.team_id and record.team else ""
        values = [
            _("start number %(number)s") % {"number": record.start_number},
            team,
            record.get_status_display(),
            _("checked in") if record.checked_in else "",
            _("fixed table %(table)s") % {"table": record.fixed_table}
            if record.fixed_table
            else "",
        ]
        rows.append(
            {
                "record": record,
                "values": " · ".join(v for v in values if v),
                "reason": history_reason(record),
            }
        )
    rows.sort(key=lambda row: row["record"].history_date, reverse=True)
    return rows[:limit]
