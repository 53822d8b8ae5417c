"""Exports of a tournament as Excel workbooks (openpyxl) and PDF (WeasyPrint).

Workbooks: each sheet opens with a few lines on what it is (tournament, what and whether
provisional or final, date and venue, time of generation: a forwarded or printed sheet says
it by itself), then a frozen header row, sensible column widths, numbers as numbers — and text as
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
TITLE = Font(bold=True, size=14)
XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def _cell(sheet, value, *, font: Font | None = None) -> WriteOnlyCell:
    cell = WriteOnlyCell(sheet, value=value)
    if isinstance(value, str):
        cell.data_type = "s"  # never a formula, whatever the text starts with
    if font is not None:
        cell.font = font
    return cell


def _when(moment) -> str:
    return formats.date_format(timezone.localtime(moment), "DATETIME_FORMAT") if moment else ""


def heading(tournament, title: str, state: str = "") -> list[str]:
    """The lines above a sheet's table: a printed or forwarded sheet says by itself what it
    is (tournament; what, and whether provisional or final; date, venue, rules; when made)."""
    about = [formats.date_format(tournament.date, "DATE_FORMAT") if tournament.date else ""]
    about += [tournament.venue, tournament.get_rule_profile_display()]
    return [
        tournament.name,
        f"{title} – {state}" if state else title,
        " · ".join(part for part in about if part),
        _("generated %(generated)s") % {"generated": _when(timezone.now())},
    ]


def _sheet(
    book: Workbook,
    title: str,
    header: list[str],
    rows: list[list],
    *,
    head: list[str] | None = None,
    apart: tuple[str, list[list]] | None = None,
) -> None:
    """One worksheet: the ``head`` lines, an empty row, the table with its header row frozen,
    and ``apart`` — a caption and rows listed below the table after an empty row."""
    head = head or []
    extra = apart[1] if apart else []
    sheet = book.create_sheet(title=title[:31])
    top = len(head) + 1 if head else 0  # the head lines and an empty row
    sheet.freeze_panes = f"A{top + 2}"
    for column, text in enumerate(header, start=1):
        values = [r[column - 1] for r in rows + extra if r and len(r) >= column]
        longest = max([len(str(text))] + [len(str(v)) for v in values if v is not None])
        sheet.column_dimensions[get_column_letter(column)].width = min(max(6, longest + 2), 45)
    for text, font in zip(head, [TITLE, BOLD], strict=False):
        sheet.append([_cell(sheet, text, font=font)])
    for text in head[2:]:
        sheet.append([_cell(sheet, text)])
    if head:
        sheet.append([])
    sheet.append([_cell(sheet, text, font=BOLD) for text in header])
    for row in rows:
        sheet.append([_cell(sheet, value) for value in row])
    if apart and extra:
        sheet.append([])
        sheet.append([_cell(sheet, apart[0], font=BOLD)])
        for row in extra:
            sheet.append([_cell(sheet, value) for value in row])


def _state(standings) -> str:
    return _("provisional") if standings.provisional else _("final")


def standings_rows(standings) -> tuple[list[str], list[list]]:
    header = [_("Rank"), _("No."), _("Name"), _("Club"), _("Team")]
    header += [_("R%(number)s") % {"number": n} for n in standings.round_numbers]
    header += [_("Penalties"), _("Total"), _("Status")]
    rows = []
    for line in standings.lines:
        entry = line.entry
        team = entry.team.name if entry.team else None
        row = [line.rank, entry.start_number, entry.player.full_name, entry.player.club, team]
        row += [line.rounds.get(n) for n in standings.round_numbers]
        row += [line.penalties, line.total, line.note or None]
        rows.append(row)
    return header, rows


def absent_rows(standings) -> list[list]:
    """The registered players who never sat at a table, in the standings' columns: no rank,
    no points."""
    blanks = [None] * (len(standings.round_numbers) + 2)
    return [
        [None, line.entry.start_number, line.entry.player.full_name, line.entry.player.club,
         line.entry.team.name if line.entry.team else None, *blanks, line.note or None]
        for line in standings.absent
    ]  # fmt: skip


def team_rows(standings) -> tuple[list[str], list[list]]:
    header = [_("Rank"), _("Team"), _("Members"), _("Total")]
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


def _position_sums(rows) -> dict[tuple[int, int], int]:
    """(table id, position) -> the sum of the rows' points (games or penalties) there."""
    sums: dict[tuple[int, int], int] = {}
    for table_id, *values in rows.values_list("table_id", "p1", "p2", "p3", "p4", "p5"):
        for position, value in enumerate(values, start=1):
            if value:
                sums[table_id, position] = sums.get((table_id, position), 0) + value
    return sums


def round_rows(round_: Round) -> tuple[list[str], list[list]]:
    """Every seat of a round with the player's game points, signed penalty points and total
    at that table (the first four columns are the seat: table plans use only those)."""
    header = [_("Table"), _("Position"), _("No."), _("Name"), _("Points"), _("Penalties")]
    header.append(_("Total"))
    points = _position_sums(Game.objects.filter(table__round=round_))
    penalties = _position_sums(Penalty.objects.counting().filter(table__round=round_))
    seats = (
        Seat.objects.filter(round=round_)
        .select_related("table", "entry__player")
        .order_by("table__number", "position")
    )
    rows = []
    for seat in seats:
        where = (seat.table_id, seat.position)
        game, penalty = points.get(where, 0), penalties.get(where, 0)
        rows.append([seat.table.number, seat.position, seat.entry.start_number,
                     seat.entry.player.full_name, game, penalty, game + penalty])  # fmt: skip
    return header, rows


def _played_rounds(tournament):
    return tournament.rounds.exclude(status__in=[RoundStatus.PLANNED, RoundStatus.DRAWN]).order_by(
        "number"
    )


def workbook(tournament, what: str = "standings") -> bytes:
    """``standings``: standings, one sheet per round, teams; ``teams``: the teams;
    ``rounds``: one sheet per played round; ``tableplan``: the seats of the current round.
    Every sheet starts with a few lines that say what it is (see :func:`heading`)."""
    standings = standings_domain.compute(tournament)
    state = _state(standings)
    book = Workbook(write_only=True)
    if what in ("standings",):
        header, rows = standings_rows(standings)
        title = _("Standings")
        _sheet(book, title, header, rows, head=heading(tournament, title, state),
               apart=(_("Not started"), absent_rows(standings)))  # fmt: skip
    if what in ("standings", "rounds"):
        for round_ in _played_rounds(tournament):
            header, rows = round_rows(round_)
            title = _("Round %(number)s") % {"number": round_.number}
            head = heading(tournament, title, round_.get_status_display())
            _sheet(book, title, header, rows, head=head)
    if what in ("standings", "teams"):
        header, rows = team_rows(standings)
        _sheet(book, _("Teams"), header, rows, head=heading(tournament, _("Teams"), state))
    if what == "tableplan":
        round_ = current_round(tournament)
        header, rows = round_rows(round_) if round_ else ([_("Table")], [])
        title = _("Table plan")
        if round_:
            title = f"{title} – {_('Round %(number)s') % {'number': round_.number}}"
        _sheet(book, _("Table plan"), header[:4], [r[:4] for r in rows],
               head=heading(tournament, title))  # fmt: skip
    if not book.sheetnames:
        title = _("Standings")
        _sheet(book, title, [_("No results yet.")], [], head=heading(tournament, title, state))
    book.properties.title = f"{tournament.name} – {state}"
    out = BytesIO()
    book.save(out)
    return out.getvalue()


def current_round(tournament) -> Round | None:
    """The round players sit in now: the last released one, else the last drawn one."""
    rounds = tournament.rounds.exclude(status=RoundStatus.PLANNED).order_by("-number")
    released = rounds.filter(status=RoundStatus.RELEASED).first()
    return released or rounds.first()


def _pdf_lines(lines, round_numbers: list[int]) -> list[dict]:
    """The printed standings' rows: one cell per round ("–" where the player did not
    sit), the note (withdrawn, disqualified) apart from the name."""
    return [
        {
            "rank": line.rank if line.rank is not None else "",
            "number": line.entry.start_number,
            "name": line.entry.player.full_name,
            "note": line.note,
            "club": line.entry.player.club,
            "rounds": [line.rounds.get(n, "–") for n in round_numbers],
            "penalties": line.penalties,
            "total": line.total,
            "muted": line.withdrawn or line.disqualified,
        }
        for line in lines
    ]


# Beyond this many rounds the round columns no longer leave the names room on A4 upright.
PORTRAIT_ROUNDS = 8


def standings_pdf(tournament, *, teams_only: bool = False) -> bytes:
    """The standings on A4: one table that fills the pages and repeats its header row on
    each; players who never started listed apart; the teams below."""
    from ..pdf import render_pdf

    standings = standings_domain.compute(tournament)
    team_header, teams = team_rows(standings)
    rounds = standings.round_numbers
    context = {
        "tournament": tournament,
        "standings": standings,
        "round_headers": [_("R%(number)s") % {"number": n} for n in rounds],
        "lines": [] if teams_only else _pdf_lines(standings.lines, rounds),
        "absent": [] if teams_only else _pdf_lines(standings.absent, []),
        "landscape": len(rounds) > PORTRAIT_ROUNDS and not teams_only,
        "team_header": team_header,
        "teams": teams,
        "teams_only": teams_only,
        "generated": _when(standings.generated_at),
    }
    return render_pdf("tournament/print/standings.html", context)


def sheets_workbook(tournament, round_: Round) -> bytes:
    """Every row of every Spielliste of ``round_``: one sheet per table."""
    book = Workbook(write_only=True)
    tables = round_.tables.prefetch_related("seats__entry__player", "games").order_by("number")
    penalties_by_table: dict[int, list[Penalty]] = {}
    for item in Penalty.objects.counting().filter(table__round=round_).select_related("table"):
        penalties_by_table.setdefault(item.table_id, []).append(item)
    round_title = _("Round %(number)s") % {"number": round_.number}
    for table in tables:
        seats = sorted(table.seats.all(), key=lambda seat: seat.position)
        header = [_("Game"), _("Kind"), _("Soloist")]
        header += [f"{s.position} {s.entry.player.full_name}" for s in seats]
        rows = [
            [game.number, game.get_kind_display(), game.soloist_position or None, *game.points]
            for game in sorted(table.games.all(), key=lambda game: game.number)
        ]
        penalty = _("penalty")
        for item in penalties_by_table.get(table.pk, []):
            rows.append([item.game_number, penalty, item.get_category_display(), *item.points])
        rows.sort(key=lambda row: (row[0], row[1] == penalty))
        title = _("Table %(number)s") % {"number": table.number}
        head = heading(tournament, f"{round_title} – {title}", table.get_sheet_status_display())
        _sheet(book, title, header, rows, head=head)
    book.properties.title = f"{tournament.name} – {round_title}"
    out = BytesIO()
    book.save(out)
    return out.getvalue()


def _table_penalties(round_: Round) -> dict[int, list[dict]]:
    """Table id -> every penalty decided there, whatever its state, for the referee's check
    on paper: game, offender, category, the row of points and whether it counts."""
    by_table: dict[int, list[dict]] = {}
    penalties = (
        Penalty.objects.filter(table__round=round_)
        .select_related("offender__player")
        .order_by("game_number", "pk")
    )
    for item in penalties:
        by_table.setdefault(item.table_id, []).append(
            {
                "number": item.number,
                "game": item.game_number,
                "offender": f"{item.offender.start_number} {item.offender.player.full_name}",
                "category": item.get_category_display(),
                "points": signed_points(item.points),
                "state": item.get_state_display(),
                "counts": item.counts,
            }
        )
    return by_table


def _tables(round_: Round, rows: list[list]) -> list[dict]:
    """The rows of :func:`round_rows` grouped by table, each table with its penalties."""
    by_table = _table_penalties(round_)
    ids = dict(round_.tables.values_list("number", "pk"))
    tables: list[dict] = []
    for number, *seat in rows:
        if not tables or tables[-1]["number"] != number:
            penalties = by_table.get(ids[number], [])
            tables.append({"number": number, "rows": [], "penalties": penalties})
        tables[-1]["rows"].append(seat)
    return tables


def rounds_pdf(tournament) -> bytes:
    """Every played round, table by table: each seat's game points, signed penalty points
    and total, and below each table every penalty decided there with its state."""
    from ..pdf import render_pdf

    sections = []
    for round_ in _played_rounds(tournament):
        header, rows = round_rows(round_)
        tables = _tables(round_, rows)
        pairs = [tables[i : i + 2] for i in range(0, len(tables), 2)]  # two side by side
        sections.append({"round": round_, "header": header[1:], "pairs": pairs})
    context = {
        "tournament": tournament,
        "sections": sections,
        "title": _("Rounds"),
        "generated": _when(timezone.now()),
    }
    return render_pdf("tournament/print/rounds.html", context)


def table_plan_pdf(round_: Round) -> bytes:
    from ..pdf import render_pdf

    header, rows = round_rows(round_)
    context = {
        "tournament": round_.tournament,
        "sections": [{"round": round_, "header": header[:4], "rows": [r[:4] for r in rows]}],
        "title": _("Table plan"),
        "generated": _when(timezone.now()),
    }
    return render_pdf("tournament/print/rounds.html", context)


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
        .select_related(
            "table__round", "offender__player", "referee", "revoked_by", "entered_by", "replaces"
        )
        .order_by("created_at", "pk")
    )
    rows = []
    for item in penalties:
        rows.append(
            [
                item.number,
                _when(item.created_at),
                item.table.round.number,
                item.table.number,
                item.game_number,
                item.offender.start_number,
                item.offender.player.full_name,
                item.get_category_display(),
                item.get_context_display(),
                signed_points(item.points),
                item.points[item.offender_position - 1] if item.offender_position else None,
                item.get_state_display(),
                _who(item.referee),
                _when(item.signed_at),
                item.reason,
                _when(item.revoked_at),
                _who(item.revoked_by),
                item.revoke_reason,
                item.replaces.number if item.replaces else None,
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
        .order_by("number", "history_date", "history_id")
    )
    rows = []
    for record in records:
        rows.append(
            [
                record.number,
                record.history_date.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S"),
                _who(record.history_user),
                role_label(record.history_role),
                kinds.get(record.history_type, record.history_type),
                state_label(record),
                signed_points(points_of(record)),
                _(record.history_change_reason) if record.history_change_reason else "",
            ]
        )
    return header, rows


def penalties_workbook(tournament) -> bytes:
    """The referees' record: every penalty with its state, and the history of each."""
    book = Workbook(write_only=True)
    header, rows = penalty_rows(tournament)
    _sheet(book, _("Penalties"), header, rows, head=heading(tournament, _("Penalties")))
    header, rows = penalty_history_rows(tournament)
    title = f"{_('Penalties')} – {_('History')}"
    _sheet(book, _("History"), header, rows, head=heading(tournament, title))
    book.properties.title = f"{tournament.name} – {_('Penalties')}"
    out = BytesIO()
    book.save(out)
    return out.getvalue()
