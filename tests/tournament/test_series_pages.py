"""Series pages and downloads: the public table and a player's history (every figure traced
to its rounds), the PDF and the workbook read back, the directors' pages (create, change,
refused input, someone else's series), and a page whose queries do not grow with the series.

The field is the one of test_series.py: A 6, C 3, B 2, D -3, E -8 over three tournaments."""

import datetime
from io import BytesIO

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation
from openpyxl import load_workbook

from tests.downloads import file_of
from tests.factories import PlayerFactory, director, make_series, played_tournament
from tests.tournament.exports.test_exports import pdf_text
from tournament.base.caching import memo
from tournament.models import Series, SeriesMethod, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def cup(series_field):
    tournaments, _ = series_field
    series = make_series(tournaments, method=SeriesMethod.AVERAGE, min_rounds=4)
    series.description = "Jahreswertung des Vereins"
    series.is_public = True
    series.save()
    for t in tournaments:  # on the public page only public tournaments count
        t.is_public = True
        t.save()
    return series


def english(client, url):
    client.cookies["django_language"] = "en"
    return client.get(url)


def test_the_public_page_ranks_and_lists_the_players_below_the_minimum(client, cup):
    page = english(client, reverse("series-public", args=[cup.slug]))
    assert page.status_code == 200
    text = page.content.decode()
    lines = page.context["ranked_rows"]
    assert [(row["rank"], row["name"], str(row["value"])) for row, _pk in lines] == [
        (1, "A Spieler A", "1.20"),
        (2, "C Spieler C", "0.75"),
        (3, "B Spieler B", "0.40"),
    ]
    assert "Not yet ranked" in text
    assert "not yet ranked: 3 of 4 rounds" in text
    assert "still running" in text  # T3
    assert "average per round played · ranked from 4 rounds" in text


def test_german_is_the_default_and_values_use_a_decimal_comma(client, cup):
    text = client.get(reverse("series-public", args=[cup.slug])).content.decode()
    assert "Noch nicht gewertet" in text
    assert ">1,20<" in text


def test_the_player_page_traces_the_value_to_every_round(client, cup, series_people):
    url = reverse("series-player", args=[cup.slug, series_people["A"].pk])
    text = english(client, url).content.decode()
    assert "Rank 1" in text
    assert "1.20" in text
    assert "3 tournaments" in text and "5 rounds" in text and "6 points" in text
    assert "R1 +6 · R2 -3" in text  # T1
    assert "R1 +4 · R2 +1" in text  # T2
    assert "R1 -2" in text and "R2 +10" not in text  # T3: round 2 is not closed


def test_a_player_without_a_result_and_a_private_series_give_404(client, cup):
    stranger = PlayerFactory()
    assert client.get(reverse("series-player", args=[cup.slug, stranger.pk])).status_code == 404
    cup.is_public = False
    cup.save()
    assert client.get(reverse("series-public", args=[cup.slug])).status_code == 404
    assert client.get(reverse("series-export", args=[cup.slug, "pdf"])).status_code == 404


def test_the_pdf_and_the_workbook_say_the_same(client, cup):
    client.cookies["django_language"] = "en"
    pdf = client.get(reverse("series-export", args=[cup.slug, "pdf"]))
    assert pdf["Content-Type"] == "application/pdf"
    text = pdf_text(file_of(pdf))
    assert "Vereinsmeisterschaft" in text
    assert "A Spieler A" in text and "1.20" in text
    assert "Not yet ranked" in text and "3 of 4 rounds" in text
    assert "tap a name" in text  # every result: on the page and in the workbook
    book = load_workbook(
        BytesIO(file_of(client.get(reverse("series-export", args=[cup.slug, "xlsx"]))))
    )
    table = book["Series table"]
    rows = list(table.iter_rows(values_only=True))
    header = next(i for i, row in enumerate(rows) if row[0] == "Rank")
    assert rows[header][:7] == (
        "Rank",
        "Name",
        "Club",
        "Tournaments",
        "Rounds",
        "Points",
        "Average",
    )
    assert rows[header + 1][:7] == (1, "A Spieler A", "DSC Testhausen", 3, 5, 6, 1.2)
    assert rows[header + 3][1] == "B Spieler B" and rows[header + 3][6] == 0.4
    below = next(i for i, row in enumerate(rows) if row[0] == "Not yet ranked")
    assert rows[below + 1][1] == "D Spieler D" and rows[below + 1][7] == "3 of 4 rounds"
    results = list(book["Results"].iter_rows(values_only=True))
    a_rows = [row for row in results if row[0] == "A Spieler A"]
    assert [row[3] for row in a_rows] == ["R1 +6 · R2 -3", "R1 +4 · R2 +1", "R1 -2"]
    assert [row[-1] for row in a_rows] == [None, None, None]  # every result counts
    assert table.cell(row=header + 2, column=7).number_format == "0.00"


def test_a_director_creates_and_changes_a_series(client, series_field):
    tournaments, _ = series_field
    boss = director()
    for t in tournaments:
        t.directors.add(boss)
    client.force_login(boss)
    with translation.override("en"):
        url = reverse("manage:series-create")
    data = {
        "name": "Pokal Nord",
        "slug": "",
        "method": SeriesMethod.PLACEMENT,
        "min_rounds": 0,
        "placement_points": "20,18,16",
        "tiebreak_0": "rounds",
        "tiebreak_1": "best-result",
        "tournaments": [t.pk for t in tournaments[:2]],
    }
    response = client.post(url, data)
    series = Series.objects.get()
    assert response.status_code == 302
    assert (series.slug, series.placement_points, series.tiebreak) == (
        "pokal-nord",
        "20, 18, 16",
        "rounds,best-result",
    )
    assert list(series.directors.all()) == [boss]
    record = series.history.latest("history_date")
    assert (record.history_user, record.history_role) == (boss, "director")
    assert set(series.tournaments.all()) == set(tournaments[:2])
    page = client.get(reverse("manage:series-detail", args=["pokal-nord"]))
    assert [row["value"] for row, _pk in page.context["ranked_rows"]] == [38, 34, 20, 16, 0]
    edit = reverse("manage:series-edit", args=["pokal-nord"])
    data["tournaments"] = [t.pk for t in tournaments]
    assert client.post(edit, data).status_code == 302
    assert series.tournaments.count() == 3


@pytest.mark.parametrize(
    ("change", "field_name", "message"),
    [
        ({"method": "best", "best_of": ""}, "best_of", "Sagen Sie, wie viele Turniere zählen."),
        ({"method": "placement", "placement_points": ""}, "placement_points", None),
        ({"placement_points": "20, achtzehn"}, "placement_points", None),
        ({"tiebreak_0": "rounds", "tiebreak_1": "rounds"}, "tiebreak_1", None),
    ],
)
def test_refused_input_says_why_and_saves_nothing(client, change, field_name, message):
    boss = director()
    client.force_login(boss)
    data = {"name": "Serie", "method": "sum", "min_rounds": 0, **change}
    response = client.post(reverse("manage:series-create"), data)
    assert response.status_code == 200
    errors = response.context["form"].errors
    assert field_name in errors
    if message:
        assert errors[field_name] == [message]
    assert not Series.objects.exists()


def test_another_directors_series_is_not_found_and_private_tournaments_stay_out(
    client, cup, series_field
):
    tournaments, _ = series_field
    owner, other = director(), director(username="anderswo")
    cup.directors.add(owner)
    client.force_login(other)
    assert client.get(reverse("manage:series-detail", args=[cup.slug])).status_code == 404
    assert client.get(reverse("manage:series-edit", args=[cup.slug])).status_code == 404
    for t in tournaments:
        t.is_public = False
        t.save()
    form = client.get(reverse("manage:series-create")).context["form"]
    assert list(form.fields["tournaments"].queryset) == []  # none public, none of theirs
    tournaments[0].is_public = True
    tournaments[0].save()
    form = client.get(reverse("manage:series-create")).context["form"]
    assert list(form.fields["tournaments"].queryset) == [tournaments[0]]


def test_the_public_page_takes_a_fixed_number_of_queries(client, cup, series_people):
    url = reverse("series-public", args=[cup.slug])
    with CaptureQueriesContext(connection) as small:
        client.get(url)
    extra = [PlayerFactory() for _ in range(8)]
    for day, group in ((20, extra[:4]), (27, extra[4:])):
        more, _ = played_tournament(
            datetime.date(2026, 5, day), 1, [dict(zip(group, (3, 1, -1, -3), strict=True))]
        )
        more.is_public = True
        more.save()
        cup.tournaments.add(more)
    with CaptureQueriesContext(connection) as large:
        page = client.get(url)
    assert len(page.context["ranked_rows"]) + len(page.context["below_rows"]) == 13
    assert len(large) == len(small)


def test_the_home_page_links_the_public_series(client, cup):
    text = client.get(reverse("home")).content.decode()
    assert reverse("series-public", args=[cup.slug]) in text


def test_the_director_sees_possible_duplicates_and_a_merge_counts_them_together(
    client, series_field, series_people
):
    tournaments, _ = series_field
    A = series_people["A"]
    twin = PlayerFactory(first_name="Ä", last_name="Spieler A")  # the same name, other spelling
    later, _ = played_tournament(
        datetime.date(2026, 5, 30), 1, [dict(zip([twin, *PlayerFactory.create_batch(3)],
                                                 (8, 0, -4, -4), strict=True))]
    )  # fmt: skip
    boss = director()
    for t in [*tournaments, later]:
        t.directors.add(boss)
    series = make_series([*tournaments, later])
    series.directors.add(boss)
    client.force_login(boss)
    page = client.get(reverse("manage:series-detail", args=[series.slug]))
    assert page.context["duplicates"] == [([A, twin], [A, twin])]
    link = f"{reverse('manage:player-merge', args=[later.slug])}?keep={A.pk}&amp;drop={twin.pk}"
    assert link in page.content.decode()
    merge = reverse("manage:player-merge", args=[later.slug])
    client.post(merge, {"keep": A.pk, "drop": twin.pk, "reason": "dieselbe Person"})
    page = client.get(reverse("manage:series-detail", args=[series.slug]))
    assert page.context["duplicates"] == []
    row, pk = page.context["ranked_rows"][0]
    assert (pk, row["tournaments"], row["value"]) == (A.pk, 4, 14)  # 6 + 8


def test_a_private_tournament_of_someone_else_counts_nowhere(client, cup, series_field, settings):
    """Issue 34, finding 4: made private after another director's series took it in, a
    tournament still showed its results on that series' page, workbook and PDF."""
    settings.SERIES_CACHE_SECONDS = 60  # the key must move, not the cache run out
    tournaments, _ = series_field
    owner, boss = director(username="eigentuemerin"), director(username="serienleitung")
    cup.directors.set([boss])
    for t in tournaments:
        t.directors.set([owner])
    client.force_login(boss)
    detail = reverse("manage:series-detail", args=[cup.slug])
    public = reverse("series-public", args=[cup.slug])
    before = [client.get(public).content, client.get(detail).context["standings"]]
    assert len(before[1].tournaments) == 3
    tournaments[0].is_public = False  # made private after it was added
    tournaments[0].save()
    page = client.get(public)
    assert [info.tournament for info in page.context["standings"].tournaments] == tournaments[1:]
    assert tournaments[0].name not in page.content.decode()
    mine = client.get(detail)
    assert [info.tournament for info in mine.context["standings"].tournaments] == tournaments[1:]
    assert tournaments[0].name not in mine.content.decode()
    rows = {row["name"]: row["rounds"] for row, _pk in mine.context["below_rows"]}
    assert rows["A Spieler A"] == 3  # without T1's 2 rounds: below the minimum of 4
    client.cookies["django_language"] = "en"
    for fmt in ("xlsx", "pdf"):
        content = file_of(client.get(reverse("manage:series-download", args=[cup.slug, fmt])))
        if fmt == "xlsx":
            book = load_workbook(BytesIO(content))
            text = " ".join(str(c) for ws in book for row in ws.iter_rows(values_only=True)
                            for c in row if c is not None)  # fmt: skip
        else:
            text = pdf_text(content)
        assert tournaments[0].name not in text and "R1 +6 · R2 -3" not in text, fmt
        assert tournaments[1].name in text, fmt


def test_a_series_directors_own_private_tournament_counts_on_their_page_only(
    client, cup, series_field
):
    tournaments, _ = series_field
    boss = director()
    cup.directors.clear()
    tournaments[0].directors.set([boss])
    tournaments[0].is_public = False  # not published yet
    tournaments[0].save()
    public = client.get(reverse("series-public", args=[cup.slug]))
    assert [info.tournament for info in public.context["standings"].tournaments] == tournaments[1:]
    rows = {row["name"]: row["rounds"] for row, _pk in public.context["ranked_rows"]}
    assert "A Spieler A" not in rows  # 3 rounds without T1: below the minimum of 4
    cup.directors.add(boss)
    client.force_login(boss)
    page = client.get(reverse("manage:series-detail", args=[cup.slug]))
    assert len(page.context["standings"].tournaments) == 3
    assert page.context["ranked_rows"][0][0]["name"] == "A Spieler A"
    cup.directors.remove(boss)  # no longer the series' director: T1 no longer counts
    other = director(username="andere")
    cup.directors.add(other)
    client.force_login(other)
    page = client.get(reverse("manage:series-detail", args=[cup.slug]))
    assert len(page.context["standings"].tournaments) == 2


def test_a_series_called_new_is_refused_and_directors_can_be_added(client):
    boss, colleague = director(), director(username="kollegin")
    client.force_login(boss)
    data = {"name": "New", "slug": "new", "method": "sum", "min_rounds": 0}
    response = client.post(reverse("manage:series-create"), data)
    assert "slug" in response.context["form"].errors
    del data["slug"]  # made from the name: "new" is taken by the page for a new series
    assert client.post(reverse("manage:series-create"), data).status_code == 302
    assert Series.objects.get().slug == "new-2"
    Series.objects.all().delete()
    data = {"name": "Pokal", "method": "sum", "min_rounds": 0, "directors": [colleague.pk]}
    assert client.post(reverse("manage:series-create"), data).status_code == 302
    series = Series.objects.get()
    assert set(series.directors.all()) == {boss, colleague}
    client.force_login(colleague)
    edit = reverse("manage:series-edit", args=[series.slug])
    assert client.post(edit, {**data, "directors": []}).status_code == 302
    assert list(series.directors.all()) == [colleague]  # boss removed, the editor stays


def test_the_public_pages_are_added_up_once_per_moment_in_each_language(
    client, cup, series_people, settings
):
    settings.SERIES_CACHE_SECONDS = 60
    url = reverse("series-public", args=[cup.slug])
    player = reverse("series-player", args=[cup.slug, series_people["A"].pk])
    for address in (url, player):
        client.get(address)
        with CaptureQueriesContext(connection) as again:
            assert client.get(address).status_code == 200
        assert len(again) <= 2  # the series and the session: nothing added up again
    # English has its own copy; the German one still says "Platz".
    assert "Rank 1" in english(client, player).content.decode()
    client.cookies["django_language"] = "de"
    assert "Platz 1" in client.get(player).content.decode()


WHOLE_NUMBERS = (
    "Schreiben Sie die Punkte als ganze Zahlen, durch Kommas getrennt, z. B. 20, 18, 16."
)


@pytest.mark.parametrize(
    ("points", "error"),
    [
        ("20, 18,5", WHOLE_NUMBERS),  # a decimal comma, not three places
        ("20, achtzehn", WHOLE_NUMBERS),
        ("10, 20", "Ein besserer Platz kann nicht weniger Punkte bekommen als ein schlechterer."),
    ],
)
def test_placement_points_that_cannot_be_meant_are_refused_once(client, points, error):
    client.force_login(director())
    data = {"name": "Pokal", "method": "placement", "min_rounds": 0, "placement_points": points}
    response = client.post(reverse("manage:series-create"), data)
    assert response.context["form"].errors == {"placement_points": [error]}
    assert not Series.objects.exists()


def test_a_second_series_of_the_same_name_gets_its_own_address(client):
    client.force_login(director())
    data = {"name": "Pokal", "method": "sum", "min_rounds": 0}
    for _ in range(2):
        assert client.post(reverse("manage:series-create"), data).status_code == 302
    assert sorted(Series.objects.values_list("slug", flat=True)) == ["pokal", "pokal-2"]


def test_a_saved_change_shows_on_the_public_page_at_once(client, cup, settings):
    settings.SERIES_CACHE_SECONDS = 60
    url = reverse("series-public", args=[cup.slug])
    assert "Noch nicht gewertet" in client.get(url).content.decode()
    boss = director()
    cup.directors.add(boss)
    client.force_login(boss)
    edit = reverse("manage:series-edit", args=[cup.slug])
    members = list(cup.tournaments.values_list("pk", flat=True))
    data = {"name": cup.name, "slug": cup.slug, "method": "sum", "min_rounds": 0,
            "is_public": "on", "tournaments": members}  # fmt: skip
    assert client.post(edit, data).status_code == 302
    assert "Noch nicht gewertet" not in client.get(url).content.decode()


def test_a_director_deletes_a_series_and_its_tournaments_stay(client, cup):
    boss = director()
    cup.directors.add(boss)
    client.force_login(boss)
    delete = reverse("manage:series-delete", args=[cup.slug])
    client.post(delete, {})  # not confirmed: nothing happens
    assert Series.objects.filter(pk=cup.pk).exists()
    assert client.post(delete, {"confirm": "yes"}).status_code == 302
    assert not Series.objects.filter(pk=cup.pk).exists()
    assert Tournament.objects.count() == 3
    assert Series.history.filter(history_type="-").get().history_user == boss


def test_player_pages_read_the_one_computation_of_the_series(client, cup, series_people):
    """The series page computes the series once; every player page, a made-up number as
    well, reads that computation: no adding up again, whatever the number."""
    assert client.get(reverse("series-public", args=[cup.slug])).status_code == 200
    computed = memo.computed
    url = reverse("series-player", args=[cup.slug, 999_999])
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 404
    assert "Nicht in dieser Serie" in response.content.decode()
    assert len(queries) <= 2  # the series, its tournaments' versions
    for player in series_people.values():
        page = client.get(reverse("series-player", args=[cup.slug, player.pk]))
        assert page.status_code == 200 and player.last_name in page.content.decode()
    assert memo.computed == computed


def table_of(client, series, language):
    client.cookies["django_language"] = language
    book = load_workbook(
        BytesIO(file_of(client.get(reverse("series-export", args=[series.slug, "xlsx"]))))
    )
    rows = list(book.worksheets[0].iter_rows(values_only=True))
    header = next(i for i, row in enumerate(rows) if row[0] in ("Rank", "Platz"))
    return rows[header], {row[1]: row for row in rows[header + 1 :] if row[1]}


def test_the_workbook_of_best_n_heads_each_points_column_with_its_meaning(client, cup):
    # Issue 35: "best N" wrote two columns headed "Punkte" with the same value.
    cup.method, cup.best_of, cup.min_rounds = SeriesMethod.BEST, 2, 0
    cup.save()
    header, lines = table_of(client, cup, "en")
    assert "Points, all tournaments" in header and "Points, best 2" in header
    assert len(set(header)) == len(header)
    every, best = header.index("Points, all tournaments"), header.index("Points, best 2")
    # A: T1 +3, T2 +5, T3 -2: every tournament 6, the best two 8
    assert (lines["A Spieler A"][every], lines["A Spieler A"][best]) == (6, 8)
    header, _lines = table_of(client, cup, "de")
    assert "Punkte, alle Turniere" in header and "Punkte, beste 2" in header


def test_the_workbook_of_a_plain_sum_has_one_points_column(client, cup):
    cup.method, cup.min_rounds = SeriesMethod.SUM, 0
    cup.save()
    header, lines = table_of(client, cup, "en")
    assert header.count("Points") == 1
    assert lines["A Spieler A"][header.index("Points")] == 6
