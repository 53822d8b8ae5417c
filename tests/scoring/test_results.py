"""What a seat brings into the standings (scoring.results.table_results)."""

from scoring.kinds import Kind
from scoring.ledger import PlayedGame
from scoring.profiles import DDV
from scoring.results import TableGame, table_results


def normal(*points):
    return TableGame(PlayedGame(Kind.NORMAL), points)


def test_at_a_five_table_each_dealer_sits_out_the_game_they_deal():
    # Five normal games: positions 1 to 5 deal in turn, each sitting out one (TSR 3.3.1).
    games = [normal(0, 2, 2, -2, -2), normal(1, 0, 1, -1, -1), normal(2, 2, 0, -2, -2),
             normal(3, -3, 3, 0, -3), normal(-1, 1, 1, -1, 0)]  # fmt: skip
    results = table_results(DDV, 5, games, [])
    assert {p: r.games for p, r in results.items()} == {1: 4, 2: 4, 3: 4, 4: 4, 5: 4}
    assert {p: r.points for p, r in results.items()} == {1: 5, 2: 2, 3: 7, 4: -6, 5: -8}


def test_pflichtsoli_penalties_and_points_per_position():
    solo = TableGame(PlayedGame(Kind.PFLICHTSOLO, soloist=2), (-3, 9, -3, -3, None))
    games = [normal(2, -2, 2, -2, None), solo]
    results = table_results(DDV, 4, games, [(1, 1, -3, 1, None)])
    assert [results[p].points for p in (1, 2, 3, 4)] == [-1, 7, -1, -5]
    assert [results[p].penalties for p in (1, 2, 3, 4)] == [1, 1, -3, 1]
    assert [results[p].games for p in (1, 2, 3, 4)] == [2, 2, 2, 2]
    assert [results[p].pflichtsoli for p in (1, 2, 3, 4)] == [0, 1, 0, 0]
    assert [results[p].pflichtsoli_missing for p in (1, 2, 3, 4)] == [1, 0, 1, 1]
