"""Standings for the director (sortable, filterable) and for everybody (public, live)."""

import copy

from django.conf import settings
from django.contrib import messages
from django.http import HttpResponse, QueryDict
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from ..base.caching import cached
from ..domain.tournaments import reveal_standings
from ..errors import DomainError
from ..exports import downloads, html, rows
from ..exports.export import download
from ..models import Tournament
from ..permissions import director_required, get_managed_tournament
from ..queries import standings as standings_domain
from ..tasks import documents


class _Computed:
    """A tournament's standings as its pages show them, in one language: computed once per
    version of the tournament (tournament/base/caching.py); sorting and filtering only reorder
    these rows. ``bodies`` keeps the public table per (clean) query string. ``public``: the
    players named by the public rule (README, "Datenschutz / privacy")."""

    def __init__(self, tournament, public: bool = False) -> None:
        self.standings = standings_domain.compute(tournament, public=public)
        self.ranked = rows.standings_rows(self.standings, public=public)
        self.absent = rows.absent_rows(self.standings, public=public)
        self.teams = rows.team_rows(self.standings, public=public).rows
        self.clubs = sorted({str(row["club"]) for row in self.ranked.rows if row["club"]})
        self.team_names = [row["team"] for row in self.teams]
        orderable = {"note"}
        self.sort_keys = {c.key for c in self.ranked.columns if c.key not in orderable}
        self.bodies: dict[str, str] = {}


def _computed(tournament, *, stale: float = 0, public: bool = False) -> _Computed:
    family = ("standings", tournament.pk, get_language(), public)
    return cached(family, tournament.version, lambda: _Computed(tournament, public), stale)


def _context(request, tournament, computed: _Computed | None = None):
    computed = computed or _Computed(tournament)
    club = request.GET.get("club", "")[:150]
    team = request.GET.get("team", "")[:150]

    def keep(row: rows.Row) -> bool:
        return (not club or row["club"] == club) and (not team or row["team"] == team)

    return {
        "tournament": tournament,
        "standings": computed.standings,
        "table": html.page_table(request, computed.ranked, keep),
        "absent": computed.absent.where(keep).rows,
        "team_rows": computed.teams,
        "clubs": computed.clubs,
        "teams": computed.team_names,
        "club": club,
        "team": team,
    }


@director_required
def standings(request, slug):
    tournament = get_managed_tournament(request, slug)
    # The same computation as the public page's, current to the last change (no stale time).
    context = _context(request, tournament, _computed(tournament))
    context["hiding_change"] = standings_domain.last_hiding_change(tournament)
    return render(request, "tournament/manage/standings.html", context)


def public_standings(request, slug):
    """The public standings: refresh themselves while the page is open. Every phone in the
    hall polls them, so the table is rendered at most once per STANDINGS_CACHE_SECONDS and
    filter (the page around it, with its per-visitor CSRF token, never comes from a cache)."""
    tournament = get_object_or_404(Tournament, slug=slug, is_public=True)
    body = _public_body(request, tournament)
    if request.htmx:
        return HttpResponse(body)
    return render(request, "tournament/standings.html", {"tournament": tournament, "body": body})


# The bodies kept per tournament state and language: the clean queries are bounded by what
# exists (clubs x teams x sort keys), this bounds them further.
MAX_BODIES = 64


def public_params(computed: _Computed, query: QueryDict) -> QueryDict:
    """The parameters the public standings understand, cleaned: filter by a club or a team
    of the tournament, sort by a column that exists (the rounds played, not ``r99``).
    Anything else (``?x=<random>``, a made-up club) must neither split the cache nor reach
    the links of the cached table."""
    params = QueryDict(mutable=True)
    club, team = query.get("club", "")[:150], query.get("team", "")[:150]
    if club and club in computed.clubs:
        params["club"] = club
    if team and team in computed.team_names:
        params["team"] = team
    sort = query.get("sort", "")[:30]
    if sort.removeprefix("-") in computed.sort_keys:
        params["sort"] = sort
    return params


def _public_body(request, tournament) -> str:
    computed = _computed(tournament, stale=settings.STANDINGS_CACHE_SECONDS, public=True)
    params = public_params(computed, request.GET)
    key = params.urlencode()
    body = computed.bodies.get(key)
    if body is None:
        # Rendered from the cleaned parameters only: the sort links of the table carry the
        # query string, and this body is served to everybody asking for the same key.
        clean = copy.copy(request)
        clean.GET = params
        context = _context(clean, tournament, computed)
        body = render_to_string("tournament/partials/standings_body.html", context, clean)
        if len(computed.bodies) >= MAX_BODIES:
            computed.bodies.clear()
        computed.bodies[key] = body
    return mark_safe(body)  # noqa: S308 - rendered by the template engine above


@director_required
def standings_export(request, slug, what, fmt):
    """Standings, teams or rounds as PDF or Excel file, made in the background."""
    tournament = get_managed_tournament(request, slug)
    return documents.respond(request, f"{what}-{fmt}", tournament)


@director_required
def results_export(request, slug, fmt):
    """Every player's result in the fixed format for a federation's ranking list, as CSV or
    Excel file (README, "Results for the federation")."""
    tournament = get_managed_tournament(request, slug)
    if fmt == "xlsx":  # the workbook is made in the background, the plain text file at once
        return documents.respond(request, "results-xlsx", tournament)
    return download(downloads.results_csv(tournament), private=True)


@director_required
@require_POST
def standings_reveal(request, slug):
    """ "Reveal the standings" after the prize ceremony (issue 38): every public page, file
    and the results service show the hidden rounds from now on."""
    tournament = get_managed_tournament(request, slug)
    try:
        reveal_standings(tournament, request.user)
    except DomainError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("The standings are revealed: the public sees every round."))
    return redirect("manage:standings", slug=tournament.slug)
