"""The projector view: its secret and public links, its data (seating by name, table states,
standings, clock) in a fixed number of queries, the interval setting and the director's page."""

import json

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.busy_hall import build_hall
from tests.factories import TournamentFactory, released_table
from tournament.models import Player, Tournament
from tournament.models.names import sort_key
from tournament.queries import projector

pytestmark = pytest.mark.django_db


def screen_url(tournament):
    return reverse("projector", args=[tournament.projector_token])


def data_url(tournament):
    return reverse("projector-data", args=[tournament.projector_token])


def test_it_opens_by_its_secret_link_also_when_the_tournament_is_not_public(client):
    tournament = TournamentFactory(name="Geheimturnier", is_public=False)
    released_table(tournament)
    page = client.get(screen_url(tournament))
    assert page.status_code == 200
    html = page.content.decode()
    assert "Geheimturnier" in html and 'id="projector-data"' in html
    assert "noindex" in page["X-Robots-Tag"]
    assert client.get(data_url(tournament)).status_code == 200


def test_it_is_a_404_for_a_wrong_or_renewed_token(client, director_client, tournament):
    assert client.get(reverse("projector", args=["x" * 24])).status_code == 404
    assert client.get(reverse("projector-data", args=["x" * 24])).status_code == 404
    old = tournament.projector_token
    response = director_client.post(reverse("manage:projector-renew", args=[tournament.slug]))
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.projector_token != old and len(tournament.projector_token) == 24
    assert client.get(reverse("projector", args=[old])).status_code == 404
    assert client.get(screen_url(tournament)).status_code == 200


def test_every_tournament_has_its_own_token():
    tokens = {TournamentFactory().projector_token for _ in range(5)}
    assert len(tokens) == 5


def test_the_public_route_only_for_a_public_tournament(client):
    tournament = TournamentFactory(slug="offen", is_public=False)
    for name in ("public-projector", "public-projector-data"):
        assert client.get(reverse(name, args=["offen"])).status_code == 404
    Tournament.objects.filter(pk=tournament.pk).update(is_public=True)
    for name in ("public-projector", "public-projector-data"):
        assert client.get(reverse(name, args=["offen"])).status_code == 200


def test_the_routes_answer_get_only(client):
    tournament = TournamentFactory(is_public=True)
    assert client.post(screen_url(tournament)).status_code == 405
    assert client.post(data_url(tournament)).status_code == 405


def test_the_data_holds_seating_by_name_table_states_standings_and_clock(client):
    tournament = build_hall(28, fives=4)  # two tables of four, four of five
    data = json.loads(client.get(data_url(tournament)).content)
    assert data["round"] == {"number": 2, "running": True}
    # The seating: every seated player, in German phone-book order.
    seating = data["seating"]
    assert len(seating) == 28
    keys = [(sort_key(s["last"]), sort_key(s["first"])) for s in seating]
    assert keys == sorted(keys)
    assert {s["table"] for s in seating} == set(range(1, 7))
    # The tables: done, playing (n of the nominal games), not started; table 2 extra time.
    tables = {t["number"]: t for t in data["tables"]}
    assert [tables[n]["state"] for n in range(1, 7)] == [
        "done", "playing", "waiting", "done", "playing", "waiting",
    ]  # fmt: skip
    assert tables[2]["games"] == 2 and tables[2]["nominal"] == 24
    assert tables[5]["size"] == 5 and tables[5]["nominal"] == 30
    assert tables[2]["extra_minutes"] == 10
    # The clock: 25 minutes played of the profile's time, per table size.
    profile = tournament.profile
    four, five = data["clock"]["4"], data["clock"]["5"]
    assert abs(four["seconds_left"] - (profile.playing_minutes(4) - 25) * 60) <= 5
    assert five["seconds_left"] > four["seconds_left"]
    assert len(four["ends_at"]) == 5  # "HH:MM"
    # The standings: round 1 and the confirmed sheets of round 2 count, not final.
    standings = data["standings"]
    assert standings["provisional"] is True and standings["rounds"] == [1, 2]
    assert len(standings["lines"]) == 28
    ranks = [line["rank"] for line in standings["lines"] if line["rank"] is not None]
    assert ranks == sorted(ranks) and ranks[0] == 1
    last = standings["lines"][-1]
    assert last["rank"] is None and last["note"] == "disqualified"
    assert any(line["note"] == "withdrawn" for line in standings["lines"])


def test_umlauts_sort_as_their_base_letter():
    tournament = TournamentFactory()
    table = released_table(tournament, size=5)
    names = [("Übel", "Jörg"), ("Ost", "Anna"), ("Öztürk", "Ali"), ("Ubbens", "E"), ("Uhl", "Ö")]
    for seat, (last, first) in zip(table.seats.order_by("position"), names, strict=True):
        Player.objects.filter(pk=seat.entry.player_id).update(last_name=last, first_name=first)
    seating = projector.read(tournament)["seating"]
    assert [s["last"] for s in seating] == ["Ost", "Öztürk", "Ubbens", "Übel", "Uhl"]
    assert seating[0] == {"last": "Ost", "first": "Anna", "table": 1, "position": 2}


def test_before_the_first_release_there_is_nothing_to_seat():
    tournament = TournamentFactory()
    data = projector.at(projector.read(tournament), timezone.now())
    assert data["round"] is None and data["seating"] == [] and data["clock"] == {}
    assert data["standings"]["lines"] == []


def test_a_closed_round_has_no_clock(client):
    tournament = build_hall(20)
    tournament.rounds.filter(number=2).update(status="closed")
    data = projector.at(projector.read(tournament), timezone.now())
    assert data["round"] == {"number": 2, "running": False} and data["clock"] == {}
    assert len(data["seating"]) == 20


@pytest.mark.parametrize("players", [20, 200])
def test_the_data_takes_a_fixed_number_of_queries(django_assert_num_queries, players):
    tournament = build_hall(players, fives=4)
    tournament = Tournament.objects.get(pk=tournament.pk)
    # The standings: the closed rounds with their stored results, then the running round
    # (the numbers of the day only for a screen that shows them: 4 queries more, below).
    with django_assert_num_queries(9):
        data = projector.read(tournament)
    assert len(data["seating"]) == players
    with django_assert_num_queries(4):  # the counted tables, seats, games and penalty rows
        projector.day(tournament)


@pytest.mark.parametrize("seconds", ["0", "500", "zwölf"])
def test_the_interval_is_refused_outside_5_to_120(director_client, tournament, seconds):
    url = reverse("manage:tournament-edit", args=[tournament.slug])
    form = {
        "name": tournament.name,
        "slug": tournament.slug,
        "date": "2026-12-05",
        "rule_profile": "ddv",
        "planned_rounds": 3,
        "separate_clubs_rounds": 0,
        "tiebreak": "shared",
        "status": "planned",
        "projector_seconds": seconds,
    }
    response = director_client.post(url, form)
    assert response.status_code == 200
    errors = response.context["form"].errors["projector_seconds"]
    assert errors and ("5" in errors[0] or "120" in errors[0] or "Zahl" in errors[0])
    tournament.refresh_from_db()
    assert tournament.projector_seconds == 12
    form["projector_seconds"] = "20"
    assert director_client.post(url, form).status_code == 302
    tournament.refresh_from_db()
    assert tournament.projector_seconds == 20
    form["projector_seconds"] = ""  # left empty: stays as it was
    assert director_client.post(url, form).status_code == 302
    tournament.refresh_from_db()
    assert tournament.projector_seconds == 20


def test_the_database_refuses_an_interval_outside_the_range(tournament):
    from django.db import IntegrityError, transaction

    with pytest.raises(IntegrityError), transaction.atomic():
        Tournament.objects.filter(pk=tournament.pk).update(projector_seconds=0)


def test_the_page_takes_its_interval_and_a_clamped_override(client, tournament):
    tournament.projector_seconds = 30
    tournament.save()
    assert 'data-seconds="30"' in client.get(screen_url(tournament)).content.decode()
    for given, used in (("1", 2), ("7", 7), ("999", 120), ("x", 30)):
        html = client.get(screen_url(tournament), {"sekunden": given}).content.decode()
        assert f'data-seconds="{used}"' in html


def test_the_page_loads_nothing_from_elsewhere(client, tournament):
    html = client.get(screen_url(tournament)).content.decode()
    assert "http://" not in html and "https://" not in html and "//cdn" not in html


def test_the_director_page_shows_the_link_of_the_hall(director_client, tournament, settings):
    settings.SITE_URL = "http://192.168.1.20:8000/"
    page = director_client.get(reverse("manage:projector", args=[tournament.slug]))
    assert page.status_code == 200
    html = page.content.decode()
    assert f"http://192.168.1.20:8000/leinwand/{tournament.projector_token}/" in html
    assert 'target="_blank"' in html and "F11" in html


def test_the_director_page_uses_the_request_host_without_site_url(
    director_client, tournament, settings
):
    settings.SITE_URL = ""
    html = director_client.get(reverse("manage:projector", args=[tournament.slug])).content
    assert f"http://testserver/leinwand/{tournament.projector_token}/" in html.decode()
