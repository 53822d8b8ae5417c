"""Stored plans reach further (issue 39, item 6; no database): a stored plan with more rounds
than the tournament plays gives the rounds that share the five-tables fairly ("cut"), and a
field between the stored ones starts from its neighbour's plan with a player added or
removed ("neighbour"). Either start competes with the search from scratch, so the draw is
never worse than the one drawn before at the same effort.

The pure part runs over every stored plan and every shorter round count; the draws with a
search run on a sample here and on the whole matrix in `make bench` (the "reach" block)."""

import itertools
import random
from collections import Counter

import pytest

from tournament.seating import DrawRequest, construct, draw, table_sizes
from tournament.seating.construct import add_point, remove_point
from tournament.seating.mixed import MIXED_PLANS
from tournament.seating.problem import Problem
from tournament.seating.starts import (
    _at_five_tables,
    _fair_cut,
    _fair_start,
    five_table_sets,
    reaching_start,
)


def problem(n, rounds):
    players = list(range(n))
    return Problem.build(players, {p: p for p in players}, [], table_sizes(n), rounds, [])


def repeats(rounds):
    met = Counter(
        frozenset(pair) for r in rounds for t in r for pair in itertools.combinations(t, 2)
    )
    return sum(k - 1 for k in met.values())


def assert_fair_and_valid(start, n, rounds):
    """``rounds`` rounds, each seating 0..n-1 once at the field's tables, every player at
    five-tables a fair number of times (floor or ceiling of the share)."""
    assert len(start) == rounds
    for round_ in start:
        assert sorted(p for t in round_ for p in t) == list(range(n))
        assert sorted(map(len, round_)) == sorted(table_sizes(n))
    fives = Counter(p for round_ in start for p in _at_five_tables(round_))
    counts = [fives[p] for p in range(n)]
    assert max(counts) - min(counts) <= 1


def stored_plans():
    """Every stored plan as (players, its rounds): the mixed ones and the four-table ones."""
    keys = [(n, length) for (n, length) in sorted(MIXED_PLANS)]
    for n in range(16, 49, 4):
        keys += [(n, len(plan)) for plan in construct.full_plans(n, 1)]
    return sorted(set(keys))


def neighbour_fields():
    """Every (players, rounds) without a stored plan of that many rounds whose neighbour
    n - 1 or n + 1 has one."""
    fields = []
    for n in range(13, 50):
        around = [len(plan) for m in (n - 1, n + 1) for plan in construct.full_plans(m, 1)]
        fields += [(n, r) for r in range(2, max(around, default=0) + 1)
                   if not construct.constructed_plans(n, r)]  # fmt: skip
    return fields


# --- the pure part: every stored plan, every shorter round count -------------------------


@pytest.mark.parametrize(("n", "length"), stored_plans())
def test_every_shorter_round_count_of_a_stored_plan_gets_a_fair_start(n, length):
    """For every round count up to the plan's: a start (never a search from scratch), fair
    and valid. Where the plan's first rounds are fair they are taken as before
    ("construction"); else the rounds that are fair, and where no choice of rounds is, the
    choice nearest to fair repaired ("cut"). A fair choice has at most the stored plan's
    repeats."""
    stored = MIXED_PLANS.get((n, length), (None,))[0]
    for rounds in range(1, length + 1):
        p = problem(n, rounds)
        prefix = construct.constructed_plans(n, rounds)[0]
        start, method = reaching_start(p, [], random.Random(rounds), rounds)
        assert start is not None, rounds
        if 5 not in p.sizes:  # a plan of four-tables: every choice of rounds is fair
            assert method == "construction"
            assert repeats(start) <= repeats(construct.full_plans(n, length)[-1])
            continue
        assert_fair_and_valid(start, n, rounds)
        if _fair_start(prefix, p) is not None and len(construct.full_plans(n, rounds)[0]) == length:
            assert method == "construction", rounds
        elif len(construct.full_plans(n, rounds)[0]) == length:
            assert method == "cut", rounds
            full = construct.stored_cuts(n, rounds)
            chosen = [full[i] for i in _fair_cut(full, p)]
            if _fair_start(chosen, p) is not None:  # a fair choice: no repair, no new repeat
                assert repeats(start) == repeats(chosen) <= stored


def test_the_fair_cut_takes_the_first_rounds_when_they_are_fair_and_else_the_first_fair_ones():
    """39 players, stored in 9 rounds: its first 6 rounds are unfair, rounds 4 to 9 are fair
    (and no earlier choice is); where no choice is fair, the one nearest to fair."""
    full = construct.stored_cuts(39, 6)
    assert _fair_cut(full, problem(39, 9)) == tuple(range(9))
    assert _fair_start(full[:6], problem(39, 6)) is None
    chosen = _fair_cut(full, problem(39, 6))
    assert chosen == (3, 4, 5, 6, 7, 8)
    assert _fair_start([full[i] for i in chosen], problem(39, 6)) is not None
    earlier = [c for c in itertools.combinations(range(9), 6) if c < chosen]
    assert all(_fair_start([full[i] for i in c], problem(39, 6)) is None for c in earlier)
    p = problem(39, 5)
    outside = [_outside([full[i] for i in c], p) for c in itertools.combinations(range(9), 5)]
    assert min(outside) > 0 and _outside([full[i] for i in _fair_cut(full, p)], p) == min(outside)


def _outside(rounds, p):
    fives = Counter(q for round_ in rounds for q in _at_five_tables(round_))
    return sum(max(0, p.lo[q] - fives[q]) + max(0, fives[q] - p.hi[q]) for q in range(p.n))


def test_a_point_added_to_a_repeat_free_plan_adds_only_the_newcomers_repeats():
    """16 players in 5 rounds, the newcomer 16 joins a table each round: the 16 old players
    still never meet twice, and the newcomer meets everybody once at most."""
    plan = construct.full_plans(16, 5)[0]
    grown = add_point(plan, table_sizes(17))
    for round_ in grown:
        assert sorted(p for t in round_ for p in t) == list(range(17))
        assert sorted(map(len, round_)) == [4, 4, 4, 5]
    old = [[[p for p in t if p != 16] for t in r] for r in grown]
    assert repeats(old) == 0
    # the newcomer has 20 table-mates in 5 rounds and only 16 to meet: 4 repeats, no more
    assert repeats(grown) == 4


def test_a_point_removed_from_a_field_of_four_tables_makes_three_five_tables():
    """20 players in 5 rounds without a repeat, player 19 leaves: each round the three left
    at the table dissolve into three others, which become the five-tables."""
    plan = construct.full_plans(20, 5)[0]
    shrunk = remove_point(plan, table_sizes(19))
    for before, after in zip(plan, shrunk, strict=True):
        assert sorted(p for t in after for p in t) == list(range(19))
        assert sorted(map(len, after)) == [4, 5, 5, 5]
        kept = {frozenset(t) for t in before if 19 not in t}
        # two of the four old tables stay whole at most: three took a newcomer
        assert len(kept & {frozenset(t) for t in after}) == 1


def test_a_point_added_to_three_five_tables_opens_a_table():
    """From 23 players (three five-tables) to 24 (four-tables only): the newcomer opens a
    table, and one player of each five-table joins him."""
    plan = construct.full_plans(23, 5)[0]
    grown = add_point(plan, table_sizes(24))
    for round_ in grown:
        assert sorted(p for t in round_ for p in t) == list(range(24))
        assert sorted(map(len, round_)) == [4] * 6


@pytest.mark.parametrize(("n", "rounds"), neighbour_fields())
def test_a_field_between_the_stored_ones_starts_from_its_neighbour(n, rounds):
    p = problem(n, rounds)
    start, method = reaching_start(p, [], random.Random(1), 1)
    if (n, rounds) in {(39, 13), (49, 10)}:  # the repair finds no swap: a search from scratch
        assert (start, method) == (None, "search")
        return
    assert method == "neighbour"
    assert_fair_and_valid(start, n, rounds)


def test_a_start_is_the_same_for_the_same_seed_and_other_for_another():
    first = reaching_start(problem(25, 7), [], random.Random(3), 3)
    again = reaching_start(problem(25, 7), [], random.Random(3), 3)
    other = reaching_start(problem(25, 7), [], random.Random(3), 4)
    assert first == again and first[1] == "neighbour"
    assert other[0] != first[0]


def test_with_fixed_rounds_the_reach_is_not_tried():
    """Round by round the draw continues its first draw's plan; a field without a plan of
    its own and played rounds has no start from a neighbour."""
    p = Problem.build(list(range(17)), {q: q for q in range(17)},
                      [[list(range(0, 5)), *[list(range(i, i + 4)) for i in (5, 9, 13)]]],
                      table_sizes(17), 3, [])  # fmt: skip
    fixed = [[list(range(0, 5)), *[list(range(i, i + 4)) for i in (5, 9, 13)]]]
    assert reaching_start(p, fixed, random.Random(1), 1) == (None, "search")


# --- with the search: a sample here, the whole matrix in `make bench` ---------------------

SAMPLE_CUT = [(22, 3), (23, 2), (26, 3), (30, 4), (35, 5), (39, 8), (46, 9), (47, 10)]
SAMPLE_NEIGHBOUR = [(15, 4), (17, 5), (19, 4), (23, 6), (25, 7), (29, 8), (33, 9), (49, 12)]


@pytest.mark.parametrize(("n", "rounds"), SAMPLE_NEIGHBOUR)
def test_a_neighbour_start_is_never_worse_than_the_search_drawn_before(n, rounds):
    """Before, these fields were drawn by a search from scratch, which is what a draw that
    ignores the stored plans still does (same random stream). The neighbour's start and
    that search compete: the draw has at most its repeats, and where the search wins it is
    the very plan drawn before."""
    request = DrawRequest(list(range(n)), rounds, seed=2, time_limit=0.1)
    before, now = draw(request, stored=False), draw(request)
    assert now.stats.method in ("neighbour", "search")
    assert now.quality.repeat_pairs <= before.quality.repeat_pairs
    assert now.quality.five_table_spread <= 1
    if now.stats.method == "search":
        assert now.rounds == before.rounds


@pytest.mark.parametrize(("n", "rounds"), SAMPLE_CUT)
def test_a_cut_start_only_gets_better_in_the_search(n, rounds):
    """A cut start and the search from it: the draw has at most the start's repeats (the
    solver's random stream rebuilt here to get the same start), and the five-tables stay
    fair."""
    seed = 2
    rng = random.Random(seed)
    p = problem(n, rounds)
    five_table_sets(p, rng)
    start, method = reaching_start(p, [], rng, seed)
    assert method == "cut"
    plan = draw(DrawRequest(list(range(n)), rounds, seed=seed, time_limit=0.1))
    assert plan.stats.method in ("cut", "search")
    assert plan.quality.repeat_pairs <= repeats(start)
    assert plan.quality.five_table_spread <= 1


def test_a_draw_from_a_neighbour_or_a_cut_is_the_same_for_the_same_seed():
    for n, rounds in ((25, 7), (46, 9)):
        request = DrawRequest(list(range(n)), rounds, seed=5, time_limit=0.05)
        assert draw(request).rounds == draw(request).rounds


def test_a_neighbour_plan_is_continued_round_by_round():
    """The first draw of 25 players in 7 rounds starts from 24 players' plan; every later
    draw keeps the plan drawn at once."""
    field, played, plan, methods = list(range(25)), [], [], []
    for number in range(1, 8):
        request = DrawRequest(field, 7, fixed=played, seed=number, time_limit=0.1, plan=plan)
        result = draw(request)
        plan, played = result.rounds, result.rounds[:number]
        methods.append(result.stats.method)
    assert methods[0] in ("neighbour", "search") and methods[1:] == ["plan"] * 6
    whole = draw(DrawRequest(field, 7, seed=1, time_limit=0.1))
    assert repeats(played) == whole.quality.repeat_pairs
