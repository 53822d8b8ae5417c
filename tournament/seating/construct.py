"""Algebraic seat plans: rounds without a single repeat encounter for fields of four-tables.

Local search finds repeat-free plans easily while the field is sparse, but near the most
rounds a field allows (every player meets nearly everyone) it gets lost. For those fields
we build the plan from a design instead:

* cyclic plans: the points are ``Z_m x {0..k-1}`` plus ``s`` fixed points; one base round
  is shifted by ``t = 0..m-1``. The base rounds were found once by
  ``python -m tools.seating_plans.make_plans`` and are stored in :mod:`tournament.seating.plans`
  (44 players in 14 rounds: two base rounds over ``Z_7``, each shifted seven times).
* 32 players in 10 rounds (the notorious social golfer instance 8-4-10): a doubled affine
  space, computed here (see :func:`doubled_affine_space`).

Every function returns rounds of tables of point numbers ``0..n-1``. The solver relabels the
points with the players by a seeded permutation, which keeps a plan repeat-free and makes
the draw depend on the seed.
"""

from functools import cache
from itertools import combinations

from .covering import COVERING_PLANS
from .measures import table_sizes
from .mixed import MIXED_PLANS
from .plans import CYCLIC_PLANS, DOUBLE_CYCLIC_PLANS

Rounds = list[list[list[int]]]

# One character per point in the stored mixed plans (:mod:`tournament.seating.mixed`).
ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


def develop(m: int, k: int, base: list[list[int]], rounds: int) -> Rounds:
    """The first ``rounds`` (at most ``m``) shifts of a cyclic base round.

    Point ``c * m + x`` stands for ``(c, x)`` in ``Z_m x {0..k-1}``; numbers from ``k * m``
    on are fixed points that every shift leaves where they are.
    """
    finite = k * m
    result = []
    for shift in range(min(rounds, m)):
        result.append(
            [[p if p >= finite else p - p % m + (p + shift) % m for p in table] for table in base]
        )
    return result


@cache
def _line_spreads() -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]:
    """Two disjoint line spreads of the projective space PG(3,2), the first such pair.

    Points are the 15 nonzero vectors of GF(2)^4 (as ints), a line is ``{a, b, a ^ b}``
    (a 2-dimensional subspace without 0). A spread is 5 lines that cover every point
    once; PG(3,2) has 56 of them.
    """
    lines = sorted({tuple(sorted((a, b, a ^ b))) for a in range(1, 16) for b in range(a + 1, 16)})
    spreads: list[tuple[tuple[int, ...], ...]] = []

    def extend(chosen: list[tuple[int, ...]], covered: int) -> None:
        if len(chosen) == 5:
            spreads.append(tuple(chosen))
            return
        point = next(p for p in range(1, 16) if not covered >> p & 1)
        for line in lines:
            mask = sum(1 << p for p in line)
            if point in line and not covered & mask:
                extend([*chosen, line], covered | mask)

    extend([], 0)
    for first, second in combinations(spreads, 2):
        if not set(first) & set(second):
            return first, second
    raise AssertionError("PG(3,2) has disjoint spreads")  # pragma: no cover


def _solve_gf2(rows: list[tuple[int, int]], count: int) -> list[int] | None:
    """A solution of the linear system ``rows`` (bitmask of variables, right-hand side)
    over GF(2), free variables set to 0; None when the system is inconsistent."""
    pivots: dict[int, tuple[int, int]] = {}
    for mask, rhs in rows:
        while mask:
            high = mask.bit_length() - 1
            if high not in pivots:
                pivots[high] = (mask, rhs)
                break
            pivot_mask, pivot_rhs = pivots[high]
            mask ^= pivot_mask
            rhs ^= pivot_rhs
        else:
            if rhs:
                return None
    values = [0] * count
    for high in sorted(pivots):  # lower pivots only involve lower variables
        mask, rhs = pivots[high]
        rest = mask & ~(1 << high)
        while rest:
            low = rest.bit_length() - 1
            rhs ^= values[low]
            rest ^= 1 << low
        values[high] = rhs
    return values


@cache
def doubled_affine_space() -> tuple[tuple[tuple[int, ...], ...], ...]:
    """32 players, 10 rounds, no repeat: each player misses exactly one other player.

    Take the 16 points of the affine space AG(4,2) and ten directions (lines of PG(3,2))
    that cover every direction twice: two disjoint spreads. The cosets of one direction
    are four blocks of four, so every pair of points lies in exactly two blocks. Now double
    every point x into players 2x and 2x+1 and give each block a labelling f: the block
    becomes the two tables {2x + f(x)} and {2x + 1 - f(x)}. A pair of points x, y is met
    as (same label, same label) or (different, different) in a block, depending on
    f(x) + f(y); if its two blocks disagree on that parity, all four player pairs over
    x, y meet exactly once. "The two blocks disagree" is one linear equation over GF(2)
    per pair, and the system is solvable.
    """
    directions = [line for spread in _line_spreads() for line in spread]
    blocks: list[list[int]] = []
    for line in directions:
        seen: set[int] = set()
        for a in range(16):
            if a not in seen:
                coset = sorted({a, *(a ^ d for d in line)})
                seen.update(coset)
                blocks.append(coset)
    variable: dict[tuple[int, int], int] = {}
    for b, coset in enumerate(blocks):
        for x in coset:
            variable[b, x] = len(variable)
    containing: dict[tuple[int, int], list[int]] = {}
    for b, coset in enumerate(blocks):
        for x, y in combinations(coset, 2):
            containing.setdefault((x, y), []).append(b)
    rows = []
    for (x, y), (b1, b2) in sorted(containing.items()):
        mask = 0
        for b in (b1, b2):
            mask ^= 1 << variable[b, x]
            mask ^= 1 << variable[b, y]
        rows.append((mask, 1))
    labels = _solve_gf2(rows, len(variable))
    if labels is None:  # pragma: no cover - checked by the tests
        raise AssertionError("the labelling system is consistent for these spreads")
    rounds = []
    for index in range(len(directions)):
        tables = []
        for b in range(4 * index, 4 * index + 4):
            f = [labels[variable[b, x]] for x in blocks[b]]
            tables.append(tuple(2 * x + v for x, v in zip(blocks[b], f, strict=True)))
            tables.append(tuple(2 * x + 1 - v for x, v in zip(blocks[b], f, strict=True)))
        rounds.append(tuple(tables))
    return tuple(rounds)


def decode_round(text: str) -> list[list[int]]:
    """A round stored as one string (a round of ``len(text)`` players): the points of its
    five-tables, then of its four-tables (the generators' ``encode_round`` wrote it)."""
    points = [ALPHABET.index(c) for c in text]
    fives = len(points) % 4
    cut = 5 * fives
    return [points[i : i + 5] for i in range(0, cut, 5)] + [
        points[i : i + 4] for i in range(cut, len(points), 4)
    ]


def stored_mixed(n: int, rounds: int) -> tuple[int, Rounds] | None:
    """The stored plan for ``n`` players at four- and five-tables with the fewest rounds
    not below ``rounds``, cut to ``rounds`` rounds, and its repeats over all its rounds
    (the cut plan has at most as many); None when there is none. The rounds are stored in
    an order where the prefixes share the five-tables as fairly as possible; the solver
    checks that the cut plan is fair before it uses it."""
    lengths = sorted(r for (m, r) in MIXED_PLANS if m == n and r >= rounds)
    if not lengths:
        return None
    repeats, encoded = MIXED_PLANS[n, lengths[0]]
    return repeats, [decode_round(text) for text in encoded[:rounds]]


def stored_cuts(n: int, rounds: int) -> Rounds | None:
    """The stored plan of :func:`stored_mixed` in full, all its rounds: where its first
    ``rounds`` rounds do not share the five-tables fairly, the solver plays the rounds of
    it that do (``starts._fair_cut``). None when there is none."""
    lengths = sorted(r for (m, r) in MIXED_PLANS if m == n and r >= rounds)
    if not lengths:
        return None
    return [decode_round(text) for text in MIXED_PLANS[n, lengths[0]][1]]


def full_plans(n: int, rounds: int) -> list[Rounds]:
    """Every plan for ``n`` players with at least ``rounds`` rounds, not cut, in the order
    of :func:`constructed_plans` (the longest first)."""
    if n % 4:
        stored = stored_cuts(n, rounds)
        return [stored] if stored else []
    every = 4 * n  # more rounds than any plan has: constructed_plans cuts none
    return [plan for plan in constructed_plans(n, every) if len(plan) >= rounds]


def neighbour_plans(n: int, rounds: int) -> list[Rounds]:
    """Plans for ``n`` players made from the plans of a neighbouring field with at least
    ``rounds`` rounds, not cut: from ``n - 1`` players with a point added
    (:func:`add_point`), then from ``n + 1`` with one removed (:func:`remove_point`). They
    have repeats where the neighbour's plan had none; the solver lets them compete with a
    search from scratch."""
    sizes = table_sizes(n)
    plans = [add_point(plan, sizes) for plan in full_plans(n - 1, rounds)]
    return plans + [remove_point(plan, sizes) for plan in full_plans(n + 1, rounds)]


def add_point(plan: Rounds, sizes: list[int]) -> Rounds:
    """``plan`` with a newcomer, the point after the last: in every round he joins the
    table whose players he has met least so far (and the tables are reshaped to ``sizes``,
    see :func:`_reshape`)."""
    newcomer = sum(sizes) - 1
    met = [[0] * (newcomer + 1) for _ in range(newcomer + 1)]
    return [_reshape([*round_, [newcomer]], sizes, met) for round_ in plan]


def remove_point(plan: Rounds, sizes: list[int]) -> Rounds:
    """``plan`` without its last point, every round reshaped to ``sizes`` (see
    :func:`_reshape`)."""
    gone = sum(sizes)
    met = [[0] * gone for _ in range(gone)]
    return [_reshape([[p for p in t if p != gone] for t in round_], sizes, met) for round_ in plan]


def _reshape(round_: list[list[int]], sizes: list[int], met: list[list[int]]) -> list[list[int]]:
    """The round's tables brought to the table sizes ``sizes``; ``met`` (meetings in the
    rounds reshaped before) is updated with the result. The largest tables keep the
    largest sizes; the smallest ones are dissolved, or empty tables opened, where the
    number of tables differs. Then one player at a time moves from a table that is too
    large to one that is too small: the player who adds the fewest repeats (met before),
    the first among equals (tables of equal size may trade their targets). Deterministic:
    no randomness, no float."""
    tables = sorted(([*t] for t in round_ if t), key=len, reverse=True)  # stable
    goal = sorted(sizes, reverse=True)
    tables += [[] for _ in range(len(goal) - len(tables))]
    goal += [0] * (len(tables) - len(goal))
    while True:
        surplus = [i for i, t in enumerate(tables) if len(t) > goal[i]]
        if not surplus:
            break
        deficit = [i for i, t in enumerate(tables) if len(t) < goal[i]]
        shrinking = {len(tables[j]) for j in surplus if goal[j]}  # not a dissolved table
        growing = {len(tables[j]) for j in deficit}
        sources = [i for i, t in enumerate(tables)
                   if i in surplus or (len(t) == goal[i] and len(t) in shrinking)]  # fmt: skip
        targets = [i for i, t in enumerate(tables)
                   if i in deficit or (len(t) == goal[i] and len(t) in growing)]  # fmt: skip
        best: tuple[int, int, int, int] | None = None  # added repeats, source, seat, target
        for s in sources:
            for seat, p in enumerate(tables[s]):
                for d in targets:
                    if d != s:
                        cost = sum(met[p][x] >= 1 for x in tables[d])
                        if best is None or cost < best[0]:
                            best = (cost, s, seat, d)
        if best is None:  # pragma: no cover - the sizes add up, so a move is left
            raise AssertionError("a table too large and one too small")
        _, s, seat, d = best
        if s not in surplus:  # trade targets with a table of the same size that has one
            j = next(j for j in surplus if len(tables[j]) == len(tables[s]) and goal[j])
            goal[s], goal[j] = goal[j], goal[s]
        if d not in deficit:
            j = next(j for j in deficit if len(tables[j]) == len(tables[d]))
            goal[d], goal[j] = goal[j], goal[d]
        tables[d].append(tables[s].pop(seat))
    result = sorted((t for t in tables if t), key=len, reverse=True)
    for table in result:
        for a, b in combinations(table, 2):
            met[a][b] += 1
            met[b][a] += 1
    return result


def constructed_plans(n: int, rounds: int) -> list[Rounds]:
    """Every plan we can build for ``n`` players, each cut to at most ``rounds`` rounds, the
    best first: those that reach ``rounds`` rounds in the order below, then the longest.
    Empty when there is no construction for ``n``. Mixed fields (``n mod 4`` five-tables)
    have the stored plans of :func:`stored_mixed`.

    The order: the doubled affine space (32 players), the cyclic plans, the two base rounds
    of 44 players (:data:`~tournament.seating.plans.DOUBLE_CYCLIC_PLANS`: 14 rounds in
    which everybody meets everybody but one partner, one round more than the cyclic plan),
    then the stored covering plans (:data:`~tournament.seating.covering.COVERING_PLANS`),
    which reach the lower bound one round beyond the repeat-free ones (24 players in 8
    rounds with 12 repeats). A round-by-round draw continues whichever of them the played
    rounds belong to: a director who raises the planned rounds during the day began with
    another plan than the one a new draw would start.
    """
    if n % 4:
        stored = stored_mixed(n, rounds)
        return [stored[1]] if stored else []
    plans: list[Rounds] = []
    if n == 32:
        plans.append([[list(t) for t in r] for r in doubled_affine_space()[:rounds]])
    spec = CYCLIC_PLANS.get(n)
    if spec is not None:
        m, k, base = spec
        plans.append(develop(m, k, base, rounds))
    double = DOUBLE_CYCLIC_PLANS.get(n)
    if double is not None:
        m, k, bases = double
        plans.append([r for base in bases for r in develop(m, k, base, m)][:rounds])
    covering = COVERING_PLANS.get(n)
    if covering is not None:
        plans.append([[list(t) for t in r] for r in covering[:rounds]])
    return sorted(plans, key=lambda plan: (0, 0) if len(plan) >= rounds else (1, -len(plan)))


def constructed_rounds(n: int, rounds: int) -> Rounds | None:
    """The best of :func:`constructed_plans`, or None."""
    plans = constructed_plans(n, rounds)
    return plans[0] if plans else None
