"""The player's page for the whole day (issue 35): what one entry's personal link shows, from
registration to the last game — check-in, this round's seat and who sits there, the
confirmation code, the running total and rank, the Pflichtsolo, the sheets of the player's
tables once they are submitted, and the public series the tournament counts in.

A read only. Every phone of the hall polls its page, so what all of them share is computed
once per state (tournament/base/caching.py): the ranks once per version of the tournament (with the
standings' stale tolerance, as the public standings), a table's sheet once per version and
language. Per request only the entry's own rows are read (rounds, seats, stored results,
series: a fixed number of queries). Other players are named as the public pages name them:
without their consent by the pseudonym of their start number (README, "Datenschutz").
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.conf import settings
from django.utils.translation import get_language

from ..base.caching import cached
from ..models import (
    Entry,
    EntryStatus,
    Round,
    RoundResult,
    RoundStatus,
    Seat,
    Series,
    SheetStatus,
    Table,
    Tournament,
)
from . import sheets as reads
from . import standings as standings_domain


@dataclass(frozen=True)
class Rank:
    """The entry's place in the standings as the standings show it."""

    rank: int | None  # None: disqualified, or not started
    total: int
    rounds: dict[int, int]
    provisional: bool


def _ranks(tournament: Tournament) -> dict[int, Rank]:
    # The personal page is public: the rounds the director hides count no more here
    # (issue 38) than on the public standings.
    standings = standings_domain.compute(tournament, public=True)
    if not standings.round_numbers:
        return {}  # nothing counts yet: everybody would share rank 1 with 0 points
    return {
        line.entry.pk: Rank(line.rank, line.total, dict(line.rounds), standings.provisional)
        for line in standings.lines
    }


def rank_of(entry: Entry) -> Rank | None:
    """The entry's rank and total, from the standings computed once per version of the
    tournament (and kept ``STANDINGS_CACHE_SECONDS`` while games come in); None before the
    entry played, or while no points count yet."""
    tournament = entry.tournament
    family = ("personal-ranks", tournament.pk, "public")
    ranks = cached(
        family, tournament.version, lambda: _ranks(tournament), settings.STANDINGS_CACHE_SECONDS
    )
    return ranks.get(entry.pk)


@dataclass(frozen=True)
class Mate:
    position: int
    name: str  # as the public pages name them
    me: bool


@dataclass(frozen=True)
class SheetSummary:
    """A table's sheet as the player's page shows it: plain values, shared by the players of
    the table (cached)."""

    round_number: int
    table_number: int
    size: int
    status: str  # SheetStatus
    status_label: str
    games: int
    nominal: int
    mates: tuple[Mate, ...]  # ``me`` is never set here: the page marks the reader
    rows: tuple[tuple[int, str, int | None, tuple[int, ...]], ...]  # game, letter, soloist, points
    totals: tuple[int, ...]
    owing: tuple[int, ...]  # positions still owing a Pflichtsolo
    pflichtsoli: int  # per round, from the rule profile

    @property
    def readable(self) -> bool:
        """The players see the rows once the sheet is submitted (or its round closed)."""
        return self.status != SheetStatus.OPEN


def _summary(table: Table) -> SheetSummary:
    sheet = reads.load(table)
    seats = {seat.position: seat for seat in sheet.seats}
    mates = tuple(
        Mate(p, seats[p].entry.public_name if p in seats else "", False)
        for p in range(1, table.size + 1)
    )
    rows = tuple(
        (row.game, row.kind.value, row.soloist, tuple(row.points))
        for row in sorted(sheet.rows, key=lambda row: row.game)
    )
    status = table.sheet.status
    if table.round.status == RoundStatus.CLOSED and status == SheetStatus.OPEN:
        status = SheetStatus.CONFIRMED  # a closed round's sheet is final whatever it says
    return SheetSummary(
        round_number=table.round.number,
        table_number=table.number,
        size=table.size,
        status=status,
        status_label=str(SheetStatus(status).label),
        games=len(sheet.games),
        nominal=sheet.nominal,
        mates=mates,
        rows=rows,
        totals=tuple(sheet.totals),
        owing=tuple(sheet.next_step.owing_before),
        pflichtsoli=table.round.tournament.profile.pflichtsoli_per_round,
    )


def sheet_of(table: Table) -> SheetSummary:
    """The table's sheet for its players' pages, once per state and language (a pseudonym is
    a word): the running round's once per version of the tournament, at most once per
    ``STANDINGS_CACHE_SECONDS`` while games come in; a closed round's once per results
    version, which the keepers' saves in the running round leave alone (tournament/
    versions.py; a correction of a closed round moves it)."""
    tournament = table.round.tournament
    family = ("personal-sheet", table.pk, get_language())
    if table.round.status == RoundStatus.CLOSED:
        return cached(family, ("closed", tournament.results_version), lambda: _summary(table))
    stale = settings.STANDINGS_CACHE_SECONDS
    return cached(family, tournament.version, lambda: _summary(table), stale)


@dataclass
class Played:
    """One round the entry sat in: where, the points as the standings count them, and the
    Pflichtsolo as the stored result (closed) or the sheet (running) says."""

    round: Round
    seat: Seat
    sheet: SheetSummary
    points: int | None
    pflichtsolo_missing: int | None  # closed rounds: from the stored result
    # A round whose results the director hides (issue 38): no points, no sheet shown.
    hidden: bool = False

    @property
    def table_total(self) -> int:
        """The player's points on this table's sheet so far."""
        return self.sheet.totals[self.seat.position - 1] if self.sheet.totals else 0


@dataclass
class Day:
    entry: Entry
    tournament: Tournament
    can_check_in: bool
    now: Played | None  # the seat in the round being played
    waiting_round: Round | None  # drawn, not yet released
    sitting_out: Round | None  # the round being played, without a seat for the entry
    played: list[Played] = field(default_factory=list)  # every released or closed round
    rank: Rank | None = None
    series: list[Series] = field(default_factory=list)

    @property
    def mates(self) -> list[Mate]:
        """Who sits at the table of the running round, the reader marked."""
        if self.now is None:
            return []
        mine = self.now.seat.position
        return [Mate(m.position, m.name, m.position == mine) for m in self.now.sheet.mates]

    @property
    def keeper_position(self) -> int | None:
        """The list keeper's position: the last one (README, print pack)."""
        return self.now.sheet.size if self.now is not None else None

    @property
    def pflichtsolo_due(self) -> bool | None:
        """In the running round: True while the player still owes a Pflichtsolo, False once
        played; None where the profile asks for none, or no round is played."""
        if self.now is None or not self.now.sheet.pflichtsoli:
            return None
        return self.now.seat.position in self.now.sheet.owing

    @property
    def sheets(self) -> list[Played]:
        """The player's tables whose sheets they may read: submitted, confirmed or closed."""
        return [p for p in reversed(self.played) if p.sheet.readable and not p.hidden]

    @property
    def hidden_from(self) -> int | None:
        """The first round whose results wait for the prize ceremony (issue 38), or None."""
        return standings_domain.hidden_from(self.tournament)


def can_check_in(entry: Entry) -> bool:
    """ "I am here" on the personal page: once the director opened check-in, for an active
    player not checked in yet."""
    return bool(
        entry.tournament.checkin_open
        and entry.status == EntryStatus.ACTIVE
        and not entry.checked_in
    )


def day(entry: Entry) -> Day:
    """Everything the entry's personal page shows, as of now."""
    tournament = entry.tournament
    rounds = list(
        tournament.rounds.exclude(status=RoundStatus.PLANNED).order_by("number")
    )  # one query
    shown = [r for r in rounds if r.started]
    by_pk = {r.pk: r for r in shown}
    seats = list(
        Seat.objects.filter(entry=entry, round__in=shown)
        .select_related("table__sheet")
        .order_by("round__number")
    )
    stored = {r.round_id: r for r in RoundResult.objects.filter(entry=entry, round__in=shown)}
    rank = rank_of(entry) if shown else None
    played = []
    for seat in seats:
        round_ = by_pk[seat.round_id]
        round_.tournament = tournament  # no query per table for the rule profile
        seat.table.round = round_
        result = stored.get(round_.pk)
        hidden = not standings_domain.shown_publicly(tournament, round_.number)
        points = None
        if not hidden and rank is not None and round_.number in rank.rounds:
            points = rank.rounds[round_.number]
        elif not hidden and result is not None:
            points = result.points
        played.append(
            Played(
                round=round_,
                seat=seat,
                sheet=sheet_of(seat.table),
                points=points,
                pflichtsolo_missing=result.pflichtsoli_missing if result is not None else None,
                hidden=hidden,
            )
        )
    running = next((r for r in shown if r.status == RoundStatus.RELEASED), None)
    now = next((p for p in played if running is not None and p.round.pk == running.pk), None)
    drawn = next((r for r in rounds if r.status == RoundStatus.DRAWN), None)
    series: list[Series] = []
    if tournament.is_public:
        series = list(Series.objects.filter(tournaments=tournament, is_public=True))
    return Day(
        entry=entry,
        tournament=tournament,
        can_check_in=can_check_in(entry),
        now=now,
        waiting_round=drawn if running is None else None,
        sitting_out=running if running is not None and now is None else None,
        played=played,
        rank=rank,
        series=series,
    )
