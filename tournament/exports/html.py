"""The standings listing as the table of the standings pages.

django-tables2 draws the header and sorts the rows (``?sort=-total``); the body is written
here, by hand, from the sorted rows: the template engine would spend most of the page's time
on the cells of a big field (400 players, some 5,000 cells, every phone in the hall polling),
and this loop does the same in a fraction. Every value is escaped on its way in.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from html import escape as _escape

import django_tables2 as tables
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django_tables2 import RequestConfig

from .rows import Column, ColumnKind, Listing, Row, shown

# The columns a phone folds into the line under the name (site.css: "public pages on a phone").
FOLD = "fold"
# Columns left out when no line of the standings has anything to show in them.
OPTIONAL_COLUMNS = ("club", "team", "penalties", "note")
# How each kind of cell is set; only rank, name and total stay on a phone.
CELL_CLASS = {
    ColumnKind.RANK: "num rank",
    ColumnKind.NUMBER: f"num {FOLD}",
    ColumnKind.NAME: "name",
    ColumnKind.TEXT: FOLD,
    ColumnKind.POINTS: f"num {FOLD}",
    ColumnKind.PENALTIES: f"num penalties {FOLD}",
    ColumnKind.TOTAL: "num total",
}


def _folded(css: str = "") -> dict:
    return {"td": {"class": f"{css} {FOLD}".strip()}, "th": {"class": f"{css} {FOLD}".strip()}}


class StandingsTable(tables.Table):
    rank = tables.Column(
        verbose_name=gettext_lazy("Rank"),
        attrs={"td": {"class": "num rank"}, "th": {"class": "num"}},
        default="",
    )
    start_number = tables.Column(verbose_name=gettext_lazy("No."), attrs=_folded("num"))
    name = tables.Column(verbose_name=gettext_lazy("Name"), attrs={"td": {"class": "name"}})
    club = tables.Column(verbose_name=gettext_lazy("Club"), default="", attrs=_folded())
    team = tables.Column(verbose_name=gettext_lazy("Team"), default="", attrs=_folded())
    penalties = tables.Column(
        verbose_name=gettext_lazy("Penalties"), attrs=_folded("num penalties")
    )
    total = tables.Column(
        verbose_name=gettext_lazy("Total"),
        attrs={"td": {"class": "num total"}, "th": {"class": "num total"}},
    )
    note = tables.Column(verbose_name="", orderable=False, default="", attrs=_folded())

    class Meta:
        attrs = {"class": "table standings", "id": "standings"}
        empty_text = gettext_lazy("No results yet.")
        orderable = True


def page_table(request, listing: Listing, keep: Callable[[Row], bool]) -> StandingsTable:
    """The standings table of a page: the rows ``keep`` accepts, sorted as the request asks
    (``?sort=``), one column per counted round, the optional columns some row of the whole
    listing fills, and the body written by :func:`body` (``table.body_html``)."""
    filled = {key for key in OPTIONAL_COLUMNS if listing.filled(key)}
    hidden = [key for key in OPTIONAL_COLUMNS if key not in filled]
    columns = [c for c in listing.columns if c.key not in hidden]
    rounds = [
        (c.key, tables.Column(verbose_name=c.label, attrs=_folded("num"), default="–"))
        for c in columns
        if c.kind == ColumnKind.POINTS
    ]
    table = StandingsTable(
        listing.where(keep).rows,
        extra_columns=rounds,
        exclude=hidden,
        order_by_field="sort",
        template_name="tournament/partials/standings_table.html",
    )
    table.sequence = [c.key for c in columns]
    RequestConfig(request, paginate=False).configure(table)
    table.body_html = body(table.data, columns, listing.columns)
    return table


def _detail(row: Row, columns: list[Column], penalties: str) -> str:
    """What a phone folds away, as one line under the name: start number, club, team, the
    points of every round, penalties and the note ("No. 7 · DSC · R1 12 · R2 −4")."""
    # A label and its number never part at the end of a line: joined by a no-break space.
    parts = []
    for column in columns:
        value = row[column.key]
        if column.key == "start_number":
            parts.append(f"{column.label}\N{NO-BREAK SPACE}{value}")
        elif column.kind == ColumnKind.POINTS:
            parts.append(f"{column.label}\N{NO-BREAK SPACE}{shown(column, value)}")
        elif column.kind == ColumnKind.PENALTIES and value:
            parts.append(f"{penalties}\N{NO-BREAK SPACE}{value}")
        elif column.kind == ColumnKind.TEXT and value:
            parts.append(str(value))
    return " · ".join(parts)


def escape(value) -> str:
    """Django's ``escape`` without its lazy-string wrapper, which cost more than the
    escaping itself for the 5,000 cells of a big field: the same five characters."""
    return _escape(str(value))


def body(rows: Iterable[Row], columns: list[Column], every: list[Column]) -> SafeString:
    """The table body: one ``<tr>`` per row in the given (sorted) order, the cells of
    ``columns``; the name cell carries the detail line of all columns ``every``."""
    classes = [CELL_CLASS[column.kind] for column in columns]
    folded = [
        c
        for c in every
        if c.kind != ColumnKind.NAME and c.kind not in (ColumnKind.RANK, ColumnKind.TOTAL)
    ]
    penalties = _("penalties")
    parts = []
    for row in rows:
        cells = []
        for column, css in zip(columns, classes, strict=True):
            value = row[column.key]
            if column.kind == ColumnKind.NAME:
                detail = escape(_detail(row, folded, penalties))
                text = f'{escape(value)}<span class="detail">{detail}</span>'
            elif type(value) is int:  # a number: nothing to escape
                text = str(value)
            else:
                text = escape(shown(column, value))
            cells.append(f'<td class="{css}">{text}</td>')
        number = row["start_number"]
        parts.append(f'<tr class="{row.status}" id="line-{number}">{"".join(cells)}</tr>')
    return mark_safe("".join(parts))  # noqa: S308 - every value is escaped above
