"""Standings for the director (sortable, filterable) and for everybody (public, live)."""

from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _
from django_tables2 import RequestConfig

from ..domain import standings as standings_domain
from ..models import Tournament
from ..permissions import director_required, get_managed_tournament
from ..tables import standings_table


def standing_rows(standings, club: str = "", team: str = "") -> list[dict]:
    """The lines as table rows, filtered by club and team."""
    rows = []
    for line in standings.lines:
        entry, player = line.entry, line.entry.player
        if club and player.club != club:
            continue
        if team and (entry.team is None or entry.team.name != team):
            continue
        note = ""
        if line.disqualified:
            note = _("disqualified")
        elif line.withdrawn:
            note = _("withdrawn")
        row = {
            "id": f"line-{entry.start_number}",
            "css": entry.status,
            "rank": line.rank,
            "start_number": entry.start_number,
            "name": player.full_name,
            "club": player.club,
            "team": entry.team.name if entry.team else "",
            "penalties": line.penalties,
            "total": line.total,
            "note": note,
        }
        row.update({f"r{number}": points for number, points in line.rounds.items()})
        rows.append(row)
    return rows


def _context(request, tournament):
    standings = standings_domain.compute(tournament)
    club = request.GET.get("club", "")[:100]
    team = request.GET.get("team", "")[:150]
    table = standings_table(standings, standing_rows(standings, club, team))
    RequestConfig(request, paginate=False).configure(table)
    clubs = sorted({line.entry.player.club for line in standings.lines} - {""})
    return {
        "tournament": tournament,
        "standings": standings,
        "table": table,
        "clubs": clubs,
        "teams": [t.name for t in standings.teams],
        "club": club,
        "team": team,
    }


@director_required
def standings(request, slug):
    tournament = get_managed_tournament(request, slug)
    return render(request, "tournament/manage/standings.html", _context(request, tournament))


def public_standings(request, slug):
    """The public standings: refresh themselves while the page is open."""
    tournament = get_object_or_404(Tournament, slug=slug, is_public=True)
    context = _context(request, tournament)
    if request.htmx:
        return render(request, "tournament/partials/standings_body.html", context)
    return render(request, "tournament/standings.html", context)
