"""Dealer, sitter and the Pflichtsolo ledger (TSR 3.3.1, 4.2.3-4.2.5, 10.1.1-10.1.2)."""

from scoring.kinds import Kind
from scoring.ledger import PlayedGame, walk
from scoring.profiles import DDV, EPPSTEIN_2001

N = PlayedGame(Kind.NORMAL)


def P(p):
    return PlayedGame(Kind.PFLICHTSOLO, p)


def V(p):
    return PlayedGame(Kind.VORGEFUEHRT, p)


def test_the_deal_goes_round_clockwise_from_position_1():
    steps = walk(DDV, 4, [N] * 6)
    assert [s.dealer for s in steps] == [1, 2, 3, 4, 1, 2, 3]
    assert all(s.sitter is None for s in steps)


def test_the_same_dealer_deals_again_after_a_pflichtsolo_but_not_after_a_vorgefuehrtes():
    steps = walk(DDV, 4, [N, P(3), N, V(1), N])
    assert [s.dealer for s in steps] == [1, 2, 2, 3, 4, 1]


def test_at_a_five_table_the_dealer_sits_out():
    steps = walk(DDV, 5, [N, N, P(4), N])
    assert [(s.dealer, s.sitter) for s in steps] == [(1, 1), (2, 2), (3, 3), (3, 3), (4, 4)]


def test_owing_players_are_tracked_after_each_game():
    steps = walk(DDV, 4, [N, P(2), PlayedGame(Kind.LUSTSOLO, 2), P(4)])
    assert steps[0].owing_after == (1, 2, 3, 4)
    assert steps[1].owing_after == (1, 3, 4)
    assert steps[3].owing_after == (1, 3)


def test_vorfuehren_when_missing_soli_equal_the_remaining_games():
    # 24 games at a ddv 4-table; 20 normal games, nobody played a solo: 4 left, 4 missing.
    steps = walk(DDV, 4, [N] * 20)
    nxt = steps[-1]
    assert nxt.game == 21 and nxt.dealer == 1
    assert nxt.vorfuehren == 2 and nxt.vorfuehren_forced  # left of the dealer first
    assert steps[19].vorfuehren is None


def test_the_dealer_himself_is_vorgefuehrt_last():
    # Game 1 and 2 are Pflichtsoli dealt by 1 (who deals again after each), then 20 normal
    # games: 1 deals game 23 with 1 and 4 owing. Left of the dealer comes first: 4.
    nxt = walk(DDV, 4, [P(2), P(3)] + [N] * 20)[-1]
    assert (nxt.game, nxt.dealer, nxt.owing_before) == (23, 1, (1, 4))
    assert nxt.vorfuehren == 4


def test_at_a_five_table_the_only_owing_sitter_gets_the_game_by_passing_the_deal():
    # 1 deals games 1-5 (four Pflichtsoli), then 25 normal games: 1 would deal game 30 and
    # sit out, but is the only one owing: the deal passes to 2 and 1 is vorgeführt.
    nxt = walk(DDV, 5, [P(2), P(3), P(4), P(5)] + [N] * 25)[-1]
    assert (nxt.game, nxt.dealer, nxt.sitter) == (30, 2, 2)
    assert nxt.vorfuehren == 1 and nxt.vorfuehren_forced


def test_the_time_limit_makes_every_owing_player_be_vorgefuehrt():
    steps = walk(EPPSTEIN_2001, 4, [N] * 5, time_limit_from=6)
    # Game 6 is dealt by 2; the owing player to his left is 3.
    assert steps[-1].dealer == 2
    assert steps[-1].vorfuehren == 3 and not steps[-1].vorfuehren_forced
