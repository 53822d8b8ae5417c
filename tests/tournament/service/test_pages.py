"""The service's pages: a replica's public pages with "Stand 14:32", the home page's lists,
a club's page and address, and replicas read-only for everybody on the service."""

import datetime
import re

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import timezone

from tests.factories import TournamentFactory, director, released_table
from tournament.models import Game, RoundStatus, Table, Tournament

from .helpers import hall_tournament, publish, snapshot

pytestmark = pytest.mark.django_db

BERLIN = datetime.timezone(datetime.timedelta(hours=1))  # the site's zone in November


@pytest.fixture
def replica(client, koeln):
    today = timezone.localdate()
    moment = datetime.datetime.combine(today, datetime.time(14, 32), tzinfo=BERLIN)
    doc = snapshot(hall_tournament(), now=moment.astimezone(datetime.UTC))
    assert publish(client, koeln, doc, 1).status_code == 200
    return Tournament.objects.get(club=koeln.club)


def public_pages(t):
    number = t.entries.order_by("start_number").first().start_number
    return [
        reverse("tournament-public", args=[t.slug]),
        reverse("public-standings", args=[t.slug]),
        reverse("public-table-plan", args=[t.slug]),
        reverse("statistics", args=[t.slug]),
        reverse("statistics-player", args=[t.slug, number]),
        reverse("statistics-day", args=[t.slug]),
        reverse("where-do-i-sit", args=[t.slug]),
        reverse("tournament-calculator", args=[t.slug]),
        reverse("public-projector", args=[t.slug]),
    ]


def stand(page: str) -> str:
    found = re.search(r'id="published-stand">([^<·]*)', page)
    return found.group(1).strip() if found else ""


def test_every_public_page_of_a_replica_says_which_state_it_shows(client, replica):
    if timezone.localtime().utcoffset() != datetime.timedelta(hours=1):
        pytest.skip("the fixture's 14:32 is Berlin winter time")
    for url in public_pages(replica):
        response = client.get(url)
        assert response.status_code == 200, url
        assert stand(response.content.decode()) == "Stand 14:32", url
    english = client.get(public_pages(replica)[1], headers={"Accept-Language": "en"})
    assert stand(english.content.decode()) == "As of 14:32"
    # The standings' own line names the same moment (not when the reader came).
    standings = client.get(public_pages(replica)[1]).content.decode()
    line = re.search(r'id="standings-state">(.*?)</p>', standings, re.S).group(1)
    assert "14:32" in line, line


def test_a_state_of_an_earlier_day_names_its_date(client, replica):
    Tournament.objects.filter(pk=replica.pk).update(
        published_at=datetime.datetime(2026, 3, 7, 18, 5, tzinfo=datetime.UTC)
    )
    page = client.get(reverse("public-standings", args=[replica.slug])).content.decode()
    assert stand(page) == "Stand 07.03.2026 19:05"
    english = client.get(
        reverse("public-standings", args=[replica.slug]), headers={"Accept-Language": "en"}
    )
    assert stand(english.content.decode()) == "As of 7 Mar 2026, 19:05"


def test_a_halls_own_tournament_shows_no_state_line(client):
    t = TournamentFactory(is_public=True)
    page = client.get(reverse("tournament-public", args=[t.slug])).content.decode()
    assert "published-stand" not in page


def test_the_home_page_lists_running_and_latest_and_the_clubs(client, koeln, replica):
    running = hall_tournament(slug="winter", name="Winterpokal")
    running.planned_rounds = 3  # two of three played: it runs
    running.save()
    publish(client, koeln, snapshot(running), 1)
    page = client.get(reverse("home")).content.decode()
    running_part = page.split('id="home-running"')[1].split("</ul>")[0]
    latest_part = page.split('id="home-latest"')[1].split("</ul>")[0]
    assert "Winterpokal" in running_part and "Herbstturnier" not in running_part
    assert "Herbstturnier" in latest_part and "DSC Köln" in latest_part
    assert "Läuft gerade" in page and "Neueste Ergebnisse" in page
    assert reverse("club", args=["koeln"]) in page.split('id="home-clubs"')[1]


def test_the_halls_home_page_without_clubs_stays_as_it_was(client):
    TournamentFactory(name="Frühjahrsturnier", is_public=True)
    page = client.get(reverse("home")).content.decode()
    assert "Frühjahrsturnier" in page and "Demnächst" in page
    assert 'id="home-clubs"' not in page and "Vereine" not in page


def test_the_club_page_lists_its_tournaments_and_its_address_leads_to_them(client, replica):
    page = client.get(reverse("club", args=["koeln"])).content.decode()
    assert "DSC Köln" in page and reverse("tournament-public", args=[replica.slug]) in page
    response = client.get(reverse("club-tournament", args=["koeln", "herbst"]))
    assert response.status_code == 302
    assert response.url == reverse("tournament-public", args=["koeln-herbst"])
    assert client.get(reverse("club-tournament", args=["koeln", "fremd"])).status_code == 404
    assert client.get(reverse("club", args=["niemand"])).status_code == 404


@pytest.fixture
def superuser_client(client):
    user = get_user_model().objects.create_superuser("admin", password="x-admin-geheim-9")
    client.force_login(user)
    return client


def test_a_replica_refuses_every_change_with_the_reason(superuser_client, replica):
    before = Tournament.objects.values().get(pk=replica.pk)
    for url, data in [
        (reverse("manage:tournament-edit", args=[replica.slug]), {"name": "Umbenannt"}),
        (reverse("manage:round-draw", args=[replica.slug]), {}),
        (reverse("manage:round-close", args=[replica.slug, 2]), {}),
        (reverse("manage:entry-add", args=[replica.slug]), {"last_name": "Neu"}),
    ]:
        response = superuser_client.post(url, data)
        assert response.status_code == 403, url
        assert "DSC Köln" in response.content.decode() and "Laptop" in response.content.decode()
    assert Tournament.objects.values().get(pk=replica.pk) == before
    # Reading stays possible, with the note on every page.
    page = superuser_client.get(reverse("manage:entry-list", args=[replica.slug]))
    assert page.status_code == 200 and "nicht hier" in page.content.decode()


def test_the_admin_shows_a_replica_but_does_not_change_it(superuser_client, replica):
    url = reverse("admin:tournament_tournament_change", args=[replica.pk])
    page = superuser_client.get(url).content.decode()
    assert 'name="_save"' not in page
    assert superuser_client.post(url, {"name": "Umbenannt"}).status_code == 403
    assert Tournament.objects.get(pk=replica.pk).name == "Herbstturnier"


def test_a_director_never_sees_a_replica_among_their_tournaments(client, replica):
    client.force_login(director(username="leitung"))
    assert client.get(reverse("manage:entry-list", args=[replica.slug])).status_code == 404


def test_the_home_pages_lists_take_three_queries_whatever_their_length(
    client, koeln, replica, django_assert_num_queries
):
    for number in range(3):
        publish(client, koeln, snapshot(hall_tournament(slug=f"t{number}")), 1)
    from tournament.queries.service import home_lists

    with django_assert_num_queries(3):
        lists = home_lists()
        shown = [(t.club.name, t.get_status_display()) for t in sum(lists.values(), [])]
    assert len(shown) == 4 and all(club == "DSC Köln" for club, _status in shown)


def test_a_replicas_table_links_lead_nowhere_on_the_service(client, koeln):
    # The lists are kept in the club's hall: on the service a table link (which its director
    # could read on the copy's manage pages) must not take games into the copy.
    hall = TournamentFactory(slug="winter", is_public=True)
    released_table(hall, size=4)
    assert publish(client, koeln, snapshot(hall), 1).status_code == 200
    table = Table.objects.get(round__tournament__club=koeln.club)
    assert table.round.status == RoundStatus.RELEASED
    link = reverse("keeper-sheet", args=[table.token])
    assert client.get(link).status_code == 404
    game = {"kind": "normal", "mode": "direct", "number": 1, "p1": 2, "p2": 2, "p3": -2, "p4": -2}
    assert client.post(link, game).status_code == 404
    assert not Game.objects.filter(table=table).exists()
