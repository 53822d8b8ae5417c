"""Every finding code of the sheet checks, triggered and not triggered."""

import pytest

from scoring.kinds import Kind
from scoring.profiles import BSV_HESSEN_2010, DDV, EPPSTEIN_2001
from scoring.sheet import ERROR, WARNING, SheetRow, check_sheet, from_cumulative

N, P, V, L, H, S = (Kind(k) for k in "NPVLHS")


def normal(number, points):
    return SheetRow(number, N, None, tuple(points))


def solo(number, kind, soloist, v, size=4, sitter=None):
    points = [0 if p == sitter else -v for p in range(1, size + 1)]
    points[soloist - 1] = 3 * v
    return SheetRow(number, kind, soloist, tuple(points))


def ddv_sheet():
    """A correct 24-game ddv 4-table sheet: Pflichtsoli in games 1, 5, 9, 13."""
    rows = []
    for number in range(1, 25):
        if number in (1, 5, 9, 13):
            rows.append(solo(number, P, (number - 1) // 4 + 1, 2))
        else:
            rows.append(normal(number, (1, -1, 1, -1) if number % 2 else (-2, 2, 2, -2)))
    return rows


def five_table_sheet():
    """A correct 30-game ddv 5-table sheet: five Pflichtsoli, each by the first player left of
    the dealer who still owes one; the dealer sits out every game."""
    rows, dealer, owing = [], 1, [1, 2, 3, 4, 5]
    for number in range(1, 31):
        if number in (1, 7, 13, 19, 24):
            soloist = next(p for p in owing if p != dealer)
            owing.remove(soloist)
            rows.append(solo(number, P, soloist, 1, size=5, sitter=dealer))
        else:
            points = [1, 1, -1, -1]
            rows.append(normal(number, points[: dealer - 1] + [0] + points[dealer - 1 :]))
            dealer = dealer % 5 + 1
    return rows


def codes(findings, level=None):
    return {f.code for f in findings if level is None or f.level == level}


def replace(rows, number, row):
    return [row if r.game == number and r.kind is not S else r for r in rows]


def test_correct_sheets_have_no_findings():
    assert check_sheet(DDV, 4, ddv_sheet()) == []
    assert check_sheet(DDV, 5, five_table_sheet()) == []


def test_zero_sum():
    rows = replace(five_table_sheet(), 2, normal(2, (0, 1, -1, 1, 0)))  # 1 deals game 2
    assert codes(check_sheet(DDV, 5, rows)) == {"zero-sum"}


def test_even_odd_at_a_four_table_only():
    rows = replace(ddv_sheet(), 2, normal(2, (2, -1, 0, -1)))
    assert "even-odd" in codes(check_sheet(DDV, 4, rows))
    rows = replace(five_table_sheet(), 2, normal(2, (0, 2, -1, 0, -1)))
    assert "even-odd" not in codes(check_sheet(DDV, 5, rows))


def test_pattern_values_that_fit_no_game_of_the_kind():
    rows = replace(ddv_sheet(), 2, normal(2, (3, -1, -1, -1)))  # a solo row noted as normal
    assert codes(check_sheet(DDV, 4, rows)) == {"pattern"}
    rows = replace(ddv_sheet(), 5, SheetRow(5, P, 2, (2, -2, 2, -2)))
    assert "pattern" in codes(check_sheet(DDV, 4, rows))


def test_sitter_nonzero():
    rows = replace(five_table_sheet(), 2, normal(2, (1, -1, 1, 0, -1)))  # 1 deals game 2
    assert "sitter-nonzero" in codes(check_sheet(DDV, 5, rows))


def test_soloist_missing():
    rows = replace(ddv_sheet(), 5, SheetRow(5, P, None, (-2, 6, -2, -2)))
    assert "soloist-missing" in codes(check_sheet(DDV, 4, rows))


def test_pflichtsolo_twice():
    rows = replace(ddv_sheet(), 5, solo(5, P, 1, 2))
    assert "pflichtsolo-twice" in codes(check_sheet(DDV, 4, rows))


def test_lustsolo_before_pflichtsolo():
    rows = replace(ddv_sheet(), 2, solo(2, L, 4, 1))
    assert "lustsolo-before-pflichtsolo" in codes(check_sheet(DDV, 4, rows))
    rows = replace(ddv_sheet(), 2, solo(2, L, 1, 1))  # 1 played his in game 1
    assert "lustsolo-before-pflichtsolo" not in codes(check_sheet(DDV, 4, rows))


def test_hochzeit_solo_is_no_pflichtsolo_and_allowed_any_time():
    rows = replace(ddv_sheet(), 2, solo(2, H, 4, 1))
    assert check_sheet(DDV, 4, rows) == []


def test_vorfuehren_missed_and_done():
    # Only player 1 plays a Pflichtsolo early; 2, 3, 4 owe. 24 - 3 = game 22 must be vorgeführt.
    rows = [solo(1, P, 1, 1)] + [normal(n, (1, -1, 1, -1)) for n in range(2, 22)]
    # Dealers: 1 (P, deals again), 1, 2, 3, ... -> game 22 dealt by (22 - 2) % 4 + 1 = 1.
    missed = [*rows, normal(22, (1, -1, 1, -1)), solo(23, V, 3, 1), solo(24, V, 4, 1)]
    findings = check_sheet(DDV, 4, missed)
    assert [(f.code, f.game, f.params["position"]) for f in findings if f.level == ERROR][0] == (
        "vorfuehren-missed",
        22,
        2,
    )
    done = [*rows, solo(22, V, 2, 1), solo(23, V, 3, 1), solo(24, V, 4, 1)]
    assert check_sheet(DDV, 4, done) == []
    wrong_player = [*rows, solo(22, V, 3, 1), solo(23, V, 2, 1), solo(24, V, 4, 1)]
    assert "vorfuehren-missed" in codes(check_sheet(DDV, 4, wrong_player))


def test_vorfuehren_not_due():
    rows = replace(ddv_sheet(), 5, solo(5, V, 2, 2))
    assert "vorfuehren-not-due" in codes(check_sheet(DDV, 4, rows))


def test_pflichtsolo_missing_at_the_end_of_a_complete_sheet():
    short = [solo(1, P, 1, 1), solo(2, P, 2, 1), solo(3, P, 3, 1)]
    short += [normal(n, (1, -1, 1, -1)) for n in range(4, 11)]
    findings = check_sheet(DDV, 4, short)
    assert [(f.code, f.params.get("position")) for f in findings if f.level == ERROR] == [
        ("pflichtsolo-missing", 4)
    ]
    assert "pflichtsolo-missing" not in codes(check_sheet(DDV, 4, short, complete=False))


def test_time_limit_tail_of_vorgefuehrte_soli_is_accepted():
    rows = [solo(1, P, 1, 1), solo(2, P, 2, 1)] + [normal(n, (1, -1, 1, -1)) for n in range(3, 13)]
    # Time limit after game 12: dealer of game 13 is (13 - 3) % 4 + 1 = 3, 4 owes first.
    rows += [solo(13, V, 4, 1), solo(14, V, 3, 1)]
    assert codes(check_sheet(DDV, 4, rows), ERROR) == set()
    assert codes(check_sheet(DDV, 4, rows), WARNING) == {"too-few-games"}


def test_too_many_and_too_few_games():
    rows = [*ddv_sheet(), normal(25, (1, -1, 1, -1))]
    assert "too-many-games" in codes(check_sheet(DDV, 4, rows), ERROR)
    rows = ddv_sheet()[:23]
    assert codes(check_sheet(DDV, 4, rows)) == {"too-few-games"}
    assert check_sheet(DDV, 4, rows, complete=False) == []


def test_value_implausible_is_a_warning():
    rows = replace(ddv_sheet(), 2, normal(2, (-17, 17, 17, -17)))
    findings = check_sheet(DDV, 4, rows)
    assert [(f.level, f.code) for f in findings] == [(WARNING, "value-implausible")]
    rows = replace(ddv_sheet(), 2, normal(2, (-16, 16, 16, -16)))
    assert check_sheet(DDV, 4, rows) == []


def test_game_numbers_run_1_2_3():
    rows = ddv_sheet()
    rows[3] = normal(7, rows[3].points)
    assert "game-number" in codes(check_sheet(DDV, 4, rows))


def test_soloist_cannot_be_the_sitter():
    rows = replace(five_table_sheet(), 1, solo(1, P, 1, 1, size=5, sitter=None))
    assert "soloist-sits" in codes(check_sheet(DDV, 5, rows))


class TestPenaltyRows:
    def insert(self, rows, after, row):
        index = next(i for i, r in enumerate(rows) if r.game == after) + 1
        return [*rows[:index], row, *rows[index:]]

    @pytest.mark.parametrize(
        "points",
        [(3, 0, 0, -3), (15, 0, 0, -15), (21, 0, 0, -21), (12, 0, 0, -12), (-3, 1, 1, 1)],
    )
    def test_legal_penalty_rows_in_a_solo_are_accepted(self, points):
        rows = self.insert(ddv_sheet(), 1, SheetRow(1, S, 1, points))
        assert check_sheet(DDV, 4, rows) == []

    def test_the_parity_exception_needs_a_solo_in_favour_of_the_soloist(self):
        rows = self.insert(ddv_sheet(), 2, SheetRow(2, S, None, (3, 0, 0, -3)))
        assert "even-odd" in codes(check_sheet(DDV, 4, rows))
        rows = self.insert(ddv_sheet(), 1, SheetRow(1, S, 1, (-3, 0, 0, 3)))
        assert "even-odd" in codes(check_sheet(DDV, 4, rows))
        rows = self.insert(ddv_sheet(), 1, SheetRow(1, S, 1, (5, 0, 0, -5)))
        assert "even-odd" in codes(check_sheet(DDV, 4, rows))

    def test_a_deduction_is_legal_where_the_profile_has_it(self):
        rows = self.insert(ddv_sheet(), 2, SheetRow(2, S, None, (0, 0, -4, 0)))
        assert check_sheet(DDV, 4, rows) == []
        assert "pattern" in codes(check_sheet(BSV_HESSEN_2010, 4, rows))
        rows = self.insert(ddv_sheet(), 2, SheetRow(2, S, None, (0, 0, -14, 0)))
        assert codes(check_sheet(DDV, 4, rows)) == {"pattern"}

    def test_a_penalty_row_that_is_no_distribution(self):
        rows = self.insert(ddv_sheet(), 2, SheetRow(2, S, None, (2, 0, 0, -2)))
        assert codes(check_sheet(DDV, 4, rows)) == {"pattern"}
        rows = self.insert(ddv_sheet(), 2, SheetRow(2, S, None, (2, 1, 1, 1)))
        assert "zero-sum" in codes(check_sheet(DDV, 4, rows))

    def test_the_game_on_the_list_decides_the_soloist(self):
        # Game 1 is P1's Pflichtsolo: a Kontra player's schwerwiegend violation credits only
        # the soloist (9.4.4); before the solo was clear the normal scale applies.
        rows = self.insert(ddv_sheet(), 1, SheetRow(1, S, None, (12, -12, 0, 0)))
        assert check_sheet(DDV, 4, rows) == []
        rows = self.insert(ddv_sheet(), 1, SheetRow(1, S, None, (4, -12, 4, 4)))
        assert check_sheet(DDV, 4, rows) == []
        # Game 2 is a normal game: a solo distribution (b1) does not fit, whatever the row says.
        rows = self.insert(ddv_sheet(), 2, SheetRow(2, S, 1, (3, 0, 0, -3)))
        assert "even-odd" in codes(check_sheet(DDV, 4, rows))

    def test_no_penalty_beyond_a_full_sheet(self):
        rows = [*ddv_sheet(), SheetRow(25, S, None, (4, -12, 4, 4))]
        assert codes(check_sheet(DDV, 4, rows)) == {"penalty-game-unknown"}
        short = [r for r in ddv_sheet() if r.game < 24]
        rows = [*short, SheetRow(24, S, None, (4, -12, 4, 4))]  # in the game being played
        assert "penalty-game-unknown" not in codes(check_sheet(DDV, 4, rows, complete=False))

    def test_a_hochzeit_takes_both_scales(self):
        sheet = ddv_sheet()
        sheet[1] = solo(2, Kind.HOCHZEIT, 2, 1)  # P2's Hochzeit became a solo in game 2
        before = self.insert(sheet, 2, SheetRow(2, S, None, (-12, 4, 4, 4)))
        assert check_sheet(DDV, 4, before) == []
        after = self.insert(sheet, 2, SheetRow(2, S, None, (0, 12, -12, 0)))
        assert check_sheet(DDV, 4, after) == []

    def test_the_sitter_is_never_penalised_or_credited(self):
        sheet = five_table_sheet()  # game 2 is dealt by 1
        ok = self.insert(sheet, 2, SheetRow(2, S, None, (0, 1, -3, 1, 1)))
        assert check_sheet(DDV, 5, ok) == []
        bad = self.insert(sheet, 2, SheetRow(2, S, None, (1, 1, -3, 1, 0)))
        assert "sitter-nonzero" in codes(check_sheet(DDV, 5, bad))


class TestProfilesDiffer:
    def test_games_per_round(self):
        assert "too-many-games" in codes(check_sheet(EPPSTEIN_2001, 4, ddv_sheet()))

    def test_scoring_system(self):
        plus_points = [SheetRow(1, N, None, (2, 2, 0, 0))]
        assert "zero-sum" in codes(check_sheet(DDV, 4, plus_points, complete=False))
        assert check_sheet(EPPSTEIN_2001, 4, plus_points, complete=False) == []
        assert "pattern" in codes(
            check_sheet(EPPSTEIN_2001, 4, [normal(1, (1, -1, 1, -1))], complete=False)
        )

    def test_parity_rule(self):
        odd = [normal(1, (2, -1, 0, -1))]
        assert "even-odd" in codes(check_sheet(BSV_HESSEN_2010, 4, odd, complete=False))
        assert "even-odd" not in codes(check_sheet(EPPSTEIN_2001, 4, odd, complete=False))


def test_cumulative_input_is_differenced_first():
    running = [normal(1, (1, -1, 1, -1)), normal(2, (3, -3, -1, 1))]
    assert [r.points for r in from_cumulative(running)] == [(1, -1, 1, -1), (2, -2, -2, 2)]


def test_a_penalty_for_a_game_that_is_not_on_the_list_is_an_error_not_a_crash():
    rows = [*five_table_sheet()[:3], SheetRow(99, S, None, (-3, 1, 1, 1, 0))]
    findings = check_sheet(DDV, 5, rows, complete=False)
    assert [(f.code, f.game) for f in findings] == [("penalty-game-unknown", 99)]


def test_a_deduction_may_hit_the_sitter():
    rows = [*five_table_sheet()[:1], SheetRow(1, S, None, (-5, 0, 0, 0, 0))]  # 1 deals game 1
    assert check_sheet(DDV, 5, rows, complete=False) == []
