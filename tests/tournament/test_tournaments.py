"""The tournament form (short name from the name, the parameters of a custom profile) and the
tournament's status on every page that shows it (issue 15, points 9 and 10)."""

import re

import pytest
from django.urls import reverse

from tests.factories import TournamentFactory, released_table
from tournament.forms.tournaments import TournamentForm, slug_from_name
from tournament.models import RoundStatus, Tournament

pytestmark = pytest.mark.django_db

NEW = reverse("manage:tournament-create")
BASICS = {
    "name": "Herbstturnier Köln 2026",
    "slug": "",
    "date": "2026-11-21",
    "venue": "Bürgerhaus",
    "planned_rounds": "3",
    "separate_clubs_rounds": "0",
    "tiebreak": "shared",
    "projector_seconds": "12",
    "rule_profile": "ddv",
}


def as_browser_sends(form, **changes):
    """What a browser posts for ``form`` as shown (every field, boxes only when ticked),
    the basics typed in for a new tournament, with ``changes`` applied."""
    data = {}
    for field in form:
        value = field.value()
        widget = field.field.widget
        if getattr(widget, "allow_multiple_selected", False):
            data[field.html_name] = [str(v) for v in value or []]
        elif getattr(widget, "input_type", "") == "checkbox":  # a Textarea has none
            if value:
                data[field.html_name] = "on"
        elif value is not None:
            data[field.html_name] = str(value)
    if form.instance.pk is None:  # a new tournament: name, date, ... as typed
        data.update(BASICS)
    for name, value in changes.items():
        if value is None:
            data.pop(name, None)
        else:
            data[name] = value
    return data


# --- the short name (point 10) -------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "slug"),
    [
        ("Herbstturnier Köln 2026", "herbstturnier-koeln-2026"),
        ("Großer Preis von Gießen", "grosser-preis-von-giessen"),
        ("  Über-Cup / Ärger & Öl  ", "ueber-cup-aerger-oel"),
        ("Café René", "cafe-rene"),
        ("???", "turnier"),
        ("Doppelkopf " * 10, "doppelkopf-doppelkopf-doppelkopf-doppelkopf-doppelkopf"),
    ],
)
def test_the_short_name_is_made_from_the_name(name, slug):
    assert slug_from_name(name) == slug


def test_a_short_name_left_empty_is_made_unique_from_the_name(director_client):
    response = director_client.post(NEW, BASICS)
    assert response.status_code == 302
    assert Tournament.objects.get().slug == "herbstturnier-koeln-2026"
    assert director_client.post(NEW, BASICS).status_code == 302
    assert director_client.post(NEW, {**BASICS, "name": "Herbstturnier Koeln 2026"}).status_code
    slugs = sorted(Tournament.objects.values_list("slug", flat=True))
    assert slugs == [
        "herbstturnier-koeln-2026",
        "herbstturnier-koeln-2026-2",
        "herbstturnier-koeln-2026-3",
    ]
    # A page's address is never a tournament's.
    assert director_client.post(NEW, {**BASICS, "name": "New"}).status_code == 302
    assert Tournament.objects.filter(slug="new-2").exists()


def test_a_taken_short_name_is_refused_with_a_free_one_named(director_client):
    TournamentFactory(slug="herbst")
    TournamentFactory(slug="herbst-2")
    response = director_client.post(NEW, {**BASICS, "slug": "herbst"})
    assert response.status_code == 200
    page = response.content.decode()
    assert (
        "Der Kurzname „herbst“ wird schon von einem anderen Turnier verwendet; wählen Sie einen "
        "anderen, z. B. „herbst-3“." in page
    )
    assert Tournament.objects.count() == 2


def test_the_short_name_the_page_filled_in_is_made_unique_rather_than_refused(director_client):
    """The page's script writes the name's short name into the field; when another tournament
    has it, the director did not choose it: the site makes it unique as for an empty field."""
    TournamentFactory(slug="herbstturnier-koeln-2026")
    response = director_client.post(NEW, {**BASICS, "slug": "herbstturnier-koeln-2026"})
    assert response.status_code == 302
    assert Tournament.objects.filter(slug="herbstturnier-koeln-2026-2").exists()


def test_editing_keeps_the_short_name_and_the_page_does_not_fill_it(director_client, director_user):
    tournament = TournamentFactory(slug="alt", directors=[director_user])
    url = reverse("manage:tournament-edit", args=["alt"])
    page = director_client.get(url).content.decode()
    assert 'data-slug-fixed="1"' in page
    form = TournamentForm(instance=tournament)
    response = director_client.post(url, as_browser_sends(form, name="Neuer Name", slug="alt"))
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.slug == "alt" and tournament.name == "Neuer Name"


# --- the parameters of a custom profile (point 10) -----------------------------------------


def field_values(page: str) -> dict[str, str]:
    """name -> value of the number inputs and selected options of the form on ``page``."""
    values = dict(re.findall(r'<input type="number" name="(param_\w+)" value="([^"]*)"', page))
    for name, options in re.findall(r'<select name="(param_\w+)"[^>]*>(.*?)</select>', page, re.S):
        chosen = re.search(r'<option value="([^"]*)" selected>', options)
        values[name] = chosen.group(1) if chosen else ""
    return values


def test_the_parameters_are_fields_shown_only_for_a_custom_profile(director_client):
    page = director_client.get(NEW).content.decode()
    assert 'id="custom-profile"' in page and "tournament_form.js" in page
    assert 'data-custom-value="custom"' in page
    # One labelled field per parameter, filled with the values of the base profile (DDV).
    for label in ("Spiele je Runde am Vierertisch", "Spielzeit am Fünfertisch (Minuten)",
                  "Sanktionen bei unsportlichem Verhalten", "höchster Punktabzug"):  # fmt: skip
        assert label.lower() in page.lower()
    values = field_values(page)
    assert values["param_games_per_round_4"] == "24"
    assert values["param_playing_minutes_5"] == "125"
    assert values["param_scoring"] == "plus-minus"
    assert "custom_overrides" not in page  # no JSON to type


def test_a_custom_profile_stores_only_what_differs_and_shows_it_again(
    director_client, director_user
):
    form = TournamentForm()
    data = as_browser_sends(
        form,
        rule_profile="custom",
        custom_base="ddv",
        param_games_per_round_4="20",
        param_max_deduction="6",
        param_even_odd_rule_4=None,  # unticked
    )
    assert director_client.post(NEW, data).status_code == 302
    tournament = Tournament.objects.get()
    assert tournament.custom_overrides == {
        "games_per_round_4": 20,
        "max_deduction": 6,
        "even_odd_rule_4": False,
    }
    profile = tournament.profile
    assert profile.games_per_round(4) == 20 and profile.games_per_round(5) == 30
    tournament.directors.add(director_user)
    page = director_client.get(reverse("manage:tournament-edit", args=[tournament.slug]))
    values = field_values(page.content.decode())
    assert values["param_games_per_round_4"] == "20" and values["param_max_deduction"] == "6"
    assert values["param_games_per_round_5"] == "30"
    # Saving the page as it is changes nothing.
    again = as_browser_sends(page.context["form"])
    assert director_client.post(page.request["PATH_INFO"], again).status_code == 302
    tournament.refresh_from_db()
    assert tournament.custom_overrides == {
        "games_per_round_4": 20,
        "max_deduction": 6,
        "even_odd_rule_4": False,
    }


def test_a_base_changed_without_the_script_keeps_only_the_directors_changes(director_client):
    form = TournamentForm()  # filled from DDV (shown_base "ddv")
    data = as_browser_sends(
        form, rule_profile="custom", custom_base="eppstein-2001", param_games_per_round_4="12"
    )
    assert director_client.post(NEW, data).status_code == 302
    tournament = Tournament.objects.get()
    assert tournament.custom_overrides == {"games_per_round_4": 12}
    profile = tournament.profile
    assert profile.scoring == "plus-points" and profile.games_per_round(5) == 20


def test_another_profile_ignores_and_clears_the_parameter_fields(director_client, director_user):
    form = TournamentForm()
    data = as_browser_sends(form, rule_profile="ddv", param_games_per_round_4="abc")
    assert director_client.post(NEW, data).status_code == 302
    tournament = Tournament.objects.get()
    assert tournament.custom_base == "" and tournament.custom_overrides == {}
    tournament.rule_profile, tournament.custom_base = "custom", "ddv"
    tournament.custom_overrides = {"games_per_round_4": 20}
    tournament.save()
    tournament.directors.add(director_user)
    url = reverse("manage:tournament-edit", args=[tournament.slug])
    edit = as_browser_sends(TournamentForm(instance=tournament), rule_profile="eppstein-2001")
    assert director_client.post(url, edit).status_code == 302
    tournament.refresh_from_db()
    assert tournament.rule_profile == "eppstein-2001"
    assert tournament.custom_base == "" and tournament.custom_overrides == {}


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        ({"param_games_per_round_4": "0"}, "param_games_per_round_4", "größer oder gleich 1"),
        ({"param_games_per_round_4": "3"}, "param_pflichtsoli_per_round",
         "3 Spiele am 4-er-Tisch lassen keinen Platz für 4 Pflichtsoli."),
        ({"param_max_deduction": "0"}, "param_max_deduction",
         "Ein Punktabzug braucht einen Höchstabzug von mindestens 1."),
        ({"param_scoring": "skat"}, "param_scoring", "keine gültige Auswahl"),
    ],
)  # fmt: skip
def test_an_impossible_parameter_is_named_at_its_field_and_nothing_is_saved(
    director_client, changes, field, message
):
    data = as_browser_sends(TournamentForm(), rule_profile="custom", custom_base="ddv", **changes)
    response = director_client.post(NEW, data)
    assert response.status_code == 200
    assert any(message in error for error in response.context["form"].errors[field])
    assert message in response.content.decode()
    assert not Tournament.objects.exists()


# --- the status on every page (point 9) ----------------------------------------------------


def test_every_page_shows_the_status_the_rounds_give(client, director_client, tournament):
    tournament.is_public = True
    tournament.planned_rounds = 1
    tournament.save()
    pages = [
        reverse("home"),
        reverse("manage:tournament-list"),
        reverse("manage:entry-list", args=["herbst"]),
    ]

    def shown():
        return [
            re.findall(r"\b(geplant|läuft|beendet)\b", director_client.get(url).content.decode())
            for url in pages
        ]

    assert all("geplant" in words and "läuft" not in words for words in shown())
    table = released_table(tournament)  # round 1 released: the tournament runs
    assert all("läuft" in words and "geplant" not in words for words in shown())
    table.round.status = RoundStatus.CLOSED
    table.round.save()
    assert all("beendet" in words and "läuft" not in words for words in shown())


def test_a_refused_change_leaves_the_page_and_the_tournament_as_saved(director_client, tournament):
    url = reverse("manage:tournament-edit", args=["herbst"])
    response = director_client.post(url, {"name": "", "slug": ""})
    assert response.status_code == 200
    page = response.content.decode()
    assert "Herbstturnier: Einstellungen" in page and 'href="/manage/herbst/"' in page
    tournament.refresh_from_db()
    assert tournament.name == "Herbstturnier" and tournament.slug == "herbst"
    # A new short name: saved, and the director lands at the new address.
    data = as_browser_sends(TournamentForm(instance=tournament), slug="herbst-2026")
    response = director_client.post(url, data)
    assert response.status_code == 302 and response["Location"] == "/manage/herbst-2026/"
