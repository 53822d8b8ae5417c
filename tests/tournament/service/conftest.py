"""Fixtures of the results service's tests (helpers.py has the rest)."""

import pytest

from .helpers import make_hall


@pytest.fixture
def koeln(db):
    return make_hall("DSC Köln", "koeln")


@pytest.fixture
def bonn(db):
    return make_hall("Kreuz Bonn", "bonn")
