"""Table numbers for fixed-table wishes (:func:`tournament.seating.tables.number_tables`)."""

import pytest

from tournament.seating.tables import number_tables

ROUND = [[1, 2, 3, 4, 5], [6, 7, 8, 9], [10, 11, 12, 13], [14, 15, 16, 17]]


def test_without_fixed_players_the_order_stays():
    assert number_tables(ROUND, {}) == ROUND
    assert number_tables(ROUND, {99: 2}) == ROUND  # a fixed player not in this round


def test_a_fixed_player_takes_their_table_and_the_others_keep_their_order():
    assert number_tables(ROUND, {15: 1}) == [ROUND[3], ROUND[0], ROUND[1], ROUND[2]]
    assert number_tables(ROUND, {1: 4}) == [ROUND[1], ROUND[2], ROUND[3], ROUND[0]]


def test_several_fixed_players_at_different_tables():
    numbered = number_tables(ROUND, {7: 4, 12: 1, 3: 3})
    assert numbered == [ROUND[2], ROUND[3], ROUND[0], ROUND[1]]
    assert 12 in numbered[0] and 3 in numbered[2] and 7 in numbered[3]


@pytest.mark.parametrize("at_table", [{1: 5}, {1: 0}, {1: 2, 2: 3}, {1: 2, 6: 2}])
def test_a_wish_that_cannot_hold_is_an_error(at_table):
    with pytest.raises(ValueError):
        number_tables(ROUND, at_table)
