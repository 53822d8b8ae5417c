"""The seat-draw solver (tournament/seating.py): validity, objectives, fixed rounds, clubs,
impossible fields, reproducibility. Pure Python: no database."""

from collections import Counter
from itertools import combinations

import pytest

from tournament import seating


def plan(players, rounds, **kwargs):
    kwargs.setdefault("time_limit", 3.0)
    return seating.draw(seating.DrawRequest(players=players, rounds=rounds, **kwargs))


def assert_valid(rounds, players):
    expected_sizes = sorted(seating.table_sizes(len(players)))
    for tables in rounds:
        seated = [p for table in tables for p in table]
        assert sorted(seated) == sorted(players)
        assert sorted(len(t) for t in tables) == expected_sizes


@pytest.mark.parametrize(
    ("count", "sizes"),
    [(4, [4]), (5, [5]), (8, [4, 4]), (9, [4, 5]), (10, [5, 5]), (13, [4, 4, 5]),
     (37, [4] * 8 + [5]), (15, [5, 5, 5])],
)  # fmt: skip
def test_table_sizes_use_as_many_fours_as_possible(count, sizes):
    assert sorted(seating.table_sizes(count)) == sizes


@pytest.mark.parametrize(
    ("count", "add", "remove"), [(1, 3, None), (2, 2, None), (3, 1, None), (6, 2, 1), (7, 1, 2),
                                 (11, 1, 1)]
)  # fmt: skip
def test_impossible_fields_say_how_many_to_add_or_remove(count, add, remove):
    with pytest.raises(seating.ImpossibleField) as info:
        seating.table_sizes(count)
    assert (info.value.add, info.value.remove) == (add, remove)
    with pytest.raises(seating.ImpossibleField):
        plan(list(range(count)), 2)


@pytest.mark.parametrize(
    ("players", "rounds", "repeats"),
    [
        (16, 5, 0),
        (16, 6, 24),
        (24, 7, 0),
        (24, 8, 12),
        (28, 9, 0),
        (32, 10, 0),
        (12, 3, 6),
        (8, 2, 4),
    ],  # fmt: skip
)
def test_known_optima_for_tables_of_four(players, rounds, repeats):
    # 12x3 and 8x2 are above the counting bound: three (two) tables of four always repeat
    # a pair from the round before (pigeonhole), so 6 (4) is optimal.
    result = plan(list(range(1, players + 1)), rounds, seed=1)
    assert_valid(result.rounds, list(range(1, players + 1)))
    quality = seating.evaluate(result.rounds)
    assert quality.repeat_pairs == repeats
    assert quality.repeat_pairs >= seating.lower_bound(players, rounds)


def test_repeat_pairs_count_k_minus_one():
    rounds = [[[1, 2, 3, 4], [5, 6, 7, 8]]] * 3
    # 12 pairs, each met 3 times: 2 repeats each.
    assert seating.evaluate(rounds).repeat_pairs == 24
    assert seating.lower_bound(8, 3) == 3 * 12 - 28


def test_mixed_fields_share_the_five_tables_fairly():
    players = list(range(1, 38))
    result = plan(players, 6, seed=2)
    assert_valid(result.rounds, players)
    fives = Counter(p for tables in result.rounds for t in tables if len(t) == 5 for p in t)
    counts = [fives.get(p, 0) for p in players]
    assert max(counts) - min(counts) <= 1  # floor or ceil of 5 * 6 / 37
    assert seating.evaluate(result.rounds).repeat_pairs == 0


def test_four_table_positions_are_balanced():
    players = list(range(1, 17))
    result = plan(players, 4, seed=3)
    positions = {p: Counter() for p in players}
    for tables in result.rounds:
        for table in tables:
            for index, p in enumerate(table, start=1):
                positions[p][index] += 1
    # Four rounds at 4-tables: everyone has every position exactly once.
    assert all(sorted(c.values()) == [1, 1, 1, 1] for c in positions.values())
    assert seating.evaluate(result.rounds).position_balance == 0


def test_fixed_rounds_stay_untouched_and_count():
    players = list(range(1, 17))
    first = plan(players, 2, seed=4).rounds
    later = plan(players, 5, fixed=first, seed=5).rounds
    assert later[:2] == first
    assert_valid(later, players)
    assert seating.evaluate(later).repeat_pairs == 0


def test_late_entries_and_withdrawals_between_rounds():
    first = plan(list(range(1, 13)), 1, seed=6).rounds
    now = [p for p in range(1, 14) if p != 5] + [99]  # 5 left, 13 and 99 came
    result = plan(now, 3, fixed=first, seed=7).rounds
    assert result[0] == first[0]
    assert_valid(result[1:], now)


def test_the_seed_reproduces_the_plan():
    players = list(range(1, 22))
    assert plan(players, 4, seed=8).rounds == plan(players, 4, seed=8).rounds
    assert plan(players, 4, seed=8).rounds != plan(players, 4, seed=9).rounds


def test_clubs_are_kept_apart_in_the_given_rounds():
    players = list(range(1, 17))
    clubs = [seating.Group(frozenset(range(c, 17, 4)), frozenset({1, 2})) for c in range(1, 5)]
    result = plan(players, 3, separate=clubs, seed=10)
    for tables in result.rounds[:2]:
        for table in tables:
            for a, b in combinations(table, 2):
                assert a % 4 != b % 4, (a, b, table)
    assert seating.evaluate(result.rounds[:2], separate=clubs).club_violations == 0


def test_large_fields_are_drawn_without_repeats():
    players = list(range(1, 201))
    result = plan(players, 8, seed=11, time_limit=5)
    assert_valid(result.rounds, players)
    assert seating.evaluate(result.rounds).repeat_pairs == 0
