"""The tabu search over the new rounds (:class:`Search`): it swaps two players of a round to
remove repeats, then club conflicts, keeping the five-table shares fair all along (the
objectives (a), (b) and (d) of :mod:`.solver`)."""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterable
from typing import NamedTuple

from .problem import Problem
from .types import Rounds

# (round, player, table) -> the step until which the player may not return to that table
Tabu = dict[tuple[int, int, int], int]

# The search keeps the five-table shares fair (a) and minimises one number: HARD_WEIGHT x
# broken seat wishes + REPEAT_WEIGHT x repeats + club conflicts, so that one broken wish
# outweighs any repeats and one repeat (b) any club conflicts (d). Repeats stay below 2^24
# (1000 players, 30 rounds), so a swap changes the cost by far less than BLOCKED.
HARD_WEIGHT = 1 << 90
REPEAT_WEIGHT = 1 << 60
# Larger than any real change of the search cost: marks swaps that are not possible.
BLOCKED = 1 << 100
# Trades (see Search._trades) priced per hot player and round.
TRADES_PER_PLAYER = 3
# Work units charged for the bookkeeping of one search step.
STEP_WORK = 200


class _Move(NamedTuple):
    """Swap x and y in ``round``; for a trade swap them back in round ``back`` (else -1)."""

    delta: int
    round: int
    x: int
    y: int
    back: int = -1


class Search:
    """Tabu search over the new rounds: swap two players of different tables of one round.

    ``conf[r][p]`` is what p's table costs p in round r (HARD_WEIGHT per tablemate p must
    never sit with, REPEAT_WEIGHT per tablemate met more than once, 1 per club mate),
    ``hot[r]`` the players with conf > 0. Each step looks
    at every swap of a hot player with anybody at another table of the same round, in
    every round (the neighbourhood of Dotu & Van Hentenryck), and makes the best one that
    is not tabu; a swap between a five- and a four-table must keep both shares fair.
    After a long time without a new best plan, the search goes back to the best plan and
    shakes it with a few random swaps.
    """

    tenure = (4, 14)  # a moved player may not return to its table for this many steps
    patience_base, patience_per_player = 300, 20  # steps without a new best before a kick
    kick = 8  # a kick makes 2 + random(n / kick) random swaps

    def __init__(
        self,
        problem: Problem,
        five_sets: list[set[int]],
        start: Rounds | None,
        rng: random.Random,
        *,
        fair: bool = True,
        frozen: int = 0,
    ) -> None:
        self.p, self.rng, self.fair = problem, rng, fair
        self.frozen = frozen  # the first rounds the search leaves as they are
        self.n, self.new = problem.n, problem.new
        self.five_sets = five_sets
        self.iterations = 0
        self.work = 0
        self.meet = [row[:] for row in problem.met]
        self.tables: Rounds = []
        for r in range(self.new):
            if start is not None and r < len(start):
                tables = [list(t) for t in start[r]]
            else:
                tables = self._greedy_round(r)
            self.tables.append(tables)
            for table in tables:
                for a, b in itertools.combinations(table, 2):
                    self.meet[a][b] += 1
                    self.meet[b][a] += 1
        self.base_repeats = problem.current_fixed_repeats
        self.target_repeats = problem.repeat_target()
        self._index()
        self.best_cost = self.cost
        self.best_tables = [[t[:] for t in r] for r in self.tables]

    # state ------------------------------------------------------------------------------

    def _mates(self, r: int, p: int) -> frozenset[int]:
        return self.p.mates[r][p] if self.p.mates else frozenset()

    def _never(self, p: int) -> frozenset[int]:
        return self.p.never[p] if self.p.never else frozenset()

    def _greedy_round(self, r: int) -> list[list[int]]:
        """A round drawn player by player: each takes the open table of its size class
        that costs least (never-mates, met players, club mates), random among equals. The
        players of never-together groups go first, the largest group first: left for the
        end, a group as large as the tables could find no table free of its members."""
        sizes = self.p.sizes
        tables: list[list[int]] = [[] for _ in sizes]
        order = list(range(self.n))
        self.rng.shuffle(order)
        if self.p.apart:
            largest = [0] * self.n
            for group in self.p.apart:
                for p in group:
                    largest[p] = max(largest[p], len(group))
            order.sort(key=lambda p: -largest[p])  # stable: the shuffle among equals
        five = self.five_sets[r]
        open_tables = {5: [t for t, s in enumerate(sizes) if s == 5],
                       4: [t for t, s in enumerate(sizes) if s == 4]}  # fmt: skip
        for p in order:
            size = 5 if p in five else 4
            candidates = open_tables[size]
            row = self.meet[p]
            mates = self._mates(r, p)
            never = self._never(p)
            costs = [
                sum(HARD_WEIGHT * (q in never) + REPEAT_WEIGHT * (row[q] > 0) + (q in mates)
                    for q in tables[t])
                for t in candidates
            ]  # fmt: skip
            low = min(costs)
            choice = self.rng.choice([t for t, c in zip(candidates, costs, strict=True)
                                      if c == low])  # fmt: skip
            tables[choice].append(p)
            if len(tables[choice]) == size:
                candidates.remove(choice)
        return tables

    def _index(self) -> None:
        """Rebuild where, conf, hot, the repeats, clubs and five-table totals from tables
        and meet."""
        self.where, self.conf, self.hot = [], [], []
        self.five_total = self.p.fives_before[:]
        self.clubs = 0
        self.hard = 0
        for r, tables in enumerate(self.tables):
            where = [0] * self.n
            conf = [0] * self.n
            for t, table in enumerate(tables):
                for p in table:
                    where[p] = t
                    mates = self._mates(r, p)
                    never = self._never(p)
                    row = self.meet[p]
                    conf[p] = sum(HARD_WEIGHT * (q in never) + REPEAT_WEIGHT * (row[q] > 1)
                                  + (q in mates) for q in table if q != p)  # fmt: skip
                    self.clubs += sum(q in mates for q in table if q > p)
                    self.hard += sum(q in never for q in table if q > p)
                    self.five_total[p] += len(table) == 5
            self.where.append(where)
            self.conf.append(conf)
            self.hot.append({p for p in range(self.n) if conf[p]})
        self.repeats = (
            sum(max(0, self.meet[a][b] - 1) for a in range(self.n) for b in range(a + 1, self.n))
            - self.base_repeats
        )

    @property
    def cost(self) -> int:
        return HARD_WEIGHT * self.hard + REPEAT_WEIGHT * self.repeats + self.clubs

    @property
    def target(self) -> int:
        return REPEAT_WEIGHT * self.target_repeats

    @property
    def best_repeats(self) -> int:
        return (self.best_cost % HARD_WEIGHT) // REPEAT_WEIGHT

    @property
    def best_hard(self) -> int:
        """Pairs of never-mates at one table in the best plan (0 when the wishes hold)."""
        return self.best_cost // HARD_WEIGHT

    def best_rounds(self) -> Rounds:
        return [[t[:] for t in r] for r in self.best_tables]

    # moves ------------------------------------------------------------------------------

    def _bump(self, r: int, p: int, amount: int) -> None:
        conf = self.conf[r]
        before = conf[p]
        conf[p] = before + amount
        if before == 0:
            self.hot[r].add(p)
        elif conf[p] == 0:
            self.hot[r].discard(p)

    def _change_meet(self, r: int, a: int, b: int, step: int) -> None:
        """a and b stop (step -1) or start (+1) sharing a table in round r: update meet,
        the repeat count and the conflicts of every other round where they sit together."""
        row_a, row_b = self.meet[a], self.meet[b]
        before = row_a[b]
        after = before + step
        row_a[b] = row_b[a] = after
        self.repeats += max(0, after - 1) - max(0, before - 1)
        if (before > 1) != (after > 1):
            amount = REPEAT_WEIGHT if after > 1 else -REPEAT_WEIGHT
            for other in range(self.new):
                if other != r and self.where[other][a] == self.where[other][b]:
                    self._bump(other, a, amount)
                    self._bump(other, b, amount)

    def _leave(self, r: int, p: int, table: list[int]) -> None:
        mates = self._mates(r, p)
        never = self._never(p)
        row = self.meet[p]
        for q in table:
            if q != p:
                club = q in mates
                weight = REPEAT_WEIGHT * (row[q] > 1) + club
                if never and q in never:
                    weight += HARD_WEIGHT
                    self.hard -= 1
                if weight:
                    self._bump(r, p, -weight)
                    self._bump(r, q, -weight)
                self.clubs -= club
                self._change_meet(r, p, q, -1)

    def _join(self, r: int, p: int, table: list[int]) -> None:
        mates = self._mates(r, p)
        never = self._never(p)
        row = self.meet[p]
        for q in table:
            club = q in mates
            self._change_meet(r, p, q, +1)
            self.clubs += club
            weight = REPEAT_WEIGHT * (row[q] > 1) + club
            if never and q in never:
                weight += HARD_WEIGHT
                self.hard += 1
            if weight:
                self._bump(r, p, weight)
                self._bump(r, q, weight)

    def swap(self, r: int, x: int, y: int) -> None:
        """Exchange x and y (at different tables) in round r."""
        where, tables = self.where[r], self.tables[r]
        a, b = where[x], where[y]
        table_a, table_b = tables[a], tables[b]
        self._leave(r, x, table_a)
        table_a.remove(x)
        self._leave(r, y, table_b)
        table_b.remove(y)
        self._join(r, x, table_b)
        table_b.append(x)
        where[x] = b
        self._join(r, y, table_a)
        table_a.append(y)
        where[y] = a
        if len(table_a) != len(table_b):
            up, down = (x, y) if len(table_b) == 5 else (y, x)
            self.five_total[up] += 1
            self.five_total[down] -= 1

    def _fair_swap(self, r: int, x: int, y: int, size_b: int) -> bool:
        """Does the swap of x with y (at a table of size_b) in round r keep both
        five-table totals in the fair range (and the first round even)?"""
        up, down = (x, y) if size_b == 5 else (y, x)
        total, before = self.five_total, self.p.fives_before
        return (total[up] - before[up] < self.p.hi[up]
                and total[down] - before[down] > self.p.lo[down]
                and self.p.first_round_allows(r, up, down))  # fmt: skip

    def _join_costs(self, r: int, table: list[int]) -> list[int]:
        """What every player would pay for sitting with all of ``table`` in round r."""
        rows = [self.meet[z] for z in table]
        costs = [REPEAT_WEIGHT * sum(map(bool, column)) for column in zip(*rows, strict=True)]
        if self.p.mates:
            mates = self.p.mates[r]
            for z in table:
                for y in mates[z]:
                    costs[y] += 1
        if self.p.never:
            never = self.p.never
            for z in table:
                for y in never[z]:
                    costs[y] += HARD_WEIGHT
        return costs

    def _best_move(self, r: int, players: Iterable[int], tabu: Tabu) -> _Move | None:
        """The best move in round r that moves one of ``players`` and is not tabu (unless
        it beats the best plan), ties broken at random; None if nothing is allowed.

        With join[t][y] = what y would pay at table t (all of it), swapping x at table a
        with y at table b changes the cost by join[b][x] + join[a][y] - conf[x] - conf[y]
        - 2 x (what the pair x, y costs).
        The deltas of all y are computed in one list (fast in CPython), then searched.
        """
        where, tables, conf = self.where[r], self.tables[r], self.conf[r]
        club = self.p.mates[r] if self.p.mates else None
        never = self.p.never
        n = self.n
        everyone = range(n)
        limit = self.best_cost - self.cost  # a tabu move must beat the best plan
        now = self.iterations
        join = [self._join_costs(r, table) for table in tables]
        sizes = [len(t) for t in tables]
        mixed = 5 in sizes and 4 in sizes
        minus_conf = [-c for c in conf]
        double = 2 * REPEAT_WEIGHT
        self.work += n * len(tables)
        moves: list[_Move] = []
        best_delta = None
        for x in players:
            a = where[x]
            own = join[a]
            at_x = [join[t][x] for t in range(len(tables))]
            at_x[a] = BLOCKED  # a swap within the table changes nothing
            row_x = self.meet[x]
            deltas = [
                at_x[where[y]] + own[y] + minus_conf[y] - double * (row_x[y] > 0) - conf[x]
                for y in everyone
            ]
            if club:
                for y in club[x]:
                    deltas[y] -= 2
            if never:
                for y in never[x]:
                    deltas[y] -= 2 * HARD_WEIGHT
            candidates = []
            if mixed and self.fair:
                unfair = self._block_unfair(r, x, where, sizes, deltas)
                candidates = self._trades(r, x, unfair, best_delta)
            self.work += n + 20
            if best_delta is None or min(deltas) <= best_delta:
                for level in sorted(set(deltas)):
                    if level >= BLOCKED // 2 or (best_delta is not None and level > best_delta):
                        break
                    found = [
                        _Move(level, r, x, y)
                        for y in everyone
                        if deltas[y] == level
                        and (level < limit or not (tabu.get((r, x, where[y]), 0) > now
                                                   or tabu.get((r, y, a), 0) > now))
                    ]  # fmt: skip
                    if found:
                        candidates.extend(found)
                        break
            for move in candidates:
                if best_delta is None or move.delta < best_delta:
                    best_delta, moves = move.delta, [move]
                elif move.delta == best_delta:
                    moves.append(move)
        return moves[self.rng.randrange(len(moves))] if moves else None

    def _block_unfair(
        self, r: int, x: int, where: list[int], sizes: list[int], deltas: list[int]
    ) -> list[tuple[int, int]]:
        """Block the swaps of x between a five- and a four-table that would leave the fair
        range; they are returned with their deltas, as candidates for a trade (see
        :meth:`_trades`)."""
        size_a = sizes[where[x]]
        unfair = []
        for y in range(self.n):
            size_b = sizes[where[y]]
            if size_b != size_a and deltas[y] < BLOCKED and not self._fair_swap(r, x, y, size_b):
                unfair.append((deltas[y], y))
                deltas[y] = BLOCKED
        return unfair

    def _trades(
        self, r: int, x: int, unfair: list[tuple[int, int]], best: int | None
    ) -> list[_Move]:
        """Trades for the unfair swaps of x in round r: x and y swap in round r and back in
        another round where their table sizes are the other way round, so both keep
        their five-table totals. Only the few most promising are looked at."""
        unfair.sort()
        moves = []
        five_x = len(self.tables[r][self.where[r][x]]) == 5
        for first, y in unfair[:TRADES_PER_PLAYER]:
            if best is not None and first > best + 2 * REPEAT_WEIGHT:
                break
            for other in range(self.frozen, self.new):
                tables, where = self.tables[other], self.where[other]
                if other == r or (len(tables[where[x]]) == 5) == five_x:
                    continue
                if (len(tables[where[y]]) == 5) != five_x:
                    continue
                up, down = (y, x) if five_x else (x, y)  # in round r; the other way back
                if not (self.p.first_round_allows(r, up, down)
                        and self.p.first_round_allows(other, down, up)):  # fmt: skip
                    continue
                moves.append(_Move(first + self._second_swap_delta(r, other, x, y), r, x, y, other))
                self.work += 40
        return moves

    def _second_swap_delta(self, r: int, other: int, x: int, y: int) -> int:
        """The cost change of swapping x and y in round ``other`` right after they swapped
        in round r (exposure left out): the meetings are taken as they will be then."""
        table_x = self.tables[r][self.where[r][x]]  # x's table in r, y's after the swap
        table_y = self.tables[r][self.where[r][y]]
        club = self.p.mates[other] if self.p.mates else None

        def met(p: int, z: int) -> int:
            # meet[p][z] after the swap in round r
            count = self.meet[p][z]
            own, new = (table_x, table_y) if p == x else (table_y, table_x)
            if z in own:
                count -= 1
            if z in new and z != (y if p == x else x):
                count += 1
            return count

        tables, where = self.tables[other], self.where[other]
        delta = 0
        for p, q in ((x, y), (y, x)):
            mates = club[p] if club else ()
            for z in tables[where[p]]:  # p leaves this table
                if z != p:
                    delta -= REPEAT_WEIGHT * (met(p, z) > 1) + (z in mates)
            for z in tables[where[q]]:  # and joins this one
                if z != q:
                    delta += REPEAT_WEIGHT * (met(p, z) > 0) + (z in mates)
            never = self._never(p)
            if never:
                joins = sum(z in never for z in tables[where[q]] if z != q)
                leaves = sum(z in never for z in tables[where[p]] if z != p)
                delta += HARD_WEIGHT * (joins - leaves)
        return delta

    def _perturb(self, swaps: int) -> None:
        for _ in range(swaps):
            r = self.rng.randrange(self.frozen, self.new)
            tables = self.tables[r]
            a, b = self.rng.sample(range(len(tables)), 2)
            x, y = self.rng.choice(tables[a]), self.rng.choice(tables[b])
            if len(tables[a]) == len(tables[b]) or not self.fair:
                self.swap(r, x, y)

    def _restore_best(self) -> None:
        self.tables = [[t[:] for t in r] for r in self.best_tables]
        self.meet = [row[:] for row in self.p.met]
        for tables in self.tables:
            for table in tables:
                for a, b in itertools.combinations(table, 2):
                    self.meet[a][b] += 1
                    self.meet[b][a] += 1
        self._index()

    def _remember_if_best(self) -> None:
        if self.cost < self.best_cost:
            self.best_cost = self.cost
            self.best_tables = [[t[:] for t in r] for r in self.tables]

    def _make(self, move: _Move, tabu: Tabu, short: int, long: int) -> None:
        """Make a move and forbid its players to return to their tables for a while."""
        for r in (move.round, move.back) if move.back >= 0 else (move.round,):
            a, b = self.where[r][move.x], self.where[r][move.y]
            self.swap(r, move.x, move.y)
            tabu[r, move.x, a] = self.iterations + self.rng.randint(short, long)
            tabu[r, move.y, b] = self.iterations + self.rng.randint(short, long)

    def run(self, budget: int, expired: Callable[[], bool]) -> bool:
        """Search until the target is reached or the budget is spent; True if the clock
        stopped it first (``expired()`` says when, looked at every 64 steps).

        The five-table shares stay fair all along, as (a) comes before (b): a swap across
        table sizes must leave both players within their fair range, or be a trade that
        swaps them back in another round.
        """
        if len(self.p.sizes) < 2:
            return False
        return self._search(budget, expired)

    def _search(self, budget: int, expired: Callable[[], bool]) -> bool:
        tabu: Tabu = {}
        stall = 0
        patience = self.patience_base + self.patience_per_player * self.n
        short, long = self.tenure
        while self.cost > self.target and self.work < budget:
            if self.iterations % 64 == 0 and expired():
                return True
            self.iterations += 1
            self.work += STEP_WORK + 2 * self.new
            hot_rounds = [r for r in range(self.frozen, self.new) if self.hot[r]]
            if not hot_rounds:
                break
            # The best move over all rounds with conflicts (Dotu & Van Hentenryck's
            # neighbourhood): more work per step than one random round, far better steps.
            moves = [self._best_move(r, sorted(self.hot[r]), tabu) for r in hot_rounds]
            move = min((m for m in moves if m), key=lambda m: m.delta, default=None)
            stall += 1
            if move is not None:
                self._make(move, tabu, short, long)
                if self.cost < self.best_cost:
                    self._remember_if_best()
                    stall = 0
            if stall > patience:
                self._restore_best()
                self._perturb(2 + self.rng.randrange(1 + self.n // self.kick))
                tabu.clear()
                stall = 0
        return False
