"""The director's tab bar marks the tab of the page one is on (also on its sub-pages)."""

import re

import pytest
from django.urls import reverse

from tests.factories import RoundFactory

pytestmark = pytest.mark.django_db

CURRENT = re.compile(r'<a href="[^"]*" (?:id="[^"]*" )?aria-current="page">([^<]*)<')


@pytest.mark.parametrize(
    ("name", "tab"),
    [
        ("manage:entry-list", "Spieler"),
        ("manage:player-merge", "Spieler"),
        ("manage:registration-list", "Anmeldungen"),
        ("manage:round-list", "Runden"),
        ("manage:standings", "Rangliste"),
        ("manage:penalty-list", "Alle Strafen"),
        ("manage:referees", "Schiedsrichter-Zugänge"),
        ("manage:tournament-edit", "Einstellungen"),
        ("manage:prizes", "Preise"),
    ],
)
def test_the_tab_of_the_page_is_marked_and_only_that_one(director_client, tournament, name, tab):
    page = director_client.get(reverse(name, args=[tournament.slug])).content.decode()
    assert CURRENT.findall(page) == [tab]


def test_a_round_page_marks_the_rounds_tab(director_client, tournament):
    round_ = RoundFactory(tournament=tournament)
    url = reverse("manage:round-detail", args=[tournament.slug, round_.number])
    page = director_client.get(url).content.decode()
    assert CURRENT.findall(page) == ["Runden"]
