"""Seat positions: the order of every table of the new rounds (:func:`assign_positions`), so
that everybody gets every position about equally often."""

from __future__ import annotations

import itertools
import random

from .problem import Problem
from .types import Rounds


def _edge_colouring(edges: list[tuple[int, int]], nodes: int, colours: int) -> list[int]:
    """A proper edge colouring of a bipartite graph of maximum degree ``colours`` (Konig):
    colour each edge with a colour free at both ends, flipping an alternating path first
    when needed. Returns the colour of every edge."""
    at: list[dict[int, int]] = [{} for _ in range(nodes)]  # node -> colour -> other end
    for u, v in edges:
        a = next(c for c in range(colours) if c not in at[u])
        b = next(c for c in range(colours) if c not in at[v])
        if a in at[v]:
            # Flip the a/b path that starts at v; in a bipartite graph it cannot end at u.
            path = []
            node, colour = v, a
            while colour in at[node]:
                other = at[node][colour]
                path.append((node, other, colour))
                node, colour = other, b if colour == a else a
            for x, y, c in path:
                del at[x][c]
                del at[y][c]
            for x, y, c in path:
                flipped = b if c == a else a
                at[x][flipped] = y
                at[y][flipped] = x
        at[u][a] = v
        at[v][a] = u
    return [next(c for c, w in at[u].items() if w == v) for u, v in edges]


def assign_positions(rounds: Rounds, problem: Problem, rng: random.Random) -> Rounds:
    """Order every table of the new rounds by position.

    At each five-table the player with the fewest position-5 seats so far takes seat 5.
    The other seats are positions 1-4 at every table: split each player's rounds into
    chunks of four and colour the bipartite graph chunk - table with four colours; every
    chunk then has every position once, so every player's counts differ by at most one.
    When fixed rounds brought uneven counts, a local pass evens them out further.
    """
    counts = [row[:] for row in problem.positions_before]
    fifth: dict[tuple[int, int], int] = {}
    for r, tables in enumerate(rounds):
        for t, table in enumerate(tables):
            if len(table) == 5:
                tie = {p: rng.random() for p in table}
                seat5 = min(table, key=lambda p: (counts[p][4], tie[p]))
                fifth[r, t] = seat5
                counts[seat5][4] += 1
    edges: list[tuple[int, int]] = []
    played = [0] * problem.n
    chunk_of: dict[tuple[int, int], int] = {}
    chunk_ids: dict[tuple[int, int], int] = {}
    table_ids: list[tuple[int, int]] = []
    for r, tables in enumerate(rounds):
        for t, table in enumerate(tables):
            table_ids.append((r, t))
            for p in table:
                if fifth.get((r, t)) == p:
                    continue
                chunk = chunk_ids.setdefault((p, played[p] // 4), len(chunk_ids))
                played[p] += 1
                chunk_of[p, r] = chunk
                edges.append((chunk, len(table_ids) - 1))
    offset = len(chunk_ids)
    colours = _edge_colouring([(c, offset + t) for c, t in edges], offset + len(table_ids), 4)
    position: dict[tuple[int, int], int] = {}
    for (chunk, t), colour in zip(edges, colours, strict=True):
        r, _table = table_ids[t]
        player = next(p for p in rounds[r][_table] if chunk_of.get((p, r)) == chunk)
        position[player, r] = colour
    seated: Rounds = []
    for r, tables in enumerate(rounds):
        ordered_round = []
        for t, table in enumerate(tables):
            order = [-1] * len(table)
            for p in table:
                if fifth.get((r, t)) == p:
                    order[4] = p
                else:
                    order[position[p, r]] = p
            ordered_round.append(order)
            for i, p in enumerate(order[:4]):
                counts[p][i] += 1
        seated.append(ordered_round)
    if any(any(row) for row in problem.positions_before):
        _even_out(seated, counts, rng)
    return seated


def _even_out(rounds: Rounds, counts: list[list[int]], rng: random.Random) -> None:
    """Permute positions 1-4 within tables so that nobody gets a position again that they
    already had most often (the fixed rounds may have left some players uneven). Equal
    choices are taken at random, which lets the passes wander along plateaus; the most
    even state is kept."""

    def spread() -> tuple[int, int]:
        gaps = [max(c[:4]) - min(c[:4]) for c in counts]
        return max(gaps), sum(g > 1 for g in gaps)

    best, best_rounds = spread(), [[t[:] for t in r] for r in rounds]
    tables = [table for tables in rounds for table in tables]
    for _pass in range(60):
        if best[0] <= 1:
            break
        for table in tables:
            seats = table[:4]
            for i, p in enumerate(seats):
                counts[p][i] -= 1
            # 4 ** count: one seat more where a player already has many weighs most
            scored = [
                (sum(4 ** counts[p][i] for i, p in enumerate(perm)), perm)
                for perm in itertools.permutations(seats)
            ]
            low = min(score for score, _perm in scored)
            choice = rng.choice([perm for score, perm in scored if score == low])
            table[:4] = choice
            for i, p in enumerate(choice):
                counts[p][i] += 1
        if spread() < best:
            best, best_rounds = spread(), [[t[:] for t in r] for r in rounds]
    rounds[:] = best_rounds
