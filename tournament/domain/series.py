"""A series' table: every player's results in the series' tournaments, the value the
series' scoring method makes of them, and the rank.

What counts: the closed rounds of the member tournaments — a running tournament counts
with the rounds closed so far and is marked as running. Results follow the player in the
player database (``Entry.player``), so a merge of two players carries into every series.
Within one tournament a player's rank is the tournament's own (its tie-breakers) over the
closed rounds; a disqualified player's result does not count.

The methods:

* **sum**: the totals of all tournaments added up;
* **best**: the ``best_of`` best totals added up (the others are listed, marked);
* **average**: the points of all counted rounds divided by their number (Rundenschnitt);
* **placement**: points by place from the director's table; players sharing a place share
  the points of the places they hold (two on 1st with 20, 18: 19 each).

``min_rounds`` lists players with fewer counted rounds apart; ``window_months`` drops the
tournaments played before the window (counted back from ``today``). Equal values share the
rank unless the director's tie-breakers decide.

A fixed number of queries, whatever the number of tournaments and players: the tournaments,
the entries, the seats, the game sums and the penalty sums are each read in one query.
"""

from __future__ import annotations

import datetime
from collections import defaultdict
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from ..models import (
    Entry,
    Game,
    Penalty,
    Player,
    RoundStatus,
    Seat,
    Series,
    SeriesMethod,
    SeriesTiebreak,
    Tournament,
    TournamentStatus,
)
from ..models.audit import stamp
from ..names import fold
from .standings import Line, assign_ranks, rank_lines, table_sums

# Why a result does not count towards the series value.
OUTSIDE_WINDOW, NOT_BEST, DISQUALIFIED = "window", "not-best", "disqualified"


@dataclass
class Result:
    """One player's result in one tournament of the series (its closed rounds)."""

    tournament: Tournament
    line: Line  # the tournament standings' line: rounds, penalties, rank
    field_size: int = 0  # ranked players of the tournament
    placement_points: Fraction | None = None
    left_out: str = ""  # OUTSIDE_WINDOW, NOT_BEST, DISQUALIFIED, or "" when it counts

    @property
    def counted(self) -> bool:
        return not self.left_out

    @property
    def total(self) -> int:
        return self.line.total

    @property
    def rank(self) -> int | None:
        return self.line.rank

    @property
    def rounds_played(self) -> int:
        return self.line.rounds_played

    @property
    def round_points(self) -> list[tuple[int, int]]:
        return sorted(self.line.rounds.items())

    @property
    def note(self) -> str:
        return {
            OUTSIDE_WINDOW: _("before the time window"),
            NOT_BEST: _("not among the best results"),
            DISQUALIFIED: _("disqualified"),
        }.get(self.left_out, "")


@dataclass
class SeriesLine:
    player: Player
    results: list[Result] = field(default_factory=list)  # by tournament date
    value: Fraction = Fraction(0)
    rank: int | None = None

    @property
    def counted(self) -> list[Result]:
        return [result for result in self.results if result.counted]

    @property
    def rounds(self) -> int:
        return sum(result.rounds_played for result in self.counted)

    @property
    def tournaments(self) -> int:
        return len(self.counted)

    @property
    def points(self) -> int:
        return sum(result.total for result in self.counted)


@dataclass
class TournamentInfo:
    tournament: Tournament
    closed_rounds: int
    running: bool
    in_window: bool
    players: int  # players with a result in its closed rounds


@dataclass
class SeriesStandings:
    series: Series
    lines: list[SeriesLine]  # ranked, by rank
    below_minimum: list[SeriesLine]  # not (yet) ranked: too few rounds
    tournaments: list[TournamentInfo]
    generated_at: datetime.datetime
    players: dict[int, SeriesLine] = field(default_factory=dict)  # every player, by pk

    @property
    def running(self) -> list[Tournament]:
        return [info.tournament for info in self.tournaments if info.running]

    @property
    def decimals(self) -> int:
        """Digits after the point the values are shown with."""
        if self.series.method == SeriesMethod.AVERAGE:
            return 2
        every = self.lines + self.below_minimum
        return 0 if all(line.value.denominator == 1 for line in every) else 2

    def shown(self, value: Fraction) -> Decimal:
        """A value as shown and exported: rounded half up to ``decimals`` digits."""
        step = Decimal(1).scaleb(-self.decimals)
        exact = Decimal(value.numerator) / Decimal(value.denominator)
        return exact.quantize(step, rounding=ROUND_HALF_UP)

    def possible_duplicates(self) -> list[list[Player]]:
        """Players of the series whose names are the same but for spelling (umlauts,
        accents, case): perhaps one person entered twice. A director decides and merges;
        the player with a DDV member number (else the older row) comes first."""
        groups: dict[str, list[Player]] = defaultdict(list)
        for line in self.players.values():
            groups[fold(line.player.first_name, line.player.last_name)].append(line.player)
        return [
            sorted(group, key=lambda p: (not p.ddv_number, p.pk))
            for group in groups.values()
            if len(group) > 1
        ]

    def line_of(self, player_pk: int) -> SeriesLine | None:
        """The player's line, also when none of their results counts (all too old)."""
        return self.players.get(player_pk)


def save_series(series: Series, tournaments, user) -> Series:
    """Save a new or changed ``series`` with its ``tournaments``, in the history under
    ``user``; who creates a series directs it."""
    created = series.pk is None
    with transaction.atomic():
        stamp(series, user)
        series.save()
        series.tournaments.set(tournaments)
        if created:
            series.directors.add(user)
    return series


def window_start(series: Series, today: datetime.date) -> datetime.date | None:
    """The first day a tournament may have been played on to count, or None (no window)."""
    if not series.window_months:
        return None
    months = today.year * 12 + today.month - 1 - series.window_months
    year, month = divmod(months, 12)
    month += 1
    # The same day of the month, or the month's last day (31 March minus one month).
    for day in (today.day, 30, 29, 28):
        try:
            return datetime.date(year, month, day) + datetime.timedelta(days=1)
        except ValueError:
            continue
    raise AssertionError("unreachable")  # pragma: no cover


def _tournament_lines(tournaments: list[Tournament]) -> dict[int, list[Line]]:
    """Per tournament id: the standings lines of its closed rounds, ranked by the
    tournament's rules — five queries for all tournaments together."""
    ids = [t.pk for t in tournaments]
    entries = Entry.objects.filter(tournament_id__in=ids).select_related("player")
    lines: dict[int, Line] = {}
    entry_tournament: dict[int, int] = {}
    for entry in entries:
        lines[entry.pk] = Line(entry)
        entry_tournament[entry.pk] = entry.tournament_id
    closed = {"round__tournament_id__in": ids, "round__status": RoundStatus.CLOSED}
    seat_of: dict[tuple[int, int], int] = {}
    round_of: dict[int, int] = {}
    seats = Seat.objects.filter(**closed).values_list(
        "table_id", "position", "entry_id", "round__number"
    )
    for table_id, position, entry_id, number in seats:
        seat_of[table_id, position] = entry_id
        round_of[table_id] = number
        lines[entry_id].rounds.setdefault(number, 0)
    on_tables = {f"table__{key}": value for key, value in closed.items()}
    for table_id, position, value in table_sums(Game.objects.filter(**on_tables)):
        owner = seat_of.get((table_id, position))
        if owner is not None:
            lines[owner].rounds[round_of[table_id]] += value
    penalties = Penalty.objects.counting().filter(**on_tables)
    for table_id, position, value in table_sums(penalties):
        owner = seat_of.get((table_id, position))
        if owner is not None:
            lines[owner].penalties += value
    played: dict[int, list[Line]] = defaultdict(list)
    for entry_id, line in lines.items():
        if line.rounds:
            played[entry_tournament[entry_id]].append(line)
    return played


def _shared_points(table: list[int], rank: int, sharing: int) -> Fraction:
    """The placement points of ``sharing`` players on ``rank``: the points of the places
    rank .. rank + sharing - 1, shared equally."""
    places = range(rank - 1, rank - 1 + sharing)
    return Fraction(sum(table[p] for p in places if p < len(table)), sharing)


def _results(series: Series, tournaments: list[Tournament]) -> dict[int, SeriesLine]:
    players: dict[int, SeriesLine] = {}
    table = series.points_table
    for tournament, lines in _played(tournaments).items():
        ranked = rank_lines([line for line in lines if not line.disqualified], tournament)
        sharing: dict[int, int] = defaultdict(int)
        for line in ranked:
            sharing[line.rank or 0] += 1
        for line in ranked + [line for line in lines if line.disqualified]:
            result = Result(tournament, line, field_size=len(ranked))
            if line.disqualified:
                result.left_out = DISQUALIFIED
            elif line.rank is not None:
                result.placement_points = _shared_points(table, line.rank, sharing[line.rank])
            player = line.entry.player
            players.setdefault(player.pk, SeriesLine(player)).results.append(result)
    return players


def _played(tournaments: list[Tournament]) -> dict[Tournament, list[Line]]:
    lines = _tournament_lines(tournaments)
    return {t: lines[t.pk] for t in tournaments if lines.get(t.pk)}


def _score(series: Series, line: SeriesLine) -> None:
    """The series value of ``line``; with "best", marks the results that do not count."""
    method = series.method
    if method == SeriesMethod.BEST and series.best_of:
        kept = sorted(line.counted, key=lambda r: (-r.total, r.tournament.date))
        for result in kept[series.best_of :]:
            result.left_out = NOT_BEST
    counted = line.counted
    if method == SeriesMethod.AVERAGE:
        rounds = sum(result.rounds_played for result in counted)
        line.value = Fraction(line.points, rounds) if rounds else Fraction(0)
    elif method == SeriesMethod.PLACEMENT:
        line.value = sum((r.placement_points or Fraction(0) for r in counted), Fraction(0))
    else:
        line.value = Fraction(line.points)


def _best(series: Series, line: SeriesLine) -> Fraction:
    if series.method == SeriesMethod.PLACEMENT:
        return max((r.placement_points or Fraction(0) for r in line.counted), default=Fraction(0))
    return Fraction(max((r.total for r in line.counted), default=0))


def _key(series: Series, line: SeriesLine) -> tuple:
    key: list = [-line.value]
    for rule in series.tiebreaks:
        if rule == SeriesTiebreak.ROUNDS:
            key.append(-line.rounds)
        elif rule == SeriesTiebreak.TOURNAMENTS:
            key.append(-line.tournaments)
        elif rule == SeriesTiebreak.BEST_RESULT:
            key.append(-_best(series, line))
        elif rule == SeriesTiebreak.BEST_PLACE:
            places = [r.rank for r in line.counted if r.rank is not None]
            key.append(min(places, default=10**6))
    return tuple(key)


def compute(series: Series, *, today: datetime.date | None = None) -> SeriesStandings:
    today = today or timezone.localdate()
    start = window_start(series, today)
    tournaments = list(series.tournaments.with_status().order_by("date", "name", "pk"))
    players = _results(series, tournaments)
    for line in players.values():
        line.results.sort(key=lambda r: (r.tournament.date, r.tournament.name, r.tournament.pk))
        for result in line.results:
            if start and result.tournament.date < start and result.counted:
                result.left_out = OUTSIDE_WINDOW
        _score(series, line)
    everybody = [line for line in players.values() if line.counted]
    ranked = [line for line in everybody if line.rounds >= series.min_rounds]
    below = [line for line in everybody if line.rounds < series.min_rounds]

    def order(line: SeriesLine) -> tuple:
        return (_key(series, line), line.player.last_name, line.player.first_name, line.player.pk)

    ranked.sort(key=order)
    assign_ranks(ranked, lambda line: _key(series, line))
    below.sort(key=lambda line: (-line.rounds, order(line)))
    counts: dict[int, int] = defaultdict(int)
    for line in players.values():
        for result in line.results:
            counts[result.tournament.pk] += 1
    infos = [
        TournamentInfo(
            tournament=t,
            closed_rounds=t.rounds_closed_count,  # type: ignore[attr-defined]
            running=t.status != TournamentStatus.FINISHED,
            in_window=not start or t.date >= start,
            players=counts[t.pk],
        )
        for t in tournaments
    ]
    return SeriesStandings(series, ranked, below, infos, timezone.now(), players)
