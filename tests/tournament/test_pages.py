"""Director pages: tournaments, the entry list, adding, withdrawing and checking in."""

import pytest
from django.urls import reverse

from tests.factories import EntryFactory, PlayerFactory
from tournament.models import Entry, Player, Tournament

pytestmark = pytest.mark.django_db

TOURNAMENT_DATA = {
    "name": "Winterpokal",
    "slug": "winterpokal",
    "date": "2026-12-12",
    "venue": "Vereinsheim",
    "rule_profile": "ddv",
    "custom_base": "",
    "custom_overrides": "{}",
    "planned_rounds": "3",
    "separate_clubs_rounds": "0",
    "status": "planned",
}


def test_a_director_creates_a_tournament_and_directs_it(director_client, director_user):
    response = director_client.post(reverse("manage:tournament-create"), TOURNAMENT_DATA)
    assert response.status_code == 302
    tournament = Tournament.objects.get(slug="winterpokal")
    assert list(tournament.directors.all()) == [director_user]
    assert tournament.profile.games_per_round(4) == 24


def test_a_custom_profile_is_derived_and_stored(director_client):
    data = {
        **TOURNAMENT_DATA,
        "rule_profile": "custom",
        "custom_base": "eppstein-2001",
        "param_games_per_round_4": "20",
    }
    assert director_client.post(reverse("manage:tournament-create"), data).status_code == 302
    profile = Tournament.objects.get(slug="winterpokal").profile
    assert profile.games_per_round(4) == 20 and profile.cards == 48


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"rule_profile": "skat"}, "skat ist keine gültige Auswahl"),
        ({"rule_profile": "custom"}, "Wählen Sie das Regelwerk"),
        (
            {"rule_profile": "custom", "custom_base": "ddv", "param_games_per_round_4": "3"},
            "3 Spiele am 4-er-Tisch lassen keinen Platz für 4",
        ),
        ({"name": "x" * 100_000}, "höchstens 150 Zeichen"),
        ({"date": "35.13.2026"}, "gültiges Datum"),
    ],
)
def test_bad_tournament_input_gets_a_german_message_and_writes_nothing(
    director_client, changes, message
):
    response = director_client.post(
        reverse("manage:tournament-create"), {**TOURNAMENT_DATA, **changes}
    )
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not Tournament.objects.exists()


def test_a_taken_slug_is_refused(director_client, tournament):
    data = {**TOURNAMENT_DATA, "slug": tournament.slug}
    response = director_client.post(reverse("manage:tournament-create"), data)
    assert "schon von einem anderen Turnier verwendet" in response.content.decode()
    assert Tournament.objects.count() == 1


def test_the_entry_list_filters_by_club_and_status(director_client, tournament):
    EntryFactory(tournament=tournament, player=PlayerFactory(last_name="Kasseler", club="Kassel"))
    EntryFactory(tournament=tournament, player=PlayerFactory(last_name="Fuldaer", club="Fulda"))
    EntryFactory(
        tournament=tournament,
        player=PlayerFactory(last_name="Weg", club="Kassel"),
        status="withdrawn",
    )
    url = reverse("manage:entry-list", args=[tournament.slug])
    page = director_client.get(url, {"club": "kassel"}).content.decode()
    assert "Kasseler" in page and "Weg" in page and "Fuldaer" not in page
    page = director_client.get(url, {"club": "kassel", "status": "active"}).content.decode()
    assert "Kasseler" in page and "Weg" not in page


def test_adding_a_player_by_hand(director_client, tournament):
    url = reverse("manage:entry-add", args=[tournament.slug])
    data = {"first_name": "Ayşe", "last_name": "Yılmaz", "club": "Köln"}
    response = director_client.post(url, data, follow=True)
    assert "Ayşe Yılmaz mit Startnummer 1 eingetragen" in response.content.decode()
    response = director_client.post(url, {**data, "first_name": "Zweite", "start_number": "1"})
    assert response.status_code == 400
    assert "Startnummer 1 ist bereits vergeben" in response.content.decode()
    assert tournament.entries.count() == 1


def test_a_100000_character_name_is_refused(director_client, tournament):
    url = reverse("manage:entry-add", args=[tournament.slug])
    response = director_client.post(url, {"last_name": "x" * 100_000})
    assert response.status_code == 400
    assert "höchstens 100 Zeichen" in response.content.decode()
    assert not Player.objects.exists()


def test_names_are_shown_exactly_as_typed_and_never_as_html(director_client, tournament):
    names = ["<script>alert(1)</script>", "O'Neill", "Groß", "Дмитрий", "=1+1"]
    for name in names:
        EntryFactory(tournament=tournament, player=PlayerFactory(last_name=name))
    tournament.is_public = True
    tournament.save()
    for url in (
        reverse("manage:entry-list", args=[tournament.slug]),
        reverse("tournament-public", args=[tournament.slug]),
    ):
        page = director_client.get(url).content.decode()
        assert "<script>alert(1)</script>" not in page
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
        assert "O&#x27;Neill" in page and "Groß" in page and "Дмитрий" in page and "=1+1" in page


def test_withdraw_and_readmit(director_client, tournament):
    entry = EntryFactory(tournament=tournament, start_number=8)
    director_client.post(
        reverse("manage:entry-status", args=[tournament.slug, entry.pk, "withdraw"])
    )
    entry.refresh_from_db()
    assert entry.status == "withdrawn"
    director_client.post(
        reverse("manage:entry-status", args=[tournament.slug, entry.pk, "readmit"])
    )
    entry.refresh_from_db()
    assert entry.status == "active" and entry.start_number == 8


def test_check_in_with_htmx_returns_the_new_cell(director_client, tournament):
    entry = EntryFactory(tournament=tournament)
    url = reverse("manage:entry-checkin", args=[tournament.slug, entry.pk])
    response = director_client.post(url, {"checked_in": "1"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert 'aria-pressed="true"' in response.content.decode()
    assert Entry.objects.get(pk=entry.pk).checked_in
    response = director_client.post(url, {"checked_in": "0"}, HTTP_HX_REQUEST="true")
    assert 'aria-pressed="false"' in response.content.decode()
    assert not Entry.objects.get(pk=entry.pk).checked_in


def test_a_withdrawn_player_cannot_check_in(director_client, tournament):
    entry = EntryFactory(tournament=tournament, status="withdrawn")
    url = reverse("manage:entry-checkin", args=[tournament.slug, entry.pk])
    response = director_client.post(url, {"checked_in": "1"}, HTTP_HX_REQUEST="true")
    assert "Nur aktive Spieler können einchecken" in response.content.decode()
    assert not Entry.objects.get(pk=entry.pk).checked_in


def test_the_entry_list_needs_a_fixed_number_of_queries(
    director_client, tournament, django_assert_max_num_queries
):
    for _ in range(30):
        EntryFactory(tournament=tournament)
    # 13: the results service's status line reads the tournament's publication (whether it
    # was taken off the service) also when publishing is off; 15: the seat wishes' card reads
    # the groups and the players with a wish.
    with django_assert_max_num_queries(15):
        director_client.get(reverse("manage:entry-list", args=[tournament.slug]))
