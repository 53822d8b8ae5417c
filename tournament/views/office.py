"""The tournament office's Spielliste pages: the board of a round, the desk entry of a
sheet from paper, the file import, the workflow buttons, the history and closing the round."""

from __future__ import annotations

from functools import partial

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from ..base.site_url import public_url
from ..errors import DomainError
from ..forms.sheets import DeskGrid, ExtraTimeForm, ReasonForm, SheetFileForm
from ..permissions import (
    director_required,
    get_managed_tournament,
    get_office_table,
    get_officiated_tournament,
    manages,
    official_required,
)
from ..queries import sheets as reads
from ..sheets import checks, paper, verbs
from ..sheets.display import board_rows, conflict_context, history_entries, sheet_context
from ..sheets.verbs import Conflict
from ..tasks import mail


def _office_actor(request, table):
    return verbs.office_actor(request.user, director=manages(request.user, table.round.tournament))


@official_required
def board(request, slug, number):
    """Every table of a round at a glance, refreshed live."""
    tournament = get_officiated_tournament(request, slug)
    round_ = get_object_or_404(tournament.rounds, number=number)
    context = {
        "tournament": tournament,
        "round": round_,
        "rows": board_rows(round_),
        "is_director": manages(request.user, tournament),
    }
    template = "tournament/manage/board.html"
    if request.htmx:
        template = "tournament/manage/_board_table.html"
    return render(request, template, context)


def _desk_render(
    request,
    table,
    grid=None,
    *,
    conflict=None,
    status=200,
    notice=None,
    reason_error=None,
    import_form=None,
):
    # Running totals on the grid: one wrong total is named as such (not as two bad rows).
    cumulative = grid.cumulative if grid is not None else request.GET.get("cumulative") == "1"
    sheet = reads.load(table, running_totals=cumulative)
    if grid is None:
        grid = DeskGrid(sheet, cumulative=cumulative)
    context = sheet_context(
        sheet,
        grid=grid,
        conflict=conflict,
        notice=notice,
        import_form=import_form or SheetFileForm(),
        # Each form on the page has its own ids (several have a "reason").
        extra_form=ExtraTimeForm(auto_id="extra_%s"),
        reason_form=ReasonForm(auto_id="reopen_%s"),
        is_director=manages(request.user, table.round.tournament),
        keeper_url=public_url(request, reverse("keeper-sheet", args=[table.token])),
        needs_reason=checks.needs_reason(table),
        reason_error=reason_error,
    )
    return render(request, "tournament/manage/sheet_desk.html", context, status=status)


@official_required
def desk_sheet(request, slug, number, table_number):
    """The office's grid: the whole sheet from the paper list at once."""
    table = get_office_table(request, slug, number, table_number)
    if request.method != "POST":
        return _desk_render(request, table)
    sheet = reads.load(table)
    grid = DeskGrid(sheet, request.POST)
    parsed = grid.parse()
    if parsed is None:
        return _desk_render(request, table, grid, status=422)
    rows, versions = parsed
    try:
        changed = verbs.replace_rows(
            table, _office_actor(request, table), rows, versions, grid.reason
        )
    except Conflict as exc:
        return _desk_render(request, table, grid, conflict=conflict_context(exc), status=409)
    except checks.ReasonRequired as exc:
        # The browser asks for the reason too, but a form sent without (an old page, no
        # browser check) gets the answer next to the field: nothing is saved.
        message = exc.message
        return _desk_render(request, table, grid, notice=message, reason_error=message, status=422)
    except DomainError as exc:
        return _desk_render(request, table, grid, notice=exc.message, status=422)
    _report_saved(request, table, changed, running_totals=grid.cumulative)
    url = reverse("manage:sheet-desk", args=[slug, number, table_number])
    if grid.cumulative:
        url += "?cumulative=1"
    return redirect(url)


@official_required
@require_POST
def sheet_import(request, slug, number, table_number):
    """A sheet file in the ``checksheet`` format replaces the table's rows."""
    table = get_office_table(request, slug, number, table_number)
    form = SheetFileForm(request.POST, request.FILES)
    if not form.is_valid():
        return _desk_render(request, table, notice=_("Choose a file."), status=422)
    upload = form.cleaned_data["file"]
    try:
        changed = paper.import_file(
            table,
            _office_actor(request, table),
            upload.name,
            upload.read(),
            cumulative=form.cleaned_data["cumulative"],
            replace=form.cleaned_data["replace"],
            reason=form.cleaned_data["reason"],
        )
    except checks.ReasonRequired as exc:
        form.add_error("reason", exc.message)
        return _desk_render(request, table, notice=exc.message, status=422, import_form=form)
    except DomainError as exc:
        return _desk_render(request, table, notice=exc.message, status=422)
    _report_saved(request, table, changed)
    return redirect("manage:sheet-desk", slug, number, table_number)


def _rows_saved(count: int) -> str:
    return ngettext("%(count)s row saved.", "%(count)s rows saved.", count) % {"count": count}


def _report_saved(request, table, count: int, *, running_totals: bool = False) -> None:
    """Saved is not the same as right: with errors left the office reads "saved, but …" in
    the warning colour (counted as the page it leads to shows them)."""
    errors = reads.load(table, running_totals=running_totals).error_count
    if not errors:
        messages.success(request, _rows_saved(count))
        return
    but = ngettext(
        "but the sheet has %(errors)s error (marked ⚠ in the list).",
        "but the sheet has %(errors)s errors (marked ⚠ in the list).",
        errors,
    ) % {"errors": errors}
    messages.warning(request, f"{_rows_saved(count)[:-1]}, {but}")


@official_required
@require_POST
def sheet_action(request, slug, number, table_number, action):
    """Submit (a sheet entered from paper), confirm, reopen, grant extra time, record the
    time limit."""
    table = get_office_table(request, slug, number, table_number)
    actor = _office_actor(request, table)
    try:
        if action == "submit":
            verbs.submit(table, actor)
            messages.success(request, _("Sheet submitted."))
        elif action == "confirm":
            verbs.confirm(table, actor)
            messages.success(request, _("Sheet confirmed."))
        elif action == "reopen":
            reason_form = ReasonForm(request.POST)
            reason = reason_form.cleaned_data["reason"] if reason_form.is_valid() else ""
            verbs.reopen(table, actor, reason)
            messages.success(request, _("Sheet reopened."))
        elif action == "extra-time":
            extra = ExtraTimeForm(request.POST)
            if not extra.is_valid():
                raise DomainError(_("Enter the minutes and a reason."))
            verbs.grant_extra_time(
                table, actor, extra.cleaned_data["minutes"], extra.cleaned_data["reason"]
            )
            messages.success(request, _("Extra time granted."))
        elif action == "renew-codes":
            numbers = verbs.renew_codes(table, actor, partial(mail.queue_links, request))
            messages.success(request, _renewed_message(slug, numbers))
        else:  # time-up
            verbs.mark_time_up(table, actor)
            messages.success(request, _("Time limit recorded."))
    except checks.DirectorOnly:
        raise PermissionDenied from None
    except DomainError as exc:
        messages.error(request, exc.message)
    if request.POST.get("next") == "board":
        return redirect("manage:board", slug, number)
    return redirect("manage:sheet-desk", slug, number, table_number)


def _renewed_message(slug: str, numbers: list[int]) -> str:
    """Says which cards to print anew, with the link to exactly those cards."""
    listed = ", ".join(str(n) for n in numbers)
    url = reverse("manage:player-cards", args=[slug]) + "?nummern=" + ",".join(map(str, numbers))
    return format_html(
        '{} <a href="{}">{}</a>',
        _(
            "Table unlocked. New confirmation codes for start numbers %(numbers)s: their old "
            "player cards no longer work. Print the new cards and hand them out."
        )
        % {"numbers": listed},
        url,
        _("Print the new player cards"),
    )


@director_required
@require_POST
def round_close(request, slug, number):
    tournament = get_managed_tournament(request, slug)
    round_ = get_object_or_404(tournament.rounds, number=number)
    try:
        verbs.close_round(round_, request.user)
        messages.success(request, _("Round %(number)s closed.") % {"number": number})
    except DomainError as exc:
        messages.error(request, exc.message)
    return redirect("manage:board", slug, number)


@official_required
def sheet_history(request, slug, number, table_number):
    """Every create, change and removal of the table's rows: who, when, before, after, why."""
    table = get_office_table(request, slug, number, table_number)
    context = {
        "table": table,
        "round": table.round,
        "tournament": table.round.tournament,
        "entries": history_entries(table),
    }
    return render(request, "tournament/manage/sheet_history.html", context)
