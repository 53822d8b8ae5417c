"""Players and series across clubs on the service: one person where the DDV member number
matches or an administrator merged them, else apart per club; a hall's series kept per club;
a regional ranking by Rundenschnitt over several clubs' tournaments."""

from fractions import Fraction

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from tests.factories import make_series
from tournament import archive
from tournament.domain.players import merge_players
from tournament.models import Player, PlayerOrigin, Series, SeriesMethod, Tournament
from tournament.queries.series import compute

from .helpers import forget_hall, hall_tournament, publish, snapshot

pytestmark = pytest.mark.django_db


def published(client, hall, *, slug, sequence=1, ddv=("", "", "", ""), name="Turnier", doc=None):
    doc = doc or snapshot(hall_tournament(slug=slug, name=name, ddv=ddv))
    assert publish(client, hall, doc, sequence).status_code == 200
    return Tournament.objects.get(uid=doc["tournament"]["uid"]), doc


def two_halls(ddv):
    """The snapshots of two halls' tournaments (Köln's, Bonn's), players A to D each, A with
    the DDV number ``ddv`` in both: made before either is published, since the hall's and the
    service's rows share this test's database (a number is unique in it)."""
    number = (ddv, "", "", "")
    return (
        snapshot(hall_tournament(slug="koeln", name="Kölner Herbst", ddv=number)),
        snapshot(hall_tournament(slug="bonn", name="Bonner Herbst", ddv=number)),
    )


def players_named(letter):
    return list(Player.objects.filter(last_name=f"Spieler {letter}"))


def test_a_ddv_number_makes_one_person_across_clubs_and_nothing_else_does(client, koeln, bonn):
    koeln_doc, bonn_doc = two_halls("1001")
    published(client, koeln, slug="koeln", doc=koeln_doc)
    published(client, bonn, slug="bonn", doc=bonn_doc)
    [a] = players_named("A")
    assert a.entries.count() == 2
    assert {o.club for o in a.origins.all()} == {koeln.club, bonn.club}
    assert len(players_named("B")) == 2  # same name, no number: two people as far as we know


def test_a_player_without_consent_never_reaches_the_service_by_name(client, koeln):
    replica, doc = published(client, koeln, slug="herbst")
    assert players_named("D") == []
    entry = replica.entries.get(start_number=4)
    assert entry.publish is False
    # Only the club's uid of the player came: it leads to a nameless player.
    [hidden] = [p for p in doc["players"] if "first_name" not in p]
    assert set(hidden) == {"ref", "uid"}
    origin = PlayerOrigin.objects.get(club=koeln.club, uid=hidden["uid"])
    assert origin.player == entry.player
    assert (entry.player.first_name, entry.player.club, entry.player.ddv_number) == ("", "", "")


def test_a_republication_keeps_the_players_and_takes_a_corrected_name(client, koeln):
    replica, doc = published(client, koeln, slug="herbst")
    before = {e.start_number: e.player_id for e in replica.entries.filter(publish=True)}
    player = next(p for p in doc["players"] if p["last_name"] == "Spieler B")
    player["last_name"] = "Spielerin B"
    assert publish(client, koeln, doc, 2).status_code == 200
    after = {e.start_number: e.player_id for e in replica.entries.filter(publish=True)}
    assert after == before
    assert Player.objects.get(pk=after[2]).last_name == "Spielerin B"


def test_an_administrators_merge_survives_the_next_publication(client, koeln, bonn):
    published(client, koeln, slug="koeln")
    _bonn, bonn_doc = published(client, bonn, slug="bonn")
    keep, drop = sorted(players_named("A"), key=lambda p: p.origins.get().club.slug != "koeln")
    admin = get_user_model().objects.create_superuser("admin", password="x-admin-geheim-9")
    merge_players(keep, drop, user=admin, reason="dieselbe Person")
    assert set(keep.origins.values_list("club__slug", flat=True)) == {"koeln", "bonn"}
    bonn_doc["tournament"]["name"] = "Bonn, zweiter Stand"
    assert publish(client, bonn, bonn_doc, 2).status_code == 200
    assert players_named("A") == [keep] and keep.entries.count() == 2


def test_the_merge_page_works_on_a_replica(client, koeln, bonn):
    replica, _ = published(client, koeln, slug="koeln")
    published(client, bonn, slug="bonn")
    keep, drop = players_named("A")
    admin = get_user_model().objects.create_superuser("admin", password="x-admin-geheim-9")
    client.force_login(admin)
    url = reverse("manage:player-merge", args=[replica.slug])
    response = client.post(url, {"keep": keep.pk, "drop": drop.pk, "reason": "eine Person"})
    assert response.status_code == 302
    assert players_named("A") == [keep]


def test_a_halls_series_becomes_the_clubs_series_with_its_replicas(client, koeln, bonn):
    first = hall_tournament(slug="januar", name="Januar")
    second = hall_tournament(slug="februar", name="Februar")
    hall_series = make_series([first, second], is_public=True)
    first_doc, second_doc = (archive.build(t, profile="public") for t in (first, second))
    for t in (first, second):
        forget_hall(t)
    hall_series.delete()  # the hall's own rows: not on the service
    publish(client, koeln, first_doc, 1)
    series = Series.objects.get(club=koeln.club)
    assert series.slug == "koeln-vm" and series.is_public and series.name == "Vereinsmeisterschaft"
    assert [t.name for t in series.tournaments.all()] == ["Januar"]
    publish(client, koeln, second_doc, 1)
    assert {t.name for t in series.tournaments.all()} == {"Januar", "Februar"}
    assert client.get(reverse("series-public", args=["koeln-vm"])).status_code == 200
    # The hall takes a tournament out of the series: the next publication takes it out here.
    second_doc["series"] = []
    publish(client, koeln, second_doc, 2)
    assert [t.name for t in series.tournaments.all()] == ["Januar"]
    # Another club naming the same series changes nothing of it.
    bonn_doc = snapshot(hall_tournament(slug="bonn"))
    bonn_doc["series"] = first_doc["series"]
    publish(client, bonn, bonn_doc, 1)
    assert [t.name for t in series.tournaments.all()] == ["Januar"]
    assert Series.objects.count() == 1


def test_a_regional_ranking_by_rundenschnitt_over_two_clubs(client, koeln, bonn):
    """A service administrator makes a series of two clubs' replicas, scored by the average
    per round (SeriesMethod.AVERAGE); player A, DDV number 1001 in both halls, is one line."""
    koeln_doc, bonn_doc = two_halls("1001")
    k, _ = published(client, koeln, slug="koeln", doc=koeln_doc)
    b, _ = published(client, bonn, slug="bonn", doc=bonn_doc)
    admin = get_user_model().objects.create_superuser("admin", password="x-admin-geheim-9")
    client.force_login(admin)
    form = client.get(reverse("manage:series-create")).context["form"]
    offered = {str(choice[1]) for choice in form.fields["tournaments"].choices}
    assert any("Kölner Herbst" in label and "DSC Köln" in label for label in offered)
    response = client.post(
        reverse("manage:series-create"),
        {
            "name": "Rangliste Rheinland",
            "slug": "rheinland",
            "is_public": "on",
            "method": SeriesMethod.AVERAGE,
            "min_rounds": 0,
            "tournaments": [k.pk, b.pk],
        },
    )
    assert response.status_code == 302
    series = Series.objects.get(slug="rheinland")
    assert series.club is None
    lines = {line.player.pk: line for line in compute(series, public_only=True).lines}
    [a] = players_named("A")
    # In each hall A scored 6 and 3 in two rounds: 18 points in 4 rounds.
    assert (lines[a.pk].rounds, lines[a.pk].tournaments) == (4, 2)
    assert lines[a.pk].value == Fraction(18, 4)
    assert all(line.tournaments == 1 for pk, line in lines.items() if pk != a.pk)
    page = client.get(reverse("series-public", args=["rheinland"])).content.decode()
    assert "Spieler A" in page
    # The next publication of either club leaves the administrator's series alone.
    koeln_doc["tournament"]["name"] = "Kölner Herbst, Endstand"
    assert publish(client, koeln, koeln_doc, 2).status_code == 200
    assert set(series.tournaments.all()) == {k, b}
    assert Series.objects.get(slug="rheinland").club is None
