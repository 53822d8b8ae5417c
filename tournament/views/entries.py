"""Directors: the entry list, adding players, withdrawing, re-admitting, check-in."""

from django.contrib import messages
from django.db.models import Count, Q
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST
from django_tables2 import RequestConfig

from ..domain import DomainError
from ..domain.registration import PlayerData, register, set_checked_in, set_status
from ..filters import EntryFilter
from ..forms import EntryForm
from ..models import EntryStatus, PenaltyCategory
from ..permissions import director_required, get_managed_tournament
from ..tables import EntryTable


def _entry_page(request, tournament, form=None, status=200):
    # Signed, not revoked warnings: a referee sees them again when the player is penalised.
    warned = Q(
        penalties__category=PenaltyCategory.WARNING,
        penalties__signed_at__isnull=False,
        penalties__revoked_at__isnull=True,
    )
    entries = tournament.entries.select_related("player", "team").annotate(
        warnings=Count("penalties", filter=warned)
    )
    entry_filter = EntryFilter(request.GET or None, queryset=entries)
    table = EntryTable(entry_filter.qs)
    RequestConfig(request, paginate=False).configure(table)
    counts = tournament.entries.aggregate(
        active=Count("pk", filter=Q(status=EntryStatus.ACTIVE)),
        checked_in=Count("pk", filter=Q(status=EntryStatus.ACTIVE, checked_in=True)),
    )
    context = {
        "tournament": tournament,
        "table": table,
        "filter": entry_filter,
        "form": form or EntryForm(),
        "counts": counts,
    }
    return render(request, "tournament/manage/entry_list.html", context, status=status)


@director_required
def entry_list(request, slug):
    return _entry_page(request, get_managed_tournament(request, slug))


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


STATUS_ACTIONS = {
    "withdraw": (EntryStatus.WITHDRAWN, gettext_lazy("%(name)s withdrawn.")),
    "readmit": (EntryStatus.ACTIVE, gettext_lazy("%(name)s re-admitted.")),
}


@director_required
@require_POST
def entry_status(request, slug, pk, action):
    tournament = get_managed_tournament(request, slug)
    entry = get_object_or_404(tournament.entries.select_related("player"), pk=pk)
    status, message = STATUS_ACTIONS[action]
    set_status(entry, status)
    messages.success(request, message % {"name": entry.player.full_name})
    return redirect("manage:entry-list", slug=tournament.slug)


@director_required
@require_POST
def entry_checkin(request, slug, pk):
    tournament = get_managed_tournament(request, slug)
    entry = get_object_or_404(tournament.entries.select_related("player"), pk=pk)
    error = None
    try:
        entry = set_checked_in(entry, request.POST.get("checked_in") == "1")
    except DomainError as exc:
        error = exc.message
    if request.htmx:
        # 200 even for a refusal: htmx swaps only successful responses, and the cell
        # carries the message.
        return render(
            request,
            "tournament/partials/checkin_cell.html",
            {"record": entry, "tournament": tournament, "error": error},
        )
    if error:
        messages.error(request, error)
    return redirect("manage:entry-list", slug=tournament.slug)
