"""The statistics pages on a known sheet (the one of tests/scoring/test_statistics.py):
what they show, to whom, and that a public page is computed once per change."""

import pytest
from django.urls import reverse

from scoring.kinds import Kind
from tests.factories import make_series, released_table, settle
from tournament.base.caching import memo
from tournament.models import Game, GameKind, Penalty, RoundStatus
from tournament.queries import statistics

pytestmark = pytest.mark.django_db

SHEET = [
    (GameKind.NORMAL, None, (2, 2, -2, -2)),
    (GameKind.NORMAL, None, (3, -3, 3, -3)),
    (GameKind.PFLICHTSOLO, 2, (-1, 3, -1, -1)),
    (GameKind.LUSTSOLO, 1, (-6, 2, 2, 2)),
    (GameKind.VORGEFUEHRT, 3, (1, 1, -3, 1)),
    (GameKind.NORMAL, None, (0, 0, 0, 0)),
]


def play(table, rows=SHEET):
    for number, (kind, soloist, points) in enumerate(rows, start=1):
        Game.objects.create(
            table=table, number=number, kind=kind, soloist_position=soloist,
            **{f"p{i}": v for i, v in enumerate(points, start=1)},
        )  # fmt: skip


@pytest.fixture
def closed(tournament):
    """Round 1 closed: the known sheet at table 1 (start numbers 1-4; number 4 did not
    consent to publication)."""
    tournament.is_public = True
    tournament.save()
    table = released_table(tournament)
    play(table)
    table.round.status = RoundStatus.CLOSED
    table.round.save()
    table.seats.get(position=4).entry.__class__.objects.filter(
        tournament=tournament, start_number=4
    ).update(publish=False)
    settle(tournament)
    tournament.refresh_from_db()
    return table


def test_it_reads_the_counted_games_in_a_fixed_number_of_queries(
    closed, tournament, django_assert_num_queries
):
    with django_assert_num_queries(4):  # tables, seats, games, penalty rows
        figures = statistics.of_tournament(tournament)
    (stats,) = figures.by_profile.values()
    anna = closed.seats.get(position=1).entry.player_id
    assert stats.players[anna].games == 6
    assert len(stats.players[anna].all.won) == 3
    assert stats.kinds[Kind.VORGEFUEHRT].played == 1


def test_a_game_of_a_running_round_counts_only_once_its_sheet_counts(tournament):
    table = released_table(tournament)
    play(table, SHEET[:1])
    assert statistics.of_tournament(tournament).by_profile == {}
    tournament.standings_live = True
    tournament.save()
    tournament.refresh_from_db()
    (stats,) = statistics.of_tournament(tournament).by_profile.values()
    assert len(stats.games) == 1


def test_at_a_five_table_the_dealer_sits_out_as_the_ledger_says(tournament):
    table = released_table(tournament, size=5)
    # Game 1: position 1 deals and sits out (TSR 3.3.1); game 2: position 2.
    Game.objects.create(table=table, number=1, kind="normal", p1=0, p2=2, p3=2, p4=-2, p5=-2)
    Game.objects.create(table=table, number=2, kind="normal", p1=1, p2=0, p3=-1, p4=-1, p5=1)
    tournament.standings_live = True
    tournament.save()
    (stats,) = statistics.of_tournament(tournament).by_profile.values()
    first, second = (table.seats.get(position=p).entry.player_id for p in (1, 2))
    assert [r.game for r in stats.players[first].sat_out] == [1]
    assert [r.game for r in stats.players[second].sat_out] == [2]
    assert stats.players[first].games == 1


def test_the_public_page_shows_the_figures_and_lists_consenting_players_only(closed, client):
    page = client.get(reverse("statistics", args=["herbst"])).content.decode()
    assert 'id="event-games">6<' in page
    assert reverse("statistics-player", args=["herbst", 1]) in page
    assert "Spieler4" not in page  # no consent: neither named nor listed
    assert reverse("statistics-player", args=["herbst", 4]) not in page


def test_a_players_public_page_needs_their_consent(closed, client):
    page = client.get(reverse("statistics-player", args=["herbst", 1]))
    assert page.status_code == 200
    text = page.content.decode()
    assert "Vorname" in text and "Spieler1" in text
    # Every figure opens its games: the Lustsolo lost in game 4, named by round and table.
    assert "Runde 1, Tisch 1, Spiel 4" in text
    # Opponent Spieler4 did not consent: a pseudonym.
    assert "Spieler4" not in text and "Spieler 4" in text
    assert client.get(reverse("statistics-player", args=["herbst", 4])).status_code == 404


def test_the_director_sees_everybody_and_each_game_links_its_sheet(closed, director_client):
    page = director_client.get(reverse("manage:statistics", args=["herbst"])).content.decode()
    assert "Spieler4" in page
    mine = director_client.get(reverse("manage:statistics-player", args=["herbst", 4]))
    assert mine.status_code == 200
    assert reverse("manage:sheet-desk", args=["herbst", 1, 1]) in mine.content.decode()


def test_a_private_tournament_has_no_public_statistics(closed, tournament, client):
    tournament.is_public = False
    tournament.save()
    assert client.get(reverse("statistics", args=["herbst"])).status_code == 404
    assert client.get(reverse("statistics-day", args=["herbst"])).status_code == 404
    # The projector's secret link still shows the numbers of the day.
    by_link = client.get(reverse("projector-day", args=[tournament.projector_token]))
    assert by_link.status_code == 200


def test_the_public_page_is_computed_once_per_change(closed, tournament, client):
    url = reverse("statistics", args=["herbst"])
    client.get(url)
    computed = memo.computed
    client.get(url + "?x=1")
    assert memo.computed == computed  # a lookup
    Penalty.objects.all().delete()  # no change: nothing to delete, the version stays
    Game.objects.filter(number=6).update(p1=1, p2=1, p3=-1, p4=-1)
    settle(tournament)  # a correction of the closed round stores its results again
    page = client.get(url).content.decode()
    assert memo.computed > computed
    assert 'id="event-games">6<' in page


def test_a_keepers_save_in_the_running_round_leaves_the_figures_alone(closed, tournament, client):
    """The figures count confirmed sheets and closed rounds (standings not live): a game
    saved on a sheet of the running round changes nothing they show, so no phone's save
    makes the server compute them again, neither for the page nor for the projector."""
    from tournament.queries import projector

    running = released_table(tournament, round_number=2, first_start=11)
    tournament.refresh_from_db()
    url = reverse("statistics", args=["herbst"])
    client.get(url)
    projector.read(tournament)
    computed = memo.computed
    Game.objects.create(table=running, number=1, kind=GameKind.NORMAL, p1=1, p2=1, p3=-1, p4=-1)
    tournament.refresh_from_db()
    client.get(url)
    statistics.figures(tournament)
    assert memo.computed == computed
    # With live standings every saved game counts: then they follow the games.
    tournament.standings_live = True
    tournament.save()
    tournament.refresh_from_db()
    assert statistics.figures(tournament).by_profile
    assert memo.computed > computed


def test_the_numbers_of_the_day(closed, client):
    page = client.get(reverse("statistics-day", args=["herbst"])).content.decode()
    # The biggest game: value 3 (game 2, won by start numbers 1 and 3).
    assert '<p class="day-number">3</p>' in page
    assert "Runde 1, Tisch 1, Spiel 2" in page
    # The highest round score: number 2 with 2 - 3 + 3 + 2 + 1 = 5.
    assert '<p class="day-number">5</p>' in page


def test_it_speaks_english(closed, client):
    client.cookies["django_language"] = "en"
    page = client.get(reverse("statistics-player", args=["herbst", 1])).content.decode()
    assert "Games played" in page and "round 1, table 1, game 4" in page


def test_series_statistics_keep_consent_per_tournament(closed, tournament, client):
    make_series([tournament], is_public=True)
    page = client.get(reverse("series-statistics", args=["vm"])).content.decode()
    assert 'id="event-games">6<' in page
    anna = closed.seats.get(position=1).entry.player_id
    dieter = closed.seats.get(position=4).entry.player_id
    assert client.get(reverse("series-player-statistics", args=["vm", anna])).status_code == 200
    assert client.get(reverse("series-player-statistics", args=["vm", dieter])).status_code == 404


def test_the_director_tab_leads_to_the_statistics(closed, director_client):
    page = director_client.get(reverse("manage:standings", args=["herbst"])).content.decode()
    assert reverse("manage:statistics", args=["herbst"]) in page


def test_the_series_directors_see_every_player_of_the_series(closed, tournament, client):
    series = make_series([tournament], is_public=True)
    dieter = closed.seats.get(position=4).entry.player_id
    client.force_login(series.directors.first())
    page = client.get(reverse("manage:series-statistics", args=["vm"])).content.decode()
    assert "Spieler4" in page
    mine = client.get(reverse("manage:series-player-statistics", args=["vm", dieter]))
    assert mine.status_code == 200 and "Spieler4" in mine.content.decode()


def test_the_projector_shows_the_numbers_of_the_day_as_a_slide_on_request(
    closed, tournament, client
):
    from tournament.queries import projector

    assert "day" not in projector.read(tournament)  # only for a screen that shows it
    day = projector.day(tournament)
    assert day["biggest"]["value"] == 3 and (day["biggest"]["round"], day["biggest"]["game"]) == (
        1,
        2,
    )
    assert day["solos"]["count"] == 1
    assert day["round"]["points"] == 5 and day["round"]["who"].endswith("Spieler2")
    url = reverse("projector", args=[tournament.projector_token])
    assert 'data-day="1"' in client.get(url + "?zahlen=1").content.decode()
    assert 'data-day="1"' not in client.get(url).content.decode()
    data = reverse("projector-data", args=[tournament.projector_token])
    assert client.get(data + "?zahlen=1").json()["day"]["solos"]["count"] == 1
    assert "day" not in client.get(data).json()


def test_numbers_nobody_has_keep_nothing_in_the_cache(closed, client):
    client.get(reverse("statistics", args=["herbst"]))
    kept = len(memo)
    for number in range(100, 130):
        assert client.get(reverse("statistics-player", args=["herbst", number])).status_code == 404
    assert len(memo) == kept


def test_a_series_names_a_player_only_with_consent_in_every_tournament(closed, tournament, client):
    import datetime

    from tests.factories import played_tournament
    from tournament.models import Entry

    seated = [closed.seats.get(position=p).entry.player for p in (1, 2, 3, 4)]
    second, entries = played_tournament(
        datetime.date(2027, 1, 9), 1, [dict(zip(seated, (8, 8, -8, -8), strict=True))]
    )
    second.is_public = True
    second.save()
    anna = seated[0]
    Entry.objects.filter(tournament=second, player=anna).update(publish=False)
    make_series([tournament, second], is_public=True)
    page = client.get(reverse("series-statistics", args=["vm"])).content.decode()
    assert 'id="event-games">7<' in page
    assert anna.last_name not in page  # not even where her game of the first tournament is
    url = reverse("series-player-statistics", args=["vm", anna.pk])
    assert client.get(url).status_code == 404


def test_the_event_counts_penalties_not_their_net_sum(closed, client, director_user):
    """A penalty's row is zero-sum (TSR 9): its points summed over the players are 0, which
    told nobody anything. The event figure counts the signed penalties."""
    from django.utils import timezone

    offender = closed.seats.get(position=2).entry
    for game in (1, 2):
        Penalty.objects.create(
            table=closed, game_number=game, offender=offender, category="geringfuegig",
            p1=1, p2=-3, p3=1, p4=1, referee=director_user, signed_at=timezone.now(),
        )  # fmt: skip
    settle(closed.round.tournament)
    page = client.get(reverse("statistics", args=["herbst"])).content.decode()
    assert page.split('id="event-penalties">')[1].split("<")[0] == "2"
