"""Seat wishes as the draw sees them (issue 39): read from the entries, checked against a
drawn round, and put in words with the players' start numbers and names.

The wishes themselves are entered elsewhere (never-together groups, fixed tables, teams kept
apart); the draw (``domain.draw``) passes them to the solver, which keeps them in every new
round or refuses with :class:`seating.ImpossibleWishes`.
"""

from collections.abc import Sequence
from dataclasses import dataclass

from django.db.models import QuerySet
from django.utils.translation import gettext as _

from tournament import seating

from ..models import Entry
from ..wording.findings import impossible_wishes_message, wish_break_message

Apart = tuple[tuple[int, ...], ...]  # never-together groups: sorted entry ids, sorted
AtTable = tuple[tuple[int, int], ...]  # (entry id, table number), sorted
WishRow = tuple[int, int | None, int | None, int | None]


def wish_rows(entries: QuerySet[Entry]) -> list[WishRow]:
    """(entry id, never-together group id, team id, fixed table) of ``entries``."""
    return list(entries.values_list("pk", "apart_group_id", "team_id", "fixed_table"))


def seat_wishes(rows: list[WishRow], teams_apart: bool) -> tuple[Apart, AtTable]:
    """The seat wishes among the players of ``rows`` (see :func:`wish_rows`): the
    never-together groups as sorted tuples of entry ids (every team too when
    ``teams_apart``; groups with fewer than two of these players dropped, the same group
    once), sorted; and the fixed tables as sorted (entry id, table number) pairs. No hash
    order: equal rows give equal wishes, so equal snapshots still mean the same plan."""
    groups: dict[tuple[str, int], list[int]] = {}
    for entry_id, group, team, _table in rows:
        if group is not None:
            groups.setdefault(("group", group), []).append(entry_id)
        if teams_apart and team is not None:
            groups.setdefault(("team", team), []).append(entry_id)
    apart = sorted({tuple(sorted(m)) for m in groups.values() if len(m) > 1})
    at_table = sorted((entry_id, table) for entry_id, _g, _t, table in rows if table is not None)
    return tuple(apart), tuple(at_table)


def _label(entry: Entry) -> str:
    return f"{entry.start_number} {entry.player}"


def refusal(
    exc: seating.ImpossibleWishes, at_table: AtTable, teams_apart: bool, field: Sequence[int]
) -> str:
    """Why the solver refused the wishes, naming the players concerned (with their fixed
    tables where those are the reason); ``field`` is the checked-in players' entry ids."""
    entries = Entry.objects.filter(pk__in=list(exc.players)).select_related("player", "team")
    concerned = sorted(entries, key=lambda e: e.start_number)
    tables = dict(at_table) if exc.reason in ("table_missing", "same_table") else {}
    labels = []
    for entry in concerned:
        label = _label(entry)
        if entry.pk in tables:
            label += " (" + _("table %(number)s") % {"number": tables[entry.pk]} + ")"
        labels.append(label)
    # A team kept apart is named as the team (the director may turn that off), not as a
    # never-together group that happens to hold team-mates.
    name = None
    team = concerned[0].team if concerned else None
    if exc.reason == "group_too_large" and teams_apart and team is not None:
        mates = Entry.objects.filter(pk__in=list(field), team=team)
        if set(mates.values_list("pk", flat=True)) == {e.pk for e in concerned}:
            name = team.name
    return impossible_wishes_message(exc.reason, labels, exc.tables, team=name)


@dataclass(frozen=True)
class WishBreak:
    """A seat wish a round does not keep: ``players`` (entry ids) of one never-together
    group at table ``table``, or one player at ``table`` instead of the ``fixed`` one."""

    table: int
    players: tuple[int, ...]
    fixed: int | None = None

    @property
    def pairs(self) -> int:
        """How many wishes it breaks: the pairs at the table, or the one fixed table."""
        return 1 if self.fixed is not None else len(self.players) * (len(self.players) - 1) // 2


def wish_breaks(tables: list[list[int]], apart: Apart, at_table: AtTable) -> list[WishBreak]:
    """The seat wishes the round ``tables`` (entry ids, in table-number order) breaks, by
    table number: never-together groups sharing a table, fixed players elsewhere."""
    table_of = {entry: number for number, table in enumerate(tables, 1) for entry in table}
    breaks = []
    for group in apart:
        by_table: dict[int, list[int]] = {}
        for entry in group:
            if entry in table_of:
                by_table.setdefault(table_of[entry], []).append(entry)
        breaks += [WishBreak(t, tuple(m)) for t, m in sorted(by_table.items()) if len(m) > 1]
    for entry, fixed in at_table:
        if entry in table_of and table_of[entry] != fixed:
            breaks.append(WishBreak(table_of[entry], (entry,), fixed))
    return sorted(breaks, key=lambda b: (b.table, b.players))


def break_sentences(breaks: list[WishBreak]) -> list[str]:
    """The breaks in words, naming the players by start number and name."""
    ids = {entry for b in breaks for entry in b.players}
    names = {e.pk: _label(e) for e in Entry.objects.filter(pk__in=ids).select_related("player")}
    return [
        wish_break_message([names[entry] for entry in b.players], b.table, b.fixed) for b in breaks
    ]
