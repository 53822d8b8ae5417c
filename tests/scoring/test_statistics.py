"""The statistics on a known sheet, every figure computed by hand (see the table below)."""

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.kinds import GAME_KINDS, Kind
from scoring.profiles import Scoring
from scoring.rows import derive_points
from scoring.statistics import GameRecord, GameRef, PenaltyRecord, compute

# One 4-table, plus-minus (TSR 7.2): Anna, Bernd, Clara, Dieter at positions 1-4.
#
#  game  kind  soloist  points (A, B, C, D)   value  winners
#  1     N     -        ( 2,  2, -2, -2)      2      A B
#  2     N     -        ( 3, -3,  3, -3)      3      A C
#  3     P     B        (-1,  3, -1, -1)      1      B (Pflichtsolo won)
#  4     L     A        (-6,  2,  2,  2)      2      B C D (Lustsolo lost)
#  5     V     C        ( 1,  1, -3,  1)      1      A B D (vorgeführt, lost)
#  6     N     -        ( 0,  0,  0,  0)      0      nobody
#  Strafe: Dieter -5, given at game 4.
SHEET = [
    (1, Kind.NORMAL, None, (2, 2, -2, -2)),
    (2, Kind.NORMAL, None, (3, -3, 3, -3)),
    (3, Kind.PFLICHTSOLO, 2, (-1, 3, -1, -1)),
    (4, Kind.LUSTSOLO, 1, (-6, 2, 2, 2)),
    (5, Kind.VORGEFUEHRT, 3, (1, 1, -3, 1)),
    (6, Kind.NORMAL, None, (0, 0, 0, 0)),
]
A, B, C, D = "Anna", "Bernd", "Clara", "Dieter"


def ref(game: int, table: int = 1) -> GameRef:
    return GameRef(7, 1, table, game)


def known(profile="ddv"):
    games = [
        GameRecord(ref(n), profile, kind, soloist, (A, B, C, D), points)
        for n, kind, soloist, points in SHEET
    ]
    return games, [PenaltyRecord(ref(4), profile, D, -5)]


def test_it_counts_a_players_games_won_and_lost_with_the_games_they_came_from():
    anna = compute(*known())["ddv"].players[A]
    assert anna.games == 6
    assert anna.all.won == [ref(1), ref(2), ref(5)]
    assert anna.all.lost == [ref(3), ref(4)]
    assert anna.all.even == [ref(6)]
    assert anna.all.rate == 3 / 5
    assert anna.points == 2 + 3 - 1 - 6 + 1 + 0
    # values 2 + 3 + 1 + 2 + 1 + 0 over 6 games
    assert anna.average_value == 9 / 6


def test_it_tells_solos_by_kind_pflichtsolo_and_vorgefuehrt():
    stats = compute(*known())["ddv"]
    anna, bernd, clara = stats.players[A], stats.players[B], stats.players[C]
    assert anna.solos[Kind.LUSTSOLO].lost == [ref(4)]
    assert anna.solo.played == 1 and anna.pflichtsolo.played == 0
    assert anna.against_solo.won == [ref(5)] and anna.against_solo.lost == [ref(3)]
    assert bernd.pflichtsolo.won == [ref(3)] and bernd.vorgefuehrt.played == 0
    assert clara.vorgefuehrt.lost == [ref(5)]
    assert clara.pflichtsolo.lost == [ref(5)]
    assert anna.normal.won == [ref(1), ref(2)] and anna.normal.even == [ref(6)]


def test_it_finds_best_and_worst_game():
    anna = compute(*known())["ddv"].players[A]
    assert (anna.best.points, anna.best.ref) == (3, ref(2))
    assert (anna.worst.points, anna.worst.ref) == (-6, ref(4))


def test_it_keeps_the_record_with_each_partner_and_opponent():
    anna = compute(*known())["ddv"].players[A]
    # Partners: the same party in a normal game (game 6 had no parties).
    assert {who: (r.won, r.lost) for who, r in anna.partners.items()} == {
        B: ([ref(1)], []),
        C: ([ref(2)], []),
    }
    # Opponents: C D in 1, B D in 2, the soloist B in 3, B C D in 4, the soloist C in 5.
    record = {who: (len(r.won), len(r.lost)) for who, r in anna.opponents.items()}
    assert record == {B: (1, 2), C: (2, 1), D: (2, 1)}
    assert anna.opponents[B].games == [ref(2), ref(3), ref(4)]


def test_it_counts_penalties_with_their_game():
    stats = compute(*known())["ddv"]
    dieter = stats.players[D]
    assert dieter.penalty_points == -5
    assert [p.ref for p in dieter.penalties] == [ref(4)]
    assert stats.players[A].penalty_points == 0


def test_the_event_figures_and_the_numbers_of_the_day():
    stats = compute(*known())["ddv"]
    assert len(stats.games) == 6 and stats.normal == [ref(1), ref(2), ref(6)]
    assert stats.kinds[Kind.PFLICHTSOLO].won == [ref(3)]
    assert stats.kinds[Kind.LUSTSOLO].lost == [ref(4)]
    assert stats.kinds[Kind.VORGEFUEHRT].lost == [ref(5)]
    assert stats.average_value == 9 / 6
    biggest = stats.biggest()
    assert [(b.value, b.record.ref) for b in biggest] == [(3, ref(2)), (2, ref(1)), (2, ref(4))]
    most, leaders = stats.most_solos()
    assert most == 1 and {s.player for s in leaders} == {A, B, C}
    # Round sums: A -1, B 5, C -1, D -3 (without the penalty)
    best = stats.highest_rounds(1)[0]
    assert (best.player, best.points, best.ref) == (B, 5, GameRef(7, 1, 1, 0))


def test_a_sitter_sits_out_and_scores_nothing():
    # A 5-table: position 1 deals and sits out; a normal game of value 2.
    game = GameRecord(
        ref(1, 2), "ddv", Kind.NORMAL, None, (A, B, C, D, "Emil"), (0, 2, 2, -2, -2), 1
    )
    stats = compute([game])["ddv"]
    assert stats.players[A].games == 0 and stats.players[A].sat_out == [ref(1, 2)]
    assert stats.sat_out == [ref(1, 2)]
    assert stats.players[B].partners[C].won == [ref(1, 2)]
    assert A not in stats.players[B].opponents


def test_plus_points_value_and_winners():
    # Eppstein (plus points): winners v, losers 0; a won solo 3v, a lost one v to each other.
    normal = GameRecord(ref(1), "epp", Kind.NORMAL, None, (A, B, C, D), (0, 4, 4, 0))
    lost_solo = GameRecord(ref(2), "epp", Kind.LUSTSOLO, 1, (A, B, C, D), (0, 3, 3, 3))
    won_solo = GameRecord(ref(3), "epp", Kind.LUSTSOLO, 2, (A, B, C, D), (0, 6, 0, 0))
    assert (normal.value, lost_solo.value, won_solo.value) == (4, 3, 2)
    stats = compute([normal, lost_solo, won_solo])["epp"]
    assert stats.players[A].solos[Kind.LUSTSOLO].lost == [ref(2)]
    assert stats.players[B].solos[Kind.LUSTSOLO].won == [ref(3)]


def test_figures_of_different_rule_profiles_are_kept_apart():
    games, penalties = known("ddv")
    other = [GameRecord(ref(1, 9), "eppstein", Kind.NORMAL, None, (A, B, C, D), (4, 4, 0, 0))]
    by_profile = compute(games + other, penalties)
    assert set(by_profile) == {"ddv", "eppstein"}
    assert by_profile["ddv"].players[A].games == 6
    assert by_profile["eppstein"].players[A].games == 1
    assert by_profile["eppstein"].players[A].penalty_points == 0


@settings(max_examples=300, deadline=None)
@given(
    scoring=st.sampled_from(list(Scoring)),
    size=st.sampled_from([4, 5]),
    kind=st.sampled_from(GAME_KINDS),
    value=st.integers(min_value=1, max_value=20),
    data=st.data(),
)
def test_every_row_the_keeper_taps_is_read_back_as_tapped(scoring, size, kind, value, data):
    """Value, winners and the soloist's result, read from the points alone, are what the
    list keeper tapped (scoring.rows.derive_points), with either scoring and table size."""
    sitter = data.draw(st.sampled_from([1, 2, 3, 4, 5])) if size == 5 else None
    active = [p for p in range(1, size + 1) if p != sitter]
    if kind.is_solo:
        soloist = data.draw(st.sampled_from(active))
        won = data.draw(st.booleans())
        points = derive_points(scoring, size, sitter, kind, value, soloist=soloist, soloist_won=won)
        winners = {soloist} if won else set(active) - {soloist}
    else:
        soloist = None
        winners = set(data.draw(st.permutations(active))[:2])
        points = derive_points(scoring, size, sitter, kind, value, winners=winners)
    seats = tuple(f"p{p}" for p in range(1, size + 1))
    game = GameRecord(ref(1), "x", kind, soloist, seats, points, sitter)
    assert game.value == value
    assert game.winners == winners
    stats = compute([game])["x"]
    assert sum(stats.players[f"p{p}"].games for p in active) == len(active)
    if sitter is not None:
        assert stats.players[f"p{sitter}"].sat_out == [ref(1)]
