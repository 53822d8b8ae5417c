"""The algebraic seat plans (no database): the doubled affine space for 32 players and the
stored cyclic plans are free of repeats."""

import itertools
from collections import Counter

import pytest

from tournament.seating import construct
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
