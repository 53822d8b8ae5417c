"""Pages for everybody, no login."""

from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe
from django.utils.translation import get_language

from ..base.caching import cached
from ..forms.registrations import registration_summary
from ..models import EntryStatus, Round, RoundStatus, Seat, Series, Table, Tournament
from ..models.names import name_matches, query_words
from ..models.round import seats_with_players
from ..models.round_status import started as round_started
from ..queries.registrations import CLOSED
from ..queries.service import clubs_with_tournaments, home_lists
from ..queries.sheets import current_round


def home(request):
    # Running now, still to come, the latest results (the results service has many clubs'
    # tournaments; the hall a few): each list bounded, queries/service.py.
    lists = home_lists()
    for tournament in lists["running"] + lists["upcoming"]:
        # "Register" on the card while registration is open or about to open.
        summary = registration_summary(tournament) if tournament.registration_open else None
        shown = summary if summary and summary["phase"] != CLOSED else None
        tournament.registration_shown = shown  # type: ignore[attr-defined]
    series_list = Series.objects.filter(is_public=True)
    context = {
        **lists,
        "any_tournament": any(lists.values()),
        "series_list": series_list,
        "clubs": clubs_with_tournaments(),
    }
    return render(request, "tournament/home.html", context)


def tournament_public(request, slug):
    tournament = get_object_or_404(Tournament, slug=slug, is_public=True)

    def render_participants() -> str:
        entries = list(
            tournament.entries.exclude(status=EntryStatus.WITHDRAWN)
            .select_related("player", "team")
            .order_by("start_number")
        )
        listing = {
            "entries": entries,
            # No empty column: a tournament without teams (or clubs) shows none.
            "with_club": any(entry.public_club for entry in entries),
            "with_team": any(entry.team_id for entry in entries),
        }
        return render_to_string("tournament/partials/participants_body.html", listing)

    family = ("participants", tournament.pk, get_language())
    participants = cached(family, tournament.results_version, render_participants)
    context = {
        "tournament": tournament,
        "registration_summary": registration_summary(tournament),
        "participants": mark_safe(participants),  # noqa: S308 - rendered above
    }
    return render(request, "tournament/public_detail.html", context)


# "Wo sitze ich?" shows this many players at most; more means: type more of the name.
MAX_MATCHES = 20


def find_entries(tournament: Tournament, query: str) -> list[int]:
    """The ids of the tournament's entries a search finds, by start number.

    A start number finds that player. Otherwise every word of the query must occur in the
    first or last name, spelled any way ``names.fold`` treats as equal (Kässmann, Kaessmann,
    kassmann; Weiß, weiss), so that a part of the name is enough; a word of digits also
    finds the start number. A player who did not consent to publication is found by the
    start number only: a name search must not tell that they play. The names of one
    tournament are few (hundreds), so they are compared here rather than with a database
    pattern.
    """
    entries = tournament.entries.order_by("start_number")
    if query.isdecimal() and len(query) < 10:
        return list(entries.filter(start_number=int(query)).values_list("pk", flat=True))
    words = query_words(query)
    if not words:
        return []
    people = entries.filter(publish=True).values_list(
        "pk", "start_number", "player__first_name", "player__last_name"
    )
    found = []
    for pk, number, first, last in people:
        # A word of digits may be the start number; every other word is part of the name.
        if name_matches([word for word in words if word != str(number)], first, last):
            found.append(pk)
    return found


def where_do_i_sit(request, slug):
    """ "Wo sitze ich?": a player finds their table and position in the released rounds."""
    tournament = get_object_or_404(Tournament, slug=slug, is_public=True)
    query = " ".join(request.GET.get("q", "")[:100].split())
    context = {"tournament": tournament, "query": query, "matches": [], "more": 0}
    if query and not query_words(query):
        context["unreadable"] = True
    elif query:
        found = find_entries(tournament, query)
        context["more"] = max(0, len(found) - MAX_MATCHES)
        context["matches"] = _seats_of(tournament, found[:MAX_MATCHES])
    return render(request, "tournament/where_do_i_sit.html", context)


def _seats_of(tournament: Tournament, pks: list[int]) -> list[dict]:
    """Per entry: its seats in the released and closed rounds, and the one of the current
    round (the one the public table plan shows)."""
    if not pks:
        return []
    entries = tournament.entries.select_related("player").in_bulk(pks)
    seats = (
        Seat.objects.filter(round_started("round__"), entry__in=pks)
        .select_related("round", "table")
        .order_by("round__number")
    )
    by_entry: dict[int, list] = {}
    for seat in seats:
        by_entry.setdefault(seat.entry_id, []).append(seat)
    current = current_round(tournament)
    # "Now" is the round being played: once it is closed, nobody sits anywhere.
    playing = current.number if current and current.status == RoundStatus.RELEASED else None
    started = bool(by_entry) or tournament.rounds.started().exists()
    matches = []
    for pk in pks:
        mine = by_entry.get(pk, [])
        now = next((seat for seat in mine if seat.round.number == playing), None)
        matches.append({"entry": entries[pk], "seats": mine, "now": now, "started": started})
    return matches


def table_plan(request, slug):
    """The tables of the current round (:func:`~tournament.queries.sheets.current_round`),
    for the hall."""
    tournament = get_object_or_404(Tournament, slug=slug, is_public=True)

    def render_plan() -> tuple[Round | None, str]:
        round_ = current_round(tournament)
        tables = Table.objects.none()
        if round_ is not None:
            tables = round_.tables.prefetch_related(seats_with_players()).order_by("number")
        body = render_to_string("tournament/partials/table_plan_body.html", {"tables": tables})
        return round_, body

    # The whole hall opens it when a round is released: made once per seating (the results
    # version: the keepers' saves leave it, tournament/base/versions.py) and language.
    family = ("table-plan", tournament.pk, get_language())
    round_, body = cached(family, tournament.results_version, render_plan)
    context = {"tournament": tournament, "round": round_, "body": mark_safe(body)}  # noqa: S308
    return render(request, "tournament/table_plan.html", context)
