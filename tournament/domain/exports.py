"""Exports of a tournament as Excel workbooks (openpyxl) and PDF (WeasyPrint).

Workbooks: a frozen header row, sensible column widths, numbers as numbers — and text as
text: a player called "=HYPERLINK(...)" stays a string, no cell ever becomes a formula
(openpyxl would store any string starting with "=" as one).
"""

from __future__ import annotations

from datetime import UTC
from io import BytesIO

from django.utils import formats, timezone
from django.utils.translation import gettext as _
from openpyxl import Workbook
from openpyxl.cell import WriteOnlyCell
from openpyxl.styles import Font
from openpyxl.utils import get_column_letter

from ..models import Game, Penalty, Round, RoundStatus, Seat
from ..models.audit import role_label
from ..models.penalty import points_of, state_label
from . import standings as standings_domain
from .penalties import signed_points

BOLD = Font(bold=True)
XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def _cell(sheet, value, *, bold: bool = False) -> WriteOnlyCell:
    cell = WriteOnlyCell(sheet, value=value)
    if isinstance(value, str):
        cell.data_type = "s"  # never a formula, whatever the text starts with
    if bold:
        cell.font = BOLD
    return cell


def _sheet(book: Workbook, title: str, header: list[str], rows: list[list]) -> None:
    sheet = book.create_sheet(title=title[:31])
    sheet.freeze_panes = "A2"
    for column, text in enumerate(header, start=1):
        longest = max([len(str(text))] + [len(str(r[column - 1])) for r in rows if r])
        sheet.column_dimensions[get_column_letter(column)].width = min(max(6, longest + 2), 40)
    sheet.append([_cell(sheet, text, bold=True) for text in header])
    for row in rows:
        sheet.append([_cell(sheet, value) for value in row])


def _state(standings) -> str:
    return _("provisional") if standings.provisional else _("final")


def standings_rows(standings) -> tuple[list[str], list[list]]:
    header = [_("Rank"), _("No."), _("name"), _("club"), _("team")]
    header += [_("R%(number)s") % {"number": n} for n in standings.round_numbers]
    header += [_("penalties"), _("total"), _("status")]
    rows = []
    for line in standings.lines:
        entry = line.entry
        note = line.note
        team = entry.team.name if entry.team else ""
        rank = line.rank if line.rank is not None else ""
        row = [rank, entry.start_number, entry.player.full_name, entry.player.club, team]
        row += [line.rounds.get(n, "") for n in standings.round_numbers]
        row += [line.penalties, line.total, note]
        rows.append(row)
    return header, rows


def team_rows(standings) -> tuple[list[str], list[list]]:
    header = [_("Rank"), _("team"), _("members"), _("total")]
    rows = [
        [
            team.rank,
            team.name,
            ", ".join(m.entry.player.full_name for m in team.members),
            team.total,
        ]  # fmt: skip
        for team in standings.teams
    ]
    return header, rows


def round_rows(round_: Round) -> tuple[list[str], list[list]]:
    """Every seat of a round with the player's points at that table."""
    header = [_("table"), _("position"), _("No."), _("name"), _("points")]
    points: dict[tuple[int, int], int] = {}
    for table_id, *values in Game.objects.filter(table__round=round_).values_list(
        "table_id", "p1", "p2", "p3", "p4", "p5"
    ):
        for position, value in enumerate(values, start=1):
            if value:
                points[table_id, position] = points.get((table_id, position), 0) + value
    seats = (
        Seat.objects.filter(round=round_)
        .select_related("table", "entry__player")
        .order_by("table__number", "position")
    )
    rows = [
        [
            seat.table.number,
            seat.position,
            seat.entry.start_number,
            seat.entry.player.full_name,
            points.get((seat.table_id, seat.position), 0),
        ]  # fmt: skip
        for seat in seats
    ]
    return header, rows


def workbook(tournament, what: str = "standings") -> bytes:
    """``standings``: standings, one sheet per round, teams; ``teams``: the teams;
    ``rounds``: one sheet per played round; ``tableplan``: the seats of the current round."""
    standings = standings_domain.compute(tournament)
    book = Workbook(write_only=True)
    if what in ("standings",):
        header, rows = standings_rows(standings)
        _sheet(book, _("Standings"), header, rows)
    if what in ("standings", "rounds"):
        for round_ in tournament.rounds.exclude(
            status__in=[RoundStatus.PLANNED, RoundStatus.DRAWN]
        ).order_by("number"):
            header, rows = round_rows(round_)
            _sheet(book, _("Round %(number)s") % {"number": round_.number}, header, rows)
    if what in ("standings", "teams"):
        header, rows = team_rows(standings)
        _sheet(book, _("Teams"), header, rows)
    if what == "tableplan":
        round_ = current_round(tournament)
        header, rows = round_rows(round_) if round_ else ([_("table")], [])
        _sheet(book, _("Table plan"), header[:4], [r[:4] for r in rows])
    if not book.sheetnames:
        _sheet(book, _("Standings"), [_("No results yet.")], [])
    book.properties.title = f"{tournament.name} – {_state(standings)}"
    out = BytesIO()
    book.save(out)
    return out.getvalue()


def current_round(tournament) -> Round | None:
    """The round players sit in now: the last released one, else the last drawn one."""
    rounds = tournament.rounds.exclude(status=RoundStatus.PLANNED).order_by("-number")
    released = rounds.filter(status=RoundStatus.RELEASED).first()
    return released or rounds.first()


def _chunks(rows: list, *, first: int, rest: int) -> list[list]:
    chunks = [rows[:first]]
    chunks += [rows[i : i + rest] for i in range(first, len(rows), rest)]
    return [chunk for chunk in chunks if chunk]


def _pdf_rows(standings) -> tuple[list[str], str, list[list]]:
    """Rows for the printed standings. The round points share one cell in a fixed-width
    font: the columns still line up, and WeasyPrint lays out a few cells per line instead
    of a dozen (400 players print in well under the 3 s target)."""
    width = 5
    rounds_header = "".join(
        (_("R%(number)s") % {"number": n}).rjust(width) for n in standings.round_numbers
    )
    header = [_("Rank"), _("No."), _("name"), _("club"), _("penalties"), _("total")]
    rows = []
    for line in standings.lines:
        entry = line.entry
        name = entry.player.full_name + (f" ({line.note})" if line.note else "")
        points = "".join(
            str(line.rounds[n]).rjust(width) if n in line.rounds else "–".rjust(width)
            for n in standings.round_numbers
        )
        rank = line.rank if line.rank is not None else ""
        rows.append([rank, entry.start_number, name, entry.player.club, points, line.penalties,
                     line.total])  # fmt: skip
    return header, rounds_header, rows


def standings_pdf(tournament, *, teams_only: bool = False) -> bytes:
    from ..pdf import render_pdf

    standings = standings_domain.compute(tournament)
    header, rounds_header, rows = _pdf_rows(standings)
    team_header, teams = team_rows(standings)
    context = {
        "tournament": tournament,
        "standings": standings,
        "header": header,
        "rounds_header": rounds_header,
        # Page by page: one short table per page lays out faster than one long table.
        "row_chunks": [] if teams_only else _chunks(rows, first=34, rest=40),
        "team_header": team_header,
        "teams": teams,
        "teams_only": teams_only,
        "generated": formats.date_format(timezone.localtime(), "DATETIME_FORMAT"),
    }
    return render_pdf("tournament/print/standings.html", context)


def sheets_workbook(tournament, round_: Round) -> bytes:
    """Every row of every Spielliste of ``round_``: one sheet per table."""
    book = Workbook(write_only=True)
    tables = round_.tables.prefetch_related("seats__entry__player", "games").order_by("number")
    penalties_by_table: dict[int, list[Penalty]] = {}
    for item in Penalty.objects.counting().filter(table__round=round_).select_related("table"):
        penalties_by_table.setdefault(item.table_id, []).append(item)
    for table in tables:
        seats = sorted(table.seats.all(), key=lambda seat: seat.position)
        header = [_("game"), _("kind"), _("soloist")]
        header += [f"{s.position} {s.entry.player.full_name}" for s in seats]
        rows = [
            [game.number, game.get_kind_display(), game.soloist_position or "", *game.points]
            for game in sorted(table.games.all(), key=lambda game: game.number)
        ]
        penalty = _("penalty")
        for item in penalties_by_table.get(table.pk, []):
            rows.append([item.game_number, penalty, item.get_category_display(), *item.points])
        rows.sort(key=lambda row: (row[0], row[1] == penalty))
        _sheet(book, _("Table %(number)s") % {"number": table.number}, header, rows)
    out = BytesIO()
    book.save(out)
    return out.getvalue()


def rounds_pdf(tournament) -> bytes:
    from ..pdf import render_pdf

    sections = []
    for round_ in tournament.rounds.exclude(
        status__in=[RoundStatus.PLANNED, RoundStatus.DRAWN]
    ).order_by("number"):
        header, rows = round_rows(round_)
        sections.append({"round": round_, "header": header, "rows": rows})
    context = {"tournament": tournament, "sections": sections, "title": _("Rounds")}
    return render_pdf("tournament/print/rounds.html", context)


def table_plan_pdf(round_: Round) -> bytes:
    from ..pdf import render_pdf

    header, rows = round_rows(round_)
    context = {
        "tournament": round_.tournament,
        "sections": [{"round": round_, "header": header[:4], "rows": [r[:4] for r in rows]}],
        "title": _("Table plan"),
    }
    return render_pdf("tournament/print/rounds.html", context)


def _when(moment) -> str:
    return formats.date_format(timezone.localtime(moment), "DATETIME_FORMAT") if moment else ""


def _who(user) -> str:
    if user is None:
        return ""
    return user.get_full_name() or user.get_username()


def penalty_rows(tournament) -> tuple[list[str], list[list]]:
    """Every penalty of the tournament, whatever its state, in the order they were entered."""
    header = [
        _("No."),
        _("entered"),
        _("round"),
        _("table"),
        _("game"),
        _("start number"),
        _("offender"),
        _("category"),
        _("game situation"),
        _("points"),
        _("offender's points"),
        _("status"),
        _("referee"),
        _("signed at"),
        _("reason"),
        _("revoked at"),
        _("revoked by"),
        _("reason for the revocation"),
        _("replaces"),
    ]
    penalties = (
        Penalty.objects.filter(table__round__tournament=tournament)
        .select_related("table__round", "offender__player", "referee", "revoked_by", "entered_by")
        .order_by("created_at", "pk")
    )
    rows = []
    for item in penalties:
        rows.append(
            [
                item.pk,
                _when(item.created_at),
                item.table.round.number,
                item.table.number,
                item.game_number,
                item.offender.start_number,
                item.offender.player.full_name,
                item.get_category_display(),
                item.get_context_display(),
                signed_points(item.points),
                item.points[item.offender_position - 1] if item.offender_position else "",
                item.get_state_display(),
                _who(item.referee),
                _when(item.signed_at),
                item.reason,
                _when(item.revoked_at),
                _who(item.revoked_by),
                item.revoke_reason,
                item.replaces_id or "",
            ]
        )
    return header, rows


def penalty_history_rows(tournament) -> tuple[list[str], list[list]]:
    """Every recorded change of every penalty: who, when (UTC), what, why."""
    header = [_("No."), _("when (UTC)"), _("by"), _("role"), _("what"), _("status"), _("points")]
    header.append(_("note"))
    kinds = {"+": _("entered"), "~": _("changed"), "-": _("deleted")}
    records = (
        Penalty.history.filter(table__round__tournament=tournament)
        .select_related("history_user")
        .order_by("id", "history_date", "history_id")
    )
    rows = []
    for record in records:
        rows.append(
            [
                record.id,
                record.history_date.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S"),
                _who(record.history_user),
                role_label(record.history_role),
                kinds.get(record.history_type, record.history_type),
                state_label(record),
                signed_points(points_of(record)),
                record.history_change_reason or "",
            ]
        )
    return header, rows


def penalties_workbook(tournament) -> bytes:
    """The referees' record: every penalty with its state, and the history of each."""
    book = Workbook(write_only=True)
    header, rows = penalty_rows(tournament)
    _sheet(book, _("Penalties"), header, rows)
    header, rows = penalty_history_rows(tournament)
    _sheet(book, _("History"), header, rows)
    book.properties.title = f"{tournament.name} – {_('Penalties')}"
    out = BytesIO()
    book.save(out)
    return out.getvalue()
