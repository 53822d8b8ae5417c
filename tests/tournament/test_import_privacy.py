"""The import preview matches against the shared player database but shows a director only
what they need: that a line is a known player, never another tournament's data (name, club,
the holder of a DDV number); and a file is limited in size."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.factories import EntryFactory, PlayerFactory, TournamentFactory, director
from tournament.domain.entries import register
from tournament.domain.player_import import (
    MAX_IMPORT_LINES,
    ImportFileError,
    parse_player_file,
)
from tournament.errors import DomainError
from tournament.models import Player
from tournament.queries.players import PlayerData
from tournament.views.imports import SESSION_KEY

pytestmark = pytest.mark.django_db


@pytest.fixture
def stranger():
    """A player of somebody else's tournament."""
    other = TournamentFactory(slug="fremd", directors=[director(username="fremd")])
    player = PlayerFactory(
        first_name="Jürgen", last_name="Müller", club="Doko-Freunde Kassel", ddv_number="10231"
    )
    EntryFactory(tournament=other, player=player, start_number=1)
    return player


def upload(client, tournament, text):
    url = reverse("manage:import", args=[tournament.slug])
    return client.post(url, {"file": SimpleUploadedFile("liste.csv", text.encode())})


def test_a_made_up_ddv_number_does_not_reveal_its_holder(director_client, tournament, stranger):
    response = upload(director_client, tournament, "Vorname;Nachname;DDV-Nr.\nHans;Probe;10231\n")
    html = response.content.decode()
    assert "DDV-Mitgliedsnummer 10231 gehört zu einem Spieler mit anderem Namen" in html
    assert "Müller" not in html and "Jürgen" not in html and "Kassel" not in html
    assert SESSION_KEY not in director_client.session


def test_registering_by_hand_does_not_reveal_the_holder_either(tournament, stranger):
    with pytest.raises(DomainError) as error:
        register(tournament, PlayerData("Hans", "Probe", "", "10231"))
    assert "Müller" not in error.value.message and "10231" in error.value.message


def test_a_name_of_another_tournament_is_a_new_player_not_a_link(
    director_client, tournament, stranger
):
    """Linking would show the stranger's stored club (and keep their DDV number) in the entry
    list one step later: a name alone links only players of the director's own tournaments."""
    response = upload(director_client, tournament, "Vorname;Nachname\nJürgen;Müller\n")
    html = response.content.decode()
    assert "bekannter Spieler" not in html and "1 neuer Spieler" in html  # issue 35: plural
    assert "Kassel" not in html and "10231" not in html
    assert director_client.session[SESSION_KEY]["rows"][0]["player_id"] is None
    response = director_client.post(
        reverse("manage:import-confirm", args=[tournament.slug]),
        {"token": response.context["token"]},
    )
    assert response.status_code == 302
    added = tournament.entries.get().player
    assert added != stranger and (added.club, added.ddv_number) == ("", "")
    html = director_client.get(reverse("manage:entry-list", args=[tournament.slug])).content
    assert "Kassel" not in html.decode() and "10231" not in html.decode()
    stranger.refresh_from_db()
    assert stranger.club == "Doko-Freunde Kassel"  # the other tournament's data is untouched


def test_adding_a_name_of_another_tournament_by_hand_makes_a_new_player(
    director_client, tournament, stranger
):
    url = reverse("manage:entry-add", args=[tournament.slug])
    fields = {"first_name": "Jürgen", "last_name": "Müller", "club": "", "ddv_number": ""}
    response = director_client.post(url, {**fields, "start_number": "", "team": ""}, follow=True)
    assert response.status_code == 200
    assert "Kassel" not in response.content.decode()
    assert tournament.entries.get().player != stranger
    assert Player.objects.count() == 2


def test_a_ddv_number_with_its_name_links_the_stored_player(director_client, tournament, stranger):
    """Whoever gives a member number together with its holder's name knows the person."""
    response = upload(
        director_client, tournament, "Vorname;Nachname;DDV-Nr.\njürgen;MÜLLER;10231\n"
    )
    html = response.content.decode()
    assert "bekannter Spieler (wird verknüpft)" in html and "Kassel" not in html
    director_client.post(
        reverse("manage:import-confirm", args=[tournament.slug]),
        {"token": response.context["token"]},
    )
    assert tournament.entries.get().player == stranger
    assert Player.objects.count() == 1


def test_a_player_of_another_directors_tournament_is_linked_for_a_director_of_both(
    tournament, director_user, stranger
):
    stranger.entries.get().tournament.directors.add(director_user)
    entry = register(tournament, PlayerData("Jürgen", "Müller"), director=director_user)
    assert entry.player == stranger
    other = TournamentFactory(slug="dritt")
    assert register(other, PlayerData("Jürgen", "Müller")).player != stranger  # no director


def test_a_player_of_the_directors_own_tournaments_is_shown(
    director_client, director_user, tournament
):
    earlier = TournamentFactory(slug="frueher", directors=[director_user])
    known = PlayerFactory(first_name="Anna", last_name="Schäfer", club="Herz Dame Fulda")
    EntryFactory(tournament=earlier, player=known, start_number=1)
    html = upload(director_client, tournament, "Vorname;Nachname\nAnna;Schäfer\n").content.decode()
    assert "bekannter Spieler (wird verknüpft)</span> Anna Schäfer (Herz Dame Fulda)" in html


def test_a_file_with_more_lines_than_the_limit_is_refused_before_matching(
    director_client, tournament
):
    lines = [f"Name{n};Club" for n in range(MAX_IMPORT_LINES + 1)]
    content = ("Nachname;Verein\n" + "\n".join(lines) + "\n").encode()
    limit = f"höchstens {MAX_IMPORT_LINES}"
    with CaptureQueriesContext(connection) as queries, pytest.raises(ImportFileError, match=limit):
        parse_player_file(tournament, "liste.csv", content)
    assert not any("tournament_player" in q["sql"] for q in queries.captured_queries)
    response = upload(director_client, tournament, content.decode())
    assert response.status_code == 400
    assert f"höchstens {MAX_IMPORT_LINES}" in response.content.decode()
    assert SESSION_KEY not in director_client.session
    assert Player.objects.count() == 0
    # One line fewer is a valid preview.
    assert len(parse_player_file(tournament, "l.csv", content.rsplit(b"\n", 2)[0]).rows) == 1000


def test_the_preview_names_the_pseudonym_readably(director_client, tournament):
    """“Player <start number>” went out as markup: the browser swallowed the part in angle
    brackets and the director read „Spieler “."""
    html = upload(director_client, tournament, "Vorname;Nachname\nAnna;Neu\n").content.decode()
    assert "„Spieler &lt;Startnummer&gt;“" in html
