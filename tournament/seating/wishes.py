"""Seat wishes before the search: the never-together groups of a request in player indices
(:func:`apart_groups`), refused when they cannot all hold in a round of the field.

The wishes are hard and the same in every new round, while repeats are soft: one round that
keeps them all means every round can, so checking one round is exact. Players fixed to a
table (``at_table``) are met by renumbering the tables of each round
(:func:`.tables.number_tables`), so for the search they are one more group whose members sit
at different tables. Pure: no random numbers, no hash order (groups are read in index order).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .types import ImpossibleWishes, Player

# Nodes the exact check of overlapping groups may visit (one round, backtracking): far more
# than any real field needs; past it the check gives up and lets the search decide.
NODE_LIMIT = 50_000


def apart_groups(
    players: Sequence[Player],
    index: Mapping[Player, int],
    sizes: Sequence[int],
    apart: Sequence[frozenset[Player]],
    at_table: Mapping[Player, int],
) -> list[list[int]]:
    """The never-together groups among ``players`` in indices (each sorted, groups in the
    request's order, then the players fixed to tables as one group in table order); groups
    with fewer than two players present are left out. Raises :class:`ImpossibleWishes`
    when the wishes cannot all hold in a round of tables ``sizes``:

    * "table_missing": fixed table numbers outside 1..tables (all of them at once);
    * "same_table": two players fixed to one table (one error per table);
    * "group_too_large": a group with more players than the field has tables (one per
      group);
    * "too_many_groups": the groups together do not fit the tables (each table takes at
      most one player of a group and has only its seats); checked only when each wish
      alone can hold.

    The first error is raised with the others of the same kinds in its ``also``.
    """
    tables = len(sizes)
    fixed = sorted(((number, index[p]) for p, number in at_table.items() if p in index),
                   key=lambda item: (item[0], item[1]))  # fmt: skip
    found: list[ImpossibleWishes] = []
    missing = [i for number, i in fixed if not 1 <= number <= tables]
    if missing:
        found.append(ImpossibleWishes("table_missing", _named(players, missing), tables))
    numbers = [number for number, _ in fixed]
    for twice in sorted({number for number in numbers if numbers.count(number) > 1}):
        same = [i for number, i in fixed if number == twice]
        found.append(ImpossibleWishes("same_table", _named(players, same), tables))
    groups = [sorted(index[p] for p in group if p in index) for group in apart]
    # (the players fixed to tables, one group below, fit the tables when their numbers do)
    found += [
        ImpossibleWishes("group_too_large", _named(players, group), tables)
        for group in groups
        if len(group) > tables
    ]
    if found:
        first, *rest = found
        raise ImpossibleWishes(first.reason, first.players, tables, also=rest)
    groups.append([i for _, i in fixed])
    groups = [g for g in groups if len(g) > 1]
    members = [i for group in groups for i in group]
    if len(members) != len(set(members)):  # a player in two groups: the exact small check
        if not _fits_one_round(groups, sizes):
            # name the groups linked by shared players that do not fit even alone
            crowded: Sequence[Sequence[int]] = next(
                (c for c in _linked(groups) if not _fits_one_round(c, sizes)), groups
            )
            named = _named(players, sorted({i for g in crowded for i in g}))
            raise ImpossibleWishes("too_many_groups", named, tables)
        return groups
    capacities = sorted(sizes)
    for s in range(tables + 1):
        # any s tables must take what the other tables cannot: a group of g puts at most one
        # player at each of the other tables (Gale-Ryser with table capacities)
        forced = [g for g in groups if len(g) > tables - s]
        if sum(len(g) - (tables - s) for g in forced) > sum(capacities[:s]):
            squeezed = sorted(i for g in forced for i in g)
            raise ImpossibleWishes("too_many_groups", _named(players, squeezed), tables)
    return groups


def _linked(groups: Sequence[Sequence[int]]) -> list[list[Sequence[int]]]:
    """The groups in sets linked by shared players (each in the order of ``groups``)."""
    owner = list(range(len(groups)))  # union-find over the groups

    def root(g: int) -> int:
        while owner[g] != g:
            g = owner[g]
        return g

    first_group: dict[int, int] = {}
    for g, group in enumerate(groups):
        for i in group:
            other = first_group.setdefault(i, g)
            owner[root(g)] = root(other)
    linked: dict[int, list[Sequence[int]]] = {}
    for g, group in enumerate(groups):
        linked.setdefault(root(g), []).append(group)
    return list(linked.values())


def _named(players: Sequence[Player], indices: Sequence[int]) -> list[Player]:
    return [players[i] for i in sorted(indices)]


def never_mates(n: int, groups: Sequence[Sequence[int]]) -> list[frozenset[int]] | None:
    """Per player: the players it must never sit with (None without groups)."""
    if not groups:
        return None
    never: list[set[int]] = [set() for _ in range(n)]
    for group in groups:
        for i in group:
            never[i].update(j for j in group if j != i)
    return [frozenset(s) for s in never]


def violations(tables: Sequence[Sequence[int]], never: Sequence[frozenset[int]] | None) -> int:
    """Pairs of never-mates sharing a table in one round (in indices)."""
    if never is None:
        return 0
    return sum(1 for table in tables for a in table for b in table if a < b and b in never[a])


def _fits_one_round(groups: Sequence[Sequence[int]], sizes: Sequence[int]) -> bool:
    """Can one round seat the grouped players so that no two of a group share a table?
    Backtracking, most constrained player first; empty tables of one size are tried once.
    The players in no group fill the seats left, so only the grouped ones matter."""
    members = sorted({i for g in groups for i in g})
    never: dict[int, set[int]] = {i: set() for i in members}
    for group in groups:
        for i in group:
            never[i].update(j for j in group if j != i)
    order = sorted(members, key=lambda i: (-len(never[i]), i))
    seated: list[list[int]] = [[] for _ in sizes]
    nodes = 0

    def place(k: int) -> bool:
        nonlocal nodes
        if k == len(order):
            return True
        nodes += 1
        if nodes > NODE_LIMIT:
            return True  # give up: the search decides (and refuses with "not_found")
        p = order[k]
        tried_empty: set[int] = set()
        for t, table in enumerate(seated):
            if len(table) >= sizes[t] or any(q in never[p] for q in table):
                continue
            if not table:
                if sizes[t] in tried_empty:
                    continue
                tried_empty.add(sizes[t])
            table.append(p)
            if place(k + 1):
                return True
            table.pop()
        return False

    return place(0)
