"""Statistics pages (README, "Statistics"): a tournament's, a series', a player's in either,
the director's view of the whole event and the "Zahlen des Tages" for the projector.

The figures are computed once per version of their data (tournament/base/caching.py) and the
public pages are rendered once per version and language, like the standings: a request is a
cache lookup until a game changes. The public pages show a player's figures only with the
player's consent to publication (README, "Datenschutz / privacy"); others are named by their
pseudonym where an event figure names them, and have no page.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from functools import partial

from django.conf import settings
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _l

from scoring.game import KONTRA, RE
from scoring.statistics import BigGame, Record, Statistics
from scoring.statistics import Player as PlayerKey

from ..base.caching import cached
from ..base.versions import series_key, series_members
from ..models import Series, Tournament
from ..permissions import director_required, get_directed_series, get_managed_tournament
from ..queries import statistics as domain
from ..queries.standings import hidden_from

Namer = Callable[[PlayerKey, int | None], str]


def _rendered(family: Hashable, tournament: Tournament, render_page: Callable[[], str]) -> str:
    """A page rendered once per state of its figures (and kept as long as they are)."""
    current, stale = domain.state(tournament)
    return cached(family, current, render_page, stale)


def _series_figures(found: Series, state: tuple, *, public_only: bool) -> domain.Figures:
    family = ("series-statistics", found.pk, found.version, public_only, get_language())
    compute = partial(domain.of_series, found, public_only=public_only)
    state = (state, series_members(state[0]))
    return cached(family, state, compute, settings.SERIES_CACHE_SECONDS, share=False)


def series_state(found: Series) -> tuple:
    """The state of a public series' figures: as for its table (views/series.py)."""
    return (series_key(found, public_only=True), timezone.localdate())


def _namer(figures: domain.Figures, *, public: bool) -> Namer:
    def name(player, tournament=None) -> str:
        if public:  # in a series by the series' rule, whatever the tournament of the figure
            return figures.public_name(player)
        person = figures.person(player)
        return person.name if person else str(player)

    return name


def _hidden(figures: domain.Figures, *, public: bool) -> list[Tournament]:
    """The tournaments of the figures whose last rounds the public does not see yet (their
    notes, issue 38); none on the office's pages."""
    if not public:
        return []
    return [t for t in figures.tournaments.values() if hidden_from(t) is not None]


def _records(records: dict[PlayerKey, Record], name: Namer) -> list[tuple[str, Record]]:
    rows = [(name(player, None), record) for player, record in records.items()]
    return sorted(rows, key=lambda row: (-row[1].played, -len(row[1].won), row[0]))


# What the facts of a game give (a game taken from the Spielwert-Rechner): the labels of the
# Absagen as in the calculator, keine 90 .. schwarz (0).
ABSAGE_LABELS = {90: _l("keine 90"), 60: _l("keine 60"), 30: _l("keine 30"), 0: _l("schwarz")}


def _fact_rows(parties: dict[str, Record], announced: dict[str, Record], absagen) -> list:
    """(label, record, id) of the Re/Kontra table: won and lost by the party named."""
    rows = [
        (_("Re (normal games)"), parties[RE], "facts-re"),
        (_("Kontra (normal games)"), parties[KONTRA], "facts-kontra"),
        (_("“Re” announced"), announced[RE], "facts-announced-re"),
        (_("“Kontra” announced"), announced[KONTRA], "facts-announced-kontra"),
    ]
    made = [
        (_("Absage %(level)s") % {"level": label}, absagen[level], f"facts-absage-{level}")
        for level, label in ABSAGE_LABELS.items()
        if absagen[level].played
    ]
    return rows + (made or [(_("Absagen"), Record(), "facts-absage")])


def _player_facts(stats) -> dict:
    return {
        "known": len(stats.known),
        "games": stats.all.played,
        "rows": _fact_rows(stats.parties, stats.announced, stats.absagen),
    }


def _event_facts(stats: Statistics) -> dict:
    # Normal games won by Re are Kontra's lost ones, and the other way round.
    re = stats.re_games
    kontra = Record(won=list(re.lost), lost=list(re.won), even=list(re.even))
    return {
        "known": len(stats.known),
        "games": len(stats.games),
        "rows": _fact_rows({RE: re, KONTRA: kontra}, stats.announced, stats.absagen),
    }


def _player_sections(figures: domain.Figures, player: int, name: Namer) -> list[dict]:
    return [
        {
            "label": figures.labels.get(key, ""),
            "stats": stats.players[player],
            "facts": _player_facts(stats.players[player]),
            "kinds": [(kind, stats.players[player].solos[kind]) for kind in domain.KIND_ORDER],
            "people": [
                (_("Partners"), _records(stats.players[player].partners, name), "stats-partners"),
                (
                    _("Opponents"),
                    _records(stats.players[player].opponents, name),
                    "stats-opponents",
                ),
            ],
        }
        for key, stats in figures.of_player(player)
    ]


def _big(game: BigGame, name: Namer) -> dict:
    record = game.record
    tournament = record.ref.tournament
    if record.kind.is_solo and record.soloist is not None:
        who = [name(record.players[record.soloist - 1], tournament)]
    else:
        who = [name(record.players[p - 1], tournament) for p in sorted(record.winners)]
    won = record.soloist in record.winners if record.kind.is_solo else True
    return {"value": game.value, "kind": record.kind, "who": who, "won": won, "ref": record.ref}


def _event_section(
    figures: domain.Figures, key: Hashable, stats: Statistics, name: Namer, shown: Callable
) -> dict:
    most, leaders = stats.most_solos()
    players = [
        (name(p, None), shown(p), s) for p, s in stats.players.items() if shown(p) is not False
    ]
    players.sort(key=lambda row: (-row[2].points, row[0]))
    return {
        "label": figures.labels.get(key, ""),
        "stats": stats,
        "facts": _event_facts(stats),
        "kinds": [(kind, stats.kinds[kind]) for kind in domain.KIND_ORDER],
        "biggest": [_big(game, name) for game in stats.biggest()],
        "most_solos": most,
        "solo_leaders": [(name(s.player, None), s.solo) for s in leaders],
        "rounds": [
            {"name": name(r.player, r.ref.tournament), "points": r.points, "ref": r.ref}
            for r in stats.highest_rounds()
        ],
        # A penalty is a row of points for every player (TSR 9): it counts once, by the
        # player it was given to (the one who loses points).
        "penalties": sum(1 for p in stats.penalties if p.points < 0),
        "players": players,
    }


def _event_context(figures: domain.Figures, *, public: bool, link: Callable) -> dict:
    """``link(player)``: the address of the player's page, "" for none (no consent)."""
    name = _namer(figures, public=public)
    sections = [
        _event_section(figures, key, stats, name, link) for key, stats in figures.by_profile.items()
    ]
    return {"sections": sections, "stats_tournaments": figures.tournaments, "director": not public}


# A tournament -------------------------------------------------------------------------------


def _tournament_body(request, tournament: Tournament, *, public: bool) -> str:
    figures = domain.figures(tournament, public=public)
    numbers = {p: figures.person(p, tournament.pk) for p in figures.people}

    def link(player) -> str | bool:
        person = numbers.get(player)
        if person is None:
            return ""
        if public:
            if not person.publish:
                return False  # not listed at all
            return reverse("statistics-player", args=[tournament.slug, person.number])
        return reverse("manage:statistics-player", args=[tournament.slug, person.number])

    context = {
        **_event_context(figures, public=public, link=link),
        "tournament": tournament,
        "public_page": public,
        "hidden_tournaments": _hidden(figures, public=public),
    }
    return render_to_string("tournament/statistics/_event.html", context, request)


def tournament_statistics(request, slug):
    tournament = get_object_or_404(Tournament, slug=slug, is_public=True)
    family = ("statistics-page", tournament.pk, get_language())
    render_body = partial(_tournament_body, request, tournament, public=True)
    body = mark_safe(_rendered(family, tournament, render_body))  # noqa: S308
    context = {"tournament": tournament, "body": body, "public_page": True}
    return render(request, "tournament/statistics/tournament.html", context)


def _player_body(request, tournament: Tournament, entry, *, public: bool) -> str:
    figures = domain.figures(tournament, public=public)
    context = {
        "tournament": tournament,
        "entry": entry,
        "name": entry.player.full_name,
        "sections": _player_sections(figures, entry.player_id, _namer(figures, public=public)),
        "stats_tournaments": figures.tournaments,
        "director": not public,
        "public_page": public,
        "hidden_tournaments": _hidden(figures, public=public),
    }
    return render_to_string("tournament/statistics/_player.html", context, request)


def player_statistics(request, slug, number):
    """A player's figures in a public tournament: only with the player's consent. The entry
    is looked up first, so that the pages kept are bounded by the entries, not by numbers
    anybody may type."""
    tournament = get_object_or_404(Tournament, slug=slug, is_public=True)
    entry = domain.entry_player(tournament, number)
    if entry is None or not entry.publish:
        raise Http404
    family = ("statistics-player", tournament.pk, number, get_language())
    render_body = partial(_player_body, request, tournament, entry, public=True)
    body = mark_safe(_rendered(family, tournament, render_body))  # noqa: S308
    context = {"tournament": tournament, "body": body, "public_page": True}
    return render(request, "tournament/statistics/tournament.html", context)


@director_required
def manage_statistics(request, slug):
    """The director's view of the event: every player, every figure, every game linked."""
    tournament = get_managed_tournament(request, slug)
    body = mark_safe(_tournament_body(request, tournament, public=False))  # noqa: S308
    context = {"tournament": tournament, "body": body}
    return render(request, "tournament/statistics/manage.html", context)


@director_required
def manage_player_statistics(request, slug, number):
    tournament = get_managed_tournament(request, slug)
    entry = domain.entry_player(tournament, number)
    if entry is None:
        raise Http404
    body = mark_safe(_player_body(request, tournament, entry, public=False))  # noqa: S308
    context = {"tournament": tournament, "body": body}
    return render(request, "tournament/statistics/manage.html", context)


# Zahlen des Tages ---------------------------------------------------------------------------


def _day(request, tournament: Tournament, *, public: bool):
    def render_page() -> str:
        figures = domain.figures(tournament, public=public)
        name = _namer(figures, public=public)
        stats = next(iter(figures.by_profile.values()), None)
        section = None
        if stats is not None:
            section = _event_section(figures, tournament.profile, stats, name, lambda p: "")
        context = {
            "tournament": tournament,
            "section": section,
            "hidden_from": hidden_from(tournament) if public else None,
        }
        return render_to_string("tournament/statistics/day.html", context, request)

    family = ("statistics-day", tournament.pk, get_language(), public)
    response = HttpResponse(_rendered(family, tournament, render_page))
    response["X-Robots-Tag"] = "noindex, nofollow"
    return response


def public_day(request, slug):
    return _day(request, get_object_or_404(Tournament, slug=slug, is_public=True), public=True)


@director_required
def manage_day(request, slug):
    """The director's copy: full names (for a private tournament's screen use the projector's
    secret link, which names as the projector does)."""
    tournament = get_managed_tournament(request, slug)
    return _day(request, tournament, public=False)


def screen_day(request, token):
    """The projector's secret link opens it for any tournament; names as on the projector."""
    return _day(request, get_object_or_404(Tournament, projector_token=token), public=True)


# A series -----------------------------------------------------------------------------------


def _series_body(request, found: Series, state: tuple, *, public: bool) -> str:
    figures = _series_figures(found, state, public_only=public)

    def link(player) -> str | bool:
        if not public:
            return reverse("manage:series-player-statistics", args=[found.slug, player])
        if not figures.published(player):
            return False
        return reverse("series-player-statistics", args=[found.slug, player])

    context = {
        **_event_context(figures, public=public, link=link),
        "series": found,
        "public_page": public,
        "hidden_tournaments": _hidden(figures, public=public),
    }
    return render_to_string("tournament/statistics/_event.html", context, request)


def series_statistics(request, slug):
    found = get_object_or_404(Series, slug=slug, is_public=True)
    state = series_state(found)
    family = (
        "series-statistics-page",
        found.pk,
        found.version,
        get_language(),
        series_members(state[0]),
    )
    render_body = partial(_series_body, request, found, state, public=True)
    body = mark_safe(cached(family, state, render_body, settings.SERIES_CACHE_SECONDS))  # noqa: S308
    context = {"series": found, "body": body, "public_page": True}
    return render(request, "tournament/statistics/series.html", context)


def _directed_state(found: Series) -> tuple:
    return (series_key(found, public_only=False), timezone.localdate())


@director_required
def manage_series_statistics(request, slug):
    """The series directors' view: every player and every tournament the series counts."""
    found = get_directed_series(request, slug)
    body = mark_safe(_series_body(request, found, _directed_state(found), public=False))  # noqa: S308
    return render(request, "tournament/statistics/series.html", {"series": found, "body": body})


@director_required
def manage_series_player_statistics(request, slug, player):
    found = get_directed_series(request, slug)
    figures = _series_figures(found, _directed_state(found), public_only=False)
    if player not in figures.people:
        raise Http404
    context = {
        "series": found,
        "name": _namer(figures, public=False)(player, None),
        "player_pk": player,
        "sections": _player_sections(figures, player, _namer(figures, public=False)),
        "stats_tournaments": figures.tournaments,
        "director": True,
        "public_page": False,
    }
    body = mark_safe(render_to_string("tournament/statistics/_player.html", context, request))  # noqa: S308
    return render(request, "tournament/statistics/series.html", {"series": found, "body": body})


def series_player_statistics(request, slug, player):
    """A player's figures over a public series: only when the player consented in every
    tournament of theirs the series counts (as the series names them)."""
    found = get_object_or_404(Series, slug=slug, is_public=True)
    state = series_state(found)

    # Only players the series counts and names have a page: the pages kept are bounded by
    # them, not by numbers anybody may type.
    figures = _series_figures(found, state, public_only=True)
    if not figures.published(player):
        raise Http404

    def render_body() -> str:
        context = {
            "series": found,
            "name": figures.public_name(player),
            "player_pk": player,
            "sections": _player_sections(figures, player, _namer(figures, public=True)),
            "stats_tournaments": figures.tournaments,
            "director": False,
            "public_page": True,
            "hidden_tournaments": _hidden(figures, public=True),
        }
        return render_to_string("tournament/statistics/_player.html", context, request)

    family = (
        "series-statistics-player",
        found.pk,
        player,
        get_language(),
        series_members(state[0]),
    )
    body = mark_safe(cached(family, state, render_body, settings.SERIES_CACHE_SECONDS))  # noqa: S308
    context = {"series": found, "body": body, "public_page": True}
    return render(request, "tournament/statistics/series.html", context)
