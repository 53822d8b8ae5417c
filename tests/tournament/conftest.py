"""Fixtures shared by the series tests (test_series.py, test_series_pages.py)."""

import datetime

import pytest

from tests.factories import PlayerFactory, played_tournament
from tournament.models import RoundStatus


@pytest.fixture
def series_people():
    """Players A to E."""
    return {name: PlayerFactory(first_name=name, last_name=f"Spieler {name}") for name in "ABCDE"}


@pytest.fixture
def series_field(series_people):
    """The three tournaments described in test_series.py; and T2's entries by player id."""
    A, B, C, D, E = (series_people[n] for n in "ABCDE")
    t1, _ = played_tournament(
        datetime.date(2026, 1, 10), 2, [{A: 6, B: 2, C: -2, D: -6}, {A: -3, B: 3, C: 1, D: -1}]
    )
    t2, e2 = played_tournament(
        datetime.date(2026, 3, 14), 2, [{A: 4, B: -4, C: 2, E: -2}, {A: 1, B: -1, C: 2, E: -2}]
    )
    t3, _ = played_tournament(
        datetime.date(2026, 5, 9),
        3,
        [{A: -2, B: 2, D: 4, E: -4}, {A: 10, B: -10, D: 0, E: 0}],
        status_of={2: RoundStatus.RELEASED},
    )
    return [t1, t2, t3], e2
