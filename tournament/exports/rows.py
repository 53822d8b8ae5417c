"""The exporters: a tournament read into listings of plain rows, one per table of the page,
the PDF and the Excel file.

A :class:`Listing` has columns (a key, a label, a :class:`ColumnKind`) and rows of values,
one per column, ``None`` where a cell is empty (a round the player did not sit in, no rank
for the disqualified). The renderers (``html``, ``xlsx``, ``documents``) decide only how a
kind of cell looks; what the rows hold is decided here, once: the standings page, the
standings PDF and the Excel standings cannot disagree on a rank, a name or a total.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from decimal import Decimal
from enum import StrEnum

from django.utils import formats, timezone
from django.utils.translation import gettext as _

from ..models import EntryStatus, Game, Penalty, Round, RoundStatus, Seat, Tournament
from ..queries.sheets import current_round
from ..queries.standings import Line, Standings

Value = int | Decimal | str | None


class ColumnKind(StrEnum):
    """What a column holds: renderers align, shade and fill the empty cells by kind."""

    RANK = "rank"  # empty for the unranked
    NUMBER = "number"  # start number, table, position, game: an identifier, not points
    NAME = "name"
    TEXT = "text"
    POINTS = "points"  # points of one round; empty where the player did not sit
    PENALTIES = "penalties"
    TOTAL = "total"


NUMERIC = frozenset(
    {ColumnKind.RANK, ColumnKind.NUMBER, ColumnKind.POINTS, ColumnKind.PENALTIES, ColumnKind.TOTAL}
)


class Column:
    __slots__ = ("key", "label", "kind")

    def __init__(self, key: str, label: str, kind: ColumnKind = ColumnKind.TEXT) -> None:
        self.key, self.label, self.kind = key, label, kind

    @property
    def numeric(self) -> bool:
        return self.kind in NUMERIC


class Row:
    """One line of a listing: its values in column order, also readable by column key
    (``row["total"]``, ``{{ row.total }}`` in a template); ``status`` is the entry's status
    where the row is a player's (a renderer greys out the withdrawn and disqualified)."""

    __slots__ = ("values", "status", "_index")

    def __init__(self, values: tuple[Value, ...], index: Mapping[str, int], status: str) -> None:
        self.values, self.status, self._index = values, status, index

    def __getitem__(self, key: str) -> Value:
        return self.values[self._index[key]]

    @property
    def muted(self) -> bool:
        return self.status in (EntryStatus.WITHDRAWN, EntryStatus.DISQUALIFIED)


class Listing:
    """Columns and rows: what one table of a page, a PDF or a worksheet shows."""

    def __init__(self, columns: Sequence[Column]) -> None:
        self.columns = list(columns)
        self.index = {column.key: position for position, column in enumerate(self.columns)}
        self.rows: list[Row] = []

    def add(self, values: Iterable[Value], status: str = "") -> None:
        row = tuple(values)
        assert len(row) == len(self.columns), "one value per column"
        self.rows.append(Row(row, self.index, status))

    def select(self, keys: Iterable[str]) -> Listing:
        """The same rows with only the columns ``keys``, in that order."""
        chosen = [self.columns[self.index[key]] for key in keys]
        narrow = Listing(chosen)
        positions = [self.index[column.key] for column in chosen]
        for row in self.rows:
            narrow.add((row.values[p] for p in positions), row.status)
        return narrow

    def where(self, keep: Callable[[Row], bool]) -> Listing:
        """The rows ``keep`` accepts, with all columns."""
        kept = Listing(self.columns)
        kept.rows = [row for row in self.rows if keep(row)]
        return kept

    def filled(self, key: str) -> bool:
        """Whether some row has something in column ``key``."""
        position = self.index[key]
        return any(row.values[position] for row in self.rows)


def shown(column: Column, value: Value) -> str | int | Decimal:
    """What a cell says on the page and on paper: "–" for a round not played, nothing for
    any other empty cell."""
    if value is None:
        return "–" if column.kind == ColumnKind.POINTS else ""
    return value


# --- standings -------------------------------------------------------------------------------


def round_label(number: int) -> str:
    return _("R%(number)s") % {"number": number}


def standings_columns(round_numbers: Sequence[int]) -> list[Column]:
    return [
        Column("rank", _("Rank"), ColumnKind.RANK),
        Column("start_number", _("No."), ColumnKind.NUMBER),
        Column("name", _("Name"), ColumnKind.NAME),
        Column("club", _("Club")),
        Column("team", _("Team")),
        *[Column(f"r{n}", round_label(n), ColumnKind.POINTS) for n in round_numbers],
        Column("penalties", _("Penalties"), ColumnKind.PENALTIES),
        Column("total", _("Total"), ColumnKind.TOTAL),
        Column("note", _("Status")),
    ]


def _name_and_club(entry, public: bool) -> tuple[str, str]:
    """Name and club as a listing shows them: the public rule (README, "Datenschutz /
    privacy") names only the players who consented, the director's listings everybody."""
    if public:
        return entry.public_name, entry.public_club
    return entry.player.full_name, entry.player.club


def _standings_listing(
    lines: list[Line], round_numbers: Sequence[int], *, ranked: bool, public: bool
):
    listing = Listing(standings_columns(round_numbers))
    for line in lines:
        entry = line.entry
        rounds = [line.rounds.get(n) for n in round_numbers]
        points = [line.penalties, line.total] if ranked else [None, None]
        name, club = _name_and_club(entry, public)
        values = [line.rank, entry.start_number, name, club or None]
        values += [entry.team.name if entry.team else None, *rounds, *points, line.note or None]
        listing.add(values, entry.status)
    return listing


def standings_rows(standings: Standings, *, public: bool = False) -> Listing:
    """The ranked players, then the disqualified ones without a rank; ``public``: named by
    the public rule."""
    lines, numbers = standings.lines, standings.round_numbers
    return _standings_listing(lines, numbers, ranked=True, public=public)


def absent_rows(standings: Standings, *, public: bool = False) -> Listing:
    """The registered players who never sat at a table, in the standings' columns: no rank,
    no points."""
    lines, numbers = standings.absent, standings.round_numbers
    return _standings_listing(lines, numbers, ranked=False, public=public)


def team_rows(standings: Standings, *, public: bool = False) -> Listing:
    listing = Listing(
        [
            Column("rank", _("Rank"), ColumnKind.RANK),
            Column("team", _("Team"), ColumnKind.NAME),
            Column("members", _("Members")),
            Column("total", _("Total"), ColumnKind.TOTAL),
        ]
    )
    for team in standings.teams:
        members = ", ".join(_name_and_club(m.entry, public)[0] for m in team.members)
        listing.add([team.rank, team.name, members, team.total])
    return listing


# --- rounds ----------------------------------------------------------------------------------

SEAT_KEYS = ("table", "position", "start_number", "name")


def _position_sums(rows) -> dict[tuple[int, int], int]:
    """(table id, position) -> the sum of the rows' points (games or penalties) there."""
    sums: dict[tuple[int, int], int] = {}
    for table_id, *values in rows.values_list("table_id", "p1", "p2", "p3", "p4", "p5"):
        for position, value in enumerate(values, start=1):
            if value:
                sums[table_id, position] = sums.get((table_id, position), 0) + value
    return sums


def round_rows(round_: Round) -> Listing:
    """Every seat of a round with the player's game points, signed penalty points and total
    at that table (``SEAT_KEYS`` are the seat: table plans show only those)."""
    listing = Listing(
        [
            Column("table", _("Table"), ColumnKind.NUMBER),
            Column("position", _("Position"), ColumnKind.NUMBER),
            Column("start_number", _("No."), ColumnKind.NUMBER),
            Column("name", _("Name"), ColumnKind.NAME),
            Column("points", _("Points"), ColumnKind.POINTS),
            Column("penalties", _("Penalties"), ColumnKind.PENALTIES),
            Column("total", _("Total"), ColumnKind.TOTAL),
        ]
    )
    points = _position_sums(Game.objects.filter(table__round=round_))
    penalties = _position_sums(Penalty.objects.counting().filter(table__round=round_))
    seats = (
        Seat.objects.filter(round=round_)
        .select_related("table", "entry__player")
        .order_by("table__number", "position")
    )
    for seat in seats:
        where = (seat.table_id, seat.position)
        game, penalty = points.get(where, 0), penalties.get(where, 0)
        listing.add([seat.table.number, seat.position, seat.entry.start_number,
                     seat.entry.player.full_name, game, penalty, game + penalty])  # fmt: skip
    return listing


def played_rounds(tournament: Tournament):
    return tournament.rounds.started().order_by("number")


def round_to_print(tournament: Tournament) -> Round | None:
    """The round a table plan (or print pack, or Spiellisten file) is made for when none is
    named: the running round; between rounds the next one drawn, because its plan is
    printed before the players sit down; else the last closed one (``current_round``)."""
    current = current_round(tournament)
    if current is not None and current.status == RoundStatus.RELEASED:
        return current
    upcoming = tournament.rounds.filter(status=RoundStatus.DRAWN).order_by("number").first()
    return upcoming or current


def sheet_rows(table, penalties: list[Penalty]) -> Listing:
    """Every row of a table's Spielliste, games and counting penalties in the order they
    were played (a penalty after the game it was decided in); ``table`` comes with its
    seats (and their players) and games prefetched."""
    seats = sorted(table.seats.all(), key=lambda seat: seat.position)
    columns = [
        Column("game", _("Game"), ColumnKind.NUMBER),
        Column("kind", _("Kind")),
        Column("soloist", _("Soloist")),
    ]
    columns += [
        Column(f"p{s.position}", f"{s.position} {s.entry.player.full_name}", ColumnKind.POINTS)
        for s in seats
    ]
    rows: list[tuple[tuple[int, bool], list[Value]]] = [
        ((game.number, False), [game.number, game.get_kind_display(),
                                game.soloist_position or None, *game.points])
        for game in table.games.all()
    ]  # fmt: skip
    label = _("penalty")
    rows += [
        ((item.game_number, True), [item.game_number, label, item.get_category_display(),
                                    *item.points])
        for item in penalties
    ]  # fmt: skip
    listing = Listing(columns)
    width = len(columns)
    for _order, values in sorted(rows, key=lambda pair: pair[0]):
        listing.add((values + [None] * width)[:width])  # one cell per seat
    return listing


# --- what every document says about itself ---------------------------------------------------


def when(moment) -> str:
    return formats.date_format(timezone.localtime(moment), "DATETIME_FORMAT") if moment else ""


def heading(tournament: Tournament, title: str, state: str = "") -> list[str]:
    """The lines above a sheet's table: a printed or forwarded sheet says by itself what it
    is (tournament; what, and whether provisional or final; date, venue, rules; when made)."""
    about = [formats.date_format(tournament.date, "DATE_FORMAT") if tournament.date else ""]
    about += [tournament.venue, tournament.get_rule_profile_display()]
    return [
        tournament.name,
        f"{title} – {state}" if state else title,
        " · ".join(part for part in about if part),
        _("generated %(generated)s") % {"generated": when(timezone.now())},
    ]


def standings_state(standings: Standings) -> str:
    return _("provisional") if standings.provisional else _("final")
