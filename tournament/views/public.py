"""Pages for everybody, no login."""

from django.db.models import Q
from django.shortcuts import get_object_or_404, render

from ..models import EntryStatus, RoundStatus, Seat, Tournament


def home(request):
    tournaments = Tournament.objects.filter(is_public=True)
    return render(request, "tournament/home.html", {"tournaments": tournaments})


def tournament_public(request, slug):
    tournament = get_object_or_404(Tournament, slug=slug, is_public=True)
    entries = (
        tournament.entries.exclude(status=EntryStatus.WITHDRAWN)
        .select_related("player", "team")
        .order_by("start_number")
    )
    return render(
        request, "tournament/public_detail.html", {"tournament": tournament, "entries": entries}
    )


def where_do_i_sit(request, slug):
    """ "Wo sitze ich?": a player finds their table and position in the released rounds."""
    tournament = get_object_or_404(Tournament, slug=slug, is_public=True)
    query = request.GET.get("q", "").strip()[:100]
    matches = []
    if query:
        entries = tournament.entries.select_related("player")
        if query.isdecimal() and len(query) < 10:
            entries = entries.filter(start_number=int(query))
        else:
            words = query.split()
            for word in words:
                entries = entries.filter(
                    Q(player__last_name__icontains=word) | Q(player__first_name__icontains=word)
                )
        entries = list(entries.order_by("start_number")[:20])
        seats = (
            Seat.objects.filter(
                entry__in=entries, round__status__in=[RoundStatus.RELEASED, RoundStatus.CLOSED]
            )
            .select_related("round", "table")
            .order_by("round__number")
        )
        by_entry: dict[int, list] = {}
        for seat in seats:
            by_entry.setdefault(seat.entry_id, []).append(seat)
        matches = [(entry, by_entry.get(entry.pk, [])) for entry in entries]
    context = {"tournament": tournament, "query": query, "matches": matches}
    return render(request, "tournament/where_do_i_sit.html", context)


def table_plan(request, slug):
    """The tables of the round being played (the last released one), for the hall."""
    tournament = get_object_or_404(Tournament, slug=slug, is_public=True)
    round_ = (
        tournament.rounds.filter(status=RoundStatus.RELEASED).order_by("-number").first()
        or tournament.rounds.filter(status=RoundStatus.CLOSED).order_by("-number").first()
    )
    tables = []
    if round_ is not None:
        tables = round_.tables.prefetch_related("seats__entry__player").order_by("number")
    context = {"tournament": tournament, "round": round_, "tables": tables}
    return render(request, "tournament/table_plan.html", context)
