"""What the projector in the hall shows: the running round's clock, the seating by name,
the state of every table and the standings.

A read only, as plain data the page polls (JSON): names, numbers and state codes; the page
holds the words in the reader's language. A fixed number of queries whatever the size of the
field: the rounds, the tables with their game counts, the seats with their players, and
the standings' own reads.
"""

from __future__ import annotations

from datetime import datetime

from django.db.models import Count
from django.utils import timezone

from ..models import Round, RoundStatus, Seat, SheetStatus, Tournament, pseudonym
from ..models.names import sort_key
from ..models.sheet import KIND_LABELS
from . import standings as standings_domain
from . import statistics as statistics_domain
from .sheets import clock, current_round

DONE, PLAYING, WAITING = "done", "playing", "waiting"


def _clock_entry(ends_at: datetime | None, now: datetime) -> dict | None:
    if ends_at is None:
        return None
    return {
        "seconds_left": max(0, int((ends_at - now).total_seconds())),
        "ends_at": timezone.localtime(ends_at).strftime("%H:%M"),
    }


def _tables(round_: Round, now: datetime) -> tuple[list[dict], dict]:
    """Each table's number and state, and the round's clock per table size (the end without
    extra time: the time most tables play to)."""
    profile = round_.tournament.profile
    tables = (
        round_.tables.select_related("sheet").annotate(game_count=Count("games")).order_by("number")
    )
    rows: list[dict] = []
    ends: dict[int, datetime] = {}
    for table in tables:
        table.round = round_  # the clock reads the round and its tournament: no query each
        ends_at = clock(table).ends_at
        if table.sheet.extra_minutes == 0 and ends_at is not None:
            ends.setdefault(table.size, ends_at)
        if table.sheet.status in (SheetStatus.SUBMITTED, SheetStatus.CONFIRMED):
            state = DONE
        elif table.game_count:
            state = PLAYING
        else:
            state = WAITING
        rows.append(
            {
                "number": table.number,
                "size": table.size,
                "state": state,
                "games": table.game_count,
                "nominal": profile.games_per_round(table.size),
                "extra_minutes": table.sheet.extra_minutes,
            }
        )
    running = round_.status == RoundStatus.RELEASED
    return rows, (ends if running else {})


def _seating(round_: Round) -> list[dict]:
    seats = Seat.objects.filter(round=round_).values_list(
        "table__number",
        "position",
        "entry__start_number",
        "entry__player__first_name",
        "entry__player__last_name",
        "entry__publish",
    )
    # German phone-book order, as on the printed seat list; the players who did not consent
    # to publication (README, "Datenschutz / privacy") by their pseudonym, after the names.
    rows = sorted(
        seats,
        # The pseudonyms by number alone: an order by their hidden names would hint at them.
        key=lambda s: (not s[5], *((sort_key(s[4]), sort_key(s[3])) if s[5] else ()), s[2]),
    )
    return [
        {
            "last": last if publish else pseudonym(number),
            "first": first if publish else "",
            "table": table,
            "position": position,
        }
        for table, position, number, first, last, publish in rows
    ]


def _standings(tournament: Tournament) -> dict:
    standings = standings_domain.compute(tournament, public=True)  # every screen is public
    lines = [
        {
            "rank": line.rank,
            "name": line.entry.public_name,
            "total": line.total,
            "note": line.entry.status if (line.withdrawn or line.disqualified) else "",
        }
        for line in standings.lines
    ]
    return {
        "provisional": standings.provisional,
        "rounds": standings.round_numbers,
        # Nothing counted yet: a list of zeros tells the hall nothing.
        "lines": lines if standings.round_numbers else [],
        # Hidden standings (issue 38): the screen says from which round on.
        "hidden_from": standings.hidden_from,
    }


def day(tournament: Tournament) -> dict | None:
    """The numbers of the day (the optional slide, ``?zahlen=1``, asked for only by a screen
    that shows it): names as on the seating, the kind in words of the reader's language."""
    # Computed when a result changed; public: the screen never shows hidden rounds.
    figures = statistics_domain.figures(tournament, public=True)
    stats = next(iter(figures.by_profile.values()), None)
    if stats is None or not stats.games:
        return None

    def name(player) -> str:
        person = figures.person(player, tournament.pk)
        return person.public if person else ""

    def where(ref) -> dict:
        return {"round": ref.round, "table": ref.table, "game": ref.game}

    day: dict = {"biggest": None, "solos": None, "round": None}
    biggest = stats.biggest(1)
    if biggest:
        game = biggest[0].record
        if game.kind.is_solo and game.soloist is not None:
            who = [game.players[game.soloist - 1]]
        else:
            who = [game.players[p - 1] for p in sorted(game.winners)]
        day["biggest"] = {
            "value": biggest[0].value,
            "kind": str(KIND_LABELS[game.kind]),
            "who": ", ".join(name(p) for p in who if p is not None),
            **where(game.ref),
        }
    most, leaders = stats.most_solos()
    if most:
        day["solos"] = {"count": most, "who": ", ".join(name(s.player) for s in leaders)}
    best = stats.highest_rounds(1)
    if best:
        day["round"] = {"points": best[0].points, "who": name(best[0].player), **where(best[0].ref)}
    return day


def at(data: dict, now: datetime) -> dict:
    """What ``read`` found, with the clocks as of ``now``: the data is computed once per
    version of the tournament, the clocks move on every poll."""
    shown = {key: value for key, value in data.items() if key != "ends"}
    ends = data["ends"]
    shown["clock"] = {str(size): _clock_entry(ends_at, now) for size, ends_at in ends.items()}
    shown["generated_at"] = timezone.localtime(now).strftime("%H:%M")
    return shown


def read(tournament: Tournament) -> dict:
    """Everything the projector shows (``at`` adds the clocks), ready for JSON."""
    now = timezone.now()
    round_ = current_round(tournament)
    data: dict = {
        "tournament": tournament.name,
        "round": None,
        "ends": {},
        "tables": [],
        "seating": [],
        "standings": _standings(tournament),
    }
    if round_ is not None:
        round_.tournament = tournament
        data["round"] = {"number": round_.number, "running": round_.status == RoundStatus.RELEASED}
        data["tables"], data["ends"] = _tables(round_, now)
        data["seating"] = _seating(round_)
    return data
