"""Seat draws for card tournaments: who sits at which table, in which seat, in every round.

This is the social golfer problem with tables of four and five. A field of N players sits
at ``N mod 4`` five-tables and four-tables for the rest. Plans are compared
lexicographically by

(a) five-table exposure: everybody sits at a five-table floor or ceil of the fair share
    (a five-table means a longer round with a game off in every five: nobody accepts
    one player there four times and another never),
(b) repeat encounters: a pair at the same table k > 1 times counts k - 1,
(c) seat positions: everybody gets every position about equally often,
(d) club separation: players of one group should not share a table (in the given rounds).

How: who sits at five-tables in which round is decided first (fair shares, spread so that
few pairs share a five-table twice). The grouping starts from an algebraic repeat-free plan
or a stored plan where we have one (:mod:`tournament.seating.construct`) or from a greedy
draw; a tabu search then swaps players between the tables of a round to remove repeats,
then club conflicts, keeping the five-table shares fair all along (swaps across table
sizes only where both players stay in their fair range, or as trades that swap back in
another round). Where repeats are left in a mixed field, a shorter search that ignores
fairness shows what (a) cost: ``Plan.stats.unfair``. Positions do not touch (a), (b) or
(d), so they are assigned last: an edge colouring gives every player each position
equally often.

Seat wishes (``DrawRequest.apart``, ``at_table``) come before all of these: players of a
never-together group never share a table in a new round (a cost tier above every repeat;
checked exactly before the search, :mod:`.wishes`), and a player fixed to a table gets that
table's number in every new round (:mod:`.tables`: the tables are renumbered, so the
five-table shares stay fair). Only where the wishes leave no fair plan do the five-table
shares widen. ``Plan.stats.without`` says what the same draw reaches without the wishes.

Pure Python without Django, so the solver can be used and tested on its own. The draw is
reproducible: the same request with the same seed gives the same plan on every machine and
under any load, because the search budget is counted in work units, not seconds. The clock
is only a safety net far beyond the budget (``Plan.stats.timed_out`` says when it cut a
search: then the seed may give another plan elsewhere).
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence

from .measures import evaluate, table_sizes
from .positions import assign_positions
from .problem import Problem, widening_steps
from .starts import (
    constructed_start,
    fair_prefixes,
    five_table_sets,
    planned_start,
    reaching_start,
    separate_wishes,
)
from .tables import number_tables
from .tabu import Search
from .types import DrawRequest, DrawStats, ImpossibleWishes, Plan, Player
from .wishes import apart_groups, violations

# Search work units (about one list element computed, ~0.5 us in CPython) per second of time
# limit: some 60-70 % of what the development machine does, so the budget, not the clock,
# normally ends the search and the draw stays reproducible.
WORK_PER_SECOND = 1_800_000
# The wall clock stops a search only this far beyond its budget (a machine several times
# slower than the development laptop, or one drowning in other work): normal draws never
# reach it, so their plans depend on the inputs alone.
CLOCK_SAFETY_FACTOR = 4
CLOCK_SAFETY_SECONDS = 5.0


def draw(request: DrawRequest, *, stored: bool = True) -> Plan:
    """Seat ``request.players`` for the rounds after the fixed ones.

    Returns all ``request.rounds`` rounds: the fixed rounds unchanged, then the new ones.
    Raises :class:`ImpossibleField` when the players cannot be seated,
    :class:`ImpossibleWishes` when the seat wishes cannot all hold (before any search), and
    ``ValueError`` for a malformed request (duplicate players, more fixed rounds than
    rounds, a player twice in a fixed round). ``stored=False`` ignores constructions and
    stored plans (for the generator of the stored plans).

    Seat wishes: no two players of an ``apart`` group share a table in a new round, and a
    player of ``at_table`` sits at that table number in every new round (the tables of each
    new round are numbered so, :func:`.tables.number_tables`; players fixed to tables are
    kept apart like a group). The search holds the wishes above everything else; with
    wishes, ``Plan.stats.without`` says what a plan without them would reach.
    """
    started = time.perf_counter()
    players = list(request.players)
    n = len(players)
    index = {p: i for i, p in enumerate(players)}
    if len(index) != n:
        raise ValueError("players must be distinct")
    fixed = [[list(t) for t in round_] for round_ in request.fixed]
    for number, round_ in enumerate(fixed, start=1):
        in_round = [p for t in round_ for p in t]
        if len(in_round) != len(set(in_round)):
            raise ValueError(f"fixed round {number} seats a player twice")
    new = request.rounds - len(fixed)
    if new < 0:
        raise ValueError("more fixed rounds than rounds")
    sizes = table_sizes(n)
    if new == 0:  # nothing to draw: the wishes are only measured (played rounds are history)
        quality = evaluate(fixed, players, request.separate, request.apart)
        return Plan(fixed, quality, DrawStats("fixed", 0.0, 0, False, quality.repeat_pairs))
    # in indices, the fixed-table players as the last group; refused here, before the search
    groups = apart_groups(players, index, sizes, request.apart, request.at_table)
    apart = [frozenset(players[i] for i in g) for g in groups]

    rng = random.Random(request.seed)
    deadline = started + CLOCK_SAFETY_FACTOR * request.time_limit + CLOCK_SAFETY_SECONDS

    def expired() -> bool:  # the clock, only a safety net far beyond the budget
        return time.perf_counter() > deadline

    problem = Problem.build(players, index, fixed, sizes, new, request.separate, groups)
    five_sets = five_table_sets(problem, rng)
    # in indices; players of the fixed rounds who left get stand-ins n, n + 1, ...
    gone: dict[Player, int] = {}
    fixed_indices = [
        [[index[p] if p in index else gone.setdefault(p, n + len(gone)) for p in t] for t in r]
        for r in fixed
    ]
    strict = problem  # the fair ranges; ``problem`` may widen for the seat wishes below
    steps = widening_steps(new)
    step = -1  # the last step of ``steps`` the ranges were widened by, -1: not widened
    start = planned_start(request.plan, fixed, players, problem) if fixed else None
    if start is None and fixed and problem.apart and _widened(request.plan):
        # A plan drawn with ranges widened for the wishes is continued against the same
        # widening (the smallest step that takes it), else it would be drawn afresh every
        # round and round by round would not reach what all at once reaches. (Not a fair
        # plan that fails for another reason, e.g. a late entry: widening would not help.)
        for number, (up, down) in enumerate(steps):
            wide = problem.loosened(up, down)
            start = planned_start(request.plan, fixed, players, wide)
            if start is not None:
                problem, step = wide, number
                break
    method = "plan"
    if start is None:
        start, method = None, "search"
        if stored:
            start, method = reaching_start(problem, fixed_indices, rng, request.seed)
    reach = method in ("cut", "neighbour")  # competes with the search drawn without it
    if start is not None and not fixed and problem.never:
        # a construction relabelled for the seat wishes: with its own random numbers, so the
        # draw without wishes stays as it was
        start = separate_wishes(start, problem, random.Random(f"{request.seed}/labels"))
    budget = int(max(request.time_limit, 0.01) * WORK_PER_SECOND)
    fresh, timed_out = None, False
    if problem.repaired and not reach:  # a repaired plan may start worse than none
        fresh = Search(problem, five_sets, None, rng)
        timed_out = fresh.run(budget, expired)
    # A continued plan or construction keeps its next round as it is: the round kept by a
    # round-by-round draw stays a round of that plan, and the next draw continues it.
    # (Not if that round breaks a seat wish added since: then it is searched as well.)
    keep = 1 if fixed and start and not violations(start[0], problem.never) else 0
    own = random.Random(f"{request.seed}/{method}") if reach else rng
    search = Search(problem, five_sets, start, own, frozen=keep)
    timed_out = search.run(budget, expired) or timed_out
    if reach and search.best_cost > search.target:  # the search from scratch, as before
        fresh = Search(problem, five_sets, None, rng)
        timed_out = fresh.run(budget, expired) or timed_out
    if fresh is not None and (fresh.best_cost < search.best_cost
                              or reach and fresh.best_cost == search.best_cost):  # fmt: skip
        search, method = fresh, "search"
    if search.best_hard:
        # The wishes hold in a round but not with fair five-table shares (checked before
        # the search): widen the shares step by step (:func:`.problem.widening_steps`), the
        # wishes come first; the first step that holds them ends it. A quarter of the effort
        # each, from the best plan of the widest step tried that this one contains (its
        # plan is fair here too): first more five-table rounds for some (one player a round
        # may have to sit at the five-table), then fewer for others as well.
        loose_rng = random.Random(f"{request.seed}/apart")
        tried = [search]
        for up, down in steps[step + 1 :]:
            loose_problem = strict.loosened(up, down)
            base = next((s for s in reversed(tried) if loose_problem.widened_by(s.p)), None)
            if base is None:  # narrower than the widening a continued plan needed
                continue
            loose = Search(loose_problem, five_sets, base.best_rounds(), loose_rng,
                           frozen=search.frozen)  # fmt: skip
            timed_out = loose.run(budget // 4, expired) or timed_out
            tried.append(loose)
            search = loose
            if not search.best_hard:
                break
    if search.best_hard:  # the checks before the search are exact: this is a bug
        never = problem.never or []
        broken = sorted({p for r in search.best_tables for t in r for p in t
                         if any(q in never[p] for q in t)})  # fmt: skip
        raise ImpossibleWishes("not_found", [players[p] for p in broken if p < n], len(sizes))
    ordered = fair_prefixes(search.best_rounds(), strict, search.frozen)
    seated = assign_positions(ordered, strict, rng)
    if request.at_table:
        at_table = {index[p]: number for p, number in request.at_table.items() if p in index}
        seated = [number_tables(round_, at_table) for round_ in seated]
    plan_rounds = fixed + [[[players[p] for p in t] for t in r] for r in seated]
    quality = evaluate(plan_rounds, players, request.separate, apart)
    unfair = None
    if 4 in sizes and 5 in sizes and search.best_repeats > search.target_repeats:
        # What did fairness cost? From the fair plan, a search that may share the
        # five-tables unfairly, with an eighth of the effort. Its result is reported only
        # if it has fewer repeats at an unfair spread, and not if the clock cut it.
        free = Search(strict, five_sets, search.best_rounds(), rng, fair=False)
        if not free.run(budget // 8, expired) and free.best_repeats < search.best_repeats:
            other = fixed + [[[players[p] for p in t] for t in r] for r in free.best_rounds()]
            found = evaluate(other, players)
            unfair = found if found.five_table_spread > quality.five_table_spread else None
    without = None
    if request.wishes:
        # What did the wishes cost? The same problem without them (clubs kept: they are the
        # director's setting, not a wish, and the round a continued plan keeps kept too),
        # searched from the plan drawn, so it can only be better, with a quarter of the
        # effort and its own random numbers; the construction too where there is one (a
        # short search would not reach it). A plan drawn with ranges widened for the wishes
        # shares the five-tables unfairly: then from scratch, so that the plan without the
        # wishes is fair as a draw without them is. Not if the clock cut it (the plan
        # drawn is complete all the same: the cut is not the draw's).
        alt_rng = random.Random(f"{request.seed}/without")
        bare = Problem.build(players, index, fixed, sizes, new, request.separate)
        widened = search.p is not strict
        keep = 0 if widened else search.frozen
        best = Search(bare, five_sets, None if widened else search.best_rounds(), alt_rng,
                      frozen=keep)  # fmt: skip
        cut = best.run(budget // 4, expired)
        built = constructed_start(bare, fixed_indices, alt_rng) if stored else None
        if built is not None and keep and not _same_round(built[0], search.best_rounds()[0]):
            built = None  # it does not keep the round kept
        if built is not None:
            rebuilt = Search(bare, five_sets, built, alt_rng, frozen=keep)
            best = rebuilt if rebuilt.best_cost < best.best_cost else best
        if not cut:
            rounds = fixed + [[[players[p] for p in t] for t in r] for r in best.best_rounds()]
            without = evaluate(rounds, players, request.separate)
    stats = DrawStats(
        method=method,
        seconds=time.perf_counter() - started,
        iterations=search.iterations,
        timed_out=timed_out,
        target=strict.fixed_repeats + search.target_repeats,
        unfair=unfair,
        without=without,
    )
    return Plan(plan_rounds, quality, stats)


def _same_round(one: list[list[int]], other: list[list[int]]) -> bool:
    """Do two rounds seat the same tables (in any order)?"""
    return {frozenset(t) for t in one} == {frozenset(t) for t in other}


def _widened(plan: Sequence[Sequence[Sequence[Player]]]) -> bool:
    """Does ``plan`` share its five-tables unfairly (a spread over 1 in the whole plan), as
    a plan drawn with ranges widened for the seat wishes does?"""
    fives: dict[Player, int] = {}
    for round_ in plan:
        for table in round_:
            for p in table:
                fives[p] = fives.get(p, 0) + (len(table) == 5)
    return bool(fives) and max(fives.values()) - min(fives.values()) > 1
