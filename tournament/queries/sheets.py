"""What the pages read of the Spielliste: one table's sheet with every check (:func:`load`),
its clock, the board of a whole round (:func:`board`, a fixed number of queries whatever the
number of tables) and the one current round of a tournament."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.utils import timezone

from scoring.kinds import Kind
from scoring.ledger import LedgerStep, PlayedGame, walk
from scoring.sheet import ERROR, Finding, SheetRow, check_sheet, has_errors, totals

from ..models import Game, GameKind, Penalty, Round, Seat, Table, Tournament
from ..models.penalty import points_of


def current_round(tournament: Tournament) -> Round | None:
    """The round the hall is playing: the released one (a round is released only after the
    one before it is closed, so there is at most one), else the last closed one; None before
    the first release. The referee desk, the exports, the public pages and the projector all
    show this round."""
    return tournament.rounds.started().order_by("-number").first()


@dataclass(frozen=True)
class Clock:
    ends_at: datetime | None

    def seconds_left(self, now: datetime | None = None) -> int | None:
        if self.ends_at is None:
            return None
        return max(0, int((self.ends_at - (now or timezone.now())).total_seconds()))

    @property
    def expired(self) -> bool:
        return self.ends_at is not None and timezone.now() >= self.ends_at


def clock(table: Table) -> Clock:
    """When the table's playing time ends: the round's start, the tournament's minutes for
    the table size and the extra time the table was granted."""
    started = table.round.started_at
    if started is None:
        return Clock(None)
    minutes = table.round.tournament.profile.playing_minutes(table.size)
    return Clock(started + timedelta(minutes=minutes + table.sheet.extra_minutes))


@dataclass(frozen=True)
class Outlook:
    """Where a sheet stands for its list keeper: ``playing`` (enter game ``game``),
    ``vorfuehren`` (game ``game`` must be the vorgeführtes Pflichtsolo of ``positions``),
    ``pflichtsolo-missed`` (every game is entered but ``positions`` lack a Pflichtsolo; it was
    due in game ``game``), ``too-many`` (more games than a round has), ``errors`` (complete,
    but ``errors`` errors are left) or ``ready`` (complete and free of errors: submit)."""

    code: str
    game: int | None = None
    positions: tuple[int, ...] = ()
    errors: int = 0


@dataclass
class SheetView:
    """A table's sheet as the pages show it: its rows with every finding and the ledger."""

    table: Table
    seats: list[Seat]
    games: list[Game]
    rows: list[SheetRow]
    findings: list[Finding]
    steps: list[LedgerStep]
    nominal: int
    clock: Clock
    penalties: list = field(default_factory=list)  # the counting ones, as rows on the sheet
    by_game: dict[int, list[Finding]] = field(default_factory=dict)

    @property
    def next_step(self) -> LedgerStep:
        return self.steps[-1]

    @property
    def next_number(self) -> int:
        return len(self.games) + 1

    @property
    def totals(self) -> tuple[int, ...]:
        return totals(self.rows, self.table.size)

    @property
    def has_errors(self) -> bool:
        return has_errors(self.findings)

    @property
    def error_count(self) -> int:
        return sum(f.level == ERROR for f in self.findings)

    @property
    def time_up(self) -> bool:
        return self.table.sheet.time_limit_from is not None or self.clock.expired

    @property
    def finished(self) -> bool:
        """Every game played, or the time is up and no Pflichtsolo is owed any more."""
        if len(self.games) >= self.nominal:
            return True
        return self.time_up and not self.next_step.owing_before

    def seat(self, position: int) -> Seat | None:
        return next((s for s in self.seats if s.position == position), None)

    @property
    def outlook(self) -> Outlook:
        """The one thing the list keeper does next, so that the pages never say two things
        at once (e.g. "game 25 must be vorgeführt" next to "all games are entered")."""
        count, step = len(self.games), self.next_step
        if count > self.nominal:
            return Outlook("too-many", game=count)
        if count >= self.nominal and step.owing_before:
            # A further game can only be one too many: the Pflichtsolo was missed before.
            missed = next((f.game for f in self.findings if f.code == "vorfuehren-missed"), None)
            return Outlook("pflichtsolo-missed", game=missed, positions=step.owing_before)
        if not self.finished:
            if step.vorfuehren is not None:
                return Outlook("vorfuehren", game=step.game, positions=(step.vorfuehren,))
            return Outlook("playing", game=step.game)
        if self.has_errors:
            return Outlook("errors", errors=self.error_count)
        return Outlook("ready")

    def expected_solo(self, soloist: int) -> GameKind:
        """The kind the next game is, if ``soloist`` plays a solo: the vorgeführtes
        Pflichtsolo when it is due, a Pflichtsolo while one is owed, else a Lustsolo."""
        step = self.next_step
        if step.vorfuehren == soloist:
            return GameKind.VORGEFUEHRT
        if soloist in step.owing_before:
            return GameKind.PFLICHTSOLO
        return GameKind.LUSTSOLO

    @property
    def more_games_possible(self) -> bool:
        """A new game may still belong on the sheet: beyond the nominal count it never does."""
        return len(self.games) < self.nominal


def game_row(game: Game, size: int) -> SheetRow:
    values = [game.p1, game.p2, game.p3, game.p4, game.p5][:size]
    points = tuple(v for v in values if v is not None)  # p5 is empty at a 4-table only
    return SheetRow(game.number, GameKind(game.kind).scoring, game.soloist_position, points)


def load(table: Table, *, complete: bool = False, running_totals: bool = False) -> SheetView:
    """The sheet of ``table`` with every finding. ``complete`` checks it as a finished
    sheet (missing Pflichtsoli, too few games), as at submission. ``running_totals``: the
    reader sees the games as running totals (the desk grid), so a single wrong total is
    named as such (:func:`scoring.sheet.check_sheet`)."""
    games = list(table.games.order_by("number"))
    seats = list(table.seats.select_related("entry__player").order_by("position"))
    penalties = list(
        table.penalties.counting().select_related("referee").order_by("game_number", "pk")
    )
    return _view(table, seats, games, penalties, complete=complete, running_totals=running_totals)


_PENALTY_FACTS = ("pk", "game_number", "soloist_position", "p1", "p2", "p3", "p4", "p5")


def with_game(sheet: SheetView, game: Game, table: Table) -> SheetView:
    """``sheet`` once ``game`` is stored (``table`` read afresh), without reading the whole
    sheet again when a keeper's save changed only that game: ``sheet`` was read before the
    save took the table's lock, so two small queries check that no other row changed
    meanwhile (the desk corrected a game, a referee signed or revoked a penalty); if one did,
    the sheet is read anew, so that the page after the save never shows an older row."""
    others = {g.number: g.version for g in sheet.games if g.number != game.number}
    stored = dict(table.games.exclude(number=game.number).values_list("number", "version"))
    penalties = {tuple(getattr(p, name) for name in _PENALTY_FACTS) for p in sheet.penalties}
    counting = set(table.penalties.counting().values_list(*_PENALTY_FACTS))
    if stored != others or counting != penalties:
        return load(table)
    games = sorted([g for g in sheet.games if g.number != game.number] + [game], key=_number)
    return _view(table, sheet.seats, games, sheet.penalties)


def _number(game: Game) -> int:
    return game.number


def _view(
    table: Table,
    seats,
    games,
    penalties,
    *,
    complete: bool = False,
    running_totals: bool = False,
) -> SheetView:
    """The checks and the ledger of one sheet, from its rows already read."""
    profile = table.round.tournament.profile
    limit = table.sheet.time_limit_from
    rows = [game_row(g, table.size) for g in games]
    for penalty in penalties:
        points = tuple(points_of(penalty))
        rows.append(SheetRow(penalty.game_number, Kind.PENALTY, penalty.soloist_position, points))
    nominal = profile.games_per_round(table.size)
    # A sheet with every game (or a time limit) is checked as finished, so that a missing
    # Pflichtsolo shows before the list keeper tries to submit.
    complete = complete or len(games) >= nominal
    findings = check_sheet(
        profile,
        table.size,
        rows,
        complete=complete,
        time_limit_from=limit,
        running_totals=running_totals,
    )
    played = [PlayedGame(GameKind(g.kind).scoring, g.soloist_position) for g in games]
    sheet = SheetView(
        table=table,
        seats=seats,
        games=games,
        rows=rows,
        findings=findings,
        steps=walk(profile, table.size, played, time_limit_from=limit),
        penalties=penalties,
        nominal=nominal,
        clock=clock(table),
    )
    for finding in findings:
        sheet.by_game.setdefault(finding.game, []).append(finding)
    return sheet


def _by_table(rows: Iterable, tables: dict[int, Table]) -> dict[int, list]:
    """Rows grouped by their table, each pointed at the table already read (so that e.g.
    ``game.points`` needs no query of its own)."""
    grouped: dict[int, list] = defaultdict(list)
    for row in rows:
        row.table = tables[row.table_id]
        grouped[row.table_id].append(row)
    return grouped


def board(round_: Round, *, complete: bool = False) -> list[SheetView]:
    """Every table's sheet of ``round_``, by table number, with its findings: four queries
    for the whole round (the tables with their sheets, round and tournament; the games; the
    seats; the penalties), as the board and the referee desk poll it every few seconds.
    ``complete`` as for :func:`load`."""
    tables = {
        t.pk: t
        for t in round_.tables.select_related("round__tournament", "sheet").order_by("number")
    }
    games = _by_table(Game.objects.filter(table__round=round_).order_by("number"), tables)
    seats = _by_table(
        Seat.objects.filter(round=round_).select_related("entry__player").order_by("position"),
        tables,
    )
    penalties = _by_table(
        Penalty.objects.counting()
        .filter(table__round=round_)
        .select_related("referee")
        .order_by("game_number", "pk"),
        tables,
    )
    return [
        _view(table, seats[pk], games[pk], penalties[pk], complete=complete)
        for pk, table in tables.items()
    ]
