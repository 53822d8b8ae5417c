"""The reads of the results service's pages: the home page's lists and a club's page."""

from __future__ import annotations

from django.db.models import F, Q

from ..models import Club, Tournament
from ..models.tournament import TournamentQuerySet

# How many tournaments each list of the home page shows at most (the club pages have the rest).
HOME_LIMIT = 20

# A tournament's status in the database's terms (models/tournament.py ``status_from``), on the
# counts of ``with_status()``.
_FINISHED = Q(rounds_closed_count__gte=F("planned_rounds"), rounds_playing_count=0)
_STARTED = Q(rounds_started_count__gt=0)


def home_lists(limit: int = HOME_LIMIT) -> dict[str, list[Tournament]]:
    """The public tournaments running now, those still to come and the latest finished, each
    with its status counted and its club (three queries, whatever the number)."""
    public = Tournament.objects.filter(is_public=True).with_status().select_related("club")
    return {
        "running": list(public.filter(_STARTED).exclude(_FINISHED)[:limit]),
        "upcoming": list(
            public.exclude(_STARTED).exclude(_FINISHED).order_by("date", "name")[:limit]
        ),
        "latest": list(public.filter(_FINISHED).order_by("-date", "-published_at", "-pk")[:limit]),
    }


def clubs_with_tournaments() -> list[Club]:
    """The clubs that have published a public tournament, by name."""
    return list(Club.objects.filter(tournaments__is_public=True).distinct().order_by("name"))


def club_tournaments(club: Club) -> TournamentQuerySet:
    """A club's published public tournaments, newest first, with their status counted."""
    return (
        Tournament.objects.filter(club=club, is_public=True)
        .with_status()
        .order_by("-date", "-published_at", "-pk")
    )
