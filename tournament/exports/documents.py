"""The tournament's lists on A4 (WeasyPrint, see ``pdf``): standings, rounds, table plan.

The rows come from the exporters in ``rows``; this module chooses the columns a page has
room for and how each kind of cell is set (numbers right-aligned, names that may wrap).
"""

from __future__ import annotations

from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from ..models import Penalty, Round, Tournament
from ..models.penalty import signed_points
from ..queries import standings as standings_domain
from ..queries.series import SeriesStandings
from . import rows, series
from .rows import Column, ColumnKind, Listing, Value, played_rounds, round_rows, shown, when

# Beyond this many rounds the round columns no longer leave the names room on A4 upright.
PORTRAIT_ROUNDS = 8
# The <col> class of each kind of column (widths in the standings template).
COL_CLASS = {
    ColumnKind.RANK: "rank",
    ColumnKind.NUMBER: "no",
    ColumnKind.NAME: "name",
    ColumnKind.TEXT: "club",
    ColumnKind.POINTS: "round",
    ColumnKind.PENALTIES: "pen",
    ColumnKind.TOTAL: "sum",
}
# Column widths of the standings PDF in millimetres, by column class; None: the rest.
STANDINGS_MM = {
    "rank": 9.5,
    "no": 8.5,
    "name": 44,
    "club": None,
    "round": 8,
    "pen": 14,  # "Strafen" in bold with its padding
    "sum": 12,
}
ABSENT_MM = {**STANDINGS_MM, "name": 80}
TEAMS_MM = {**STANDINGS_MM, "name": 45}


def _css(column: Column) -> str:
    if column.kind == ColumnKind.TOTAL:
        return "num total"
    return "num" if column.numeric else "text"


def printed(listing: Listing) -> dict:
    """A listing as the print templates set it: columns with their classes; each row's
    cells as (class, text, note) — the note (withdrawn, disqualified) in brackets after the
    name — and whether the row is greyed out."""
    note = listing.index.get("note")
    columns = [column for column in listing.columns if column.key != "note"]
    positions = [listing.index[column.key] for column in columns]
    classes = [_css(column) for column in columns]
    lines = []
    for row in listing.rows:
        remark = row.values[note] if note is not None else None
        cells = [
            (css, shown(column, row.values[p]), remark if column.kind == ColumnKind.NAME else None)
            for column, p, css in zip(columns, positions, classes, strict=True)
        ]
        lines.append({"cells": cells, "muted": row.muted})
    heads = [(column.label, COL_CLASS[column.kind], column.numeric) for column in columns]
    return {"columns": heads, "lines": lines}


def standings_pdf(tournament: Tournament, *, teams_only: bool = False) -> bytes:
    """The standings on A4: one table that fills the pages and repeats its header row on
    each; players who never started listed apart; the teams below. Drawn with ReportLab
    (``drawn``): a table of 400 players is 6,000 cells."""
    from .drawn import SMALL_SIZE, ListingDocument, ListingSection, columns_of, listing_pdf

    standings = standings_domain.compute(tournament)
    numbers = standings.round_numbers
    columns = ["rank", "start_number", "name", "club", *[f"r{n}" for n in numbers]]
    columns += ["penalties", "total", "note"]
    sections = []

    def section(listing: Listing, widths: dict, heading: str = "", hint: str = ""):
        table = printed(listing)
        lines = [([(text, note) for _css, text, note in line["cells"]], line["muted"])
                 for line in table["lines"]]  # fmt: skip
        return ListingSection(columns_of(table["columns"], widths), lines, heading, hint)

    if not teams_only:
        sections.append(section(rows.standings_rows(standings).select(columns), STANDINGS_MM))
        absent = rows.absent_rows(standings).select(["start_number", "name", "club", "note"])
        hint = _("Registered, but never seated at a table: no rank.")
        sections.append(section(absent, ABSENT_MM, _("Not started"), hint))
    teams = section(rows.team_rows(standings), TEAMS_MM, "" if teams_only else _("Teams"))
    teams.columns[2].size = SMALL_SIZE  # the members
    sections.append(teams)
    state = _("Provisional standings") if standings.provisional else _("Final standings")
    about = [date_format(tournament.date, "DATE_FORMAT") if tournament.date else ""]
    about += [tournament.venue, tournament.get_rule_profile_display()]
    document = ListingDocument(
        title=tournament.name,
        meta=[" · ".join(part for part in about if part)],
        state=f"{_('Teams')} – {state}" if teams_only else state,
        state_alert=standings.provisional,
        generated=_("generated %(generated)s") % {"generated": when(standings.generated_at)},
        sections=sections,
        empty="" if teams_only else _("No results yet."),
        landscape=len(numbers) > PORTRAIT_ROUNDS and not teams_only,
    )
    return listing_pdf(document)


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


def _tables(round_: Round, seats: Listing) -> list[dict]:
    """The seats of :func:`rows.round_rows` grouped by table, each table with its
    penalties."""
    by_table = _table_penalties(round_)
    ids: dict[Value, int] = dict(round_.tables.values_list("number", "pk"))
    tables: list[dict] = []
    for row in seats.rows:
        number = row["table"]
        if not tables or tables[-1]["number"] != number:
            penalties = by_table.get(ids[number], [])
            tables.append({"number": number, "rows": [], "penalties": penalties})
        tables[-1]["rows"].append(row)
    return tables


def rounds_pdf(tournament: Tournament) -> bytes:
    """Every played round, table by table: each seat's game points, signed penalty points
    and total, and below each table every penalty decided there with its state."""
    from .pdf import render_pdf

    sections = []
    for round_ in played_rounds(tournament):
        seats = round_rows(round_)
        tables = _tables(round_, seats)
        pairs = [tables[i : i + 2] for i in range(0, len(tables), 2)]  # two side by side
        labels = {column.key: column.label for column in seats.columns}
        sections.append({"round": round_, "labels": labels, "pairs": pairs})
    context = {
        "tournament": tournament,
        "sections": sections,
        "title": _("Rounds"),
        "generated": when(timezone.now()),
    }
    return render_pdf("tournament/print/rounds.html", context)


def table_plan_pdf(round_: Round) -> bytes:
    from .pdf import render_pdf

    plan = printed(round_rows(round_).select(rows.SEAT_KEYS))
    context = {
        "tournament": round_.tournament,
        "sections": [{"round": round_, "plan": plan}],
        "title": _("Table plan"),
        "generated": when(timezone.now()),
    }
    return render_pdf("tournament/print/rounds.html", context)


def series_pdf(standings: SeriesStandings) -> bytes:
    """A series on A4: its tournaments, its table and the players below the minimum. Every
    result with its rounds is on the player pages and in the workbook: 50 tournaments of
    200 players would be 10,000 lines, some 250 pages nobody prints."""
    from .pdf import render_pdf  # WeasyPrint loads only when a PDF is made

    ranked = series.series_rows(standings).select(
        ["rank", "name", "club", "tournaments", "rounds", "value"]
    )
    below = series.below_rows(standings).select(
        ["name", "club", "tournaments", "rounds", "value", "note"]
    )
    context = {
        "standings": standings,
        "series": standings.series,
        "about": " · ".join([series.describe(standings), *series.hidden_notes(standings)]),
        "ranked": printed(ranked),
        "below": printed(below),
        "generated": when(standings.generated_at),
    }
    return render_pdf("tournament/print/series.html", context)
