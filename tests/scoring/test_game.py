"""Game values: worked examples of TSR 7.1-7.2 and 10.1 and the rule texts behind them."""

import pytest

from scoring.errors import InvalidFacts
from scoring.game import GameFacts, evaluate, parse_facts, possible_eyes, winner
from scoring.profiles import BSV_HESSEN_2010, DDV, EPPSTEIN_2001


def facts(**changes):
    data = {"table_size": 4, "kind": "normal", "re": [1, 3], "re_eyes": 130}
    data.update(changes)
    return parse_facts(data)


def row(profile=DDV, **changes):
    return evaluate(profile, facts(**changes)).points


@pytest.mark.parametrize(
    ("number", "changes", "expected"),
    [
        (1, {}, (1, -1, 1, -1)),
        (
            2,
            {"re": [2, 4], "re_eyes": 151, "announced": ["re"], "sonderpunkte": {"kontra": 1}},
            (-3, 3, -3, 3),
        ),
        (
            3,
            {"re_eyes": 151, "announced": ["re", "kontra"], "absage": {"kontra": 90}},
            (8, -8, 8, -8),
        ),
        (
            4,
            {"re": [3, 4], "re_eyes": 140, "announced": ["re"], "absage": {"re": 90}},
            (5, 5, -5, -5),
        ),
        (5, {"kind": "solo", "re": [2], "re_eyes": 110, "announced": ["re"]}, (3, -9, 3, 3)),
        (
            6,
            {"kind": "solo", "re": [3], "re_eyes": 185, "announced": ["re"], "absage": {"re": 90}},
            (-6, -6, 18, -6),
        ),
        (
            9,
            {"table_size": 5, "dealer": 3, "re": [1, 2], "re_eyes": 120, "announced": ["kontra"]},
            (3, 3, 0, -3, -3),
        ),
        (
            10,
            {"table_size": 5, "dealer": 1, "kind": "solo", "re": [2], "re_eyes": 121},
            (0, 3, -1, -1, -1),
        ),
        (
            11,
            {
                "re_eyes": 140,
                "announced": ["re", "kontra"],
                "absage": {"re": 90, "kontra": 90},
            },
            (1, -1, 1, -1),
        ),
    ],
)
def test_worked_examples_of_rules_md(number, changes, expected):
    assert row(**changes) == expected
    assert row(BSV_HESSEN_2010, **changes) == expected  # same scoring in both plus-minus texts


def test_example_11_has_no_winner():
    result = evaluate(
        DDV,
        facts(re_eyes=140, announced=["re", "kontra"], absage={"re": 90, "kontra": 90}),
    )
    assert result.winner is None and result.value == 1


@pytest.mark.parametrize(
    ("re_eyes", "announced", "expected"),
    [
        (121, [], "re"),
        (120, [], "kontra"),
        (121, ["re"], "re"),
        (120, ["re"], "kontra"),
        (121, ["re", "kontra"], "re"),
        (120, ["re", "kontra"], "kontra"),
        (120, ["kontra"], "re"),  # TSR 7.1.1 (4): only "Kontra" said, Re wins with 120
        (119, ["kontra"], "kontra"),
    ],
)
def test_winner_without_absage(re_eyes, announced, expected):
    assert winner(facts(re_eyes=re_eyes, announced=announced)) == expected


@pytest.mark.parametrize(
    ("re_eyes", "absage", "expected"),
    [
        (151, {"re": 90}, "re"),  # Kontra 89: below 90
        (150, {"re": 90}, "kontra"),  # Kontra wins with its 90th eye
        (181, {"re": 60}, "re"),
        (180, {"re": 60}, "kontra"),
        (211, {"re": 30}, "re"),
        (90, {"kontra": 90}, "re"),  # Re wins with its 90th eye against keine 90
        (89, {"kontra": 90}, "kontra"),
        (60, {"kontra": 60}, "re"),
        (30, {"kontra": 30}, "re"),
        (29, {"kontra": 30}, "kontra"),
        (140, {"re": 90, "kontra": 90}, None),  # both missed: TSR 7.1.3
        (151, {"re": 90, "kontra": 90}, "re"),
    ],
)
def test_winner_with_absagen(re_eyes, absage, expected):
    assert winner(facts(re_eyes=re_eyes, announced=["re", "kontra"], absage=absage)) == expected


def test_schwarz_needs_no_trick_not_only_no_eyes():
    # Kontra took a trick worth 0 eyes: not schwarz, Re's "schwarz" Absage failed.
    zero = facts(re_eyes=240, announced=["re"], absage={"re": 0})
    assert winner(zero) == "kontra"
    black = facts(re_eyes=240, kontra_no_trick=True, announced=["re"], absage={"re": 0})
    assert winner(black) == "re"
    # 1 won + 4 (under 90/60/30/schwarz) + 2 (Re) + 4 (keine 90, 60, 30, schwarz)
    assert evaluate(DDV, black).value == 11


def test_reached_against_points_go_to_the_party_that_reached_them():
    # Kontra said keine 60; Re reached 120 (against keine 90) and 90 (against keine 60).
    result = evaluate(DDV, facts(re_eyes=125, announced=["re", "kontra"], absage={"kontra": 60}))
    # Re wins: 1 + 2 + 2 + 2 (keine 90, keine 60) + 2 (reached) = 9
    assert (result.winner, result.value) == ("re", 9)


def test_sonderpunkte_can_turn_the_row_against_the_winner():
    result = evaluate(DDV, facts(re_eyes=121, sonderpunkte={"re": 0, "kontra": 2}))
    assert result.winner == "re"
    assert result.points == (-1, 1, -1, 1)  # 1 - 2 = -1: Kontra has the positive points
    zero = evaluate(DDV, facts(re_eyes=121, sonderpunkte={"re": 0, "kontra": 1}))
    assert zero.value == 0 and zero.points == (0, 0, 0, 0)


def test_gegen_die_kreuz_damen_is_only_for_a_normal_game():
    normal = evaluate(DDV, facts(re_eyes=100))
    assert normal.points == (-2, 2, -2, 2)
    solo = evaluate(DDV, facts(kind="solo", re=[1], re_eyes=100))
    assert solo.points == (-3, 1, 1, 1)


class TestPlusPoints:
    """Eppstein 2001, EPP 6.2: only winners score, Re and Kontra double the value."""

    def test_a_plain_win_scores_for_the_winners_only(self):
        assert row(EPPSTEIN_2001, re=[1, 2], re_eyes=130) == (1, 1, 0, 0)

    def test_re_and_kontra_double_and_quadruple(self):
        assert row(EPPSTEIN_2001, re_eyes=130, announced=["re"]) == (2, 0, 2, 0)
        assert row(EPPSTEIN_2001, re_eyes=130, announced=["re", "kontra"]) == (4, 0, 4, 0)

    def test_kontra_win_counts_gegen_die_kreuz_damen_before_doubling(self):
        # won 1 + gegen die Kreuz Damen 1 + under 90 (Re 80) 1 = 3, doubled by "Kontra"
        assert row(EPPSTEIN_2001, re_eyes=80, announced=["kontra"]) == (0, 6, 0, 6)

    def test_sonderpunkte_go_to_whoever_earned_them_losers_included(self):
        points = row(EPPSTEIN_2001, re_eyes=130, sonderpunkte={"re": 1, "kontra": 2})
        assert points == (2, 2, 2, 2)

    def test_solo_won_triples_for_the_soloist_lost_pays_each_opponent(self):
        assert row(EPPSTEIN_2001, kind="solo", re=[2], re_eyes=130) == (0, 3, 0, 0)
        assert row(EPPSTEIN_2001, kind="solo", re=[2], re_eyes=100) == (1, 0, 1, 1)


@pytest.mark.parametrize(
    ("changes", "code"),
    [
        ({"re_eyes": 241}, "eyes-out-of-range"),
        ({"re_eyes": -1}, "eyes-out-of-range"),
        ({"kind": "solo", "re": [1, 3]}, "re-count"),
        ({"kind": "solo", "re": [1], "sonderpunkte": {"re": 1}}, "sonderpunkte-in-solo"),
        ({"table_size": 5, "dealer": 6}, "dealer-outside-table"),
        ({"table_size": 5}, "dealer-required"),
        ({"table_size": 5, "dealer": 1}, "sitter-plays"),
        ({"re": [1, 5]}, "bad-re"),
        ({"absage": {"re": 45}, "announced": ["re"]}, "bad-absage"),
        ({"re_no_trick": True}, "no-trick-with-eyes"),
        ({"table_size": 6}, "bad-table-size"),
        ({"colour": "Kreuz"}, "unknown-field"),
        ({"re_eyes": "viel"}, "not-a-number"),
    ],
)
def test_invalid_facts_are_refused_with_a_code(changes, code):
    with pytest.raises(InvalidFacts) as info:
        facts(**changes)
    assert info.value.code == code


def test_with_40_cards_no_eyes_means_no_trick():
    # BSV plays without nines: every trick holds eyes, so 0 eyes is schwarz (+1).
    assert evaluate(BSV_HESSEN_2010, facts(re_eyes=240)).value == 5
    assert evaluate(DDV, facts(re_eyes=240)).value == 4


class TestAbsageWithoutOwnAnnouncement:
    """TSR 6.4.3 (BSV 6.5, EPP 5.5.3): levels may be skipped, the party's own "Re"/"Kontra"
    included, and every skipped level counts in the reckoning."""

    def test_kontra_says_keine_60_without_kontra_re_wins_with_100(self):
        # Kontra's "keine 60" stands for "Kontra", keine 90 and keine 60. Re (no Absage) wins
        # with the 60th eye (7.1.1 (7)): won 1, "Kontra" 2, two Absage levels 2 (7.2.2 c, d),
        # 90 against keine 60 1 (7.2.2 e; 120 against keine 90 not reached) = 6.
        result = evaluate(DDV, facts(re_eyes=100, absage={"kontra": 60}))
        assert (result.winner, result.value, result.points) == ("re", 6, (6, -6, 6, -6))

    def test_the_implied_announcement_scores_like_a_spoken_one(self):
        for profile in (DDV, BSV_HESSEN_2010, EPPSTEIN_2001):
            implied = evaluate(profile, facts(re_eyes=100, absage={"kontra": 60}))
            spoken = evaluate(
                profile, facts(re_eyes=100, announced=["kontra"], absage={"kontra": 60})
            )
            assert implied == spoken

    def test_eppstein_the_implied_kontra_doubles(self):
        # EPP 6.2: won 1 + two Absage levels 2 = 3, doubled by the implied "Kontra" = 6.
        assert row(EPPSTEIN_2001, re_eyes=100, absage={"kontra": 60}) == (6, 0, 6, 0)

    def test_re_says_keine_90_without_re_and_makes_it(self):
        # Re 160, Kontra 80: won 1, under 90 1, "Re" 2, keine 90 1 = 5.
        assert row(re_eyes=160, absage={"re": 90}) == (5, -5, 5, -5)

    def test_the_announcement_is_recorded_in_the_facts(self):
        assert facts(absage={"kontra": 60}).announced == frozenset({"kontra"})

    def test_facts_built_without_parse_facts_score_the_same(self):
        by_hand = GameFacts(4, "normal", (1, 3), 100, absage={"re": None, "kontra": 60})
        assert evaluate(DDV, by_hand).points == (6, -6, 6, -6)


class TestImpossibleEyes:
    def test_48_cards_nobody_has_1_card_point(self):
        assert sorted(set(range(241)) - possible_eyes(48)) == [1, 239]

    def test_40_cards_every_trick_holds_at_least_8(self):
        impossible = sorted(set(range(241)) - possible_eyes(40))
        assert impossible == [*range(1, 8), *range(233, 240)]

    @pytest.mark.parametrize("eyes", [1, 239])
    def test_refused_with_48_cards(self, eyes):
        with pytest.raises(InvalidFacts) as info:
            facts(re_eyes=eyes)
        assert info.value.code == "eyes-impossible"
        assert info.value.params["smallest"] == 2

    @pytest.mark.parametrize("eyes", [1, 5, 7, 233, 236, 239])
    def test_refused_with_40_cards(self, eyes):
        data = {"table_size": 4, "kind": "normal", "re": [1, 3], "re_eyes": eyes}
        with pytest.raises(InvalidFacts) as info:
            parse_facts(data, BSV_HESSEN_2010.cards)
        assert info.value.params == {
            "value": eyes,
            "other": 240 - eyes,
            "smallest": 8,
            "cards": 40,
        }
        # Facts read for the 48-card pack are refused when scored under BSV all the same.
        if eyes not in (1, 239):
            with pytest.raises(InvalidFacts):
                evaluate(BSV_HESSEN_2010, facts(re_eyes=eyes))

    @pytest.mark.parametrize(("cards", "eyes"), [(48, 2), (48, 238), (40, 8), (40, 232)])
    def test_the_nearest_possible_totals_are_scored(self, cards, eyes):
        data = {"table_size": 4, "kind": "normal", "re": [1, 3], "re_eyes": eyes}
        assert parse_facts(data, cards).re_eyes == eyes
