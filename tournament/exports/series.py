"""A series' table and every player's results in it, as listings (page, PDF, Excel).

The same :class:`~.rows.Listing` feeds the public page, the director's page, the PDF and
the workbook, as for a tournament's standings: they cannot disagree on a rank or a value.
"""

from __future__ import annotations

from django.utils import formats, timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from ..models import SeriesMethod
from ..queries.series import NOT_BEST, SeriesLine, SeriesStandings
from .rows import Column, ColumnKind, Listing, Value, round_label, when

VALUE_LABELS = {
    SeriesMethod.SUM: gettext_lazy("Points"),
    SeriesMethod.BEST: gettext_lazy("Points"),
    SeriesMethod.AVERAGE: gettext_lazy("Average"),
    SeriesMethod.PLACEMENT: gettext_lazy("Placement points"),
}


def value_label(standings: SeriesStandings) -> str:
    series = standings.series
    if series.method == SeriesMethod.BEST and series.best_of:
        return ngettext("Points, best tournament", "Points, best %(count)s", series.best_of) % {
            "count": series.best_of
        }
    return str(VALUE_LABELS[SeriesMethod(series.method)])


def _points_column(standings: SeriesStandings) -> Column | None:
    """The points beside the value, where they say something else: with "sum" they are the
    value (no column), with "best N" those of every tournament counted for the rounds (the
    value keeps the best N), with "average" and "placement" the points the value comes from."""
    method = standings.series.method
    if method == SeriesMethod.SUM:
        return None
    if method == SeriesMethod.BEST:
        return Column("points", _("Points, all tournaments"), ColumnKind.POINTS)
    return Column("points", _("Points"), ColumnKind.POINTS)


def _points(standings: SeriesStandings, line: SeriesLine) -> int:
    if standings.series.method == SeriesMethod.BEST:
        return sum(r.total for r in line.results if r.counted or r.left_out == NOT_BEST)
    return line.points


def below_note(standings: SeriesStandings, line: SeriesLine) -> str:
    """ "20 of 36 rounds": why a player is not (yet) ranked."""
    needed = standings.series.min_rounds
    return ngettext("%(rounds)s of %(needed)s round", "%(rounds)s of %(needed)s rounds", needed) % {
        "rounds": line.rounds,
        "needed": standings.series.min_rounds,
    }


def series_columns(standings: SeriesStandings) -> list[Column]:
    points = _points_column(standings)
    return [
        Column("rank", _("Rank"), ColumnKind.RANK),
        Column("name", _("Name"), ColumnKind.NAME),
        Column("club", _("Club")),
        Column("tournaments", _("Tournaments"), ColumnKind.NUMBER),
        Column("rounds", _("Rounds"), ColumnKind.NUMBER),
        *([points] if points else []),
        Column("value", value_label(standings), ColumnKind.TOTAL),
        Column("note", _("Status")),
    ]


def _listing(standings: SeriesStandings, lines: list[SeriesLine], *, ranked: bool) -> Listing:
    listing = Listing(series_columns(standings))
    keys = [column.key for column in listing.columns]
    for line in lines:
        player = line.player
        values: dict[str, Value] = {
            "rank": line.rank if ranked else None,
            "name": player.full_name,
            "club": player.club or None,
            "tournaments": line.tournaments,
            "rounds": line.rounds,
            "points": _points(standings, line),
            "value": standings.shown(line.value),
            "note": None if ranked else below_note(standings, line),
        }
        listing.add(values[key] for key in keys)
    return listing


def series_rows(standings: SeriesStandings) -> Listing:
    """The ranked players."""
    return _listing(standings, standings.lines, ranked=True)


def below_rows(standings: SeriesStandings) -> Listing:
    """The players with fewer rounds than the series asks for: no rank."""
    return _listing(standings, standings.below_minimum, ranked=False)


def result_columns(standings: SeriesStandings, *, with_player: bool = False) -> list[Column]:
    columns = [Column("name", _("Name"), ColumnKind.NAME)] if with_player else []
    columns += [
        Column("date", _("Date")),
        Column("tournament", _("Tournament")),
        Column("round_points", _("Points per round")),
        Column("rounds", _("Rounds"), ColumnKind.NUMBER),
        Column("penalties", _("Penalties"), ColumnKind.PENALTIES),
        Column("total", _("Total"), ColumnKind.POINTS),
        Column("rank", _("Rank"), ColumnKind.RANK),
        Column("players", _("Players"), ColumnKind.NUMBER),
        Column("shared", _("Place shared")),
    ]
    if standings.series.method == SeriesMethod.PLACEMENT:
        columns.append(Column("placement_points", _("Placement points"), ColumnKind.POINTS))
    columns.append(Column("note", _("Not counted")))
    return columns


def round_points(result) -> str:
    """ "R1 +6 · R2 −3": where a tournament's total comes from."""
    return " · ".join(f"{round_label(n)} {points:+d}" for n, points in result.round_points)


def result_rows(
    standings: SeriesStandings, lines: list[SeriesLine], *, with_player: bool = False
) -> Listing:
    """Every result of ``lines``, one row per player and tournament: the rounds it comes
    from, its total and rank there, and whether it counts for the series. A line shown as a
    pseudonym (public, no consent) has none listed (see ``SeriesLine.hidden``)."""
    listing = Listing(result_columns(standings, with_player=with_player))
    placement = standings.series.method == SeriesMethod.PLACEMENT
    for line in lines:
        for result in [] if line.hidden else line.results:
            values: list[Value] = [line.player.full_name] if with_player else []
            values += [formats.date_format(result.tournament.date, "SHORT_DATE_FORMAT"),
                       result.tournament.name, round_points(result), result.rounds_played,
                       result.line.penalties or None, result.total, result.rank,
                       result.field_size or None, _("yes") if result.shared else None]  # fmt: skip
            if placement:
                points = result.placement_points
                values.append(standings.shown(points) if points is not None else None)
            values.append(result.note or None)
            listing.add(values, "muted" if not result.counted else "")
    return listing


def heading(standings: SeriesStandings, title: str) -> list[str]:
    series = standings.series
    return [
        series.name,
        title,
        describe(standings),
        *hidden_notes(standings),
        _("generated %(generated)s") % {"generated": when(timezone.now())},
    ]


def hidden_notes(standings: SeriesStandings) -> list[str]:
    """For a public file: the tournaments whose last rounds wait for their prize ceremony
    (issue 38), one sentence each."""
    return [
        _("%(name)s: results from round %(number)s on will be announced at the prize ceremony.")
        % {"name": t.name, "number": t.hide_standings_from}
        for t in standings.hidden_tournaments
    ]


def describe(standings: SeriesStandings) -> str:
    """The series' scoring in one sentence, for pages and documents."""
    series = standings.series
    method = SeriesMethod(series.method)
    parts = [str(method.label)]
    if method == SeriesMethod.BEST and series.best_of:
        parts[0] = ngettext(
            "sum of the best tournament", "sum of the best %(count)s tournaments", series.best_of
        ) % {"count": series.best_of}
    if method == SeriesMethod.PLACEMENT and series.points_table:
        table = ", ".join(str(p) for p in series.points_table)
        parts.append(_("places: %(points)s") % {"points": table})
    if series.min_rounds:
        rounds = series.min_rounds
        parts.append(
            ngettext("ranked from %(rounds)s round", "ranked from %(rounds)s rounds", rounds)
            % {"rounds": rounds}
        )
    if series.window_months:
        months = series.window_months
        parts.append(ngettext("last month", "last %(months)s months", months) % {"months": months})
    return " · ".join(parts)
