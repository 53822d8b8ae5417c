"""Fair starts of the search: who sits at five-tables in which round (:func:`five_table_sets`),
a start from a construction or a stored plan (:func:`constructed_start`) or from the previous
draw's plan (:func:`planned_start`), each used only if it shares the five-tables fairly, and
the order of the drawn rounds that keeps the counts even after every round
(:func:`fair_prefixes`)."""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence

from . import construct
from .problem import Problem
from .types import Player, Rounds

# In the five-table sets: a never-together group's surplus (see _spread_five_sets) costs more
# than any repeats of the sets.
SURPLUS_WEIGHT = 1 << 40
# In the labels of a construction: one pair of never-mates at a table costs more than any
# club conflicts (see _separate_clubs).
NEVER_WEIGHT = 1 << 40


def _at_five_tables(round_: Sequence[Sequence[int]]) -> set[int]:
    return {p for table in round_ if len(table) == 5 for p in table}


def fair_prefixes(rounds: Rounds, problem: Problem, frozen: int = 0) -> Rounds:
    """The new rounds in an order that keeps the five-table counts even after every round,
    not only at the end: a round-by-round draw keeps just the first new round. Greedy: next
    the round after which the counts spread least (then: whose five-table players had
    fewest so far), the earliest among equals. Rounds with different club groups are not
    interchangeable and keep their order; so do the first ``frozen`` rounds."""
    if problem.mates and any(mates != problem.mates[0] for mates in problem.mates):
        return rounds
    counts = problem.fives_before[:]
    fives = [_at_five_tables(round_) for round_ in rounds]

    def after(r: int) -> tuple[int, int]:
        new = [c + (p in fives[r]) for p, c in enumerate(counts)]
        return max(new) - min(new), sum(counts[p] for p in fives[r])

    left = list(range(frozen, len(rounds)))
    order = list(range(frozen))
    for r in order:
        for p in fives[r]:
            counts[p] += 1
    while left:
        r = min(left, key=lambda r: (after(r), r))
        left.remove(r)
        order.append(r)
        for p in fives[r]:
            counts[p] += 1
    return [rounds[r] for r in order]


def five_table_sets(problem: Problem, rng: random.Random) -> list[set[int]]:
    """Who sits at five-tables in each new round to start with: 5 x fives players per
    round, every player between ``lo`` and ``hi`` times. Those who still need the most go
    first (as in the Gale-Ryser construction), ties are broken by the seed."""
    seats = 5 * problem.sizes.count(5)
    if seats == 0:
        return [set() for _ in range(problem.new)]
    given = [0] * problem.n
    result = []
    for r in range(problem.new):
        left = problem.new - r
        tie = [rng.random() for _ in range(problem.n)]
        first = (problem.first_lo, problem.first_hi) if r == 0 else None
        order = sorted(
            range(problem.n),
            key=lambda p: (first is not None and -first[0][p], first is not None and -first[1][p],
                           given[p] >= problem.hi[p], -(problem.lo[p] - given[p] >= left),
                           given[p] - problem.lo[p], given[p] - problem.hi[p], tie[p]),
        )  # fmt: skip
        chosen = set(order[:seats])
        for p in chosen:
            given[p] += 1
        result.append(chosen)
    _spread_five_sets(result, problem, rng)
    return result


def _spread_five_sets(sets: list[set[int]], problem: Problem, rng: random.Random) -> None:
    """Rearrange the five-table sets so that few pairs share one twice (or again after
    meeting in the fixed rounds): with few five-tables per round such a pair is bound to
    repeat. Random moves that keep every player's count, accepted unless they cost more:
    a player trades rounds with another one, or (where the fair range leaves room) a
    player at a five-table hands the round over to one who is not.

    With never-together groups (seat wishes), a set holding more members of a group than
    there are five-tables (or leaving more outside than there are four-tables) forces two
    of them to one table: such a surplus costs more than any repeats, and moves in the
    first round are allowed as far as they keep its counts even."""
    n, rounds = problem.n, len(sets)
    if 4 not in problem.sizes:
        return  # everybody sits at a five-table every round
    together = [row[:] for row in problem.met]
    count = [0] * n
    for chosen in sets:
        for p in chosen:
            count[p] += 1
            for q in chosen:
                if q != p:
                    together[p][q] += 1
    fives = problem.sizes.count(5)
    fours = len(problem.sizes) - fives
    groups_of: list[list[int]] = [[] for _ in range(n)]
    for g, group in enumerate(problem.apart):
        for p in group:
            groups_of[p].append(g)
    inside = [[sum(p in chosen for p in group) for group in problem.apart] for chosen in sets]

    def surplus(g: int, members: int) -> int:
        return max(0, members - fives) + max(0, len(problem.apart[g]) - members - fours)

    def change(r: int, p: int, sign: int) -> int:
        # Count p in (sign 1) or out of (-1) set r; returns the change of repeats (and of
        # the wish surplus, weighted above them).
        delta = 0
        for q in sets[r]:
            if q != p:
                before = together[p][q]
                together[p][q] = together[q][p] = before + sign
                delta += max(0, before + sign - 1) - max(0, before - 1)
        for g in groups_of[p]:
            before = inside[r][g]
            inside[r][g] = before + sign
            delta += SURPLUS_WEIGHT * (surplus(g, before + sign) - surplus(g, before))
        return delta

    outside = [[p for p in range(n) if p not in chosen] for chosen in sets]
    # the first round's set is chosen for even counts after it (see problem._first_bounds)
    keep_first = any(problem.first_lo) or not all(problem.first_hi)
    for _step in range(300 * rounds + 20 * n):
        r = rng.randrange(rounds)
        if r == 0 and keep_first and not problem.apart:
            continue
        p = rng.choice(sorted(sets[r]))
        q = rng.choice(outside[r])
        if r == 0 and keep_first and (problem.first_lo[p] or not problem.first_hi[q]):
            continue  # (only with wishes) the first round's counts stay even
        other = None
        if not (count[p] > problem.lo[p] and count[q] < problem.hi[q]):
            choices = [o for o in range(rounds) if q in sets[o] and p not in sets[o]
                       and not (o == 0 and keep_first)]  # fmt: skip
            if not choices:
                continue
            other = rng.choice(choices)
        delta = change(r, p, -1)
        sets[r].remove(p)
        delta += change(r, q, +1)
        sets[r].add(q)
        if other is not None:
            delta += change(other, q, -1)
            sets[other].remove(q)
            delta += change(other, p, +1)
            sets[other].add(p)
        if delta > 0:  # undo
            if other is not None:
                change(other, p, -1)
                sets[other].remove(p)
                change(other, q, +1)
                sets[other].add(q)
            change(r, q, -1)
            sets[r].remove(q)
            change(r, p, +1)
            sets[r].add(p)
            continue
        outside[r][outside[r].index(q)] = p
        if other is not None:
            outside[other][outside[other].index(p)] = q
        else:
            count[p] -= 1
            count[q] += 1


def constructed_start(problem: Problem, fixed: Rounds, rng: random.Random) -> Rounds | None:
    """A start from a construction or a stored plan (see :mod:`.construct`).

    Without fixed rounds its points are relabelled by a seeded permutation; with club groups
    the relabelling is then improved by swapping labels while that does not add club
    conflicts. With fixed rounds (a round-by-round draw) the plan is continued when the
    fixed rounds are rounds of the construction under one relabelling: the first fixed round
    decides the labels, every later one must be another round of the construction. Then the
    new rounds are the construction's unused rounds, and drawing one round at a time loses
    nothing against drawing all rounds in advance.

    ``fixed`` is in player indices, from n on for players who left. When as many came late
    as left, the late entries take over the points of those who left: they have met nobody
    yet, so the plan stays as good as it was. A start for a mixed field is used only if it
    shares the five-tables fairly, as (a) comes first; a continued one is repaired where
    late entries need more (:func:`_fair_start`), and draw() then searches afresh as well.
    """
    plans = construct.constructed_plans(problem.n, len(fixed) + problem.new)
    if not plans:
        return None
    if not fixed:
        rounds = plans[0]
        label = list(range(problem.n))
        rng.shuffle(label)
        if problem.mates:
            _separate_clubs(rounds, label, problem.mates, rng)
        start = [[[label[p] for p in t] for t in r] for r in rounds]
    else:  # the first plan the played rounds belong to (see constructed_plans)
        continued = (_continuation(rounds, fixed, problem.n) for rounds in plans)
        start = next((rounds for rounds in continued if rounds), [])
    return _fair_start(start, problem, repair=bool(fixed)) if start else None


def planned_start(
    plan: Sequence[Sequence[Sequence[Player]]],
    fixed: Sequence[Sequence[Sequence[Player]]],
    players: Sequence[Player],
    problem: Problem,
) -> Rounds | None:
    """The rounds of the previous draw's ``plan`` after the fixed ones, in player indices;
    None when the fixed rounds were not played as the plan drew them (a swap, another
    draw), the number of rounds changed, or the field changed otherwise than by as many late
    entries as withdrawals. The late entries take the places of those who left, the first
    to come (in the order of ``players``) the place of the first in the plan: they have met
    nobody yet, so the plan keeps its repeats. Like a construction, the rest is used only if
    it shares the five-tables fairly, repaired where late entries need more
    (:func:`_fair_start`)."""
    if not plan or len(plan) != len(fixed) + problem.new:
        return None
    for played, planned in zip(fixed, plan, strict=False):
        if {frozenset(t) for t in played} != {frozenset(t) for t in planned}:
            return None
    rest = plan[len(fixed) :]
    seated = [p for t in rest[0] for p in t]
    present, in_plan = set(players), set(seated)
    gone = [p for p in seated if p not in present]
    late = [p for p in players if p not in in_plan]
    if len(gone) != len(late):
        return None
    index = {p: i for i, p in enumerate(players)}
    index.update({p: index[q] for p, q in zip(gone, late, strict=True)})
    everyone = list(range(problem.n))
    rounds: Rounds = []
    for round_ in rest:
        if sorted(map(len, round_)) != sorted(problem.sizes):
            return None
        if sorted(index.get(p, -1) for t in round_ for p in t) != everyone:
            return None
        rounds.append([[index[p] for p in t] for t in round_])
    return _fair_start(rounds, problem, repair=True)


def _fair_start(rounds: Rounds, problem: Problem, *, repair: bool = False) -> Rounds | None:
    """``rounds`` if every player sits at a five-table of them within the fair range (or
    there are no five-tables), else None; a round that keeps the counts even after it
    (see :func:`.problem._first_bounds`) is put first where there is one. (A stored plan whose
    rounds cannot all be ordered that way is still followed: its repeats come before even
    counts during the day.) With ``repair`` (a plan continued after a late entry, who took
    over the place of one who left and may need more five-table seats than that place
    has) the counts are first made fair by a few swaps in the later rounds
    (:func:`_repair_fives`) instead of giving up the whole plan."""
    if 5 not in problem.sizes:
        return rounds  # may be shorter than the plan: the search draws the rest
    if len(rounds) != problem.new:
        return None
    fives = [_at_five_tables(round_) for round_ in rounds]
    must = {p for p in range(problem.n) if problem.first_lo[p]}
    barred = {p for p in range(problem.n) if not problem.first_hi[p]}
    first = next((r for r, chosen in enumerate(fives) if must <= chosen and not chosen & barred),
                 None)  # fmt: skip
    if first is not None:
        rounds = [rounds[first], *rounds[:first], *rounds[first + 1 :]]
    count = [0] * problem.n
    for chosen in fives:
        for p in chosen:
            count[p] += 1
    if all(lo <= c <= hi for c, lo, hi in zip(count, problem.lo, problem.hi, strict=True)):
        return rounds
    return _repair_fives(rounds, problem, count) if repair else None


def _repair_fives(rounds: Rounds, problem: Problem, count: list[int]) -> Rounds | None:
    """``rounds`` with every five-table count brought into the fair range by swaps of a
    player outside it with one who stays inside, in the rounds after the first (the first
    stays as planned: a round-by-round draw keeps it); each time the swap that adds the
    fewest repeats, the earliest among equals. None if no swap is left."""
    rounds = [[t[:] for t in r] for r in rounds]
    met = [row[:] for row in problem.met]
    for round_ in rounds:
        for table in round_:
            for a, b in itertools.combinations(table, 2):
                met[a][b] += 1
                met[b][a] += 1

    def added(table: list[int], leaving: int, coming: int) -> int:
        return sum((met[coming][x] >= 1) - (met[leaving][x] >= 2) for x in table if x != leaving)

    lo, hi = problem.lo, problem.hi
    never = problem.never

    def breaks_wish(table: list[int], leaving: int, coming: int) -> bool:
        return never is not None and any(x in never[coming] for x in table if x != leaving)

    while True:
        needy = next((p for p in range(problem.n) if not lo[p] <= count[p] <= hi[p]), None)
        if needy is None:
            problem.repaired = True
            return rounds
        up = count[needy] < lo[needy]  # to a five-table, else to a four-table
        best: tuple[int, int, int, int, int] | None = None  # cost, round, two tables, partner
        for r in range(1, len(rounds)):
            own = next(t for t, table in enumerate(rounds[r]) if needy in table)
            if (len(rounds[r][own]) == 5) == up:
                continue
            for t, table in enumerate(rounds[r]):
                if len(table) == len(rounds[r][own]):
                    continue
                for q in table:
                    if not lo[q] <= count[q] + (-1 if up else 1) <= hi[q]:
                        continue
                    if breaks_wish(rounds[r][own], needy, q) or breaks_wish(table, q, needy):
                        continue
                    cost = added(rounds[r][own], needy, q) + added(table, q, needy)
                    if best is None or cost < best[0]:
                        best = (cost, r, own, t, q)
        if best is None:
            return None
        _, r, own, t, q = best
        for table, leaving, coming in ((rounds[r][own], needy, q), (rounds[r][t], q, needy)):
            for x in table:
                if x != leaving:
                    met[leaving][x] -= 1
                    met[x][leaving] -= 1
                    met[coming][x] += 1
                    met[x][coming] += 1
            table[table.index(leaving)] = coming
        count[needy] += 1 if up else -1
        count[q] -= 1 if up else -1


def _canonical(round_: Sequence[Sequence[int]]) -> list[list[int]]:
    """The tables of a round in a fixed order: five-tables first, each sorted."""
    return sorted((sorted(t) for t in round_), key=lambda t: (-len(t), t))


def _continuation(rounds: Rounds, fixed: Rounds, n: int) -> Rounds | None:
    """The rounds of ``rounds`` not matched by ``fixed`` (see :func:`constructed_start`),
    relabelled to players; None when the fixed rounds are not rounds of the plan."""
    first = sorted(p for t in fixed[0] for p in t)
    seen_in = [{p for t in r for p in t} for r in fixed]
    # who left, in the order they left, and who came late, in the order they came: the
    # first to come takes over the place of the first to leave
    gone = sorted(
        (p for p in first if p >= n),
        key=lambda p: (max(i for i, seen in enumerate(seen_in) if p in seen), p),
    )
    new = sorted(set(range(n)) - set(first),
                 key=lambda p: (next((i for i, seen in enumerate(seen_in) if p in seen),
                                     len(seen_in)), p))  # fmt: skip
    if len(first) != n or len(gone) != len(new):
        return None
    late = dict(zip(gone, new, strict=True))  # the late entries take over these points
    fixed = [[[late.get(p, p) for p in t] for t in r] for r in fixed]
    if any(sorted(p for t in r for p in t) != list(range(n)) for r in fixed):
        return None
    if any(sorted(map(len, r)) != sorted(map(len, rounds[0])) for r in fixed):
        return None
    # The labels depend on the first fixed round as played (tables and seats in their
    # order), not on the players' indices, which shift when somebody leaves or comes late:
    # every later draw finds the same labels.
    label = [0] * n
    played = sorted(fixed[0], key=len, reverse=True)  # stable: five-tables first
    for points, players in zip(_canonical(rounds[0]), played, strict=True):
        for point, player in zip(points, players, strict=True):
            label[point] = player
    relabelled = [[[label[p] for p in t] for t in r] for r in rounds]
    unused = {i: {frozenset(t) for t in r} for i, r in enumerate(relabelled) if i}
    for round_ in fixed[1:]:
        tables = {frozenset(t) for t in round_}
        match = next((i for i, candidate in unused.items() if candidate == tables), None)
        if match is None:
            return None
        del unused[match]
    return [relabelled[i] for i in sorted(unused)]


def separate_wishes(rounds: Rounds, problem: Problem, rng: random.Random) -> Rounds:
    """``rounds`` (a start drawn without fixed rounds) with its players relabelled so that
    few never-mates (seat wishes) share a table, then few club mates: a construction keeps
    its repeats, and its pairs that never meet go to the couples where it has any. Every
    player has the same fair range without fixed rounds, so the five-tables stay fair."""
    label = list(range(problem.n))
    _separate_clubs(rounds, label, problem.mates, rng, problem.never)
    return [[[label[p] for p in t] for t in r] for r in rounds]


def _separate_clubs(
    rounds: Rounds,
    label: list[int],
    mates: list[list[frozenset[int]]] | None,
    rng: random.Random,
    never: list[frozenset[int]] | None = None,
) -> None:
    """Hill-climb on the labels of a constructed plan: swap the players of two points when
    that does not raise the club conflicts. The plan stays repeat-free. With ``never``
    (seat wishes), pairs of never-mates at a table count above club conflicts, and first
    the players breaking a wish move, each to the point where they break fewest."""
    seat = [[0] * len(label) for _ in rounds]  # round -> point -> table index
    for r, tables in enumerate(rounds):
        for t, table in enumerate(tables):
            for p in table:
                seat[r][p] = t

    def conflicts(u: int, player: int, skip: int) -> int:
        # club conflicts of ``player`` sitting on point u (the point ``skip`` left out)
        if never is None and mates is not None:
            return sum(
                label[z] in mates[r][player]
                for r, tables in enumerate(rounds)
                for z in tables[seat[r][u]]
                if z != u and z != skip
            )
        avoid = never[player] if never else frozenset()
        hard = sum(label[z] in avoid for _, z in beside[u] if z != skip)
        if mates is None:
            return NEVER_WEIGHT * hard
        clubs = sum(label[z] in mates[r][player] for r, z in beside[u] if z != skip)
        return NEVER_WEIGHT * hard + clubs

    # (with wishes) per point: (round, point) of every point at its table in a round
    beside = [
        [(r, z) for r, tables in enumerate(rounds) for z in tables[seat[r][u]] if z != u]
        for u in range(len(label) if never is not None else 0)
    ]

    if never is not None:
        points = range(len(label))
        misses = 0  # steps in a row without a better labelling
        for _step in range(2 * len(label)):
            hot = [u for u in points if conflicts(u, label[u], -1) >= NEVER_WEIGHT]
            if not hot or misses > 8:
                break
            u = rng.choice(hot)
            a = label[u]
            gains: list[tuple[int, int]] = []
            for v in points:
                if v != u:
                    b = label[v]
                    before = conflicts(u, a, v) + conflicts(v, b, u)
                    after = conflicts(u, b, v) + conflicts(v, a, u)
                    gains.append((after - before, v))
            low = min(g for g, _ in gains)
            misses = misses + 1 if low >= 0 else 0
            if low > 0:
                continue
            v = rng.choice([v for g, v in gains if g == low])
            label[u], label[v] = label[v], a
    for _step in range(40 * len(label)):
        u, v = rng.sample(range(len(label)), 2)
        a, b = label[u], label[v]
        before = conflicts(u, a, v) + conflicts(v, b, u)
        after = conflicts(u, b, v) + conflicts(v, a, u)
        if after <= before:
            label[u], label[v] = b, a
