"""Issue 15, points 1 and 2 (and the no-shows of point 4): the public pages on a player's
phone. Standings show rank, name and total with the rest folded into a line under the name;
no empty column; players who never started are listed apart; "Wo sitze ich?" finds a name
however its umlauts are typed, and copes with odd input."""

import re

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.factories import EntryFactory, PlayerFactory
from tests.tournament.exports.test_standings import play
from tournament.models import EntryStatus, Penalty, RoundStatus, Team, names

pytestmark = pytest.mark.django_db


@pytest.fixture
def public(tournament):
    tournament.is_public = True
    tournament.save()
    return tournament


def person(tournament, number, first, last, club="", team=None):
    player = PlayerFactory(first_name=first, last_name=last, club=club)
    return EntryFactory(tournament=tournament, start_number=number, player=player, team=team)


def header(html: str) -> list[str]:
    """The column headers of the standings table, as the reader sees them."""
    head = re.search(
        r'<table class="table standings" id="standings">\s*<thead>(.*?)</thead>', html, re.S
    )
    return [
        re.sub(r"<[^>]+>", "", cell).strip() for cell in re.findall(r"<th[^>]*>(.*?)</th>", head[1])
    ]


def row(html: str, start_number: int) -> str:
    return re.search(rf'<tr[^>]*id="line-{start_number}">(.*?)</tr>', html, re.S)[1]


# --- names.fold: one key for every spelling of a name --------------------------------------


@pytest.mark.parametrize(
    ("spellings", "key"),
    [
        (["Kässmann", "Kaessmann", "Kassmann", "KÄSSMANN", "kässmann"], "kassmann"),
        (["Weiß", "Weiss", "WEISS", "weiß", "Wei\u1e9e"], "weiss"),
        (["Müller", "Mueller", "Muller", "MÜLLER", "Mu\u0308ller"], "muller"),
        (["Schröder", "Schroeder", "Schroder"], "schroder"),
        (["José", "Jose", "JOSÉ"], "jose"),
        (["Łukasz", "Lukasz"], "lukasz"),
        (["Søren", "Soren"], "soren"),
        (["O'Neill", "O’Neill", "ONeill"], "oneill"),
    ],
)
def test_every_spelling_of_a_name_gives_one_key(spellings, key):
    assert {names.fold(spelling) for spelling in spellings} == {key}


def test_fold_joins_parts_and_separates_words_by_one_space():
    assert (
        names.fold("  Hans-Jürgen ", "\tMüller-Lüdenscheidt ") == "hans jurgen muller ludenscheidt"
    )
    assert names.fold("", "Weiß") == "weiss"


@pytest.mark.parametrize("junk", ["", "   ", "%", "_", "%_%", "---", "\x00", "'''", "\u200b"])
def test_a_query_of_only_odd_characters_has_no_words(junk):
    assert names.query_words(junk) == []


def test_query_words_are_folded_deduplicated_and_limited():
    assert names.query_words("Käss  kaess 100%") == ["kass", "100"]
    assert len(names.query_words(" ".join(f"w{n}" for n in range(50)))) == 8


def test_name_matches_wants_every_word_somewhere_in_the_name():
    words = names.query_words("kaess JÜR")
    assert names.name_matches(words, "Jürgen", "Kässmann")
    assert not names.name_matches(words, "Jürgen", "Weiß")
    assert names.name_matches([], "anybody")


# --- "Wo sitze ich?" -------------------------------------------------------------------------


def where(client, query):
    url = reverse("where-do-i-sit", args=["herbst"])
    response = client.get(url, {"q": query})
    assert response.status_code == 200
    return response.content.decode()


def found(html: str) -> list[int]:
    return [int(n) for n in re.findall(r'<section class="card seat-card" id="seat-(\d+)"', html)]


@pytest.fixture
def hall(public):
    people = [
        person(public, 1, "Jürgen", "Kässmann"),
        person(public, 2, "Klaus", "Weiß"),
        person(public, 3, "Anna", "Müller"),
        person(public, 4, "Zoë", "Schröder-Groß"),
        person(public, 5, "Heinz", "Mann"),
        person(public, 6, "Peter", "Wagner"),
        person(public, 7, "Ute", "Hoffmann"),
        person(public, 8, "Michael", "Brandt"),
    ]
    return people


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("Kaessmann", [1]),
        ("Kässmann", [1]),
        ("kassmann", [1]),
        ("KAESSMANN", [1]),
        ("weiss", [2]),
        ("Weiß", [2]),
        ("Muller", [3]),
        ("Mueller", [3]),
        ("mül", [3]),
        ("gross", [4]),
        ("Schroeder Zoe", [4]),
        ("jurgen kass", [1]),
        ("mann", [1, 5, 7]),  # part of a name: Kässmann, Mann, Hoffmann
        ("Michael", [8]),
        ("michal", [8]),  # "ae" folds like "ä": a harmless extra match, never a miss
        ("el", [8]),  # part of a name that starts inside "ae" (Micha|el)
        ("ela", []),
        ("7", [7]),  # a start number
        ("Ute 7", [7]),
        ("Wagner Weiß", []),  # every word must match the same player
    ],
)
def test_a_name_is_found_however_its_umlauts_are_typed(client, hall, query, expected):
    html = where(client, query)
    assert found(html) == expected
    assert ("Niemand gefunden." in html) == (not expected)


@pytest.mark.parametrize(
    "query",
    [
        "%",
        "_",
        "%%%",
        "' OR 1=1 --",
        "\\",
        "<script>alert(1)</script>",
        "x" * 5000,
        "Müller " * 500,
        "\u202eredlüM",
        "１２",  # full-width digits
        "9" * 40,
    ],
)
def test_odd_input_finds_nobody_by_accident_and_never_fails(client, hall, query):
    html = where(client, query)
    assert len(found(html)) <= 1
    assert "<script>alert(1)</script>" not in html


def test_a_query_of_only_spaces_or_punctuation_asks_for_a_name(client, hall):
    assert found(where(client, "     ")) == []
    assert "Niemand gefunden." not in where(client, "     ")
    html = where(client, "%_%")
    assert found(html) == []
    assert "Bitte einen Teil des Namens oder eine Startnummer eingeben." in html


def test_too_many_matches_say_so(client, public):
    for n in range(1, 26):
        person(public, n, "Spieler", f"Nummer{n}")
    html = where(client, "spieler")
    assert found(html) == list(range(1, 21))
    assert "5 weitere Spieler gefunden: bitte mehr vom Namen eingeben." in html


def test_the_running_round_comes_first_with_a_link_to_its_table(client, hall):
    a, b, c, d, e, f, g, h = hall
    play(hall[0].tournament, 1, [[a, b, c, d], [e, f, g, h]], [[], []])
    play(hall[0].tournament, 2, [[h, g, b, a], [d, c, f, e]], [[], []], status=RoundStatus.RELEASED)
    html = where(client, "Kaessmann")
    assert "Runde 2: Tisch 1, Position 4" in html
    plan = reverse("public-table-plan", args=["herbst"])
    assert f'<a href="{plan}#table-1">1</a>' in html
    assert html.count('class="current"') == 1
    # Once the round is closed nothing is "now": the next one is not released yet.
    hall[0].tournament.rounds.filter(number=2).update(status=RoundStatus.CLOSED)
    html = where(client, "Kaessmann")
    assert "Runde 2: Tisch" not in html and 'class="current"' not in html
    assert "autofocus" not in html  # the phone's keyboard must not cover the result


def test_a_player_without_a_seat_is_told_whom_to_ask(client, hall):
    a, b, c, d, e, f, g, h = hall
    assert "Noch keine Runde freigegeben." in where(client, "Kässmann")
    # Round 1 is released, but Kässmann (registered late) has no seat in it.
    play(a.tournament, 1, [[b, c, d, e]], [[]], status=RoundStatus.RELEASED)
    html = where(client, "Kässmann")
    assert "In keiner freigegebenen Runde eingeteilt: bitte bei der Turnierleitung melden." in html
    assert "Noch keine Runde freigegeben." not in html


def test_the_search_reads_the_names_in_a_fixed_number_of_queries(
    client, public, django_assert_max_num_queries
):
    for n in range(1, 60):
        person(public, n, "Spieler", f"Müller{n}")
    with django_assert_max_num_queries(8):
        html = where(client, "mueller")
    assert len(found(html)) == 20


# --- standings on a phone ------------------------------------------------------------------


def test_no_empty_column_without_teams_and_penalties(client, public):
    a, b, c, d = (person(public, n, "Spieler", f"N{n}", club="DSC") for n in range(1, 5))
    play(public, 1, [[a, b, c, d]], [[(3, -3, 1, -1)]])
    html = client.get(reverse("public-standings", args=["herbst"])).content.decode()
    assert header(html) == ["Platz", "Nr.", "Name", "Verein", "R1", "Summe"]
    assert row(html, 1).count("<td") == 6


def test_team_penalty_and_note_columns_appear_when_something_is_in_them(
    client, public, director_user
):
    red = Team.objects.create(tournament=public, name="Rot")
    a, b, c, d = (person(public, n, "Spieler", f"N{n}") for n in range(1, 5))
    a.team = red
    a.status = EntryStatus.WITHDRAWN
    a.save()
    (table,) = play(public, 1, [[a, b, c, d]], [[(3, -3, 1, -1)]])
    url = reverse("public-standings", args=["herbst"])
    # No club typed for anybody (no club column); the withdrawn player's note has a column.
    assert header(client.get(url).content.decode()) == [
        "Platz", "Nr.", "Name", "Team", "R1", "Summe", ""
    ]  # fmt: skip
    Penalty.objects.create(table=table, game_number=1, offender=b, category="geringfuegig",
                           p1=1, p2=-3, p3=1, p4=1, referee=director_user,
                           signed_at=timezone.now())  # fmt: skip
    html = client.get(url).content.decode()
    assert header(html) == ["Platz", "Nr.", "Name", "Team", "R1", "Strafen", "Summe", ""]
    assert 'class="num penalties fold">-3<' in row(html, 2)


def test_the_phone_sees_rank_name_and_total_and_the_rest_under_the_name(client, public):
    red = Team.objects.create(tournament=public, name="Rot")
    a, b, c, d = (person(public, n, "Karla", f"N{n}", club=f"Club {n}") for n in range(1, 5))
    a.team = red
    a.save()
    play(public, 1, [[a, b, c, d]], [[(3, -3, 1, -1)]])
    play(public, 2, [[d, c, b, a]], [[(2, -2, 2, -2)]])
    html = client.get(reverse("public-standings", args=["herbst"])).content.decode()
    cells = re.findall(r'<td class="([^"]*)">', row(html, 1))
    # Only rank, name and total stay on a phone; every other cell folds away (site.css).
    assert [css for css in cells if "fold" not in css.split()] == ["num rank", "name", "num total"]
    detail = re.search(r'<span class="detail">(.*?)</span>', row(html, 1))[1]
    assert detail == "Nr.\xa01 · Club 1 · Rot · R1\xa03 · R2\xa0-2"
    heads = re.findall(r"<th ([^>]*)>", html.split('id="standings"')[1].split("</thead>")[0])
    assert sum("fold" in attrs for attrs in heads) == len(heads) - 3


def test_the_css_folds_the_columns_on_a_narrow_screen():
    from pathlib import Path

    from django.conf import settings

    css = (Path(settings.BASE_DIR) / "tournament/static/tournament/site.css").read_text()
    phone = css[css.index("/* --- public pages on a phone --- */") :]
    assert re.search(
        r"@media \(max-width: 40rem\) \{\s*\.standings \.fold[^{]*\{ display: none; \}", phone
    )


def test_players_who_never_started_are_listed_apart_without_rank(client, director_client, public):
    a, b, c, d = (person(public, n, "Spieler", f"N{n}") for n in range(1, 5))
    late = person(public, 5, "Karla", "Kässmann")
    play(public, 1, [[a, b, c, d]], [[(-3, -3, 3, 3)]])
    for url in (
        reverse("public-standings", args=["herbst"]),
        reverse("manage:standings", args=["herbst"]),
    ):
        html = (client if url.startswith("/t/") else director_client).get(url).content.decode()
        table = html.split('id="standings"')[1].split("</table>")[0]
        assert "Kässmann" not in table and 'id="line-5"' not in table
        assert "<h2>Nicht angetreten</h2>" in html
        item = re.search(r'<li id="absent-5">(.*?)</li>', html)[1]
        assert item == '<span class="num">5</span> Karla Kässmann'
        # Below the ranked table.
        assert html.index('id="standings"') < html.index('id="not-started"')
    assert late.pk


def test_without_no_shows_there_is_no_not_started_list(client, public):
    a, b, c, d = (person(public, n, "Spieler", f"N{n}") for n in range(1, 5))
    play(public, 1, [[a, b, c, d]], [[(-3, -3, 3, 3)]])
    html = client.get(reverse("public-standings", args=["herbst"])).content.decode()
    assert "Nicht angetreten" not in html


def test_before_the_first_round_nobody_is_listed_as_not_started(client, public):
    a, b, c, d = (person(public, n, "Spieler", f"N{n}") for n in range(1, 5))
    play(public, 1, [[a, b, c, d]], [[]], status=RoundStatus.DRAWN)  # drawn, not released
    html = client.get(reverse("public-standings", args=["herbst"])).content.decode()
    assert "Nicht angetreten" not in html and "Noch keine Ergebnisse." in html


def test_the_polled_body_keeps_the_phone_layout(client, public):
    a, b, c, d = (person(public, n, "Spieler", f"N{n}") for n in range(1, 5))
    person(public, 5, "Karla", "Nie")
    play(public, 1, [[a, b, c, d]], [[(-3, -3, 3, 3)]])
    url = reverse("public-standings", args=["herbst"])
    body = client.get(url, headers={"HX-Request": "true"}).content.decode()
    assert "<html" not in body
    assert '<span class="detail">' in row(body, 1) and 'class="num total"' in row(body, 1)
    assert 'id="absent-5"' in body


def test_the_public_page_speaks_english_too(client, public):
    a, b, c, d = (person(public, n, "Spieler", f"N{n}") for n in range(1, 5))
    person(public, 5, "Karla", "Nie")
    play(public, 1, [[a, b, c, d]], [[(-3, -3, 3, 3)]])
    client.cookies["django_language"] = "en"
    html = client.get(reverse("public-standings", args=["herbst"])).content.decode()
    assert "Where do I sit?" in html and "Wo sitze ich?" not in html
    assert "<h2>Not started</h2>" in html
    assert header(html) == ["Rank", "No.", "Name", "R1", "Total"]  # headers start with a capital
    assert "No.\xa01 · R1\xa0-3" in row(html, 1)


# --- participants page ------------------------------------------------------------------------


def test_the_participants_page_shows_no_empty_team_column(client, public):
    person(public, 1, "Karla", "Kässmann", club="DSC")
    html = client.get(reverse("tournament-public", args=["herbst"])).content.decode()
    heads = re.findall(
        r"<th[^>]*>([^<]*)</th>", html.split('id="participants"')[1].split("</thead>")[0]
    )
    assert heads == ["Nr.", "Name", "Verein"]
    team = Team.objects.create(tournament=public, name="Rot")
    public.entries.update(team=team)
    html = client.get(reverse("tournament-public", args=["herbst"])).content.decode()
    assert '<span class="detail">DSC · Rot</span>' in html
    heads = re.findall(
        r"<th[^>]*>([^<]*)</th>", html.split('id="participants"')[1].split("</thead>")[0]
    )
    assert heads == ["Nr.", "Name", "Verein", "Team"]
