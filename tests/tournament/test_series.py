"""Series across tournaments: every scoring method against values worked out by hand — ties,
tie-breakers, players below the minimum, a time window that drops an old tournament, a
tournament still running (only its closed rounds count), a disqualification, a merge of two
players carried into every series, and a fixed number of queries.

The three tournaments (one table each, one game row per round; points per round):

    T1  10 Jan 2026, finished   A +6 -3 = 3   B +2 +3 = 5   C -2 +1 = -1   D -6 -1 = -7
        ranks: B 1, A 2, C 3, D 4
    T2  14 Mar 2026, finished   A +4 +1 = 5   B -4 -1 = -5  C +2 +2 = 4    E -2 -2 = -4
        ranks: A 1, C 2, E 3, B 4
    T3   9 May 2026, running    A -2 (R2 +10 not closed)    B +2 (-10)     D +4 (0)  E -4 (0)
        ranks over round 1: D 1, B 2, A 3, E 4

Over all three: A 6 in 5 rounds, B 2 in 5, C 3 in 4, D -3 in 3, E -8 in 3.
"""

import datetime
from fractions import Fraction

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.factories import (
    PlayerFactory,
    TournamentFactory,
    director,
    make_series,
    played_tournament,
)
from tournament.domain.players import merge_players
from tournament.models import EntryStatus, Series, SeriesMethod
from tournament.queries import series as series_domain

pytestmark = pytest.mark.django_db

TODAY = datetime.date(2026, 6, 1)


def table_of(standings):
    """(rank, first name, value) of the ranked players."""
    return [(line.rank, line.player.first_name, line.value) for line in standings.lines]


def test_sum_adds_the_closed_rounds_of_every_tournament(series_field):
    tournaments, _ = series_field
    standings = series_domain.compute(make_series(tournaments), today=TODAY)
    assert table_of(standings) == [
        (1, "A", 6),
        (2, "C", 3),
        (3, "B", 2),
        (4, "D", -3),
        (5, "E", -8),
    ]
    a = standings.lines[0]
    assert [r.total for r in a.results] == [3, 5, -2]
    assert [r.rank for r in a.results] == [2, 1, 3]
    # The running tournament counts with its closed round only, and says it is running.
    assert a.results[2].round_points == [(1, -2)]
    assert [info.running for info in standings.tournaments] == [False, False, True]
    assert standings.running == [tournaments[2]]
    assert (a.rounds, a.tournaments) == (5, 3)


def test_best_of_one_keeps_each_players_best_tournament_and_marks_the_others(series_field):
    tournaments, _ = series_field
    series = make_series(tournaments, method=SeriesMethod.BEST, best_of=1)
    standings = series_domain.compute(series, today=TODAY)
    # A 5 (T2) and B 5 (T1) share rank 1; C 4 (T2) and D 4 (T3) share rank 3.
    assert table_of(standings) == [(1, "A", 5), (1, "B", 5), (3, "C", 4), (3, "D", 4), (5, "E", -4)]
    a = standings.lines[0]
    assert [r.counted for r in a.results] == [False, True, False]
    assert a.results[0].left_out == series_domain.NOT_BEST


def test_tie_breakers_decide_in_the_directors_order(series_field):
    tournaments, _ = series_field
    series = make_series(tournaments, method=SeriesMethod.BEST, best_of=1, tiebreak="rounds")
    standings = series_domain.compute(series, today=TODAY)
    # C's best is a tournament of two closed rounds, D's of one: C ahead. A and B both
    # counted two rounds: still shared.
    assert table_of(standings)[:4] == [(1, "A", 5), (1, "B", 5), (3, "C", 4), (4, "D", 4)]
    series.tiebreak = "best-place,rounds"
    standings = series_domain.compute(series, today=TODAY)
    # Best placing among the counted results: A 1st (T2), B 1st (T1); C 2nd (T2), D 1st (T3).
    assert table_of(standings)[:4] == [(1, "A", 5), (1, "B", 5), (3, "D", 4), (4, "C", 4)]


def test_average_per_round_lists_players_below_the_minimum_apart(series_field):
    tournaments, _ = series_field
    series = make_series(tournaments, method=SeriesMethod.AVERAGE, min_rounds=4)
    standings = series_domain.compute(series, today=TODAY)
    assert table_of(standings) == [
        (1, "A", Fraction(6, 5)),
        (2, "C", Fraction(3, 4)),
        (3, "B", Fraction(2, 5)),
    ]
    assert [str(standings.shown(line.value)) for line in standings.lines] == [
        "1.20",
        "0.75",
        "0.40",
    ]
    below = [(line.player.first_name, line.rounds, line.value) for line in standings.below_minimum]
    assert below == [("D", 3, Fraction(-1)), ("E", 3, Fraction(-8, 3))]


def test_a_time_window_drops_the_tournament_before_it(series_field):
    tournaments, _ = series_field
    series = make_series(tournaments, method=SeriesMethod.AVERAGE, window_months=6)
    # 20 Aug 2026 minus six months: the window opens on 21 Feb 2026; T1 (10 Jan) is out.
    assert series_domain.window_start(series, datetime.date(2026, 8, 20)) == datetime.date(
        2026, 2, 21
    )
    standings = series_domain.compute(series, today=datetime.date(2026, 8, 20))
    assert table_of(standings) == [
        (1, "D", Fraction(4)),  # T3 only: 4 in one round
        (2, "C", Fraction(2)),  # T2: 4 in two rounds
        (3, "A", Fraction(1)),  # 5 - 2 in three rounds
        (4, "B", Fraction(-1)),  # -5 + 2 in three rounds
        (5, "E", Fraction(-8, 3)),
    ]
    a = standings.line_of(standings.lines[2].player.pk)
    assert a.results[0].left_out == series_domain.OUTSIDE_WINDOW
    assert [info.in_window for info in standings.tournaments] == [False, True, True]


def test_the_window_counts_back_from_the_end_of_a_short_month():
    series = Series(window_months=1)
    # One month before 31 March: the last day of February; the window opens the day after.
    assert series_domain.window_start(series, datetime.date(2026, 3, 31)) == datetime.date(
        2026, 3, 1
    )
    assert series_domain.window_start(Series(), datetime.date(2026, 3, 31)) is None


def test_placement_points_by_rank(series_field):
    tournaments, _ = series_field
    series = make_series(tournaments, method=SeriesMethod.PLACEMENT, placement_points="20, 18, 16")
    standings = series_domain.compute(series, today=TODAY)
    # T1: B 20, A 18, C 16, D 0. T2: A 20, C 18, E 16, B 0. T3: D 20, B 18, A 16, E 0.
    assert table_of(standings) == [
        (1, "A", 54),
        (2, "B", 38),
        (3, "C", 34),
        (4, "D", 20),
        (5, "E", 16),
    ]
    assert standings.decimals == 0


def test_players_sharing_a_place_share_its_points(series_people):
    A, B, C, D = (series_people[n] for n in "ABCD")
    t, _ = played_tournament(datetime.date(2026, 4, 1), 1, [{A: 5, B: 5, C: -1, D: -9}])
    series = make_series([t], method=SeriesMethod.PLACEMENT, placement_points="20,17,16")
    standings = series_domain.compute(series, today=TODAY)
    # A and B share 1st and 2nd: (20 + 17) / 2 = 18.5 each; C is 3rd.
    assert table_of(standings) == [
        (1, "A", Fraction(37, 2)),
        (1, "B", Fraction(37, 2)),
        (3, "C", Fraction(16)),
        (4, "D", Fraction(0)),
    ]
    assert standings.decimals == 2
    assert str(standings.shown(standings.lines[0].value)) == "18.50"


def test_a_disqualified_result_does_not_count(series_field):
    tournaments, e2 = series_field
    E = next(entry for entry in e2.values() if entry.player.first_name == "E")
    E.status = EntryStatus.DISQUALIFIED
    E.save()
    standings = series_domain.compute(make_series(tournaments), today=TODAY)
    e = next(line for line in standings.lines if line.player.first_name == "E")
    assert e.value == -4  # T3 only
    assert [r.left_out for r in e.results] == [series_domain.DISQUALIFIED, ""]
    # Without E among T2's ranked players, B moves up to 3rd there.
    b = next(line for line in standings.lines if line.player.first_name == "B")
    assert [r.rank for r in b.results] == [1, 3, 2]


def test_a_merge_of_two_players_reaches_every_series(series_people):
    A, B, C, D = (series_people[n] for n in "ABCD")
    twin = PlayerFactory(first_name="A", last_name="Spieler A.")  # A, typed differently
    t1, _ = played_tournament(datetime.date(2026, 1, 10), 1, [{A: 6, B: 2, C: -2, D: -6}])
    t2, _ = played_tournament(datetime.date(2026, 2, 10), 1, [{twin: 4, B: -4, C: 2, D: -2}])
    club = make_series([t1, t2])
    cup = Series.objects.create(name="Cup", slug="cup", method=SeriesMethod.AVERAGE)
    cup.tournaments.set([t1, t2])
    cup.directors.set(club.directors.all())
    before = series_domain.compute(club, today=TODAY)
    assert len(before.lines) == 5
    boss = director()
    for t in (t1, t2):
        t.directors.add(boss)
    merge_players(A, twin, user=boss, reason="same person, name typed twice")
    for series, value in ((club, 10), (cup, 5)):
        standings = series_domain.compute(series, today=TODAY)
        a = standings.lines[0]
        assert (a.player.pk, a.value, a.tournaments) == (A.pk, value, 2)
        assert len(standings.lines) == 4


def test_the_number_of_queries_does_not_grow_with_the_series(series_field, series_people):
    tournaments, _ = series_field
    series = make_series(tournaments[:1])
    with CaptureQueriesContext(connection) as small:
        series_domain.compute(series, today=TODAY)
    series.tournaments.set(tournaments)
    extra = [PlayerFactory() for _ in range(4)]
    more, _ = played_tournament(
        datetime.date(2026, 5, 30), 1, [dict(zip(extra, (3, 1, -1, -3), strict=True))]
    )
    series.tournaments.add(more)
    with CaptureQueriesContext(connection) as large:
        series_domain.compute(series, today=TODAY)
    assert len(large) == len(small)


def test_best_of_keeps_every_round_for_the_minimum_and_the_tie_breakers(series_field):
    tournaments, _ = series_field
    series = make_series(tournaments, method=SeriesMethod.BEST, best_of=1, min_rounds=4)
    standings = series_domain.compute(series, today=TODAY)
    # A played 5 rounds in 3 tournaments; only T2 counts for the value, but all count for
    # the minimum: A is ranked with 5, not listed apart with 2 of 4 rounds.
    a = standings.lines[0]
    assert (a.player.first_name, a.value, a.rounds, a.tournaments) == ("A", 5, 5, 3)
    assert [line.player.first_name for line in standings.below_minimum] == ["D", "E"]


def test_shared_placement_points_show_the_decimals_that_add_up(series_people):
    A, B, C, D = (series_people[n] for n in "ABCD")
    t1, _ = played_tournament(datetime.date(2026, 4, 1), 1, [{A: 5, B: 5, C: -1, D: -9}])
    t2, _ = played_tournament(datetime.date(2026, 4, 8), 1, [{A: 2, B: 2, C: -1, D: -3}])
    series = make_series([t1, t2], method=SeriesMethod.PLACEMENT, placement_points="20, 17")
    standings = series_domain.compute(series, today=TODAY)
    a = standings.lines[0]
    assert a.value == 37  # 18.5 + 18.5: the value is whole, the results are not
    assert standings.decimals == 2
    assert [str(standings.shown(r.placement_points)) for r in a.results] == ["18.50", "18.50"]
    assert str(standings.shown(a.value)) == "37.00"


def test_a_tiny_negative_average_is_not_shown_as_minus_zero():
    standings = series_domain.SeriesStandings(
        Series(method=SeriesMethod.AVERAGE), [], [], [], datetime.datetime(2026, 6, 1)
    )
    assert str(standings.shown(Fraction(-1, 201))) == "0.00"


def test_a_tournament_not_started_is_planned_not_running(series_field, series_people):
    tournaments, _ = series_field
    later = TournamentFactory(date=datetime.date(2026, 9, 1), planned_rounds=3)
    standings = series_domain.compute(make_series([*tournaments, later]), today=TODAY)
    assert [(i.running, i.planned) for i in standings.tournaments] == [
        (False, False),
        (False, False),
        (True, False),
        (False, True),
    ]


def test_equal_values_stand_in_german_alphabetical_order_and_shared_places_say_so():
    names = ["Scholz", "Schäfer", "Schulz", "Schröder"]
    people = [PlayerFactory(first_name="Eva", last_name=name) for name in names]
    t, _ = played_tournament(datetime.date(2026, 4, 1), 1, [dict.fromkeys(people, 0)])
    standings = series_domain.compute(make_series([t]), today=TODAY)
    assert [line.player.last_name for line in standings.lines] == [
        "Schäfer", "Scholz", "Schröder", "Schulz"
    ]  # fmt: skip
    assert all(line.results[0].shared for line in standings.lines)
