"""Seat wishes in the solver (no database): never-together groups and teams apart held in
every new round, fixed tables, the refusal before the search, determinism and what the
wishes cost."""

import itertools
import subprocess
import sys
from pathlib import Path

import pytest

from tournament.seating import DrawRequest, Group, ImpossibleWishes, draw, evaluate, table_sizes

ROOT = Path(__file__).resolve().parents[3]


def players(n):
    return list(range(1, n + 1))


def couples(n):
    """One couple per 20 players (at least one), across the teams of four."""
    return [frozenset((i + 1, i + 1 + n // 2)) for i in range(max(1, n // 20))]


def teams(n):
    return [frozenset(range(k, min(k + 4, n + 1))) for k in range(1, n + 1, 4)]


def together(plan_rounds, groups, first=0):
    """Pairs of one group at one table in the rounds from ``first`` on."""
    return [
        (r, a, b)
        for r, round_ in enumerate(plan_rounds[first:], start=first)
        for table in round_
        for a, b in itertools.combinations(table, 2)
        for group in groups
        if a in group and b in group
    ]


def assert_valid(plan_rounds, field):
    for round_ in plan_rounds:
        assert sorted(p for t in round_ for p in t) == sorted(field)
        assert sorted(len(t) for t in round_) == sorted(table_sizes(len(field)))


def fives(plan_rounds, field):
    return {p: sum(p in t for r in plan_rounds for t in r if len(t) == 5) for p in field}


# --- never together ------------------------------------------------------------------------


@pytest.mark.parametrize(("n", "rounds"), [(20, 5), (21, 5), (32, 10), (40, 7), (17, 4)])
def test_couples_and_teams_never_share_a_table(n, rounds):
    apart = couples(n) + teams(n)
    plan = draw(DrawRequest(players(n), rounds, apart=apart, seed=1, time_limit=0.5))
    assert_valid(plan.rounds, players(n))
    assert together(plan.rounds, apart) == []
    assert plan.quality.wish_violations == 0


def test_a_group_as_large_as_the_tables_sits_one_at_each_table():
    field = players(21)  # five tables
    group = frozenset({1, 2, 3, 4, 5})
    plan = draw(DrawRequest(field, 6, apart=[group], seed=3, time_limit=0.5))
    for round_ in plan.rounds:
        assert sorted(len(group & set(t)) for t in round_) == [1] * 5


def test_wishes_hold_round_by_round_and_the_plan_is_continued():
    field, apart = players(21), couples(21) + teams(21)
    rounds, previous = [], []
    for number in range(5):
        plan = draw(DrawRequest(field, 5, fixed=rounds, plan=previous, apart=apart, seed=number,
                                time_limit=0.3))  # fmt: skip
        assert together(plan.rounds, apart) == []
        if number:
            assert plan.stats.method == "plan"
        rounds, previous = plan.rounds[: number + 1], plan.rounds
    assert max(fives(rounds, field).values()) - min(fives(rounds, field).values()) <= 1


def test_a_wish_added_after_the_plan_was_drawn_is_held_from_the_next_round_on():
    field = players(16)
    first = draw(DrawRequest(field, 5, seed=1, time_limit=0.3))
    # a couple that the plan seats together in round 2
    table = first.rounds[1][0]
    couple = frozenset(table[:2])
    plan = draw(DrawRequest(field, 5, fixed=first.rounds[:1], plan=first.rounds,
                            apart=[couple], seed=2, time_limit=0.3))  # fmt: skip
    assert plan.rounds[0] == first.rounds[0]
    assert together(plan.rounds, [couple], first=1) == []


def test_late_entry_and_withdrawal_keep_the_wishes():
    field = players(20)
    apart = [frozenset({1, 11}), frozenset({2, 21})]  # 21 comes late for 20
    first = draw(DrawRequest(field, 5, apart=apart, seed=4, time_limit=0.3))
    later = [*players(19), 21]
    plan = draw(DrawRequest(later, 5, fixed=first.rounds[:2], plan=first.rounds, apart=apart,
                            seed=5, time_limit=0.3))  # fmt: skip
    assert_valid(plan.rounds[2:], later)
    assert together(plan.rounds, apart, first=2) == []


def test_overlapping_groups_hold_each_pair():
    field = players(24)
    apart = [*teams(24), frozenset({1, 5}), frozenset({1, 9})]  # player 1 in three groups
    plan = draw(DrawRequest(field, 6, apart=apart, seed=2, time_limit=0.5))
    assert together(plan.rounds, apart) == []


def test_clubs_are_kept_apart_after_the_wishes():
    field = players(24)
    clubs = [Group(frozenset(field[i::6])) for i in range(6)]
    apart = couples(24) + teams(24)
    plan = draw(DrawRequest(field, 3, separate=clubs, apart=apart, seed=1, time_limit=1.0))
    assert together(plan.rounds, apart) == []
    assert plan.quality.club_violations == 0


# --- fixed tables --------------------------------------------------------------------------


@pytest.mark.parametrize(("n", "rounds"), [(21, 5), (22, 6), (32, 10), (45, 8)])
def test_fixed_players_sit_at_their_table_and_share_the_five_tables_fairly(n, rounds):
    field = players(n)
    at_table = {1: 1, 2: len(table_sizes(n)), 7: 2}
    plan = draw(DrawRequest(field, rounds, at_table=at_table, seed=1, time_limit=0.5))
    assert_valid(plan.rounds, field)
    for round_ in plan.rounds:
        for player, number in at_table.items():
            assert player in round_[number - 1]
    counts = fives(plan.rounds, field).values()
    assert max(counts) - min(counts) <= 1
    assert plan.quality.five_table_spread <= 1


def test_a_fixed_table_holds_round_by_round_and_played_rounds_stay():
    field, at_table = players(21), {21: 3}
    rounds, previous = [], []
    for number in range(5):
        plan = draw(DrawRequest(field, 5, fixed=rounds, plan=previous, at_table=at_table,
                                apart=couples(21), seed=number, time_limit=0.3))  # fmt: skip
        assert plan.rounds[:number] == rounds
        assert all(21 in r[2] for r in plan.rounds)
        assert together(plan.rounds, couples(21)) == []
        assert plan.stats.method == ("construction" if number == 0 else "plan")
        rounds, previous = plan.rounds[: number + 1], plan.rounds


@pytest.mark.parametrize("with_plan", [True, False])
def test_32_players_round_by_round_with_a_couple_and_a_fixed_table_keep_the_construction(
    with_plan,
):
    """With the previous plan the draw continues it; without, it finds the construction
    again from the played rounds, whose tables were renumbered for the fixed table."""
    field, apart, at_table = players(32), [frozenset({3, 20})], {32: 1}
    rounds, previous = [], []
    later = "plan" if with_plan else "construction"
    for number in range(10):
        known = previous if with_plan else []
        plan = draw(DrawRequest(field, 10, fixed=rounds, plan=known, apart=apart,
                                at_table=at_table, seed=9, time_limit=0.3))  # fmt: skip
        assert plan.stats.method == ("construction" if number == 0 else later)
        assert together(plan.rounds, apart) == []
        assert all(32 in r[0] for r in plan.rounds[number:])
        rounds, previous = plan.rounds[: number + 1], plan.rounds
    assert plan.quality.repeat_pairs == 0  # the couple sits on a pair the plan leaves apart


def test_players_fixed_to_tables_never_meet():
    field = players(16)
    at_table = {1: 1, 2: 2, 3: 3, 4: 4}
    plan = draw(DrawRequest(field, 4, at_table=at_table, seed=1, time_limit=0.3))
    for round_ in plan.rounds:
        assert all(p in round_[p - 1] for p in range(1, 5))
    assert plan.quality.wish_violations == 0


# --- refusals ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("n", "apart", "at_table", "reason", "who"),
    [
        (9, [frozenset({1, 2, 3})], {}, "group_too_large", (1, 2, 3)),
        (16, [], {5: 5}, "table_missing", (5,)),
        (16, [], {5: 0}, "table_missing", (5,)),
        (16, [], {5: 2, 9: 2}, "same_table", (5, 9)),
        (8, [frozenset({1, 2})], {1: 1, 3: 2, 5: 1}, "same_table", (1, 5)),
    ],
)  # fmt: skip
def test_wishes_that_cannot_hold_are_refused_before_the_search(n, apart, at_table, reason, who):
    with pytest.raises(ImpossibleWishes) as refused:
        draw(DrawRequest(players(n), 3, apart=apart, at_table=at_table, time_limit=0.1))
    assert refused.value.reason == reason
    assert refused.value.tables == len(table_sizes(n))
    if who is not None:
        assert refused.value.players == who


def test_every_wish_that_cannot_hold_is_named_at_once():
    """The director mends them all in one go: the refusal carries each impossible wish, in
    the order of the check (fixed tables, then groups); the fixed players' own group is not
    named again as a group too large."""
    apart = [frozenset({1, 2, 3}), frozenset({4, 5}), frozenset({6, 7, 8})]  # 2 tables
    at_table = {9: 3, 10: 1, 4: 1}
    with pytest.raises(ImpossibleWishes) as refused:
        draw(DrawRequest(players(10), 2, apart=apart, at_table=at_table, time_limit=0.1))
    named = [(one.reason, one.players) for one in refused.value.all]
    assert named == [
        ("table_missing", (9,)),
        ("same_table", (4, 10)),
        ("group_too_large", (1, 2, 3)),
        ("group_too_large", (6, 7, 8)),
    ]
    assert all(one.tables == 2 and one.also == () for one in refused.value.also)


def test_groups_that_do_not_fit_together_are_refused_exactly():
    # 10 players at two five-tables: five couples fill both tables, one of each per table
    fits = [frozenset({i, i + 5}) for i in range(1, 6)]
    plan = draw(DrawRequest(players(10), 2, apart=fits, seed=1, time_limit=0.2))
    assert together(plan.rounds, fits) == []
    # a triangle needs three tables: refused although every group has two players
    triangle = [frozenset({1, 2}), frozenset({2, 3}), frozenset({1, 3}), frozenset({5, 6})]
    with pytest.raises(ImpossibleWishes) as refused:
        draw(DrawRequest(players(10), 2, apart=triangle, time_limit=0.1))
    assert (refused.value.reason, refused.value.players) == ("too_many_groups", (1, 2, 3))


def test_a_fixed_group_and_couples_that_leave_no_seat_are_refused():
    # 8 players, two tables of four: 1 and 2 fixed to tables 1 and 2, each with a partner
    # who must avoid both: there is no table left for the partners
    apart = [frozenset({3, 1}), frozenset({3, 2})]
    with pytest.raises(ImpossibleWishes) as refused:
        draw(DrawRequest(players(8), 2, apart=apart, at_table={1: 1, 2: 2}, time_limit=0.1))
    assert refused.value.reason == "too_many_groups"


def test_wishes_of_players_who_are_not_in_the_field_are_ignored():
    plan = draw(DrawRequest(players(8), 2, apart=[frozenset({1, 99, 100})], at_table={77: 9},
                            time_limit=0.1))  # fmt: skip
    assert_valid(plan.rounds, players(8))


def test_a_plan_that_breaks_a_wish_is_refused_never_returned(monkeypatch):
    """Were the check before the search wrong, the draw refuses instead of writing a
    broken wish."""
    from tournament.seating import solver

    monkeypatch.setattr(solver, "apart_groups", lambda *args: [[0, 1, 2]])  # 3 in 2 tables
    with pytest.raises(ImpossibleWishes) as refused:
        draw(DrawRequest(players(9), 2, time_limit=0.05))
    assert refused.value.reason == "not_found"
    assert len(set(refused.value.players) & {1, 2, 3}) >= 2


# --- determinism and the cost --------------------------------------------------------------


def test_the_same_seed_gives_the_same_plan_with_wishes():
    request = DrawRequest(players(21), 5, apart=couples(21) + teams(21), at_table={4: 2},
                          seed=11, time_limit=0.3)  # fmt: skip
    assert draw(request).rounds == draw(request).rounds


def test_string_players_draw_the_same_plan_under_any_hash_seed():
    code = (
        "from tournament.seating import DrawRequest, draw\n"
        "names = [f'p{i}' for i in range(22)]\n"
        "apart = [frozenset(names[k:k + 4]) for k in range(0, 22, 4)]\n"
        "plan = draw(DrawRequest(names, 4, apart=apart, at_table={'p3': 2}, seed=5,"
        " time_limit=0.2))\n"
        "print(plan.rounds, plan.stats.without)\n"
    )
    outputs = {
        subprocess.run(  # noqa: S603
            [sys.executable, "-c", code], cwd=ROOT, check=True, capture_output=True, text=True,
            env={"PYTHONHASHSEED": seed, "PATH": ""},
        ).stdout
        for seed in ("1", "2", "3")
    }  # fmt: skip
    assert len(outputs) == 1


def test_evaluate_counts_pairs_of_a_group_at_one_table():
    rounds = [[[1, 2, 3, 4], [5, 6, 7, 8]], [[1, 5, 2, 6], [3, 7, 4, 8]]]
    apart = [frozenset({1, 2, 3}), frozenset({7, 8})]
    assert evaluate(rounds, apart=apart).wish_violations == 3 + 1 + 1 + 1
    assert evaluate(rounds).wish_violations == 0


def test_without_wishes_there_is_no_cost_to_show():
    plan = draw(DrawRequest(players(21), 4, seed=1, time_limit=0.2))
    assert plan.stats.without is None


@pytest.mark.parametrize(("n", "rounds"), [(20, 5), (21, 5), (24, 4), (40, 13)])
def test_the_cost_of_the_wishes_is_never_negative(n, rounds):
    apart = couples(n) + teams(n)
    plan = draw(DrawRequest(players(n), rounds, apart=apart, at_table={n: 1}, seed=1,
                            time_limit=0.3))  # fmt: skip
    without = plan.stats.without
    assert without is not None
    assert without.repeat_pairs <= plan.quality.repeat_pairs
    assert plan.quality.wish_violations == 0
    assert without.five_table_spread <= 1


def test_the_plan_without_the_wishes_is_fair_where_the_wishes_widen_the_shares():
    # 17 players with four teams of four apart: the 17th sits at the five-table every
    # round. Without the wishes nobody has to: that plan shares the five-tables fairly.
    plan = draw(DrawRequest(players(17), 5, apart=teams(16), seed=3, time_limit=0.3))
    without = plan.stats.without
    assert plan.quality.five_table_spread == 4
    assert without is not None
    assert without.five_table_spread <= 1
    assert 0 <= without.repeat_pairs <= plan.quality.repeat_pairs


def test_a_clock_cut_of_the_plan_without_the_wishes_is_not_the_draws(monkeypatch):
    from tournament.seating import solver

    class CutWithoutWishes(solver.Search):
        def run(self, budget, expired):
            return True if self.p.never is None else super().run(budget, expired)

    monkeypatch.setattr(solver, "Search", CutWithoutWishes)
    plan = draw(DrawRequest(players(21), 4, apart=teams(20), seed=1, time_limit=0.2))
    assert plan.stats.without is None
    assert not plan.stats.timed_out  # the plan drawn is complete and reproducible


def test_the_target_counts_the_repeats_the_wishes_force():
    # 20 players at five four-tables, four teams of five apart: everybody can meet only
    # the 15 players of other teams, so 6 rounds of 3 tablemates force 3 repeats each
    apart = [frozenset(range(k, k + 5)) for k in range(1, 21, 5)]
    plan = draw(DrawRequest(players(20), 6, apart=apart, seed=3, time_limit=0.2))
    assert plan.stats.target == 30
    assert plan.quality.repeat_pairs >= plan.stats.target > plan.quality.lower_bound


def test_the_cost_shows_what_the_construction_reaches_without_the_wishes():
    # 20 players in 5 rounds: the stored plan is repeat-free; teams of four apart cost repeats
    plan = draw(DrawRequest(players(20), 5, apart=teams(20), seed=1, time_limit=0.3))
    assert plan.stats.without is not None
    assert plan.stats.without.repeat_pairs == 0 < plan.quality.repeat_pairs
    assert together(plan.rounds, teams(20)) == []


def test_played_rounds_are_only_measured_never_refused():
    played = [[[1, 2, 3, 4], [5, 6, 7, 8]]]
    plan = draw(DrawRequest(players(8), 1, fixed=played, apart=[frozenset({1, 2})],
                            at_table={1: 5}))  # fmt: skip
    assert plan.rounds == played
    assert plan.quality.wish_violations == 1


def test_wishes_come_before_fair_five_tables_where_both_cannot_hold():
    # 17 players, one five-table: four teams of four apart put one of each team at every
    # table, so the five-table's fifth seat is always the 17th player's
    apart = teams(16)
    plan = draw(DrawRequest(players(17), 4, apart=apart, seed=1, time_limit=0.3))
    assert together(plan.rounds, apart) == []
    counts = fives(plan.rounds, players(17))
    assert counts[17] == 4
    assert plan.quality.five_table_spread == 3  # everybody else exactly once


@pytest.mark.parametrize("seed", [2, 3])
def test_round_by_round_continues_a_plan_widened_for_the_wishes(seed):
    # 17 players, four teams of four apart: no fair five-table shares hold the wishes, so
    # the plan is drawn with wider shares; each next draw continues it all the same
    field, apart = players(17), teams(16)
    once = draw(DrawRequest(field, 5, apart=apart, seed=seed, time_limit=0.3))
    played, plan, methods = [], [], []
    for number in range(1, 6):
        drawn = draw(DrawRequest(field, 5, fixed=played, plan=plan, apart=apart, seed=seed,
                                 time_limit=0.3))  # fmt: skip
        methods.append(drawn.stats.method)
        played, plan = drawn.rounds[:number], drawn.rounds
    assert methods[1:] == ["plan"] * 4
    assert together(played, apart) == []
    rounds = evaluate(played, field)
    assert rounds.repeat_pairs <= once.quality.repeat_pairs
    # the widening keeps the lower bounds: the others sit at the five-table at least once
    assert once.quality.five_table_spread == rounds.five_table_spread == 4


def test_a_withdrawal_keeps_the_wishes_of_those_who_stay():
    field, apart, at_table = players(21), [frozenset({1, 2}), frozenset({3, 21})], {4: 2}
    first = draw(DrawRequest(field, 5, apart=apart, at_table=at_table, seed=1, time_limit=0.2))
    stay = players(20)  # 21 withdraws after two rounds: the group {3, 21} is left with one
    plan = draw(DrawRequest(stay, 5, fixed=first.rounds[:2], plan=first.rounds, apart=apart,
                            at_table=at_table, seed=2, time_limit=0.2))  # fmt: skip
    assert_valid(plan.rounds[2:], stay)
    assert together(plan.rounds, apart, first=2) == []
    assert all(4 in r[1] for r in plan.rounds)
