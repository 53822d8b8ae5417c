"""Row derivation: what the list keeper taps becomes the row the sheet checks accept."""

import pytest

from scoring.errors import InvalidFacts
from scoring.kinds import Kind
from scoring.profiles import Scoring, get_profile
from scoring.rows import derive_points
from scoring.sheet import SheetRow, check_sheet

PM, PP = Scoring.PLUS_MINUS, Scoring.PLUS_POINTS


@pytest.mark.parametrize(
    ("scoring", "size", "sitter", "kind", "value", "options", "row"),
    [
        (PM, 4, None, Kind.NORMAL, 3, {"winners": [1, 3]}, (3, -3, 3, -3)),
        (PM, 4, None, Kind.NORMAL, 0, {"winners": [2, 4]}, (0, 0, 0, 0)),
        (PM, 5, 2, Kind.NORMAL, 4, {"winners": [1, 5]}, (4, 0, -4, -4, 4)),
        (PM, 4, None, Kind.PFLICHTSOLO, 2, {"soloist": 2, "soloist_won": True}, (-2, 6, -2, -2)),
        (PM, 4, None, Kind.VORGEFUEHRT, 5, {"soloist": 4, "soloist_won": False}, (5, 5, 5, -15)),
        (PM, 5, 3, Kind.LUSTSOLO, 1, {"soloist": 1, "soloist_won": True}, (3, -1, 0, -1, -1)),
        (PM, 4, None, Kind.HOCHZEIT, 4, {"soloist": 3, "soloist_won": False}, (4, 4, -12, 4)),
        (PP, 4, None, Kind.NORMAL, 3, {"winners": [1, 2]}, (3, 3, 0, 0)),
        (PP, 4, None, Kind.PFLICHTSOLO, 2, {"soloist": 1, "soloist_won": True}, (6, 0, 0, 0)),
        (PP, 4, None, Kind.PFLICHTSOLO, 2, {"soloist": 1, "soloist_won": False}, (0, 2, 2, 2)),
    ],
)
def test_each_kind_gives_its_row(scoring, size, sitter, kind, value, options, row):
    assert derive_points(scoring, size, sitter, kind, value, **options) == row


@pytest.mark.parametrize("profile", ["ddv", "bsv-hessen-2010", "eppstein-2001"])
def test_derived_rows_never_break_the_pattern_checks(profile):
    rules = get_profile(profile)
    rows = [
        derive_points(rules.scoring, 4, None, Kind.NORMAL, 2, winners=[1, 2]),
        derive_points(rules.scoring, 4, None, Kind.PFLICHTSOLO, 3, soloist=2, soloist_won=False),
    ]
    sheet = [
        SheetRow(1, Kind.NORMAL, None, rows[0]),
        SheetRow(2, Kind.PFLICHTSOLO, 2, rows[1]),
    ]
    codes = {f.code for f in check_sheet(rules, 4, sheet, complete=False)}
    assert not codes & {"pattern", "zero-sum", "even-odd", "sitter-nonzero"}


@pytest.mark.parametrize(
    ("kind", "sitter", "options", "code"),
    [
        (Kind.NORMAL, None, {"winners": [1]}, "winner-count"),
        (Kind.NORMAL, None, {"winners": [1, 2, 3]}, "winner-count"),
        (Kind.NORMAL, None, {"winners": [1, 7]}, "winner-count"),
        (Kind.NORMAL, 2, {"winners": [1, 2]}, "sitter-chosen"),
        (Kind.PFLICHTSOLO, None, {"soloist_won": True}, "soloist-missing"),
        (Kind.PFLICHTSOLO, 3, {"soloist": 3, "soloist_won": True}, "sitter-chosen"),
        (Kind.LUSTSOLO, None, {"soloist": 1}, "solo-result-missing"),
        (Kind.PENALTY, None, {}, "bad-kind"),
    ],
)
def test_taps_that_describe_no_row_are_refused(kind, sitter, options, code):
    size = 5 if sitter else 4
    with pytest.raises(InvalidFacts) as info:
        derive_points(PM, size, sitter, kind, 2, **options)
    assert info.value.code == code


def test_the_value_is_bounded():
    with pytest.raises(InvalidFacts) as info:
        derive_points(PM, 4, None, Kind.NORMAL, 1000, winners=[1, 2])
    assert info.value.code == "value-out-of-range"
