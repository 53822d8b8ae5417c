"""Properties of the sheet checks over whole generated Spiellisten."""

import dataclasses
from itertools import accumulate

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from scoring.kinds import Kind
from scoring.penalties import is_deduction
from scoring.profiles import BSV_HESSEN_2010, DDV, EPPSTEIN_2001
from scoring.sheet import SheetRow, check_sheet, from_cumulative, has_errors

from .strategies import valid_sheets

PROFILES = [DDV, BSV_HESSEN_2010, EPPSTEIN_2001]
PLUS_MINUS = [DDV, BSV_HESSEN_2010]
SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def cumulative(rows):
    running = list(
        accumulate((r.points for r in rows), lambda a, b: tuple(map(sum, zip(a, b, strict=False))))
    )
    return [dataclasses.replace(r, points=t) for r, t in zip(rows, running, strict=True)]


def with_cell(rows, index, position, delta):
    """``rows`` with ``delta`` added to one cell (0-based row and position)."""
    points = tuple(v + delta if p == position else v for p, v in enumerate(rows[index].points))
    return [*rows[:index], dataclasses.replace(rows[index], points=points), *rows[index + 1 :]]


@pytest.mark.parametrize("table_size", [4, 5])
@pytest.mark.parametrize("profile", PROFILES, ids=lambda p: p.key)
@SETTINGS
@given(data=st.data())
def test_every_sheet_of_valid_games_passes_all_checks(profile, table_size, data):
    rows = data.draw(valid_sheets(profile, table_size))
    findings = check_sheet(profile, table_size, rows)
    assert not has_errors(findings), findings


@pytest.mark.parametrize("table_size", [4, 5])
@pytest.mark.parametrize("profile", PLUS_MINUS, ids=lambda p: p.key)
@SETTINGS
@given(data=st.data())
def test_every_single_cell_change_is_caught(profile, table_size, data):
    rows = data.draw(valid_sheets(profile, table_size))
    index = data.draw(st.integers(0, len(rows) - 1))
    position = data.draw(st.integers(0, table_size - 1))
    delta = data.draw(st.integers(-40, 40).filter(bool))
    changed = with_cell(rows, index, position, delta)
    # One cell can turn a penalty distribution into a point deduction of one player (TSR
    # 9.7.2 b), itself a valid row: (0, -3, 0, 0, 3) -> (0, -3, 0, 0, 0).
    assume(not (rows[index].kind is Kind.PENALTY and is_deduction(changed[index].points)))
    assert has_errors(check_sheet(profile, table_size, changed))


@pytest.mark.parametrize("table_size", [4, 5])
@pytest.mark.parametrize("profile", PLUS_MINUS, ids=lambda p: p.key)
@SETTINGS
@given(data=st.data())
def test_a_single_wrong_running_total_is_named_in_its_cell(profile, table_size, data):
    rows = data.draw(valid_sheets(profile, table_size))
    # A game before the last one: a total written wrong there is right again in the next line
    # (a game, or a referee's S line, which the paper list carries in its totals too).
    last_game = max(i for i, r in enumerate(rows) if r.kind.is_game)
    index = data.draw(st.sampled_from([i for i in range(last_game) if rows[i].kind.is_game]))
    position = data.draw(st.integers(0, table_size - 1))
    delta = data.draw(st.integers(-40, 40).filter(bool))
    running = with_cell(cumulative(rows), index, position, delta)
    findings = check_sheet(profile, table_size, from_cumulative(running), running_totals=True)
    assert has_errors(findings)
    located = [f for f in findings if f.code.startswith("running-total")]
    # The cells whose correction makes the whole sheet right (the typo's cell among them).
    explains = [
        column
        for column in range(table_size)
        if not has_errors(
            check_sheet(
                profile, table_size, from_cumulative(with_cell(running, index, column, -delta))
            )
        )
    ]
    assert position in explains
    next_game = next(r.game for r in rows[index + 1 :] if r.kind.is_game)
    if explains == [position]:
        assert [
            (f.game, f.params["position"], f.params["amount"], f.params["next"]) for f in located
        ] == [(rows[index].game, position + 1, abs(delta), next_game)]
    else:  # two cells would explain it (rare): the two rows keep their own findings
        assert located == []


@pytest.mark.parametrize("table_size", [4, 5])
@pytest.mark.parametrize("profile", PROFILES, ids=lambda p: p.key)
@SETTINGS
@given(data=st.data())
def test_cumulative_and_per_game_input_give_the_same_findings(profile, table_size, data):
    rows = data.draw(valid_sheets(profile, table_size))
    # Damage one cell so that there is something to find (sometimes).
    if data.draw(st.booleans()):
        index = data.draw(st.integers(0, len(rows) - 1))
        points = list(rows[index].points)
        points[0] += data.draw(st.integers(-5, 5))
        rows[index] = dataclasses.replace(rows[index], points=tuple(points))
    per_game = check_sheet(profile, table_size, rows)
    assert check_sheet(profile, table_size, from_cumulative(cumulative(rows))) == per_game


def test_from_cumulative_differences_running_totals():
    rows = [SheetRow(1, "N", None, (1, -1, 1, -1)), SheetRow(2, "N", None, (4, -4, -2, 2))]
    assert [r.points for r in from_cumulative(rows)] == [(1, -1, 1, -1), (3, -3, -3, 3)]
