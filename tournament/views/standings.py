"""Standings for the director (sortable, filterable) and for everybody (public, live)."""

import copy
import re

from django.contrib import messages
from django.http import HttpResponse, QueryDict
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.utils.html import conditional_escape, escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django_tables2 import RequestConfig

from ..caching import polled
from ..domain import PdfUnavailable, exports
from ..domain import standings as standings_domain
from ..models import Tournament
from ..permissions import director_required, get_managed_tournament
from ..tables import FOLD, OPTIONAL_COLUMNS, standings_table


def shown_columns(standings) -> set[str]:
    """The optional columns (``OPTIONAL_COLUMNS``) some line of the standings fills: a
    tournament without teams or penalties shows no empty column for them."""
    lines = standings.lines
    shown = {
        "club": any(line.entry.player.club for line in lines),
        "team": any(line.entry.team_id for line in lines),
        "penalties": any(line.penalties for line in lines),
        "note": any(line.note for line in lines),
    }
    return {name for name in OPTIONAL_COLUMNS if shown[name]}


def _keep(line, club: str, team: str) -> bool:
    entry = line.entry
    if club and entry.player.club != club:
        return False
    return not team or (entry.team is not None and entry.team.name == team)


def standing_rows(standings, club: str = "", team: str = "", shown=OPTIONAL_COLUMNS) -> list[dict]:
    """The lines as table rows, filtered by club and team, with the cells of the columns
    ``standings_table`` draws (of the optional ones only those in ``shown``)."""
    words = {
        "number": _("No."),
        "penalties": _("penalties"),
        "rounds": {n: _("R%(number)s") % {"number": n} for n in standings.round_numbers},
    }
    rows = []
    for line in standings.lines:
        if not _keep(line, club, team):
            continue
        entry, player = line.entry, line.entry.player
        note = line.note
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
        # The cells in column order: django-tables2 sorts the rows and draws the header,
        # the body of hundreds of rows is built by _body_html.
        cells = [
            ("num rank", row["rank"] if row["rank"] is not None else ""),
            (f"num {FOLD}", entry.start_number),
            ("name", _name_cell(row, line, standings.round_numbers, words)),
        ]
        if "club" in shown:
            cells.append((FOLD, row["club"]))
        if "team" in shown:
            cells.append((FOLD, row["team"]))
        cells += [(f"num {FOLD}", line.rounds.get(n, "–")) for n in standings.round_numbers]
        if "penalties" in shown:
            cells.append((f"num penalties {FOLD}", line.penalties))
        cells.append(("num total", line.total))
        if "note" in shown:
            cells.append((FOLD, note))
        row["cells"] = cells
        rows.append(row)
    return rows


def _name_cell(row: dict, line, round_numbers, words) -> SafeString:
    """The name, and under it what a phone folds away: start number, club, team, the points
    of every round, penalties and the note ("No. 7 · DSC · R1 12 · R2 −4")."""
    # A label and its number never part at the end of a line: joined by a no-break space.
    parts = [f"{words['number']}\N{NO-BREAK SPACE}{row['start_number']}"]
    parts += [text for text in (row["club"], row["team"]) if text]
    parts += [
        f"{words['rounds'][n]}\N{NO-BREAK SPACE}{line.rounds.get(n, '–')}" for n in round_numbers
    ]
    if line.penalties:
        parts.append(f"{words['penalties']}\N{NO-BREAK SPACE}{line.penalties}")
    if row["note"]:
        parts.append(row["note"])
    detail = escape(" · ".join(map(str, parts)))
    return mark_safe(f'{escape(row["name"])}<span class="detail">{detail}</span>')  # noqa: S308


def _body_html(records) -> SafeString:
    """The table body as HTML, in the order django-tables2 sorted the records: built here
    because the template engine would spend most of the page's time on the many cells."""
    parts = []
    for record in records:
        cells = "".join(
            f'<td class="{css}">{conditional_escape(value)}</td>'
            if css
            else f"<td>{conditional_escape(value)}</td>"
            for css, value in record["cells"]
        )
        parts.append(f'<tr class="{record["css"]}" id="{record["id"]}">{cells}</tr>')
    return mark_safe("".join(parts))  # noqa: S308 - every value is escaped above


def _context(request, tournament):
    standings = standings_domain.compute(tournament)
    club = request.GET.get("club", "")[:150]
    team = request.GET.get("team", "")[:150]
    shown = shown_columns(standings)
    rows = standing_rows(standings, club, team, shown)
    table = standings_table(standings, rows, shown=shown)
    RequestConfig(request, paginate=False).configure(table)
    table.body_html = _body_html(table.data)
    clubs = sorted({line.entry.player.club for line in standings.lines} - {""})
    return {
        "tournament": tournament,
        "standings": standings,
        "table": table,
        "absent": [line for line in standings.absent if _keep(line, club, team)],
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
    """The public standings: refresh themselves while the page is open. Every phone in the
    hall polls them, so the table is rendered at most once per STANDINGS_CACHE_SECONDS and
    filter (the page around it, with its per-visitor CSRF token, never comes from a cache)."""
    tournament = get_object_or_404(Tournament, slug=slug, is_public=True)
    body = _public_body(request, tournament)
    if request.htmx:
        return HttpResponse(body)
    return render(request, "tournament/standings.html", {"tournament": tournament, "body": body})


# The sort keys of the standings table: its columns, "-" for descending.
_SORT = re.compile(r"-?(rank|start_number|name|club|team|penalties|total|r[1-9][0-9]?)")


def public_params(tournament: Tournament, query: QueryDict) -> QueryDict:
    """The parameters the public standings understand, cleaned: filter by a club or a team
    of the tournament, sort by a column. Anything else (``?x=<random>``, a made-up club)
    must neither split the cache nor reach the links of the cached table."""
    params = QueryDict(mutable=True)
    club, team = query.get("club", "")[:150], query.get("team", "")[:150]
    if club and tournament.entries.filter(player__club=club).exists():
        params["club"] = club
    if team and tournament.teams.filter(name=team).exists():
        params["team"] = team
    sort = query.get("sort", "")
    if _SORT.fullmatch(sort):
        params["sort"] = sort
    return params


def _public_body(request, tournament) -> str:
    params = public_params(tournament, request.GET)
    key = f"public-standings:{tournament.pk}:{get_language()}:{params.urlencode()}"

    def render_body() -> str:
        # Rendered from the cleaned parameters only: the sort links of the table carry the
        # query string, and this body is served to everybody asking for the same key.
        clean = copy.copy(request)
        clean.GET = params
        context = _context(clean, tournament)
        return render_to_string("tournament/partials/standings_body.html", context, clean)

    return mark_safe(polled(key, render_body))  # noqa: S308 - rendered by the template engine above


@director_required
def standings_export(request, slug, what, fmt):
    """Standings, teams or rounds as PDF or Excel file."""
    tournament = get_managed_tournament(request, slug)
    try:
        if fmt == "xlsx":
            content, kind = exports.workbook(tournament, what), exports.XLSX_TYPE
        elif what == "rounds":
            content, kind = exports.rounds_pdf(tournament), "application/pdf"
        else:
            content = exports.standings_pdf(tournament, teams_only=what == "teams")
            kind = "application/pdf"
    except PdfUnavailable as exc:
        messages.error(request, exc.message)
        return redirect("manage:standings", slug)
    response = HttpResponse(content, content_type=kind)
    filename = f"{tournament.slug}-{what}.{fmt}"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
