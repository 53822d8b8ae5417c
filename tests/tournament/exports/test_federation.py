"""Results for the federation: the CSV and Excel files read back and compared with values
worked out by hand (a 5-table whose dealer repeats after a Pflichtsolo, a penalty, a
withdrawn, a disqualified and a never-started player, a name that starts like a formula),
the fixed header, who may download them, and a constant number of queries."""

import csv
from io import BytesIO, StringIO

import pytest
from django.conf import settings
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone, translation
from openpyxl import load_workbook

from tests.downloads import file_of
from tests.factories import EntryFactory, PlayerFactory, TournamentFactory, director, referee
from tournament.exports import federation
from tournament.exports.export import XLSX
from tournament.models import (
    EntryStatus,
    Game,
    GameKind,
    Penalty,
    Round,
    RoundStatus,
    Seat,
    Table,
)
from tournament.queries import standings as standings_domain

pytestmark = pytest.mark.django_db

HEADER = [
    "rank", "ddv_number", "last_name", "first_name", "club", "start_number", "rounds_played",
    "games_played", "penalty_points", "total", "status", "r1", "r2",
]  # fmt: skip

# (start number, last name, first name, club, DDV number)
PLAYERS = [
    (1, "Adler", "Anna", "DSC Köln", "01001"),
    (2, "Bauer", "Bernd", "Kreuz Bube", "1002"),
    (3, "=Cramer", "Carla", "-Minus", ""),
    (4, "Dietz", "Dora", "", "1004"),
    (5, "Ernst", "Emil", "Kreuz Bube", "1005"),
    (6, "Fuchs", "Frida", "@Skat", "1006"),
    (7, "Graf", "Gustav", "DSC Köln", "1007"),
    (8, "Horn", "Hanna", "+Plus", "1008"),
    (9, "Igel", "Ida", "", "1009"),
    (10, "Jung", "Jakob", "DSC Köln", "1010"),
]

# What the files must say, worked out by hand from the games in `hall` (below):
#   round 1, table 1 (5 players: 1-5); at a 5-table the dealer sits out: game 1 dealer 1;
#     game 2 is player 3's Pflichtsolo, after which (DDV) dealer 2 deals again in game 3;
#     game 4 dealer 3. Game 3 is worth 0 for all (a won game cancelled by an extra point).
#     Sat out: 1 once, 2 twice, 3 once -> games played 3, 2, 3, 4, 4 of 4.
#     Points: 1: 0-1+0+2=1, 2: 2+0+0-2=0, 3: 2+3+0+0=5, 4: -2-1+0+2=-1, 5: -2-1+0-2=-5
#   round 1, table 2 (6, 7, 8, 9), 3 games: 6: 4, 7: 0, 8: 2, 9: -6
#   round 2, table 1 (1, 2, 3, 6), 2 games: 1: 3, 2: 1, 3: -3, 6: -1
#   round 2, table 2 (4, 5, 8, 9), 2 games: 4: -1, 5: 3, 8: -3, 9: 1;
#     a signed penalty against 8 (position 3): 8 -3, the others +1 each
#   7 withdrew after round 1; 9 was disqualified; 10 never sat at a table.
#   Totals: 1: 4, 6: 3, 3: 2, 2: 1, 7: 0, 4: -1, 5: -1 (rank 6 shared), 8: -4; 9 unranked.
EXPECTED = [
    # rank, ddv, last, first, club, no, rounds, games, penalties, total, status, r1, r2
    [1, "01001", "Adler", "Anna", "DSC Köln", 1, 2, 5, 0, 4, "active", 1, 3],
    [2, "1006", "Fuchs", "Frida", "@Skat", 6, 2, 5, 0, 3, "active", 4, -1],
    [3, None, "=Cramer", "Carla", "-Minus", 3, 2, 5, 0, 2, "active", 5, -3],
    [4, "1002", "Bauer", "Bernd", "Kreuz Bube", 2, 2, 4, 0, 1, "active", 0, 1],
    [5, "1007", "Graf", "Gustav", "DSC Köln", 7, 1, 3, 0, 0, "withdrawn", 0, None],
    [6, "1004", "Dietz", "Dora", None, 4, 2, 6, 1, -1, "active", -1, -1],
    [6, "1005", "Ernst", "Emil", "Kreuz Bube", 5, 2, 6, 1, -1, "active", -5, 3],
    [8, "1008", "Horn", "Hanna", "+Plus", 8, 2, 5, -3, -4, "active", 2, -3],
    [None, "1009", "Igel", "Ida", None, 9, 2, 5, 1, -4, "disqualified", -6, 1],
]


def table(round_, number, entries, games):
    """A table of ``round_`` seating ``entries`` in order, with ``games``: (kind, soloist,
    points per position)."""
    made = Table.objects.create(round=round_, number=number, size=len(entries))
    for position, entry in enumerate(entries, start=1):
        Seat.objects.create(round=round_, table=made, entry=entry, position=position)
    for game, (kind, soloist, points) in enumerate(games, start=1):
        values = dict(zip(("p1", "p2", "p3", "p4", "p5"), points, strict=False))
        Game.objects.create(table=made, number=game, kind=kind, soloist_position=soloist,
                            **values)  # fmt: skip
    return made


def normal(*points):
    return (GameKind.NORMAL, None, points)


def hall(tournament, referee_user):
    """The tournament of EXPECTED: two closed rounds."""
    tournament.planned_rounds = 2
    tournament.save()
    entries = {
        number: EntryFactory(
            tournament=tournament,
            start_number=number,
            player=PlayerFactory(last_name=last, first_name=first, club=club, ddv_number=ddv),
        )
        for number, last, first, club, ddv in PLAYERS
    }
    e = entries
    first = Round.objects.create(tournament=tournament, number=1, status=RoundStatus.CLOSED)
    table(first, 1, [e[1], e[2], e[3], e[4], e[5]], [
        normal(0, 2, 2, -2, -2),
        (GameKind.PFLICHTSOLO, 3, (-1, 0, 3, -1, -1)),
        normal(0, 0, 0, 0, 0),
        normal(2, -2, 0, 2, -2),
    ])  # fmt: skip
    table(first, 2, [e[6], e[7], e[8], e[9]], [
        normal(3, -3, 3, -3), normal(-1, 1, 1, -1), normal(2, 2, -2, -2),
    ])  # fmt: skip
    second = Round.objects.create(tournament=tournament, number=2, status=RoundStatus.CLOSED)
    table(second, 1, [e[1], e[2], e[3], e[6]], [normal(1, -1, -1, 1), normal(2, 2, -2, -2)])
    penalised = table(
        second, 2, [e[4], e[5], e[8], e[9]], [normal(-2, 2, -2, 2), normal(1, 1, -1, -1)]
    )
    Penalty.objects.create(table=penalised, game_number=2, offender=e[8], offender_position=3,
                           category="geringfuegig", p1=1, p2=1, p3=-3, p4=1,
                           referee=referee_user, signed_at=timezone.now())  # fmt: skip
    e[7].status = EntryStatus.WITHDRAWN
    e[7].save()
    e[9].status = EntryStatus.DISQUALIFIED
    e[9].save()
    return entries


@pytest.fixture
def referee_user():
    return referee(username="schiri")


def read_csv(content: bytes) -> list[list[str]]:
    assert content.startswith(b"\xef\xbb\xbf")  # the byte order mark Excel needs for umlauts
    return list(csv.reader(StringIO(content.decode("utf-8-sig"), newline="")))


def as_csv(value) -> str:
    """A value of EXPECTED as the CSV file writes it: text that starts like a formula with a
    quote in front, numbers (negative ones too) as digits, no value as an empty field."""
    if value is None:
        return ""
    if isinstance(value, str) and value[0] in "=+-@":
        return f"'{value}"
    return str(value)


def test_the_csv_file_holds_every_result_worked_out_by_hand(tournament, referee_user):
    hall(tournament, referee_user)
    content = federation.results_csv(tournament)
    assert content.count(b"\r\n") == 10 and b";" not in content
    header, *body = read_csv(content)
    assert header == HEADER
    assert body == [[as_csv(value) for value in row] for row in EXPECTED]
    cramer, horn = body[2], body[7]
    assert cramer[2:5] == ["'=Cramer", "Carla", "'-Minus"] and cramer[12] == "-3"
    assert horn[4] == "'+Plus" and horn[8:10] == ["-3", "-4"]
    assert body[0][1] == "01001" and "DSC Köln" in body[0]
    assert "Jung" not in content.decode("utf-8-sig")  # never started: not in the file


def test_the_workbook_has_the_same_table_with_numbers_as_numbers(tournament, referee_user):
    hall(tournament, referee_user)
    with translation.override("en"):
        book = load_workbook(BytesIO(federation.results_workbook(tournament)))
    assert book.sheetnames == ["Results", "Columns"]
    sheet = book["Results"]
    rows = [list(row) for row in sheet.iter_rows(values_only=True)]
    assert rows[0] == HEADER
    assert rows[1:] == EXPECTED  # the names as entered: text cells, no quote, no formula
    assert sheet.freeze_panes == "A2"
    assert sheet["C4"].value == "=Cramer" and sheet["C4"].data_type == "s"
    assert sheet["M4"].value == -3 and sheet["A10"].value is None
    formulas = [cell for ws in book for row in ws.iter_rows() for cell in row
                if cell.data_type == "f"]  # fmt: skip
    assert formulas == []
    legend = [row for row in book["Columns"].iter_rows(values_only=True) if any(row)]
    assert legend[0][0] == tournament.name
    assert legend[1][0] == "Results for the federation – final"
    start = legend.index(("Column", "Meaning")) + 1
    assert [row[0] for row in legend[start:]] == HEADER
    assert legend[start + 12][1].startswith("Game points in round 2")


def test_the_header_is_the_documented_one():
    text = (settings.BASE_DIR / "README.md").read_text(encoding="utf-8")
    section = text.split("### Results for the federation\n", 1)[1].split("\n## ", 1)[0]
    documented = [line.split("`")[1] for line in section.splitlines() if line.startswith("| `")]
    assert documented == HEADER[:-1]  # the fixed columns, then "`r1`, `r2`, …"
    assert federation.header([1, 2]) == HEADER
    assert federation.header([]) == HEADER[:-2]


def test_games_played_follow_the_dealer_not_the_zeros(tournament, referee_user):
    """At the 5-table neither the rows' zeros (game 3 is 0 for everybody) nor a plain
    rotation of the deal (sitters 1, 2, 3, 4) give what the ledger gives: after player 3's
    Pflichtsolo dealer 2 deals, and sits out, again. Round 2 adds two games for each."""
    entries = hall(tournament, referee_user)
    played = federation.games_played(standings_domain.compute(tournament))
    assert {n: played[entries[n].pk] for n in range(1, 6)} == {1: 5, 2: 4, 3: 5, 4: 6, 5: 6}
    assert entries[10].pk not in played


def test_after_the_time_limit_an_owing_dealer_passes_the_deal(tournament):
    """Players 2-5 have played their Pflichtsolo (dealer 1 dealing each time); after the time
    limit the dealer, the only one still owing, passes the deal to player 2 and plays his
    vorgeführtes Pflichtsolo: player 2 sits out game 5, not player 1."""
    players = [EntryFactory(tournament=tournament, start_number=n) for n in range(1, 6)]
    round_ = Round.objects.create(tournament=tournament, number=1, status=RoundStatus.CLOSED)
    solos = [(GameKind.PFLICHTSOLO, soloist, tuple(
        0 if p == 1 else 3 if p == soloist else -1 for p in range(1, 6)
    )) for soloist in (2, 3, 4, 5)]  # fmt: skip
    five = table(round_, 1, players, [*solos, (GameKind.VORGEFUEHRT, 1, (3, 0, -1, -1, -1))])
    five.sheet.time_limit_from = 5
    five.sheet.save()
    played = federation.games_played(standings_domain.compute(tournament))
    assert [played[entry.pk] for entry in players] == [1, 4, 5, 5, 5]


def test_before_any_round_the_files_have_the_header_only(tournament):
    EntryFactory(tournament=tournament, start_number=1)
    header, *body = read_csv(federation.results_csv(tournament))
    assert header == HEADER[:-2] and body == []
    book = load_workbook(BytesIO(federation.results_workbook(tournament)))
    assert [list(r) for r in book.worksheets[0].iter_rows(values_only=True)] == [HEADER[:-2]]


def bigger(tournament, referee_user, rounds, tables):
    """``rounds`` closed rounds of ``tables`` tables each, every third one a 5-table with a
    Pflichtsolo, a signed penalty at every table."""
    size = sum(5 if t % 3 == 0 else 4 for t in range(tables))
    entries = [EntryFactory(tournament=tournament, start_number=n + 1) for n in range(size)]
    for number in range(1, rounds + 1):
        round_ = Round.objects.create(tournament=tournament, number=number, status="closed")
        start = 0
        for t in range(tables):
            seats = 5 if t % 3 == 0 else 4
            group = [entries[(start + i + number) % size] for i in range(seats)]
            start += seats
            games = [normal(*(0, 1, -1, 1, -1)[5 - seats :])] * 2
            if seats == 5:
                games.insert(1, (GameKind.PFLICHTSOLO, 3, (-1, 0, 3, -1, -1)))
            made = table(round_, t + 1, group, games)
            Penalty.objects.create(table=made, game_number=1, offender=group[1],
                                   offender_position=2, category="geringfuegig", p1=1, p2=-3,
                                   p3=1, p4=1, referee=referee_user,
                                   signed_at=timezone.now())  # fmt: skip


def queries(tournament) -> int:
    """The queries both files take (each reads the standings once)."""
    tournament.refresh_from_db()
    with CaptureQueriesContext(connection) as context:
        federation.results_csv(tournament)
        federation.results_workbook(tournament)
    return len(context)


def test_a_constant_number_of_queries(tournament, director_user, referee_user):
    bigger(tournament, referee_user, rounds=1, tables=2)
    large = TournamentFactory(slug="gross", directors=[director_user])
    bigger(large, referee_user, rounds=4, tables=9)
    rows = federation.results_rows(standings_domain.compute(large)).rows
    assert len(rows) == 39 and {row["games_played"] for row in rows} >= {7, 8}
    assert queries(tournament) == queries(large)


def test_the_director_downloads_both_files(director_client, tournament, referee_user):
    hall(tournament, referee_user)
    page = director_client.get(reverse("manage:standings", args=[tournament.slug]))
    for fmt in ("csv", "xlsx"):
        assert reverse("manage:results-export", args=[tournament.slug, fmt]) in page.text
    response = director_client.get(reverse("manage:results-export", args=["herbst", "csv"]))
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"] == 'attachment; filename="herbst-ergebnisse.csv"'
    assert read_csv(response.content)[1] == [as_csv(value) for value in EXPECTED[0]]
    response = director_client.get(reverse("manage:results-export", args=["herbst", "xlsx"]))
    assert response["Content-Type"] == XLSX
    assert response["Content-Disposition"] == 'attachment; filename="herbst-ergebnisse.xlsx"'
    assert load_workbook(BytesIO(file_of(response))).worksheets[0]["C2"].value == "Adler"


@pytest.mark.parametrize("fmt", ["csv", "xlsx"])
def test_only_the_tournaments_directors_get_the_files(tournament, referee_user, fmt):
    hall(tournament, referee_user)
    url = reverse("manage:results-export", args=[tournament.slug, fmt])
    anonymous = Client().get(url)
    assert anonymous.status_code == 302 and anonymous.url.startswith(reverse("login"))
    other = Client()
    other.force_login(director(username="anderswo"))
    assert other.get(url).status_code == 404
    official = Client()
    tournament.referees.add(referee_user)
    official.force_login(referee_user)
    assert official.get(url).status_code == 403  # the tournament's referee: not a director


def test_the_file_name_says_when_the_results_are_not_final(director_client, tournament):
    # No round closed yet: the CSV itself cannot say "provisional", its name does.
    response = director_client.get(reverse("manage:results-export", args=[tournament.slug, "csv"]))
    assert response["Content-Disposition"] == (
        'attachment; filename="herbst-ergebnisse-vorlaeufig.csv"; '
        "filename*=UTF-8''herbst-ergebnisse-vorl%C3%A4ufig.csv"
    )
