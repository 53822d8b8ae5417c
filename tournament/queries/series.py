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
the entries, the closed rounds and their stored results (``RoundResult``) are each read in
one query.
"""

from __future__ import annotations

import datetime
from collections import defaultdict
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from functools import cached_property

from django.utils import timezone
from django.utils.functional import lazy
from django.utils.translation import gettext as _

from ..models import (
    Entry,
    EntryStatus,
    Player,
    Series,
    SeriesMethod,
    SeriesTiebreak,
    Tournament,
    TournamentStatus,
    pseudonym,
)
from ..models.names import fold
from .standings import Tally, assign_ranks, hidden_from, rank_lines, tally

# Why a result does not count towards the series value.
OUTSIDE_WINDOW, NOT_BEST, DISQUALIFIED = "window", "not-best", "disqualified"


@dataclass
class Played(Tally):
    """A player's closed rounds in one tournament, ranked as the tournament ranks them.

    Read as plain values (no Entry objects): a series of 50 tournaments has 10,000 of them.
    """

    entry_id: int
    tournament_id: int
    player_id: int
    number: int  # start number
    state: str  # the entry's status
    publish: bool  # the player's consent to be named for this tournament
    rounds: dict[int, int] = field(default_factory=dict)
    penalties: int = 0
    rank: int | None = None
    _total: int | None = field(default=None, init=False, repr=False, compare=False)

    @property
    def status(self) -> str:
        return self.state

    @property
    def start_number(self) -> int:
        return self.number

    @property
    def disqualified(self) -> bool:
        return self.state == EntryStatus.DISQUALIFIED

    @property
    def total(self) -> int:  # read only once the rounds are in; kept (functools'
        if self._total is None:  # cached_property takes a lock on every read)
            self._total = sum(self.rounds.values()) + self.penalties
        return self._total


@dataclass
class Result:
    """One player's result in one tournament of the series (its closed rounds)."""

    tournament: Tournament
    line: Played
    field_size: int = 0  # ranked players of the tournament
    placement_points: Fraction | None = None
    shared: bool = False  # the place is shared with another player
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
    """A player's line of the series; the figures are set once by ``_score``."""

    player: Player
    results: list[Result] = field(default_factory=list)  # by tournament date
    value: Fraction = Fraction(0)
    rank: int | None = None
    # Rounds and tournaments in the window, not disqualified: a result beyond the best N
    # still counts here (for the minimum and the tie-breakers), only not for the value.
    rounds: int = 0
    tournaments: int = 0
    points: int = 0  # the totals of the counted results
    key: tuple = ()  # the sort key: value, then the director's tie-breakers
    # Shown as a pseudonym on the public pages (no consent): its results per tournament are
    # not listed there either, since the public standings of a tournament where the player
    # did consent would name them by rank and points.
    hidden: bool = False

    @property
    def counted(self) -> list[Result]:
        return [result for result in self.results if result.counted]


@dataclass
class TournamentInfo:
    tournament: Tournament
    closed_rounds: int
    status: str  # a TournamentStatus
    in_window: bool
    players: int  # players with a result in its closed rounds
    # The public table of a tournament that hides rounds from this one on (issue 38).
    hidden_from: int | None = None

    @property
    def public_rounds(self) -> int:
        """The closed rounds the public table counts: those before the first hidden one."""
        if self.hidden_from is None:
            return self.closed_rounds
        return max(0, min(self.closed_rounds, self.hidden_from - 1))

    @property
    def running(self) -> bool:
        return self.status == TournamentStatus.RUNNING

    @property
    def planned(self) -> bool:
        return self.status == TournamentStatus.PLANNED


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
    def hidden_tournaments(self) -> list[Tournament]:
        """The tournaments whose last rounds wait for their prize ceremony (public table)."""
        return [info.tournament for info in self.tournaments if info.hidden_from is not None]

    @cached_property  # read for every value shown: computed once
    def decimals(self) -> int:
        """Digits after the point the values are shown with: two for an average, and for
        placement points as soon as one result (not only one value) is a shared fraction —
        the results shown must add up to the value shown."""
        if self.series.method == SeriesMethod.AVERAGE:
            return 2
        every = self.players.values()
        values = [line.value for line in every]
        values += [r.placement_points for line in every for r in line.results if r.placement_points]
        return 0 if all(value.denominator == 1 for value in values) else 2

    def shown(self, value: Fraction) -> Decimal:
        """A value as shown and exported: rounded half up to ``decimals`` digits; never
        "-0.00"."""
        step = Decimal(1).scaleb(-self.decimals)
        exact = Decimal(value.numerator) / Decimal(value.denominator)
        return exact.quantize(step, rounding=ROUND_HALF_UP) + 0  # + 0 drops the minus of -0

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


def _played(tournaments: list[Tournament], public: bool = False) -> dict[int, list[Played]]:
    """Per tournament id: its players' closed rounds — four queries for all tournaments
    together, plain values throughout. ``public``: without the rounds a tournament's director
    hides until the prize ceremony (issue 38)."""
    ids = [t.pk for t in tournaments]
    entries = Entry.objects.filter(tournament_id__in=ids).values_list(
        "pk", "tournament_id", "player_id", "start_number", "status", "publish"
    )
    played = {row[0]: Played(*row) for row in entries}
    tally(played, ids, None, public=public)  # the closed rounds only
    by_tournament: dict[int, list[Played]] = defaultdict(list)
    for line in played.values():
        if line.rounds:
            by_tournament[line.tournament_id].append(line)
    return by_tournament


def _shared_points(table: list[int], rank: int, sharing: int) -> Fraction:
    """The placement points of ``sharing`` players on ``rank``: the points of the places
    rank .. rank + sharing - 1, shared equally."""
    places = range(rank - 1, rank - 1 + sharing)
    return Fraction(sum(table[p] for p in places if p < len(table)), sharing)


def _results(
    series: Series, tournaments: list[Tournament], public: bool = False
) -> dict[int, SeriesLine]:
    """Every player's results, ranked within each tournament: one more query (the
    players)."""
    played = _played(tournaments, public)
    ids = {line.player_id for lines in played.values() for line in lines}
    people = Player.objects.in_bulk(ids)
    players: dict[int, SeriesLine] = {}
    table = series.points_table if series.method == SeriesMethod.PLACEMENT else []
    for tournament in tournaments:
        lines = played.get(tournament.pk, [])
        ranked = rank_lines([line for line in lines if not line.disqualified], tournament.tiebreak)
        sharing: dict[int, int] = defaultdict(int)
        for line in ranked:
            sharing[line.rank or 0] += 1
        for line in ranked + [line for line in lines if line.disqualified]:
            shared = line.rank is not None and sharing[line.rank] > 1
            result = Result(tournament, line, field_size=len(ranked), shared=shared)
            if line.disqualified:
                result.left_out = DISQUALIFIED
            elif table and line.rank is not None:
                result.placement_points = _shared_points(table, line.rank, sharing[line.rank])
            player = people[line.player_id]
            players.setdefault(player.pk, SeriesLine(player)).results.append(result)
    return players


def _score(series: Series, line: SeriesLine) -> None:
    """The figures of ``line``; with "best", marks the results beyond the best N."""
    method = series.method
    eligible = [result for result in line.results if result.counted]
    line.rounds = sum(result.rounds_played for result in eligible)
    line.tournaments = len(eligible)
    if method == SeriesMethod.BEST and series.best_of:
        kept = sorted(eligible, key=lambda r: (-r.total, r.tournament.date))
        for result in kept[series.best_of :]:
            result.left_out = NOT_BEST
    counted = line.counted
    line.points = sum(result.total for result in counted)
    if method == SeriesMethod.AVERAGE:
        line.value = Fraction(line.points, line.rounds) if line.rounds else Fraction(0)
    elif method == SeriesMethod.PLACEMENT:
        line.value = sum((r.placement_points or Fraction(0) for r in counted), Fraction(0))
    else:
        line.value = Fraction(line.points)
    line.key = _key(series, line, counted)


def _key(series: Series, line: SeriesLine, counted: list[Result]) -> tuple:
    key: list = [-line.value]
    for rule in series.tiebreaks:
        if rule == SeriesTiebreak.ROUNDS:
            key.append(-line.rounds)
        elif rule == SeriesTiebreak.TOURNAMENTS:
            key.append(-line.tournaments)
        elif rule == SeriesTiebreak.BEST_RESULT:
            if series.method == SeriesMethod.PLACEMENT:
                best = max((r.placement_points or Fraction(0) for r in counted), default=0)
            else:
                best = max((r.total for r in counted), default=0)
            key.append(-best)
        elif rule == SeriesTiebreak.BEST_PLACE:
            places = [r.rank for r in counted if r.rank is not None]
            key.append(min(places, default=10**6))
    return tuple(key)


lazy_pseudonym = lazy(pseudonym, str)


def _pseudonyms(players: dict[int, SeriesLine]) -> None:
    """The public rule (README, "Datenschutz / privacy"): a player is named in the series
    only with the consent of every tournament of theirs it lists (a consent for one
    tournament does not publish another); otherwise as "Player <number>", a number that
    stays with the player in this series (the one of their page's address), and no club."""
    for pk, line in players.items():
        if not all(result.line.publish for result in line.results):
            # Lazy: the table is computed once for every language (views/series.py).
            line.player = Player(pk=pk, first_name="", last_name=lazy_pseudonym(pk))
            line.hidden = True


def compute(
    series: Series, *, today: datetime.date | None = None, public_only: bool = False
) -> SeriesStandings:
    """The series' table as of ``today``, from the tournaments it counts now
    (:meth:`~tournament.models.Series.counted_tournaments`). ``public_only``: the public
    pages and files; else the series directors' page and files."""
    today = today or timezone.localdate()
    start = window_start(series, today)
    members = series.counted_tournaments(public_only=public_only)
    tournaments = list(members.with_status().order_by("date", "name", "pk"))
    players = _results(series, tournaments, public_only)
    if public_only:
        _pseudonyms(players)
    for line in players.values():
        for result in line.results:
            if start and result.tournament.date < start and result.counted:
                result.left_out = OUTSIDE_WINDOW
        _score(series, line)
    everybody = [line for line in players.values() if line.tournaments]
    ranked = [line for line in everybody if line.rounds >= series.min_rounds]
    below = [line for line in everybody if line.rounds < series.min_rounds]

    def name(line: SeriesLine) -> tuple:  # Schäfer before Scholz, as a German reader expects
        return (fold(str(line.player.last_name)), fold(line.player.first_name), line.player.pk)

    ranked.sort(key=lambda line: (line.key, name(line)))
    assign_ranks(ranked, lambda line: line.key)
    below.sort(key=lambda line: (-line.rounds, line.key, name(line)))
    counts: dict[int, int] = defaultdict(int)
    for line in players.values():
        for result in line.results:
            counts[result.tournament.pk] += 1
    infos = [
        TournamentInfo(
            tournament=t,
            closed_rounds=t.rounds_closed_count,  # type: ignore[attr-defined]
            status=t.status,
            in_window=not start or t.date >= start,
            players=counts[t.pk],
            hidden_from=hidden_from(t) if public_only else None,
        )
        for t in tournaments
    ]
    return SeriesStandings(series, ranked, below, infos, timezone.now(), players)
