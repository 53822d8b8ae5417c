"""Every finding code of the sheet checks, triggered and not triggered."""

import pytest

from scoring.kinds import Kind
from scoring.penalties import is_deduction, legal_rows, parity_exception
from scoring.profiles import BSV_HESSEN_2010, DDV, EPPSTEIN_2001
from scoring.sheet import (
    ERROR,
    WARNING,
    SheetRow,
    as_played,
    check_sheet,
    from_cumulative,
    to_cumulative,
)

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


def findings_of(findings):
    """(code, parameters) of each finding, without the game number the parameters repeat."""
    return [(f.code, {k: v for k, v in f.params.items() if k != "game"}) for f in findings]


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
        # The row of a solo penalty in a normal game: it fits a solo of position 1.
        rows = self.insert(ddv_sheet(), 2, SheetRow(2, S, None, (3, 0, 0, -3)))
        assert findings_of(check_sheet(DDV, 4, rows)) == [("penalty-fits-solo", {"fits": 1})]
        # Credited to position 4, who does not play the solo of game 1.
        rows = self.insert(ddv_sheet(), 1, SheetRow(1, S, 1, (-3, 0, 0, 3)))
        found = findings_of(check_sheet(DDV, 4, rows))
        assert found == [("penalty-fits-other-soloist", {"fits": 4, "soloist": 1})]
        # An odd amount no rule gives: the even/odd rule applies.
        rows = self.insert(ddv_sheet(), 1, SheetRow(1, S, 1, (5, 0, 0, -5)))
        assert codes(check_sheet(DDV, 4, rows)) == {"penalty-even-odd"}

    def test_a_deduction_is_legal_where_the_profile_has_it(self):
        rows = self.insert(ddv_sheet(), 2, SheetRow(2, S, None, (0, 0, -4, 0)))
        assert check_sheet(DDV, 4, rows) == []
        assert codes(check_sheet(BSV_HESSEN_2010, 4, rows)) == {"penalty-no-deduction"}

    @pytest.mark.parametrize("amount", [13, 14, 30])
    def test_a_deduction_above_12_says_so_not_even_odd(self, amount):
        rows = self.insert(ddv_sheet(), 2, SheetRow(2, S, None, (0, 0, -amount, 0)))
        found = findings_of(check_sheet(DDV, 4, rows))
        assert found == [("penalty-deduction-too-high", {"maximum": 12, "profile": "ddv"})]

    def test_a_penalty_row_that_is_no_distribution(self):
        rows = self.insert(ddv_sheet(), 2, SheetRow(2, S, None, (2, 0, 0, -2)))
        assert codes(check_sheet(DDV, 4, rows)) == {"penalty-pattern"}
        rows = self.insert(ddv_sheet(), 2, SheetRow(2, S, None, (-2, 2, 2, 2)))
        assert findings_of(check_sheet(DDV, 4, rows)) == [("penalty-zero-sum", {"sum": 4})]
        rows = self.insert(ddv_sheet(), 2, SheetRow(2, S, None, (-3, 2, 0, 1)))
        assert codes(check_sheet(DDV, 4, rows)) == {"penalty-even-odd"}

    def test_the_game_on_the_list_decides_the_soloist(self):
        # Game 1 is P1's Pflichtsolo: a Kontra player's schwerwiegend violation credits only
        # the soloist (9.4.4); before the solo was clear the normal scale applies.
        rows = self.insert(ddv_sheet(), 1, SheetRow(1, S, None, (12, -12, 0, 0)))
        assert check_sheet(DDV, 4, rows) == []
        rows = self.insert(ddv_sheet(), 1, SheetRow(1, S, None, (4, -12, 4, 4)))
        assert check_sheet(DDV, 4, rows) == []
        # Game 2 is a normal game: a solo distribution (b1) does not fit, whatever the row says.
        rows = self.insert(ddv_sheet(), 2, SheetRow(2, S, 1, (3, 0, 0, -3)))
        assert findings_of(check_sheet(DDV, 4, rows)) == [("penalty-fits-solo", {"fits": 1})]

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
        # Right for a game dealt by position 5, but position 1 deals game 2.
        moved = self.insert(sheet, 2, SheetRow(2, S, None, (1, 1, -3, 1, 0)))
        found = findings_of(check_sheet(DDV, 5, moved))
        assert found == [("penalty-fits-other-dealer", {"fits": 5, "dealer": 1})]
        bad = self.insert(sheet, 2, SheetRow(2, S, None, (1, 2, -3, 1, -1)))
        assert findings_of(check_sheet(DDV, 5, bad)) == [
            ("penalty-sitter-nonzero", {"position": 1})
        ]


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


def shifted(row, position, amount):
    """``row`` with ``amount`` added to the value of ``position`` (1-based)."""
    points = tuple(v + amount if p == position else v for p, v in enumerate(row.points, 1))
    return SheetRow(row.game, row.kind, row.soloist, points)


class TestRunningTotals:
    """A paper list holds running totals: one total written wrong shows as two rows."""

    def typo(self, games, position, amount):
        sheet = ddv_sheet()
        totals = to_cumulative([r.points for r in sheet])
        running = [
            SheetRow(r.game, r.kind, r.soloist, t) for r, t in zip(sheet, totals, strict=True)
        ]
        for number in games:
            running[number - 1] = shifted(running[number - 1], position, amount)
        return from_cumulative(running)

    def test_one_total_2_too_high_is_named_in_its_cell(self):
        rows = self.typo([10], 2, 2)
        # Read as separate games: errors at games 10 and 11 (the sum of game 11 is -2).
        assert {(f.game, f.code) for f in check_sheet(DDV, 4, rows)} >= {
            (10, "zero-sum"),
            (11, "zero-sum"),
        }
        findings = check_sheet(DDV, 4, rows, running_totals=True)
        assert findings_of(findings) == [
            ("running-total-high", {"position": 2, "amount": 2, "last": 10, "next": 11})
        ]
        assert findings[0].game == 10

    def test_too_low_and_over_several_games(self):
        findings = check_sheet(DDV, 4, self.typo([7, 8, 9], 4, -3), running_totals=True)
        assert findings_of(findings) == [
            ("running-total-low", {"position": 4, "amount": 3, "last": 9, "next": 10})
        ]
        assert findings[0].game == 7

    def test_a_wrong_last_total_stays_an_error_of_its_row(self):
        findings = check_sheet(DDV, 4, self.typo([24], 1, 2), running_totals=True)
        assert findings_of(findings) == [("zero-sum", {"sum": 2})]

    def test_two_wrong_cells_are_not_explained_as_one(self):
        rows = self.typo([10], 2, 2)
        rows[9], rows[10] = shifted(rows[9], 1, 2), shifted(rows[10], 1, -2)
        findings = check_sheet(DDV, 4, rows, running_totals=True)
        assert not any(f.code.startswith("running-total") for f in findings)
        assert {(10, "zero-sum"), (11, "zero-sum")} <= {(f.game, f.code) for f in findings}

    def test_a_penalty_line_among_the_games_is_part_of_the_totals(self):
        # The paper list (or its file) has the referee's S line after game 10 in the totals.
        sheet = ddv_sheet()
        sheet.insert(10, SheetRow(10, S, None, (-3, 1, 1, 1)))
        running = [
            SheetRow(r.game, r.kind, r.soloist, t)
            for r, t in zip(sheet, to_cumulative([r.points for r in sheet]), strict=True)
        ]
        # Written wrong in game 10, right again on the S line: game 11 is the next total.
        wrong = list(running)
        wrong[9] = shifted(running[9], 3, 4)
        findings = check_sheet(DDV, 4, from_cumulative(wrong), running_totals=True)
        assert findings_of(findings) == [
            ("running-total-high", {"position": 3, "amount": 4, "last": 10, "next": 11})
        ]
        # Written wrong in game 10 and on the S line, right again in game 11.
        wrong[10] = shifted(running[10], 3, 4)
        findings = check_sheet(DDV, 4, from_cumulative(wrong), running_totals=True)
        assert findings_of(findings) == [
            ("running-total-high", {"position": 3, "amount": 4, "last": 10, "next": 11})
        ]

    def test_penalties_after_the_last_game_are_not_in_the_totals(self):
        # The desk lists the referees' rows after the games: a wrong last total is not
        # "right again" on a deduction that happens to match it.
        rows = [*self.typo([24], 3, 4), SheetRow(24, S, None, (0, 0, -4, 0))]
        findings = check_sheet(DDV, 4, rows, running_totals=True)
        assert codes(findings) == {"zero-sum"}

    def test_plus_points_lists_are_not_explained(self):
        # Eppstein: no zero sum to tell the amount; the rows keep their own findings.
        running = [SheetRow(1, N, None, (2, 4, 0, 0)), SheetRow(2, N, None, (2, 2, 2, 2))]
        rows = from_cumulative(running)
        findings = check_sheet(EPPSTEIN_2001, 4, rows, complete=False, running_totals=True)
        assert codes(findings) == {"pattern"}


class TestPatternSaysWhatFits:
    def test_a_solo_names_its_soloist(self):
        rows = replace(ddv_sheet(), 1, SheetRow(1, P, 1, (4, -2, 0, -2)))
        [finding] = check_sheet(DDV, 4, rows)
        assert finding.params == {"kind": "P", "shape": "solo", "soloist": 1}

    def test_normal_and_plus_points_shapes(self):
        rows = replace(ddv_sheet(), 2, normal(2, (4, -2, 2, -4)))
        [finding] = check_sheet(DDV, 4, rows)
        assert finding.params == {"kind": "N", "shape": "normal"}
        rows = [solo(1, P, 2, 1)]  # +3/-1 is no plus-points solo
        [finding] = check_sheet(EPPSTEIN_2001, 4, rows, complete=False)
        assert finding.params == {"kind": "P", "shape": "solo-plus-points", "soloist": 2}


class TestPatternSaysWhatTheValuesAre:
    def test_a_normal_game_with_the_values_of_a_solo(self):
        rows = replace(ddv_sheet(), 2, normal(2, (6, -2, -2, -2)))
        [finding] = check_sheet(DDV, 4, rows)
        assert finding.params == {"kind": "N", "shape": "normal", "fits": "solo", "fits_soloist": 1}

    def test_a_solo_with_another_soloists_values(self):
        rows = replace(ddv_sheet(), 1, SheetRow(1, P, 1, (-2, 6, -2, -2)))
        [finding] = [f for f in check_sheet(DDV, 4, rows) if f.code == "pattern"]
        assert finding.params["fits"] == "solo" and finding.params["fits_soloist"] == 2

    def test_a_solo_with_the_values_of_a_normal_game(self):
        rows = replace(ddv_sheet(), 1, SheetRow(1, P, 1, (2, 2, -2, -2)))
        [finding] = [f for f in check_sheet(DDV, 4, rows) if f.code == "pattern"]
        assert finding.params == {"kind": "P", "shape": "solo", "soloist": 1, "fits": "normal"}


def test_the_even_odd_exceptions_are_exactly_the_legal_rows_that_break_it():
    """TSR 7.3.3 (2) and 9.7.2 b: parity_exception is the one list; legal_rows makes no
    other odd/even mixture at a 4-table."""
    for soloist in (None, 1, 2, 3, 4):
        for row in legal_rows(DDV, 4, None, soloist):
            if len({v % 2 for v in row}) > 1:
                assert parity_exception(row, soloist), (row, soloist)
            elif not is_deduction(row):
                assert not parity_exception(row, soloist), (row, soloist)
    breaking = {
        tuple(sorted(row))
        for row in legal_rows(DDV, 4, None, 1)
        if len({v % 2 for v in row}) > 1 and not is_deduction(row)
    }
    assert breaking == {(-3, 0, 0, 3), (-15, 0, 0, 15), (-21, 0, 0, 21)}


# --- what a paper list cannot say (issue 35, TSR 4.2.3, 9.4.4) --------------------------------


def forced_last_pflichtsolo(letter):
    """A ddv 4-table list whose position 4 plays its Pflichtsolo in the last game, where it
    had to be vorgeführt (TSR 4.2.3), written with ``letter``."""
    rows = [solo(n, P, n, 2) for n in (1, 2, 3)]
    rows += [normal(n, (1, -1, 1, -1) if n % 2 else (-2, 2, 2, -2)) for n in range(4, 24)]
    return [*rows, solo(24, Kind(letter), 4, 1)]


def test_a_pflichtsolo_written_where_vorfuehren_was_due_is_read_as_vorgefuehrt():
    written = forced_last_pflichtsolo("P")
    assert "vorfuehren-missed" in codes(check_sheet(DDV, 4, written))
    read = as_played(DDV, 4, written)
    assert read == forced_last_pflichtsolo("V")
    assert check_sheet(DDV, 4, read) == []
    # A Pflichtsolo where nothing was due, or by somebody else than the one due, stays a P.
    assert as_played(DDV, 4, ddv_sheet()) == ddv_sheet()
    wrong = replace(written, 24, solo(24, P, 1, 1))
    assert as_played(DDV, 4, wrong)[-1].kind is P


def test_a_pflichtsolo_after_the_marked_time_limit_is_read_as_vorgefuehrt():
    # Game 1: position 1's Pflichtsolo (1 deals again, TSR 4.2.5); game 3 is dealt by 2, so
    # after the time limit position 3, left of the dealer and owing, is vorgeführt (8.6).
    rows = [solo(1, P, 1, 2), normal(2, (1, -1, 1, -1)), solo(3, P, 3, 1)]
    assert as_played(DDV, 4, rows) == rows  # no time limit: an ordinary Pflichtsolo
    assert as_played(DDV, 4, rows, time_limit_from=3)[2].kind is V
    other = replace(rows, 3, solo(3, P, 4, 1))  # not the one due: left for the checks
    assert as_played(DDV, 4, other, time_limit_from=3)[2].kind is P


@pytest.mark.parametrize(
    ("points", "offender", "amount"),
    [((0, 15, -15, 0), 3, 15), ((-12, 12, 0, 0), 1, 12), ((0, 24, 0, -24), 4, 24)],
)
def test_a_9_4_4_penalty_in_the_solos_own_row_is_named_as_such(points, offender, amount):
    rows = [SheetRow(1, P, 2, points)]
    found = check_sheet(DDV, 4, rows, complete=False)
    assert findings_of(found) == [
        ("solo-penalty-in-row", {"offender": offender, "amount": amount, "soloist": 2})
    ]
    assert "even-odd" not in codes(found) and "pattern" not in codes(found)
    # The same values in a normal game, or the soloist losing them, are no such penalty.
    assert "solo-penalty-in-row" not in codes(check_sheet(DDV, 4, [normal(1, points)]))
    reversed_row = SheetRow(1, P, offender, points)
    assert "solo-penalty-in-row" not in codes(check_sheet(DDV, 4, [reversed_row]))
