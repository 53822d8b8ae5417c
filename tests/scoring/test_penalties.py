"""Penalty distributions: TSR 9, BSV 9 and EPP 8 for every category and context, per profile,
on 4- and 5-tables."""

import pytest

from scoring.errors import InvalidFacts
from scoring.penalties import Category, PenaltyCase, Phase, distribute, legal_rows
from scoring.profiles import BSV_HESSEN_2010, DDV, EPPSTEIN_2001

ALL = [DDV, BSV_HESSEN_2010, EPPSTEIN_2001]
G, S = Category.GERINGFUEGIG, Category.SCHWERWIEGEND


def case(offender, category, **kwargs):
    return PenaltyCase(
        table_size=kwargs.pop("table_size", 4), offender=offender, category=category, **kwargs
    )


@pytest.mark.parametrize("profile", ALL, ids=lambda p: p.key)
class TestEveryProfile:
    def test_unerheblich_gives_nothing(self, profile):
        assert distribute(profile, case(2, Category.UNERHEBLICH)) == (0, 0, 0, 0)

    def test_geringfuegig_in_a_normal_game(self, profile):
        assert distribute(profile, case(2, G)) == (1, -3, 1, 1)

    def test_geringfuegig_by_the_soloist(self, profile):
        c = case(1, G, phase=Phase.SOLO, soloist=1)
        assert distribute(profile, c) == (-3, 1, 1, 1)

    def test_geringfuegig_by_kontra_that_can_disadvantage_the_soloist_b1(self, profile):
        # TSR 9.3.3 b1
        c = case(4, G, phase=Phase.SOLO, soloist=1, disadvantages_soloist=True)
        assert distribute(profile, c) == (3, 0, 0, -3)

    def test_geringfuegig_by_kontra_that_cannot_disadvantage_the_soloist_b2(self, profile):
        c = case(4, G, phase=Phase.SOLO, soloist=1, disadvantages_soloist=False)
        assert distribute(profile, c) == (1, 1, 1, -3)

    @pytest.mark.parametrize("k", range(5))
    def test_schwerwiegend_in_a_normal_game_grows_with_the_opponents_absagen(self, profile, k):
        assert distribute(profile, case(3, S, k=k)) == (4 + k, 4 + k, -(12 + 3 * k), 4 + k)

    def test_schwerwiegend_by_the_soloist_is_scored_like_a_normal_game(self, profile):
        c = case(2, S, phase=Phase.SOLO, soloist=2, k=1)
        assert distribute(profile, c) == (5, -15, 5, 5)

    @pytest.mark.parametrize("k", range(5))
    def test_schwerwiegend_by_kontra_in_a_solo_credits_only_the_soloist(self, profile, k):
        c = case(2, S, phase=Phase.SOLO, soloist=4, k=k)
        assert distribute(profile, c) == (0, -(12 + 3 * k), 0, 12 + 3 * k)

    def test_rules_md_example_8(self, profile):
        c = case(2, S, phase=Phase.SOLO, soloist=4, k=1)
        assert distribute(profile, c) == (0, -15, 0, 15)

    def test_at_a_five_table_the_sitter_gets_nothing(self, profile):
        c = case(2, G, table_size=5, sitter=5)
        assert distribute(profile, c) == (1, -3, 1, 1, 0)
        c = case(1, S, table_size=5, sitter=3, k=2)
        assert distribute(profile, c) == (-18, 6, 0, 6, 6)
        c = case(
            4, G, table_size=5, sitter=1, phase=Phase.SOLO, soloist=2, disadvantages_soloist=True
        )
        assert distribute(profile, c) == (0, 3, 0, -3, 0)

    def test_a_warning_is_a_zero_row(self, profile):
        assert distribute(profile, case(1, Category.WARNING)) == (0, 0, 0, 0)


def test_a_decided_game_adds_a_geringfuegig_penalty_under_ddv_but_not_bsv():
    assert distribute(DDV, case(2, Category.DECIDED_GAME)) == (1, -3, 1, 1)
    assert distribute(EPPSTEIN_2001, case(2, Category.DECIDED_GAME)) == (1, -3, 1, 1)
    assert distribute(BSV_HESSEN_2010, case(2, Category.DECIDED_GAME)) == (0, 0, 0, 0)


def test_a_deduction_is_not_zero_sum_and_limited_by_the_profile():
    assert distribute(DDV, case(3, Category.DEDUCTION, deduction=12)) == (0, 0, -12, 0)
    with pytest.raises(InvalidFacts) as info:
        distribute(DDV, case(3, Category.DEDUCTION, deduction=13))
    assert info.value.code == "deduction-out-of-range"
    with pytest.raises(InvalidFacts) as info:
        distribute(BSV_HESSEN_2010, case(3, Category.DEDUCTION, deduction=3))
    assert info.value.code == "deduction-not-allowed"


@pytest.mark.parametrize(
    ("kwargs", "code"),
    [
        ({"offender": 5}, "offender-not-playing"),
        ({"offender": 2, "table_size": 5, "sitter": 2}, "offender-not-playing"),
        ({"offender": 2, "table_size": 5}, "dealer-required"),
        ({"offender": 2, "phase": Phase.SOLO}, "soloist-missing"),
        ({"offender": 2, "soloist": 1}, "soloist-in-normal-game"),
        ({"offender": 2, "k": 5}, "bad-k"),
    ],
)
def test_impossible_cases_are_refused(kwargs, code):
    with pytest.raises(InvalidFacts) as info:
        distribute(DDV, case(category=S, **kwargs))
    assert info.value.code == code


def test_legal_rows_include_the_parity_exceptions_only_in_a_solo():
    in_solo = legal_rows(DDV, 4, None, 1)
    assert {(3, 0, 0, -3), (15, 0, 0, -15), (21, 0, 0, -21), (12, 0, 0, -12)} <= in_solo
    in_normal = legal_rows(DDV, 4, None, None)
    assert (3, 0, 0, -3) not in in_normal
    assert (1, 1, -3, 1) in in_normal and (0, -7, 0, 0) in in_normal
