"""Re/Kontra, announcements and Absagen on the known sheet (tests/scoring/test_statistics.py)
with a seventh game, counted by hand over the games whose facts are known.

DDV, plus-minus (TSR 7); Anna, Bernd, Clara, Dieter at positions 1-4. Facts for games 1, 2,
4, 6 and 7; games 3 and 5 were typed as points (no facts).

  game  points (A, B, C, D)  Re      said                  won by  value
  1     ( 2,  2, -2, -2)     A B     "Re"                  Re      1 + "Re" 2, Kontra's Fuchs -1
  2     ( 3, -3,  3, -3)     B D     "Kontra"              Kontra  1 + "Kontra" 2 + gegen die
                                                                   Alten 1, Re's Fuchs -1
  4     (-6,  2,  2,  2)     A solo  -                     Kontra  1 + Re under 90
  6     ( 0,  0,  0,  0)     A D     keine 90 both (and    nobody  120 : 120, TSR 7.1.3
                                     "Re", "Kontra")
  7     (-5, -5,  5,  5)     C D     keine 90 (and "Re")   Re      1 + under 90 + 2 + 1
"""

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.game import evaluate, facts_dict, facts_of_row, parse_facts
from scoring.kinds import Kind
from scoring.profiles import get_profile
from scoring.statistics import GameRecord, compute

from .strategies import game_facts
from .test_statistics import SHEET, A, B, C, D, ref

DDV = get_profile("ddv")
FACTS = {
    1: {"table_size": 4, "dealer": 1, "kind": "normal", "re": [1, 2], "re_eyes": 130,
        "announced": ["re"], "sonderpunkte": {"kontra": 1}},
    2: {"table_size": 4, "dealer": 2, "kind": "normal", "re": [2, 4], "re_eyes": 115,
        "announced": ["kontra"], "sonderpunkte": {"re": 1}},
    4: {"table_size": 4, "dealer": 4, "kind": "solo", "re": [1], "re_eyes": 80},
    6: {"table_size": 4, "dealer": 2, "kind": "normal", "re": [1, 4], "re_eyes": 120,
        "absage": {"re": 90, "kontra": 90}},
    7: {"table_size": 4, "dealer": 3, "kind": "normal", "re": [3, 4], "re_eyes": 160,
        "absage": {"re": 90}},
}  # fmt: skip
ROWS = [*SHEET, (7, Kind.NORMAL, None, (-5, -5, 5, 5))]


def records():
    games = []
    for n, kind, soloist, points in ROWS:
        facts = parse_facts(FACTS[n]) if n in FACTS else None
        games.append(GameRecord(ref(n), "ddv", kind, soloist, (A, B, C, D), points, facts=facts))
    return games


def test_the_facts_give_exactly_the_rows_of_the_sheet():
    for n, kind, soloist, points in ROWS:
        if n in FACTS:
            assert evaluate(DDV, parse_facts(FACTS[n])).points == points
            assert facts_of_row(DDV, FACTS[n], solo=kind.is_solo, soloist=soloist, points=points)


def test_a_players_parties_in_normal_games_count_only_games_with_known_facts():
    stats = compute(records())["ddv"]
    anna, dieter = stats.players[A], stats.players[D]
    assert anna.known == [ref(1), ref(2), ref(4), ref(6), ref(7)]
    assert anna.games == 7
    # Re in 1 (won) and 6 (nobody won); Kontra in 2 (won) and 7 (lost). The solo is no
    # normal game; 3 and 5 have no facts.
    assert (anna.as_re.won, anna.as_re.lost, anna.as_re.even) == ([ref(1)], [], [ref(6)])
    assert (anna.as_kontra.won, anna.as_kontra.lost) == ([ref(2)], [ref(7)])
    assert anna.as_re.rate == 1 and anna.as_kontra.rate == 1 / 2
    # Dieter: Re in 2 (lost), 6 (nobody), 7 (won); Kontra in 1 (lost).
    assert (dieter.as_re.won, dieter.as_re.lost, dieter.as_re.even) == (
        [ref(7)], [ref(2)], [ref(6)]
    )  # fmt: skip
    assert dieter.as_kontra.lost == [ref(1)] and dieter.as_re.rate == 1 / 2


def test_announcements_and_absagen_made_by_the_players_party_and_whether_it_won():
    stats = compute(records())["ddv"]
    anna, bernd, clara, dieter = (stats.players[p] for p in (A, B, C, D))
    # Anna's party said "Re" in 1 (won) and 6 (implied by keine 90; nobody won), "Kontra" in 2.
    assert (anna.announced["re"].won, anna.announced["re"].even) == ([ref(1)], [ref(6)])
    assert anna.announced["kontra"].won == [ref(2)]
    assert anna.absagen[90].even == [ref(6)] and anna.absagen[90].played == 1
    # Bernd: "Re" in 1 (won); in 2 he was Re and Kontra announced: not his; "Kontra" in 6.
    assert bernd.announced["re"].won == [ref(1)] and bernd.announced["re"].played == 1
    assert bernd.announced["kontra"].even == [ref(6)]
    assert bernd.absagen[90].even == [ref(6)]
    # Clara: keine 90 won in 7; Dieter: keine 90 in 6 (nobody) and 7 (won).
    assert clara.absagen[90].won == [ref(7)] and clara.absagen[90].played == 2
    assert (dieter.absagen[90].won, dieter.absagen[90].even) == ([ref(7)], [ref(6)])
    assert dieter.announced["kontra"].played == 0
    assert all(dieter.absagen[level].played == 0 for level in (60, 30, 0))


def test_the_events_figures_say_over_how_many_games_they_are_counted():
    stats = compute(records())["ddv"]
    assert len(stats.known) == 5 and len(stats.games) == 7
    # Normal games with facts: Re won 1 and 7, Kontra won 2, nobody 6.
    assert stats.re_games.won == [ref(1), ref(7)]
    assert stats.re_games.lost == [ref(2)] and stats.re_games.even == [ref(6)]
    assert stats.announced["re"].won == [ref(1), ref(7)]
    assert stats.announced["re"].even == [ref(6)]
    assert stats.announced["kontra"].won == [ref(2)]
    # Three Absagen keine 90: both parties' in 6, Re's in 7.
    assert stats.absagen[90].played == 3 and stats.absagen[90].won == [ref(7)]


def test_without_facts_nothing_of_this_is_counted():
    plain = [
        GameRecord(r.ref, r.profile, r.kind, r.soloist, r.players, r.points) for r in records()
    ]
    stats = compute(plain)["ddv"]
    assert stats.known == [] and stats.players[A].as_re.played == 0
    assert stats.players[A].games == 7  # the figures from the points stay


@settings(max_examples=150, deadline=None)
@given(
    data=st.data(),
    size=st.sampled_from([4, 5]),
    solo=st.booleans(),
    key=st.sampled_from(["ddv", "bsv-hessen-2010", "eppstein-2001"]),
)
def test_stored_facts_read_back_as_they_were_and_fit_only_their_own_row(data, size, solo, key):
    profile = get_profile(key)
    dealer = data.draw(st.integers(1, size))
    active = [p for p in range(1, size + 1) if not (size == 5 and p == dealer)]
    soloist = data.draw(st.sampled_from(active)) if solo else None
    facts = data.draw(game_facts(size, dealer, soloist, profile.cards))
    stored = facts_dict(facts)
    assert parse_facts(stored, profile.cards) == facts
    row = evaluate(profile, facts).points
    sitter = dealer if size == 5 else None
    kept = facts_of_row(profile, stored, solo=solo, soloist=soloist, points=row, sitter=sitter)
    assert kept == facts
    # Any other row, another soloist, the other kind or another sitter: not these facts.
    other = (row[0] + 1, *row[1:])
    assert facts_of_row(profile, stored, solo=solo, soloist=soloist, points=other) is None
    assert facts_of_row(profile, stored, solo=not solo, soloist=soloist, points=row) is None
    if size == 5:
        moved = dealer % 5 + 1
        assert (
            facts_of_row(profile, stored, solo=solo, soloist=soloist, points=row, sitter=moved)
            is None
        )
