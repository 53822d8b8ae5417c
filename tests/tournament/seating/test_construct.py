"""The algebraic and stored seat plans (no database): the doubled affine space for 32
players and the stored cyclic plans are free of repeats; the stored mixed plans are valid
and fair, and the draw uses them."""

import itertools
from collections import Counter

import pytest

from tournament.seating import DrawRequest, construct, draw, evaluate, table_sizes
from tournament.seating.construct import decode_round, encode_round
from tournament.seating.mixed import MIXED_PLANS
from tournament.seating.plans import CYCLIC_PLANS


def repeats(rounds):
    met = Counter(
        frozenset(pair) for r in rounds for t in r for pair in itertools.combinations(t, 2)
    )
    return sum(k - 1 for k in met.values())


def test_the_doubled_affine_space_seats_32_players_ten_rounds_without_repeat():
    rounds = construct.doubled_affine_space()
    assert len(rounds) == 10
    met = Counter(
        frozenset(pair) for r in rounds for t in r for pair in itertools.combinations(t, 2)
    )
    assert max(met.values()) == 1
    assert len(met) == 32 * 31 // 2 - 16  # each player misses exactly one other
    assert all(sorted(p for t in r for p in t) == list(range(32)) for r in rounds)


@pytest.mark.parametrize("n", sorted(CYCLIC_PLANS))
def test_every_stored_cyclic_plan_is_repeat_free(n):
    m, _k, _base = CYCLIC_PLANS[n]
    rounds = construct.constructed_rounds(n, m)
    assert len(rounds) == m
    assert repeats(rounds) == 0
    assert all(sorted(p for t in r for p in t) == list(range(n)) for r in rounds)


@pytest.mark.parametrize("key", sorted(MIXED_PLANS))
def test_every_stored_mixed_plan_is_valid_fair_and_has_its_stored_repeats(key):
    n, rounds = key
    stored_repeats, encoded = MIXED_PLANS[key]
    plan = [decode_round(text) for text in encoded]
    assert len(plan) == rounds
    for round_ in plan:
        assert sorted(p for t in round_ for p in t) == list(range(n))
        assert sorted(len(t) for t in round_) == sorted(table_sizes(n))
        assert encode_round(round_) == encoded[plan.index(round_)]
    quality = evaluate(plan)
    assert quality.repeat_pairs == stored_repeats and quality.five_table_spread <= 1


# Fields of the literature where a repeat-free plan with fair five-tables is stored.
REPEAT_FREE_AND_FAIR = [(25, 5), (26, 5), (27, 5), (41, 9), (42, 8), (43, 8)]


@pytest.mark.parametrize(("n", "rounds"), REPEAT_FREE_AND_FAIR)
def test_the_draw_seats_the_literature_fields_repeat_free_and_fair(n, rounds):
    plan = draw(DrawRequest(list(range(1, n + 1)), rounds, seed=5, time_limit=0.2))
    assert plan.quality.repeat_pairs == 0 and plan.quality.five_table_spread <= 1
    assert plan.quality.position_balance <= 1 and plan.stats.method == "construction"


def test_twenty_one_players_cannot_be_fair_and_repeat_free_and_the_draw_reaches_the_bound():
    """With five tables the five of a five-table sit at five different tables in every
    later round, so two rounds' five-tables share exactly one player; fair shares (four
    players twice) give only 4 such shared players for the 10 pairs of rounds, and each
    pair of rounds without one forces two repeats: at least 12. The stored plan has 12."""
    plan = draw(DrawRequest(list(range(1, 22)), 5, seed=5, time_limit=0.2))
    assert plan.quality.repeat_pairs == 12 and plan.quality.five_table_spread == 1


def test_forty_players_meet_everybody_exactly_once_in_thirteen_rounds():
    """The resolvable design of make_plans.resolvable_40: 13 rounds, 10 tables each, every
    pair of the 40 players at one table exactly once (issue 17: before, 18 repeats)."""
    rounds = construct.constructed_rounds(40, 13)
    assert len(rounds) == 13
    met = Counter(
        frozenset(pair) for r in rounds for t in r for pair in itertools.combinations(t, 2)
    )
    assert len(met) == 40 * 39 // 2 and set(met.values()) == {1}
    plan = draw(DrawRequest(list(range(1, 41)), 13, seed=2, time_limit=0.2))
    assert plan.quality.repeat_pairs == 0 and plan.stats.method == "construction"


def test_the_generator_builds_the_stored_base_round_of_forty_players():
    from tournament.seating.make_plans import resolvable_40

    assert CYCLIC_PLANS[40] == (13, 3, resolvable_40())


def test_a_construction_shorter_than_the_plan_still_starts_it():
    """44 players: the cyclic plan has 13 rounds; a 14th round is drawn by the search on
    top of it (before issue 17's fairness check rejected the short start: 51 repeats
    instead of about 20)."""
    plan = draw(DrawRequest(list(range(1, 45)), 14, seed=1, time_limit=0.3))
    assert plan.stats.method == "construction"
    assert evaluate(plan.rounds[:13]).repeat_pairs == 0
