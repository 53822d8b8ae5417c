"""Standings: what counts (closed rounds, confirmed sheets, or live), ranks with ties and
tie-breakers, penalties, withdrawn and disqualified players, teams, pages and queries."""

from io import BytesIO

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone
from openpyxl import load_workbook

from tests.factories import EntryFactory, PlayerFactory, referee
from tournament.base.caching import memo
from tournament.exports import xlsx
from tournament.models import (
    EntryStatus,
    Game,
    Penalty,
    Round,
    RoundStatus,
    Seat,
    SheetStatus,
    Table,
    Team,
)
from tournament.queries import standings as standings_domain

pytestmark = pytest.mark.django_db


def entries(tournament, count, first=1, **extra):
    return [
        EntryFactory(
            tournament=tournament,
            start_number=n,
            player=PlayerFactory(first_name="Spieler", last_name=f"N{n:02d}", club=f"Club {n % 2}"),
            **extra,
        )
        for n in range(first, first + count)
    ]


def play(tournament, number, groups, rows, *, status=RoundStatus.CLOSED, sheet=None):
    """Round ``number``: table t seats ``groups[t]`` and holds the game rows ``rows[t]``."""
    round_, _ = Round.objects.get_or_create(
        tournament=tournament, number=number, defaults={"status": status}
    )
    tables = []
    for index, (group, table_rows) in enumerate(zip(groups, rows, strict=True), start=1):
        table = Table.objects.create(round=round_, number=index, size=len(group))
        if sheet:
            table.sheet.status = sheet
            table.sheet.save()
        for position, entry in enumerate(group, start=1):
            Seat.objects.create(round=round_, table=table, entry=entry, position=position)
        for game, points in enumerate(table_rows, start=1):
            values = list(points) + [None] * (5 - len(points))
            Game.objects.create(table=table, number=game, kind="normal", p1=values[0],
                                p2=values[1], p3=values[2], p4=values[3], p5=values[4])  # fmt: skip
        tables.append(table)
    return tables


def totals(standings):
    return [(line.rank, line.entry.start_number, line.total) for line in standings.lines]


def test_points_per_round_total_and_shared_ranks(tournament):
    a, b, c, d = entries(tournament, 4)
    play(tournament, 1, [[a, b, c, d]], [[(3, -3, 3, -3), (1, 1, -1, -1)]])
    play(tournament, 2, [[d, c, b, a]], [[(2, -2, 2, -2)]])
    standings = standings_domain.compute(tournament)
    # a: 3+1 in round 1, -2 in round 2 = 2; b: -3+1, +2 = 0; c: 3-1, -2 = 0; d: -3-1, +2 = -2
    assert totals(standings) == [(1, 1, 2), (2, 2, 0), (2, 3, 0), (4, 4, -2)]
    first = standings.lines[0]
    assert first.rounds == {1: 4, 2: -2}
    assert standings.round_numbers == [1, 2]


@pytest.mark.parametrize(
    ("tiebreak", "expected"),
    [
        ("shared", [(1, 1, 4), (1, 2, 4), (3, 3, -4), (3, 4, -4)]),
        ("best-round", [(1, 2, 4), (2, 1, 4), (3, 3, -4), (4, 4, -4)]),
    ],
)
def test_tie_breakers(tournament, tiebreak, expected):
    tournament.tiebreak = tiebreak
    tournament.save()
    a, b, c, d = entries(tournament, 4)
    play(tournament, 1, [[a, b, c, d]], [[(2, 2, -2, -2)]])
    play(tournament, 2, [[a, b, c, d]], [[(2, 2, -2, -2), (0, 0, 0, 0)]])
    play(tournament, 3, [[b, a, d, c]], [[(3, 0, 0, -3)]])
    play(tournament, 4, [[b, a, d, c]], [[(-3, 0, 0, 3)]])
    # a and b have 4, c and d -4; b's and c's best round is +3, a's +2 and d's 0.
    standings = standings_domain.compute(tournament)
    assert totals(standings) == expected


def test_more_rounds_played_breaks_a_tie(tournament):
    tournament.tiebreak = "rounds-played"
    tournament.save()
    a, b, c, d, e = entries(tournament, 5)
    play(tournament, 1, [[a, b, c, d]], [[(2, 2, -2, -2)]])
    play(tournament, 2, [[e, b, c, d]], [[(2, 0, -2, 0)]])
    standings = standings_domain.compute(tournament)
    assert [(line.entry.start_number, line.rank) for line in standings.lines[:2]] == [
        (2, 1),
        (1, 2),
    ]


def test_only_closed_rounds_and_confirmed_sheets_count_unless_live(tournament):
    a, b, c, d, e, f, g, h = entries(tournament, 8)
    play(tournament, 1, [[a, b, c, d]], [[(1, -1, 1, -1)]])
    confirmed, running = play(
        tournament, 2, [[a, b, c, d], [e, f, g, h]], [[(2, -2, 2, -2)], [(5, -5, 5, -5)]],
        status=RoundStatus.RELEASED,
    )  # fmt: skip
    confirmed.sheet.status = SheetStatus.CONFIRMED
    confirmed.sheet.save()
    standings = standings_domain.compute(tournament)
    assert standings.provisional
    by_number = {line.entry.start_number: line.total for line in standings.lines}
    assert by_number[1] == 3 and by_number[5] == 0
    tournament.standings_live = True
    tournament.save()
    by_number = {
        line.entry.start_number: line.total for line in standings_domain.compute(tournament).lines
    }
    assert by_number[5] == 5


def test_final_once_every_planned_round_is_closed(tournament):
    tournament.planned_rounds = 1
    tournament.save()
    a, b, c, d = entries(tournament, 4)
    play(tournament, 1, [[a, b, c, d]], [[(1, -1, 1, -1)]])
    assert standings_domain.compute(tournament).state == standings_domain.FINAL


def test_signed_penalties_count_unsigned_not(tournament, director_user):
    a, b, c, d = entries(tournament, 4)
    (table,) = play(tournament, 1, [[a, b, c, d]], [[(1, -1, 1, -1)]])
    Penalty.objects.create(table=table, game_number=1, offender=b, category="geringfuegig",
                           p1=1, p2=-3, p3=1, p4=1)  # fmt: skip
    assert [line.penalties for line in standings_domain.compute(tournament).lines] == [0] * 4
    Penalty.objects.update(referee=director_user, signed_at=timezone.now())
    lines = {line.entry.start_number: line for line in standings_domain.compute(tournament).lines}
    assert (lines[2].penalties, lines[2].total) == (-3, -4)
    assert (lines[1].penalties, lines[1].total) == (1, 2)


def test_withdrawn_keep_their_points_disqualified_are_listed_last(tournament):
    a, b, c, d = entries(tournament, 4)
    play(tournament, 1, [[a, b, c, d]], [[(4, -4, 2, -2)]])
    a.status = EntryStatus.DISQUALIFIED
    a.save()
    c.status = EntryStatus.WITHDRAWN
    c.save()
    standings = standings_domain.compute(tournament)
    assert totals(standings) == [(1, 3, 2), (2, 4, -2), (3, 2, -4), (None, 1, 4)]


def test_team_standings_sum_the_members(tournament):
    red = Team.objects.create(tournament=tournament, name="Rot")
    blue = Team.objects.create(tournament=tournament, name="Blau")
    a, b, c, d = entries(tournament, 4)
    for entry, team in ((a, red), (b, red), (c, blue), (d, blue)):
        entry.team = team
        entry.save()
    play(tournament, 1, [[a, b, c, d]], [[(3, 1, -1, -3)]])
    teams = standings_domain.compute(tournament).teams
    assert [(t.rank, t.name, t.total) for t in teams] == [(1, "Rot", 4), (2, "Blau", -4)]


def test_the_query_count_does_not_grow_with_the_field(tournament, director_client):
    def count_queries(players):
        field = entries(tournament, players, first=Seat.objects.count() + 1000)
        groups = [field[i : i + 4] for i in range(0, players, 4)]
        number = Round.objects.filter(tournament=tournament).count() + 1
        play(tournament, number, groups, [[(1, -1, 1, -1)] * 3 for _ in groups])
        with CaptureQueriesContext(connection) as queries:
            response = director_client.get(reverse("manage:standings", args=["herbst"]))
        assert response.status_code == 200
        return len(queries)

    assert count_queries(8) == count_queries(80)


def test_the_pages_sort_filter_and_mark_the_state(client, director_client, tournament):
    a, b, c, d = entries(tournament, 4)
    play(tournament, 1, [[a, b, c, d]], [[(3, -3, 1, -1)]])
    page = director_client.get(reverse("manage:standings", args=["herbst"]) + "?sort=-name")
    html = page.content.decode()
    assert "Vorläufiger Stand" in html
    assert html.index("N04") < html.index("N01")
    filtered = director_client.get(reverse("manage:standings", args=["herbst"]), {"club": "Club 1"})
    assert "N01" in filtered.content.decode() and "N02" not in filtered.content.decode()
    assert client.get(reverse("public-standings", args=["herbst"])).status_code == 404
    tournament.is_public = True
    tournament.save()
    public = client.get(reverse("public-standings", args=["herbst"]))
    assert public.status_code == 200
    assert 'hx-trigger="every 30s"' in public.content.decode()
    live = client.get(reverse("public-standings", args=["herbst"]), headers={"HX-Request": "true"})
    assert live.content.decode().lstrip().startswith('<p class="standings-state')


def test_referees_and_anonymous_visitors_do_not_see_the_director_page(client, tournament):
    assert client.get(reverse("manage:standings", args=["herbst"])).status_code == 302
    client.force_login(referee())
    assert client.get(reverse("manage:standings", args=["herbst"])).status_code == 403


def test_the_public_table_plan_shows_the_running_round_and_hides_when_private(client, tournament):
    a, b, c, d = entries(tournament, 4)
    play(tournament, 1, [[a, b, c, d]], [[]], status=RoundStatus.RELEASED)
    url = reverse("public-table-plan", args=["herbst"])
    assert client.get(url).status_code == 404
    tournament.is_public = True
    tournament.save()
    html = client.get(url).content.decode()
    assert "Runde 1" in html and "Spieler N01" in html and 'id="table-1"' in html


def test_the_public_standings_are_computed_once_per_version(client, tournament, settings):
    settings.STANDINGS_CACHE_SECONDS = 0
    tournament.is_public = True
    tournament.save()
    a, b, c, d = entries(tournament, 4)
    (table,) = play(tournament, 1, [[a, b, c, d]], [[(3, -3, 1, -1)]])
    url = reverse("public-standings", args=["herbst"])
    first = client.get(url).content.decode()
    assert 'id="line-1"' in first and "csrfmiddlewaretoken" in first
    # A write that bypasses the verbs (no version bump) is not seen: the page is the cached one.
    Game.objects.filter(table=table).update(p1=5, p2=-5)
    for query in ({}, {"club": "Club 1"}, {"sort": "-total"}):
        with CaptureQueriesContext(connection) as queries:
            cached = client.get(url, query, headers={"HX-Request": "true"}).content.decode()
        assert 'class="num total">3<' in cached  # no query for the standings
        assert not any("tournament_game" in q["sql"] for q in queries.captured_queries)
    # The verbs bump the version: the next request computes the new state.
    game = Game.objects.get(table=table)
    game.save()
    assert 'class="num total">5<' in client.get(url).content.decode()


def test_an_older_page_is_served_for_the_stale_seconds_while_keepers_save(
    client, tournament, settings
):
    settings.STANDINGS_CACHE_SECONDS = 60
    tournament.is_public = True
    tournament.save()
    a, b, c, d = entries(tournament, 4)
    (table,) = play(tournament, 1, [[a, b, c, d]], [[(3, -3, 1, -1)]])
    url = reverse("public-standings", args=["herbst"])
    assert 'class="num total">3<' in client.get(url).content.decode()
    Game.objects.filter(table=table).update(p1=5, p2=-5)
    Game.objects.get(table=table).save()  # a new version, within the 60 seconds
    assert 'class="num total">3<' in client.get(url).content.decode()
    memo.clear()
    assert 'class="num total">5<' in client.get(url).content.decode()


def test_junk_parameters_and_sorting_do_not_compute_again(
    client, tournament, settings, monkeypatch
):
    """?x=<random>, a made-up club, ?sort=r99 used to force a full recompute: the page is
    computed once per version and language; what the page understands (a club or team of
    the tournament, a column that exists) only reorders or filters the computed rows."""
    tournament.is_public = True
    tournament.save()
    a, b, c, d = entries(tournament, 4)
    play(tournament, 1, [[a, b, c, d]], [[(3, -3, 1, -1)]])
    computed = []
    compute = standings_domain.compute
    monkeypatch.setattr(
        standings_domain, "compute", lambda t, **how: computed.append(t.pk) or compute(t, **how)
    )
    url = reverse("public-standings", args=["herbst"])
    junk = ({"x": "1"}, {"x": "2", "y": "<b>"}, {"club": "No such club"}, {"sort": "evil"})
    for query in (*junk, {"sort": "r99"}, {"sort": "-r2"}):
        body = Client().get(url, query, headers={"HX-Request": "true"}).content.decode()
        assert 'id="line-1"' in body and "&lt;b&gt;" not in body and "x=" not in body
        assert "r99" not in body and "sort=-r2" not in body
    sort = {"sort": "-total"}
    assert Client().get(url, {**sort, "x": "3"}).status_code == 200
    assert Client().get(url, {**sort, "club": "Club 1", "x": "4"}).status_code == 200
    assert Client().get(url, {"club": "Club 1", "sort": "-r1", "z": "5"}).status_code == 200
    assert len(computed) == 1
    assert len(memo) == 1  # one family: this tournament in German


def test_a_player_who_never_sat_at_a_table_gets_no_rank(tournament):
    """Issue 15.4: a registered no-show was ranked mid-field with 0 points."""
    a, b, c, d, e, f = entries(tournament, 6)
    tournament.planned_rounds = 2
    tournament.save()
    play(tournament, 1, [[a, b, c, d]], [[(-3, -3, 3, 3)]])
    # e is seated in round 2, which is drawn but not released yet: e has not started either.
    play(tournament, 2, [[e, b, c, d]], [[]], status=RoundStatus.DRAWN)
    f.status = EntryStatus.DISQUALIFIED
    f.save()
    standings = standings_domain.compute(tournament)
    assert totals(standings) == [(1, 3, 3), (1, 4, 3), (3, 1, -3), (3, 2, -3)]
    assert [(line.entry.start_number, line.rank) for line in standings.absent] == [
        (5, None),
        (6, None),
    ]
    assert standings.absent[1].note == "disqualifiziert"


def test_before_the_first_round_is_released_nobody_is_ranked_or_listed_apart(tournament):
    """The page, the PDF and the workbook read one answer: before anybody started, nobody
    has "not started" either."""
    a, b, c, d = entries(tournament, 4)
    play(tournament, 1, [[a, b, c, d]], [[]], status=RoundStatus.DRAWN)
    standings = standings_domain.compute(tournament)
    assert (standings.lines, standings.absent) == ([], [])
    book = load_workbook(BytesIO(xlsx.workbook(tournament)))
    cells = {cell for row in book["Rangliste"].iter_rows(values_only=True) for cell in row}
    assert "Nicht angetreten" not in cells


def test_a_player_seated_in_the_running_round_is_ranked(tournament):
    a, b, c, d, e = entries(tournament, 5)
    play(tournament, 1, [[a, b, c, d]], [[(1, -1, 1, -1)]])
    play(tournament, 2, [[e, b, c, d]], [[(4, -4, 4, -4)]], status=RoundStatus.RELEASED)
    standings = standings_domain.compute(tournament)
    # Round 2 does not count yet, but e sits at a table: e has started and is ranked.
    assert (5, 0) in [(line.entry.start_number, line.total) for line in standings.lines]
    assert standings.absent == []


def test_a_withdrawn_player_who_played_keeps_a_rank(tournament):
    a, b, c, d, e = entries(tournament, 5)
    play(tournament, 1, [[a, b, c, d]], [[(2, -2, 2, -2)]])
    for entry in (a, e):
        entry.status = EntryStatus.WITHDRAWN
        entry.save()
    standings = standings_domain.compute(tournament)
    assert standings.lines[0].entry == a and standings.lines[0].rank == 1
    assert [line.entry for line in standings.absent] == [e]


def test_team_members_who_never_played_change_nothing(tournament):
    red = Team.objects.create(tournament=tournament, name="Rot")
    blue = Team.objects.create(tournament=tournament, name="Blau")
    ghosts = Team.objects.create(tournament=tournament, name="Geister")
    a, b, c, d, e, f, g = entries(tournament, 7)
    for entry, team in ((a, red), (b, red), (c, blue), (d, blue), (e, red), (f, ghosts)):
        entry.team = team
        entry.save()
    play(tournament, 1, [[a, b, c, d]], [[(-1, -1, 1, 1)]])
    teams = standings_domain.compute(tournament).teams
    # Nobody of "Geister" played: with 0 points it would rank above "Rot" (-2).
    assert [(t.rank, t.name, t.total) for t in teams] == [(1, "Blau", 2), (2, "Rot", -2)]
    assert [m.entry for m in teams[1].members] == [a, b]


def test_the_projector_shows_no_rank_for_a_no_show(tournament):
    from tournament.queries import projector

    a, b, c, d, e = entries(tournament, 5)
    play(tournament, 1, [[a, b, c, d]], [[(-1, -1, 1, 1)]])
    names = [line["name"] for line in projector.read(tournament)["standings"]["lines"]]
    assert len(names) == 4 and e.player.full_name not in names
