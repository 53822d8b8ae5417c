"""Listings written as Excel workbooks (openpyxl, write-only mode).

Each sheet opens with a few lines on what it is (tournament, what and whether provisional
or final, date and venue, time of generation: a forwarded or printed sheet says it by
itself), then a frozen header row, sensible column widths, numbers as numbers — and text as
text: a player called "=HYPERLINK(...)" stays a string, no cell ever becomes a formula
(openpyxl would store any string starting with "=" as one).
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from io import BytesIO

from django.utils.translation import gettext as _
from openpyxl import Workbook
from openpyxl.cell import WriteOnlyCell
from openpyxl.cell.cell import Cell
from openpyxl.styles import Font
from openpyxl.utils import get_column_letter

from ..models import Penalty, Round, Tournament
from ..models.round import seats_with_players
from ..queries import standings as standings_domain
from ..queries.series import SeriesStandings
from . import penalties, rows, series
from .rows import Column, Listing, Value, heading

BOLD = Font(bold=True)
TITLE = Font(bold=True, size=14)


def _cell(sheet, value: Value, *, font: Font | None = None) -> Cell:
    # A Decimal (a series average) is written as the number it is, with its decimals.
    cell = WriteOnlyCell(sheet, value=float(value) if isinstance(value, Decimal) else value)
    if isinstance(value, Decimal) and value.as_tuple().exponent == -2:
        cell.number_format = "0.00"
    if isinstance(value, str):
        cell.data_type = "s"  # never a formula, whatever the text starts with
    if font is not None:
        cell.font = font
    return cell


def write_sheet(
    book: Workbook,
    title: str,
    listing: Listing,
    *,
    head: list[str] | None = None,
    apart: tuple[str, Listing] | None = None,
) -> None:
    """One worksheet: the ``head`` lines, an empty row, the listing with its header row
    frozen, and ``apart`` — a caption and a listing in the same columns, below the table
    after an empty row."""
    head = head or []
    extra = apart[1].rows if apart else []
    sheet = book.create_sheet(title=title[:31])
    top = len(head) + 1 if head else 0  # the head lines and an empty row
    sheet.freeze_panes = f"A{top + 2}"
    every = listing.rows + extra
    for index, column in enumerate(listing.columns):
        values = [row.values[index] for row in every]
        longest = max([len(column.label)] + [len(str(v)) for v in values if v is not None])
        sheet.column_dimensions[get_column_letter(index + 1)].width = min(max(6, longest + 2), 45)
    write_head(sheet, head)
    sheet.append([_cell(sheet, column.label, font=BOLD) for column in listing.columns])
    for row in listing.rows:
        sheet.append([_cell(sheet, value) for value in row.values])
    if apart and extra:
        sheet.append([])
        sheet.append([_cell(sheet, apart[0], font=BOLD)])
        for row in extra:
            sheet.append([_cell(sheet, value) for value in row.values])


def write_head(sheet, head: list[str]) -> None:
    """The ``head`` lines of a sheet (the first as its title, the second bold) and an empty
    row after them."""
    for text, font in zip(head, [TITLE, BOLD], strict=False):
        sheet.append([_cell(sheet, text, font=font)])
    for text in head[2:]:
        sheet.append([_cell(sheet, text)])
    if head:
        sheet.append([])


def start_sheet(
    book: Workbook, title: str, head: list[str], labels: list[str], widths: Sequence[int]
):
    """A worksheet ``title`` with columns of ``widths``: the ``head`` lines, an empty row and
    the header row ``labels`` in bold, frozen; the rows follow."""
    sheet = book.create_sheet(title=title[:31])
    sheet.freeze_panes = f"A{len(head) + 3}"
    for index, width in enumerate(widths, start=1):
        sheet.column_dimensions[get_column_letter(index)].width = width
    write_head(sheet, head)
    sheet.append([_cell(sheet, label, font=BOLD) for label in labels])
    return sheet


def _saved(book: Workbook, title: str) -> bytes:
    book.properties.title = title
    out = BytesIO()
    book.save(out)
    return out.getvalue()


def workbook(tournament: Tournament, what: str = "standings") -> bytes:
    """``standings``: standings, one sheet per round, teams; ``teams``: the teams;
    ``rounds``: one sheet per played round; ``tableplan``: the seats of the current round.
    Every sheet starts with a few lines that say what it is (see :func:`rows.heading`)."""
    standings = standings_domain.compute(tournament)
    state = rows.standings_state(standings)
    book = Workbook(write_only=True)
    if what == "standings":
        title = _("Standings")
        write_sheet(book, title, rows.standings_rows(standings),
                    head=heading(tournament, title, state),
                    apart=(_("Not started"), rows.absent_rows(standings)))  # fmt: skip
    if what in ("standings", "rounds"):
        for round_ in rows.played_rounds(tournament):
            title = _("Round %(number)s") % {"number": round_.number}
            head = heading(tournament, title, round_.get_status_display())
            write_sheet(book, title, rows.round_rows(round_), head=head)
    if what in ("standings", "teams"):
        head = heading(tournament, _("Teams"), state)
        write_sheet(book, _("Teams"), rows.team_rows(standings), head=head)
    if what == "tableplan":
        round_ = rows.round_to_print(tournament)
        title = _("Table plan")
        if round_ is None:
            plan = Listing([Column("table", _("Table"))])
        else:
            plan = rows.round_rows(round_).select(rows.SEAT_KEYS)
            title = f"{title} – {_('Round %(number)s') % {'number': round_.number}}"
        write_sheet(book, _("Table plan"), plan, head=heading(tournament, title))
    if not book.sheetnames:
        title = _("Standings")
        empty = Listing([Column("none", _("No results yet."))])
        write_sheet(book, title, empty, head=heading(tournament, title, state))
    return _saved(book, f"{tournament.name} – {state}")


def sheets_workbook(tournament: Tournament, round_: Round) -> bytes:
    """Every row of every Spielliste of ``round_``: one sheet per table."""
    book = Workbook(write_only=True)
    tables = (
        round_.tables.select_related("sheet")
        .prefetch_related(seats_with_players(), "games")
        .order_by("number")
    )
    penalties_by_table: dict[int, list[Penalty]] = {}
    for item in Penalty.objects.counting().filter(table__round=round_).select_related("table"):
        penalties_by_table.setdefault(item.table_id, []).append(item)
    round_title = _("Round %(number)s") % {"number": round_.number}
    for table in tables:
        title = _("Table %(number)s") % {"number": table.number}
        head = heading(tournament, f"{round_title} – {title}", table.sheet.get_status_display())
        listing = rows.sheet_rows(table, penalties_by_table.get(table.pk, []))
        write_sheet(book, title, listing, head=head)
    return _saved(book, f"{tournament.name} – {round_title}")


def penalties_workbook(tournament: Tournament) -> bytes:
    """The referees' record: every penalty with its state, and the history of each."""
    book = Workbook(write_only=True)
    head = heading(tournament, _("Penalties"))
    write_sheet(book, _("Penalties"), penalties.penalty_rows(tournament), head=head)
    title = f"{_('Penalties')} – {_('History')}"
    history = penalties.penalty_history_rows(tournament)
    write_sheet(book, _("History"), history, head=heading(tournament, title))
    return _saved(book, f"{tournament.name} – {_('Penalties')}")


def series_workbook(standings: SeriesStandings) -> bytes:
    """A series: its table (the players below the minimum under it) and every result with
    the rounds it comes from."""
    book = Workbook(write_only=True)
    title = _("Series table")
    write_sheet(book, title, series.series_rows(standings),
                head=series.heading(standings, title),
                apart=(_("Not yet ranked"), series.below_rows(standings)))  # fmt: skip
    every = standings.lines + standings.below_minimum
    title = _("Results")
    write_sheet(book, title, series.result_rows(standings, every, with_player=True),
                head=series.heading(standings, title))  # fmt: skip
    return _saved(book, standings.series.name)
