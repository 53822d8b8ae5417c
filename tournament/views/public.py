"""Pages for everybody, no login."""

from django.shortcuts import get_object_or_404, render

from ..models import EntryStatus, Tournament


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
