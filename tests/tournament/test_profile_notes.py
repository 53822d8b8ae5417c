"""What a rule profile takes from elsewhere than its own text, on the referee's penalty page
and the director's settings page; the Eppstein announcement rule on the calculator."""

import pytest
from django.urls import reverse

from scoring.penalties import Category
from scoring.profiles import BSV_HESSEN_2010, DDV, derive
from tests.factories import TournamentFactory, referee, released_table
from tournament.wording.profile_notes import penalty_notes, profile_notes

pytestmark = pytest.mark.django_db

GERINGFUEGIG_DE = (
    "Geringfügige Regelverstöße: Punkte aus den DDV-Regeln übernommen (TSR 9.3). Der Text des "
    "BSV Hessen 2010 nennt solche Regelverstöße, sieht dafür aber keine Strafpunkte vor."
)
SCHWERWIEGEND_DE = "Schwerwiegende Regelverstöße: Punkte aus den DDV-Regeln übernommen (TSR 9.4)."
VORFUEHREN_DE = "regelt kein Regeltext"
EPPSTEIN_HINT_DE = "gilt zusätzlich die nächste Stufe als abgesagt"


def test_penalty_notes_are_those_of_the_profile_and_the_category():
    assert [n.categories for n in penalty_notes(BSV_HESSEN_2010)] == [
        ("geringfuegig",),
        ("schwerwiegend",),
    ]
    assert penalty_notes(DDV) == []
    assert len(penalty_notes(BSV_HESSEN_2010, Category.SCHWERWIEGEND)) == 1
    assert penalty_notes(BSV_HESSEN_2010, Category.DECIDED_GAME) == []  # BSV 9.4: no penalty
    # A custom BSV profile that adds a penalty to the abort gives it the borrowed amounts.
    custom = derive("bsv-hessen-2010", {"decided_game_extra_penalty": True})
    assert len(penalty_notes(custom, Category.DECIDED_GAME)) == 1
    assert len(profile_notes(BSV_HESSEN_2010)) == 4 and len(profile_notes(DDV)) == 1


def penalty_page(client, rule_profile, **data):
    tournament = TournamentFactory(rule_profile=rule_profile)
    table = released_table(tournament)
    official = referee(username=f"schiri-{rule_profile}")
    tournament.referees.add(official)
    client.force_login(official)
    url = reverse("manage:penalty-add", args=[tournament.slug, 1, table.number])
    if data:
        return client.post(url, data).content.decode()
    return client.get(url).content.decode()


def test_the_referee_sees_on_a_bsv_tournament_where_the_points_come_from(client):
    page = penalty_page(client, "bsv-hessen-2010")
    assert GERINGFUEGIG_DE in page and SCHWERWIEGEND_DE in page
    assert 'data-categories="geringfuegig"' in page  # penalty.js shows it with its category


def test_a_ddv_tournament_has_its_points_from_its_own_text(client):
    page = penalty_page(client, "ddv")
    assert "DDV-Regeln übernommen" not in page and "profile-note" not in page


def test_the_preview_names_the_source_of_the_row_it_shows(client):
    facts = {
        "game_number": "1",
        "offender": "2",
        "category": "geringfuegig",
        "context": "normal",
        "absagen": "0",
        "action": "preview",
    }
    page = penalty_page(client, "bsv-hessen-2010", **facts)
    preview = page.split('id="preview"')[1].split("</section>")[0]
    assert GERINGFUEGIG_DE in preview
    assert SCHWERWIEGEND_DE not in page  # not about this row, and the form's notes give way


def test_the_director_sees_the_notes_of_the_chosen_profile(director_client, director_user):
    bsv = TournamentFactory(rule_profile="bsv-hessen-2010", directors=[director_user])
    page = director_client.get(reverse("manage:tournament-edit", args=[bsv.slug])).content
    page = page.decode()
    shown = page.split('data-notes-for="bsv-hessen-2010">')[1].split("</div>")[0]
    assert GERINGFUEGIG_DE in shown and VORFUEHREN_DE in shown
    assert 'data-notes-for="ddv" hidden' in page  # tournament_form.js switches with the choice
    custom = TournamentFactory(
        rule_profile="custom", custom_base="eppstein-2001", directors=[director_user]
    )
    page = director_client.get(reverse("manage:tournament-edit", args=[custom.slug])).content
    assert 'data-notes-for="eppstein-2001">' in page.decode()


@pytest.mark.parametrize(
    ("rule_profile", "custom_base", "shown"),
    [
        ("eppstein-2001", "", True),
        ("custom", "eppstein-2001", True),
        ("ddv", "", False),
        ("bsv-hessen-2010", "", False),
        ("custom", "ddv", False),
    ],
)
def test_the_calculator_explains_the_eppstein_announcement_rule(
    client, rule_profile, custom_base, shown
):
    tournament = TournamentFactory(
        rule_profile=rule_profile, custom_base=custom_base, is_public=True
    )
    page = client.get(reverse("tournament-calculator", args=[tournament.slug])).content.decode()
    assert (EPPSTEIN_HINT_DE in page) is shown
    assert ("„Re“ ankreuzen und als Absage „keine 90“ wählen" in page) is shown


def test_the_public_calculator_has_the_hint_for_when_eppstein_is_chosen(client):
    """Without a tournament the profile is chosen on the page: the hint is there, and
    site.css shows it only while Eppstein is selected (also before any request is sent)."""
    page = client.get(reverse("calculator")).content.decode()
    assert EPPSTEIN_HINT_DE in page
    assert 'id="calculator-rule-hint" data-profile="eppstein-2001"' in page
    ddv = TournamentFactory(rule_profile="ddv", is_public=True)
    url = reverse("tournament-calculator", args=[ddv.slug])
    assert 'id="calculator-rule-hint"' not in client.get(url).content.decode()
