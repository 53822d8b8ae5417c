"""Seat wishes as the draw sees them (issue 39): checked against a drawn round and put in
words with the players' start numbers and names. They are read, and a refusal is put in
words, in :mod:`tournament.queries.wishes` (one reader for the draw and the players page).

The wishes themselves are entered elsewhere (never-together groups, fixed tables, teams kept
apart); the draw (``domain.draw``) passes them to the solver, which keeps them in every new
round or refuses with :class:`seating.ImpossibleWishes`.
"""

from dataclasses import dataclass

from ..models import Entry
from ..queries.wishes import Apart, AtTable, entry_label
from ..wording.findings import wish_break_message


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
    """The breaks in words, naming the players by start number and name, and the team where
    the players are team-mates kept apart rather than a never-together group."""
    ids = {entry for b in breaks for entry in b.players}
    entries = {e.pk: e for e in Entry.objects.filter(pk__in=ids).select_related("player", "team")}
    return [
        wish_break_message(
            [entry_label(entries[entry]) for entry in b.players],
            b.table,
            b.fixed,
            None if b.fixed is not None else _team_of([entries[entry] for entry in b.players]),
        )
        for b in breaks
    ]


def _team_of(players: list[Entry]) -> str | None:
    """The team name when ``players`` share a team and no never-together group."""
    groups = {e.apart_group_id for e in players}
    if len(groups) == 1 and None not in groups:
        return None
    teams = {e.team_id for e in players}
    return players[0].team.name if len(teams) == 1 and players[0].team else None
