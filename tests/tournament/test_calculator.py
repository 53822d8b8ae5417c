"""The Spielwert-Rechner page."""

import pytest
from django.urls import reverse

from tests.factories import TournamentFactory

pytestmark = pytest.mark.django_db

EXAMPLE_3 = {
    "profile": "ddv",
    "table_size": "4",
    "dealer": "1",
    "kind": "normal",
    "re": ["1", "3"],
    "re_eyes": "151",
    "announced_re": "on",
    "announced_kontra": "on",
    "absage_kontra": "90",
    "sonderpunkte_re": "0",
    "sonderpunkte_kontra": "0",
}


def test_the_empty_calculator_is_german_and_phone_friendly(client):
    page = client.get(reverse("calculator")).content.decode()
    assert "Spielwert-Rechner" in page and "Augen der Re-Partei" in page
    assert 'inputmode="numeric"' in page and 'name="viewport"' in page


def test_it_shows_winner_value_and_the_row_to_write(client):
    page = client.get(reverse("calculator"), EXAMPLE_3).content.decode()
    assert "Re gewinnt" in page and "Spielwert 8" in page
    cells = page.split('class="table row-to-write"')[1]
    for value in ("+8", "-8"):
        assert value in cells


def test_htmx_gets_only_the_result(client):
    response = client.get(reverse("calculator"), EXAMPLE_3, HTTP_HX_REQUEST="true")
    page = response.content.decode()
    assert "<html" not in page and "Spielwert 8" in page


def test_a_five_table_shows_the_sitter_with_zero(client):
    data = {**EXAMPLE_3, "table_size": "5", "dealer": "2", "re": ["1", "3"]}
    page = client.get(reverse("calculator"), data).content.decode()
    assert 'title="sitzt aus"' in page


def test_an_absage_without_the_own_announcement_counts_it(client):
    # TSR 6.4.3: Kontra's "keine 60" alone stands for "Kontra", keine 90, keine 60.
    data = {**EXAMPLE_3, "announced_re": "", "announced_kontra": ""}
    data.update(re_eyes="100", absage_kontra="60")
    page = client.get(reverse("calculator"), data).content.decode()
    assert "Re gewinnt" in page and "Spielwert 6" in page
    assert "„Kontra“ gilt als angesagt" in page and "„Re“ gilt" not in page
    assert "zählt mit (TSR 6.4.3)" in page
    page = client.get(reverse("calculator"), {**data, "profile": "bsv-hessen-2010"}).content
    assert "zählt mit (BSV 6.5)" in page.decode()


@pytest.mark.parametrize(
    ("profile", "eyes", "other"), [("ddv", "1", 239), ("bsv-hessen-2010", "236", 4)]
)
def test_card_points_the_pack_cannot_give_are_refused(client, profile, eyes, other):
    data = {**EXAMPLE_3, "profile": profile, "re_eyes": eyes}
    page = client.get(reverse("calculator"), data).content.decode()
    assert f"Re kann nicht {eyes} Augen haben (Kontra hätte {other})" in page
    assert "Spielwert 0" not in page and "gewinnt" not in page


def test_impossible_facts_get_a_clear_message(client):
    data = {**EXAMPLE_3, "re_eyes": "400"}
    page = client.get(reverse("calculator"), data).content.decode()
    assert "kleiner oder gleich 240" in page


def test_the_tournament_calculator_uses_the_tournaments_profile(client):
    TournamentFactory(slug="eppstein", rule_profile="eppstein-2001", is_public=True)
    data = {k: v for k, v in EXAMPLE_3.items() if k != "profile"}
    data.update(announced_kontra="", absage_kontra="", re_eyes="130", announced_re="on")
    page = client.get(reverse("tournament-calculator", args=["eppstein"]), data).content.decode()
    # plus points: won 1, doubled by "Re"; losers 0
    row = page.split('class="table row-to-write"')[1]
    assert "+2" in row and "-" not in row.split("<tbody>")[1].split("</tbody>")[0]
    assert 'name="profile"' not in page


def test_private_tournaments_have_no_public_calculator(client):
    TournamentFactory(slug="geheim", is_public=False)
    assert client.get(reverse("tournament-calculator", args=["geheim"])).status_code == 404
