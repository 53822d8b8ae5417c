"""Standings: every player's points per round, penalties, total and rank; team sums.

What counts: the sheets of closed rounds and confirmed sheets — or, when the director
switches the tournament to live standings, every game entered so far, marked provisional.
Penalty rows count once a referee has signed them. Equal totals share a rank unless the
tournament names tie-breakers (best single round, more rounds played). Disqualified
players are listed at the end without a rank; withdrawn players keep their points.
Registered players who never had a seat in a released or closed round ("not started") are
not ranked at all: they stand apart in ``Standings.absent`` and count for no team — with
plus-minus scoring their 0 would otherwise rank them above everybody who played and lost.

A closed round counts with its stored results (``RoundResult``, written by the verbs that
close and correct it); only the running round is summed from its games. A fixed number of
queries, whatever the size of the field: the stored results, and the seats, game rows and
penalty rows of the running round's tables, each in one query.

Hidden standings (issue 38): a tournament's ``hide_standings_from`` N keeps the results of
rounds N, N+1, ... from every public page, file and the results service until the director
reveals them after the prize ceremony. One rule, here: ``compute(..., public=True)`` and
:func:`public_rounds` count only the rounds before N; the office counts everything.
"""

from __future__ import annotations

import datetime
from collections import defaultdict
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import TypeVar

from django.db.models import Exists, F, OuterRef, Q, Sum
from django.utils import timezone
from django.utils.translation import gettext as _

from ..models import (
    Entry,
    EntryStatus,
    Game,
    Penalty,
    Round,
    RoundStatus,
    Seat,
    SheetStatus,
    Tournament,
    TournamentStatus,
)
from ..models.round_status import started as round_started

FINAL, PROVISIONAL = "final", "provisional"


class Tally:
    """A player's points in one tournament, what ranks them: ``rounds`` (round number ->
    game points), ``penalties``, and the entry's ``status`` and ``start_number`` (equal
    players stand by start number). The standings' :class:`Line` and a series' result
    (``domain.series.Played``) are tallies."""

    rounds: dict[int, int]
    penalties: int
    rank: int | None

    @property
    def status(self) -> str:
        raise NotImplementedError

    @property
    def start_number(self) -> int:
        raise NotImplementedError

    @property
    def total(self) -> int:
        return sum(self.rounds.values()) + self.penalties

    @property
    def best_round(self) -> int | None:
        return max(self.rounds.values(), default=None)

    @property
    def rounds_played(self) -> int:
        return len(self.rounds)

    @property
    def disqualified(self) -> bool:
        return self.status == EntryStatus.DISQUALIFIED

    @property
    def withdrawn(self) -> bool:
        return self.status == EntryStatus.WITHDRAWN


@dataclass
class Line(Tally):
    """One player's row of the standings."""

    entry: Entry
    rounds: dict[int, int] = field(default_factory=dict)  # round number -> game points
    penalties: int = 0
    rank: int | None = None

    @property
    def status(self) -> str:
        return self.entry.status

    @property
    def start_number(self) -> int:
        return self.entry.start_number

    @property
    def note(self) -> str:
        """What the printed and shown standings say next to the name."""
        if self.disqualified:
            return _("disqualified")
        return _("withdrawn") if self.withdrawn else ""


@dataclass
class TeamLine:
    name: str
    members: list[Line]
    rank: int | None = None

    @property
    def total(self) -> int:
        # Every member's points as played: a disqualification changes nothing for the team,
        # so no team can gain (or lose) by it.
        return sum(m.total for m in self.members)


@dataclass
class Standings:
    tournament: Tournament
    round_numbers: list[int]
    lines: list[Line]
    teams: list[TeamLine]
    state: str
    generated_at: object
    # Registered, but never seated in a released or closed round: no rank, by start number.
    absent: list[Line] = field(default_factory=list)
    # The public standings of a tournament that hides rounds from this one on (issue 38);
    # None on the office's standings and when nothing is hidden.
    hidden_from: int | None = None

    @property
    def provisional(self) -> bool:
        return self.state == PROVISIONAL


def hidden_from(tournament: Tournament) -> int | None:
    """The first round whose results the public does not see yet, or None (all shown)."""
    return tournament.hide_standings_from


@dataclass(frozen=True)
class HidingChange:
    """The last change of a tournament's hidden rounds in its history: when, by whom (account
    name, empty when unknown) and the first hidden round after it (None: revealed)."""

    at: datetime.datetime
    by: str
    hidden_from: int | None


def last_hiding_change(tournament: Tournament, depth: int = 200) -> HidingChange | None:
    """Who hid or revealed the rounds last, read from the newest ``depth`` records of the
    tournament's history; None when they hold no such change."""
    records = list(
        tournament.history.order_by("-history_date", "-history_id").values_list(
            "hide_standings_from", "history_date", "history_user__username"
        )[:depth]
    )
    for newer, older in zip(records, [*records[1:], None], strict=True):
        if older is None and len(records) == depth:
            return None  # the change lies further back
        if older is None or older[0] != newer[0]:
            if older is None and newer[0] is None:
                return None  # made without hiding, never changed since
            return HidingChange(newer[1], newer[2] or "", newer[0])
    return None


def shown_publicly(tournament: Tournament, number: int) -> bool:
    """Whether round ``number``'s results may be shown on a public page or in a public file."""
    first = hidden_from(tournament)
    return first is None or number < first


def public_rounds(prefix: str = "") -> Q:
    """The condition that a round (at ``prefix``, e.g. "table__round__") shows its results
    publicly: its tournament hides nothing, or it comes before the first hidden round. The
    database form of :func:`shown_publicly`, for the reads of many tournaments at once."""
    return Q(**{f"{prefix}tournament__hide_standings_from__isnull": True}) | Q(
        **{f"{prefix}number__lt": F(f"{prefix}tournament__hide_standings_from")}
    )


def counted_tables(tournament: Tournament, prefix: str = "") -> Q:
    """The tables whose sheets count, as a condition on ``prefix`` (e.g. "table__")."""
    released, closed = RoundStatus.RELEASED, RoundStatus.CLOSED
    if tournament.standings_live:
        return round_started(f"{prefix}round__")
    return Q(**{f"{prefix}round__status": closed}) | Q(
        **{f"{prefix}round__status": released, f"{prefix}sheet__status": SheetStatus.CONFIRMED}
    )


def tiebreak_key(line: Tally, tiebreak: str) -> tuple:
    """What orders ``line`` in the standings: minus its total, then the tournament's
    tie-breakers ``tiebreak`` (smaller is better)."""
    key: list[int] = [-line.total]
    for rule in tiebreak.split(","):
        if rule == "best-round":
            key.append(-(line.best_round or 0))
        elif rule == "rounds-played":
            key.append(-line.rounds_played)
    return tuple(key)


def assign_ranks(lines: list, key) -> None:
    """Competition ranking (1, 2, 2, 4): equal keys share a rank."""
    previous, rank = None, 0
    for index, line in enumerate(lines, start=1):
        current = key(line)
        if current != previous:
            rank, previous = index, current
        line.rank = rank


T = TypeVar("T", bound=Tally)


def rank_lines(lines: list[T], tiebreak: str) -> list[T]:
    """``lines`` in order of the standings, each with its rank (equal totals share one
    unless the tournament's tie-breakers ``tiebreak`` decide); equal players by start
    number."""

    keys = {id(line): tiebreak_key(line, tiebreak) for line in lines}  # once per line
    ranked = sorted(lines, key=lambda line: (keys[id(line)], line.start_number))
    assign_ranks(ranked, lambda line: keys[id(line)])
    return ranked


def tally_points(lines: Mapping[int, Tally], tables: Q) -> dict[int, int]:
    """Add to ``lines`` (by entry id) the game points per round and the penalty points of
    the seats at ``tables`` (a condition on "table__…" of seats, games and penalties), in
    three queries whatever their number; returns each table's round number by table id."""
    seat_of: dict[tuple[int, int], Tally] = {}  # (table id, position) -> the seated line
    round_of: dict[int, int] = {}
    seats = Seat.objects.filter(tables).values_list(
        "table_id", "position", "entry_id", "round__number"
    )
    for table_id, position, entry_id, number in seats:
        line = lines[entry_id]
        seat_of[table_id, position] = line
        round_of[table_id] = number
        line.rounds.setdefault(number, 0)
    for table_id, position, value in table_sums(Game.objects.filter(tables)):
        if (owner := seat_of.get((table_id, position))) is not None:
            owner.rounds[round_of[table_id]] += value
    for table_id, position, value in table_sums(Penalty.objects.counting().filter(tables)):
        if (owner := seat_of.get((table_id, position))) is not None:
            owner.penalties += value
    return round_of


def tally(
    lines: Mapping[int, Tally], tournaments: list[int], running: Q | None, *, public: bool = False
) -> set[int]:
    """Add to ``lines`` (by entry id) the points per round and the penalty points of the
    ``tournaments``' closed rounds as stored, and of the tables ``running`` (a condition on
    "table__…" of tables not in a closed round) summed from their games; returns the round
    numbers that count. A closed round without stored results (data written around the
    verbs: a fixture, a restored copy from before results were stored) is summed from its
    games too; ``manage.py checkresults`` reports it. ``public``: only the rounds whose
    results are public (:func:`public_rounds`; ``running`` must say so itself)."""
    # One query: each closed round with its stored rows (a round without any: one row of
    # None). The covering index round_result_read answers the rows.
    closed = Round.objects.filter(tournament_id__in=tournaments, status=RoundStatus.CLOSED)
    if public:
        closed = closed.filter(public_rounds())
    number_of: dict[int, int] = {}
    stored: set[int] = set()
    for round_id, number, entry_id, points, penalties in closed.order_by().values_list(
        "pk", "number", "results__entry_id", "results__points", "results__penalties"
    ):
        number_of[round_id] = number
        if entry_id is None:
            continue
        stored.add(round_id)
        if (line := lines.get(entry_id)) is not None:
            line.rounds[number] = points
            line.penalties += penalties
    numbers = {number_of[pk] for pk in stored}
    unstored = [pk for pk in number_of if pk not in stored]
    if unstored:
        fallback = Q(table__round_id__in=unstored)
        running = fallback if running is None else running | fallback
    if running is not None:
        numbers |= set(tally_points(lines, running).values())
    return numbers


def final(tournament: Tournament) -> bool:
    """Whether the office's standings, and so the prize list and its documents, are final:
    exactly when the tournament is finished (the public standings are not while rounds are
    hidden). The one rule every "provisional" of the office follows."""
    return tournament.status == TournamentStatus.FINISHED


def compute(tournament: Tournament, *, public: bool = False) -> Standings:
    """The standings as the office sees them, or ``public``: as every public page, file and
    the results service show them, without the rounds the director hides (issue 38)."""
    played = Seat.objects.filter(round_started("round__"), entry=OuterRef("pk"))
    entries = (
        Entry.objects.filter(tournament=tournament)
        .annotate(seated=Exists(played))
        .select_related("player", "team")
        # The moments of check-in, fee and creation are no part of any standings: not
        # loaded, their conversion was a seventh of the computation for a big field.
        .defer("checked_in_at", "fee_changed_at", "created_at", "player__created_at")
        .order_by("start_number")
    )
    lines = {entry.pk: Line(entry) for entry in entries}
    absent = [line for line in lines.values() if not line.entry.seated]  # type: ignore[attr-defined]
    for line in absent:
        del lines[line.entry.pk]
    if not lines:  # before the first round is released nobody has "not started"
        absent = []
    running = (
        Q(table__round__tournament=tournament)
        & counted_tables(tournament, "table__")
        & ~Q(table__round__status=RoundStatus.CLOSED)
    )
    hiding = hidden_from(tournament) if public else None
    if hiding is not None:
        running &= Q(table__round__number__lt=hiding)
    numbers = tally(lines, [tournament.pk], running, public=public)

    playing = [line for line in lines.values() if not line.disqualified]
    ranked = rank_lines(playing, tournament.tiebreak)
    disqualified = sorted(
        (line for line in lines.values() if line.disqualified),
        key=lambda line: (-line.total, line.entry.start_number),
    )
    # Final exactly when the tournament is finished: one rule (Tournament.status); never
    # while rounds are hidden from the public.
    finished = final(tournament) and hiding is None
    state = FINAL if finished else PROVISIONAL
    return Standings(
        tournament=tournament,
        round_numbers=sorted(numbers),
        lines=ranked + disqualified,
        teams=_teams(ranked + disqualified),
        state=state,
        # A club's copy on the results service: the hall's time of that state, as its pages'
        # "Stand" line says (the copy's own clock would name the moment a reader came).
        generated_at=tournament.published_at or timezone.now(),
        absent=absent,
        hidden_from=hiding,
    )


def table_sums(rows) -> Iterator[tuple[int, int, int]]:
    """(table id, position, points) of the rows (games or penalties) summed per table and
    position in the database: one row per table, not per game."""
    columns = [f"p{position}" for position in range(1, 6)]
    sums = rows.values("table_id").annotate(*[Sum(c) for c in columns]).order_by()
    for table_id, *points in sums.values_list("table_id", *[f"{c}__sum" for c in columns]):
        for position, value in enumerate(points, start=1):
            if value:
                yield table_id, position, value


def _teams(lines: list[Line]) -> list[TeamLine]:
    """The teams of the players in ``lines`` (the ones who played): a member who never
    started adds nothing, and a team none of whose members started is not ranked."""
    members: dict[int, list[Line]] = defaultdict(list)
    names: dict[int, str] = {}
    for line in lines:
        team = line.entry.team
        if team is not None:
            members[team.pk].append(line)
            names[team.pk] = team.name
    teams = [TeamLine(names[pk], group) for pk, group in members.items()]
    teams.sort(key=lambda team: (-team.total, team.name))
    assign_ranks(teams, lambda team: team.total)
    return teams
