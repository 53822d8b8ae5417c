"""The prize ceremony page: directors only; every slide in the page in the order of the
ceremony (last category first, last place first); provisional until the tournament is
finished; the hall sees public names and clubs only."""

import json
import re
from decimal import Decimal

import pytest
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation

from tests.factories import (
    EntryFactory,
    PlayerFactory,
    TournamentFactory,
    director,
    prize_category,
    referee,
)
from tests.tournament.test_prize_list import cup as cup  # a fixture
from tournament.models import PrizeKind, Tournament
from tournament.queries.prizes import AwardLine, CategoryAwards, PrizeList
from tournament.views import ceremony as ceremony_view

pytestmark = pytest.mark.django_db


def line(category, entry, place, *, shared=1, score=100, amount="0.00", goods=""):
    return AwardLine(
        category=category.name,
        category_id=category.id,
        place=place,
        shared=shared,
        entry=entry,
        name=entry.player.full_name,
        public_name=entry.public_name,
        club=entry.player.club,
        public_club=entry.public_club,
        score=score,
        total=score,
        amount=Decimal(amount),
        goods=goods,
    )


NAMES = ["Anna Alt", "Bernd Bock", "Carla Cremer", "Dieter Dorn", "Erika Eifel", "Fritz Frei"]


def make_field(tournament, names=NAMES):
    """Players by start number from 1; the one on start number 5 did not consent to
    publication."""
    entries = []
    for number, name in enumerate(names, start=1):
        first, last = name.split(" ", 1)
        player = PlayerFactory(first_name=first, last_name=last, club=f"DSC {last}stadt")
        entries.append(
            EntryFactory(
                tournament=tournament, player=player, start_number=number, publish=number != 5
            )
        )
    return entries


@pytest.fixture
def field(tournament):
    return make_field(tournament)


def prizes_of(tournament, entries, *, provisional=True):
    """Overall (first in the director's order): Anna 1st, Bernd and Carla share 2nd;
    women: Erika (no consent) 1st; best round: nobody (left out of the ceremony)."""
    a, b, c, d, e, f = entries
    overall = CategoryAwards(id=1, name="Gesamtwertung", order=0, measure="total")
    women = CategoryAwards(id=2, name="Beste Dame", order=1, measure="total")
    rounds = CategoryAwards(id=3, name="Beste Runde", order=2, measure="best-round", unawarded=[1])
    overall.awards.extend(
        [
            line(overall, a, 1, score=250, amount="120.00", goods="Pokal"),
            line(overall, b, 2, shared=2, score=180, amount="1234.50"),
            line(overall, c, 2, shared=2, score=180, amount="1234.50"),
        ]
    )
    women.awards.append(line(women, e, 1, score=90, goods="Präsentkorb vom Hofladen Sonnenschein"))
    return PrizeList(
        tournament=tournament,
        categories=[overall, women, rounds],
        pool=Decimal("3000.00"),
        provisional=provisional,
    )


@pytest.fixture
def prizes(monkeypatch, tournament, field):
    found = {"list": prizes_of(tournament, field)}
    monkeypatch.setattr(ceremony_view, "prize_list", lambda t: found["list"])
    return found


def url(tournament):
    return reverse("manage:ceremony", args=[tournament.slug])


def slides_of(response):
    html = response.content.decode()
    found = re.search(r'<script id="ceremony-data" type="application/json">(.*?)</script>', html)
    assert found, "the slide data is in the page"
    return json.loads(found.group(1))


def test_it_is_for_the_tournaments_directors_only(client, tournament, prizes):
    assert client.get(url(tournament)).status_code == 302  # to the login
    client.force_login(director())
    assert client.get(url(tournament)).status_code == 404  # another director's tournament
    official = referee()
    tournament.referees.add(official)
    client.force_login(official)
    assert client.get(url(tournament)).status_code == 403


def test_it_reveals_the_last_category_first_and_the_last_place_first(
    director_client, tournament, prizes
):
    response = director_client.get(url(tournament))
    assert response.status_code == 200
    assert "noindex" in response["X-Robots-Tag"]
    slides = slides_of(response)["slides"]
    shown = [(s["kind"], s.get("category"), s.get("place"), s.get("name")) for s in slides]
    assert shown == [
        ("title", None, None, None),
        ("category", "Beste Dame", None, None),
        ("award", "Beste Dame", 1, "Spieler 5"),
        ("category", "Gesamtwertung", None, None),
        ("award", "Gesamtwertung", 2, "Carla Cremer"),
        ("award", "Gesamtwertung", 2, "Bernd Bock"),
        ("award", "Gesamtwertung", 1, "Anna Alt"),
        ("end", None, None, None),
    ]
    carla, bernd, anna = slides[4:7]
    assert carla["shared"] and bernd["shared"] and not anna["shared"]
    assert anna["club"] == "DSC Altstadt" and anna["score"] == 250
    assert anna["prize"] == "120,00 € + Pokal"
    assert bernd["prize"] == "1.234,50 €"
    assert slides[2]["prize"] == "Präsentkorb vom Hofladen Sonnenschein"
    assert slides[3]["count"] == "3 Preise" and slides[1]["count"] == "1 Preis"
    assert slides[-1]["empty"] is False


def test_the_hall_sees_public_names_and_clubs_only(director_client, tournament, prizes):
    html = director_client.get(url(tournament)).content.decode()
    assert "Spieler 5" in html
    assert "Erika" not in html and "Eifel" not in html


def test_provisional_until_the_tournament_is_finished(director_client, tournament, field, prizes):
    data = slides_of(director_client.get(url(tournament)))
    assert data["provisional"] is True
    assert data["words"]["provisional"] == "vorläufig"
    prizes["list"] = prizes_of(tournament, field, provisional=False)
    assert slides_of(director_client.get(url(tournament)))["provisional"] is False


def test_english_words_and_money_the_english_way(director_client, tournament, prizes):
    with translation.override("en"):
        director_client.cookies["django_language"] = "en"
        data = slides_of(director_client.get(url(tournament)))
    assert data["words"]["ceremony"] == "Prize ceremony"
    assert data["words"]["place"] == "Place {n}"
    bernd = data["slides"][5]
    assert bernd["prize"] == "€1,234.50"
    assert data["slides"][3]["count"] == "3 prizes"


def test_without_prizes_it_says_so(director_client, director_user, monkeypatch):
    tournament = TournamentFactory(directors=[director_user])
    empty = PrizeList(tournament=tournament, categories=[], pool=Decimal(0), provisional=True)
    monkeypatch.setattr(ceremony_view, "prize_list", lambda t: empty)
    slides = slides_of(director_client.get(url(tournament)))["slides"]
    assert [s["kind"] for s in slides] == ["title", "end"]
    assert slides[-1]["empty"] is True


def test_the_prize_page_and_the_projector_page_link_to_it(director_client, tournament, prizes):
    target = url(tournament)
    projector = director_client.get(reverse("manage:projector", args=[tournament.slug]))
    assert f'href="{target}"' in projector.content.decode()
    with translation.override("de"):
        partial = render_to_string(
            "tournament/manage/_prize_ceremony_link.html", {"tournament": tournament}
        )
    assert f'href="{target}"' in partial and "Siegerehrung starten" in partial


def test_it_shows_the_prize_list_of_the_standings(client, cup):
    """With the real prize list (tests/tournament/test_prize_list.py's five players): overall
    Anna, Bernd; women: Clara, who did not consent to publication."""
    t, entries = cup
    user = director()
    t.directors.add(user)
    client.force_login(user)
    prize_category(t, "Gesamt", 1, [(PrizeKind.AMOUNT, "20"), (PrizeKind.AMOUNT, "10")])
    prize_category(t, "Damen", 2, [(PrizeKind.GOODS, "Blumen")], sex="f")
    data = slides_of(client.get(url(t)))
    shown = [(s["kind"], s.get("category"), s.get("place"), s.get("name")) for s in data["slides"]]
    assert shown == [
        ("title", None, None, None),
        ("category", "Damen", None, None),
        ("award", "Damen", 1, "Spieler 3"),
        ("category", "Gesamt", None, None),
        ("award", "Gesamt", 2, "Bernd Muster"),
        ("award", "Gesamt", 1, "Anna Muster"),
        ("end", None, None, None),
    ]
    assert [s["prize"] for s in data["slides"] if s["kind"] == "award"] == [
        "Blumen",
        "10,00 €",
        "20,00 €",
    ]
    assert data["provisional"] is True
    assert "Clara" not in client.get(url(t)).content.decode()
    # Finished: its planned rounds are closed (a director who ends early lowers them).
    Tournament.objects.filter(pk=t.pk).update(planned_rounds=1)
    assert slides_of(client.get(url(t)))["provisional"] is False
