"""Exports read back: xlsx cells are numbers where numbers belong and never formulas, the
PDF lists the ranks in order, the command writes every kind of file."""

import html
import re
import shutil
import subprocess
from io import BytesIO

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse
from django.utils import timezone, translation
from openpyxl import load_workbook
from pypdf import PdfReader

from tests.downloads import file_of
from tests.factories import EntryFactory, PlayerFactory
from tests.tournament.exports.test_standings import play
from tournament.exports import documents, xlsx
from tournament.exports.export import XLSX
from tournament.models import EntryStatus, Penalty, Table, Team

pytestmark = pytest.mark.django_db

HOSTILE = ['=HYPERLINK("http://127.0.0.1:1/","x")', "+1+1", "-2+3", "@SUM(A1)", "\tTab"]


def field(tournament):
    players = []
    for n, last in enumerate(HOSTILE[:4], start=1):
        player = PlayerFactory(first_name="", last_name=last, club="=CMD|' /C calc'!A0")
        players.append(EntryFactory(tournament=tournament, start_number=n, player=player))
    return players


def pdf_text(content: bytes) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(BytesIO(content)).pages)


def layout_text(content: bytes) -> str:
    """The text of a PDF line by line as it stands on the page (poppler's pdftotext)."""
    assert shutil.which("pdftotext"), "make test installs poppler-utils"
    return subprocess.run(
        ["pdftotext", "-layout", "-", "-"],  # noqa: S607
        input=content,
        capture_output=True,
        check=True,
    ).stdout.decode()


def header_row(sheet) -> int:
    """The row of the table's header: the sheet starts with lines about the tournament."""
    for row in sheet.iter_rows(max_col=1):
        if row[0].value in ("Platz", "Rank", "Tisch", "Table", "Spiel", "Game", "Nr.", "No."):
            return row[0].row
    raise AssertionError("no header row")


def test_the_workbook_has_numbers_as_numbers_and_no_formulas(tournament):
    a, b, c, d = field(tournament)
    play(tournament, 1, [[a, b, c, d]], [[(3, -3, 1, -1)]])
    book = load_workbook(BytesIO(xlsx.workbook(tournament)))
    assert book.sheetnames == ["Rangliste", "Runde 1", "Teams"]
    sheet = book["Rangliste"]
    top = header_row(sheet)
    assert sheet.freeze_panes == f"A{top + 1}"
    header = [cell.value for cell in sheet[top]]
    assert header[:3] == ["Platz", "Nr.", "Name"] and header[-2] == "Summe"
    ranks = [row[0].value for row in sheet.iter_rows(min_row=top + 1)]
    totals = [row[header.index("Summe")].value for row in sheet.iter_rows(min_row=top + 1)]
    assert ranks == [1, 2, 3, 4] and totals == [3, 1, -1, -3]
    assert all(isinstance(v, int) for v in ranks + totals)
    names = {row[2].value for row in sheet.iter_rows(min_row=top + 1)}
    assert names == set(HOSTILE[:4])
    formulas = [
        cell.coordinate
        for ws in book.worksheets
        for row in ws.iter_rows()
        for cell in row
        if cell.data_type == "f"
    ]
    assert formulas == []
    assert sheet.column_dimensions["C"].width >= 10


def test_the_standings_pdf_lists_the_ranks_in_order(tournament):
    players = [
        EntryFactory(tournament=tournament, start_number=n,
                     player=PlayerFactory(first_name="Spieler", last_name=f"Nummer{n}"))
        for n in range(1, 5)
    ]  # fmt: skip
    a, b, c, d = players
    play(tournament, 1, [[a, b, c, d]], [[(-3, 3, -1, 1)]])
    text = pdf_text(documents.standings_pdf(tournament))
    order = [text.index(f"Nummer{n}") for n in (2, 4, 3, 1)]
    assert order == sorted(order)
    assert "Herbstturnier" in text and "Vorläufiger Stand" in text
    assert "Seite 1 von 1" in text


def test_hostile_names_are_text_in_the_pdf(tournament):
    a, b, c, d = field(tournament)
    play(tournament, 1, [[a, b, c, d]], [[(3, -3, 1, -1)]])
    text = pdf_text(documents.standings_pdf(tournament))
    assert "=HYPERLINK" in text and "@SUM(A1)" in text


def test_the_director_downloads_the_files(director_client, tournament):
    a, b, c, d = field(tournament)
    play(tournament, 1, [[a, b, c, d]], [[(3, -3, 1, -1)]])
    book = director_client.get(
        reverse("manage:standings-export", args=["herbst", "standings", "xlsx"])
    )
    assert book["Content-Type"] == XLSX
    sheet = load_workbook(BytesIO(file_of(book)))["Rangliste"]
    assert sheet.cell(row=header_row(sheet) + 1, column=1).value == 1
    pdf = director_client.get(reverse("manage:standings-export", args=["herbst", "rounds", "pdf"]))
    content = file_of(pdf)
    assert content.startswith(b"%PDF") and "Runde 1" in pdf_text(content)


@pytest.mark.parametrize("what", ["standings", "teams", "rounds", "sheets", "tableplan"])
@pytest.mark.parametrize("fmt", ["pdf", "xlsx"])
def test_the_export_command_writes_every_kind(tournament, tmp_path, what, fmt):
    a, b, c, d = field(tournament)
    play(tournament, 1, [[a, b, c, d]], [[(3, -3, 1, -1)]])
    output = tmp_path / f"out.{fmt}"
    call_command("export", tournament="herbst", what=what, format=fmt, output=str(output))
    content = output.read_bytes()
    if fmt == "pdf":
        assert content.startswith(b"%PDF")
        assert "Herbstturnier" in pdf_text(content)
    else:
        book = load_workbook(BytesIO(content))
        assert book.sheetnames


def test_the_export_command_refuses_an_unknown_tournament(tmp_path):
    with pytest.raises(CommandError, match="No tournament"):
        call_command("export", tournament="gibtsnicht", what="standings", format="pdf",
                     output=str(tmp_path / "x.pdf"))  # fmt: skip


LONG_CLUBS = [
    "Doppelkopffreunde Kreuz-Dame Oberhausen-Sterkrade 1987 e.V.",
    "1. Doppelkopfclub Schwarz-Weiß Gelsenkirchen-Buer",
    "DSC Herz As",
    "Kreuz Bube Mülheim an der Ruhr",
]


def big_field(tournament, players=60, rounds=6, absent=2):
    """``players`` who play ``rounds`` rounds at four-tables, and ``absent`` more who
    registered but never came."""
    entries = [
        EntryFactory(tournament=tournament, start_number=n, player=PlayerFactory(
            first_name="Anna-Lena", last_name=f"Schmidt {n:02d}",
            club=LONG_CLUBS[n % len(LONG_CLUBS)]))
        for n in range(1, players + absent + 1)
    ]  # fmt: skip
    tournament.planned_rounds = rounds
    tournament.save()
    seated = entries[:players]
    for number in range(1, rounds + 1):
        order = seated[number:] + seated[:number]
        groups = [order[i : i + 4] for i in range(0, players, 4)]
        rows = [[(number + t, -number - t, 2, -2)] for t in range(len(groups))]
        play(tournament, number, groups, rows)
    return entries


def words(content: bytes) -> list[list[tuple[float, float, float, str]]]:
    """Per page the words of a PDF with their left, right and top edge, read back with
    poppler's pdftotext (a glyph drawn outside a clipped cell still has its box here)."""
    assert shutil.which("pdftotext"), "make test installs poppler-utils"
    out = subprocess.run(
        ["pdftotext", "-bbox", "-", "-"],  # noqa: S607
        input=content,
        capture_output=True,
        check=True,
    ).stdout.decode()
    word = r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="[\d.]+">([^<]*)</word>'
    return [
        [
            (float(x0), float(x1), float(y0), html.unescape(w))
            for x0, y0, x1, w in re.findall(word, page)
        ]
        for page in out.split("<page ")[1:]
    ]


def squeeze(text: str) -> str:
    return "".join(text.split())


def test_the_standings_pdf_prints_every_club_in_full_inside_its_column(tournament):
    """Issue 15.17: long club names were clipped ("Doppelkopffreun"), the rounds were tiny
    monospace and pages half empty."""
    big_field(tournament)
    content = documents.standings_pdf(tournament)
    text = squeeze(pdf_text(content))
    for club in LONG_CLUBS:
        assert squeeze(club) in text, club
    pages = words(content)
    assert len(pages) == 2  # 60 players with long clubs and 6 rounds: two full pages
    height = 842  # A4 in points
    last_row = max(y for _x0, _x1, y, w in pages[0] if w.startswith("Schmidt"))
    assert last_row > 0.8 * height  # the first page is filled
    for page in pages:
        # The header row on every page, each round in its own column.
        heads = {}
        for x0, x1, y, w in sorted(page, key=lambda word: -word[2]):
            if w in ("Name", "Verein", "R1", "R2", "R6"):
                heads[w] = (x0, x1, y)  # the topmost: the ranked table's header row
        assert set(heads) == {"Name", "Verein", "R1", "R2", "R6"}
        # Right-aligned headers: one column's width apart; the club's column ends where R1's
        # begins, and a word in it ends at least the cell's padding before.
        pitch = heads["R2"][1] - heads["R1"][1]
        club_left, club_right = heads["Verein"][0] - 3, heads["R1"][1] - pitch + 0.5
        name_left = heads["Name"][0] - 3
        top = heads["Verein"][2]
        end = min([y for _x0, _x1, y, w in page if w == "Nicht"] + [height - 50])  # no footer
        body = [(x0, x1, w) for x0, x1, y, w in page if top + 5 < y < end]
        club_words = {w for club in LONG_CLUBS for w in club.split()}
        in_club = [(x0, x1, w) for x0, x1, w in body if club_left <= x0 < club_right]
        assert in_club and all(w in club_words for _x0, _x1, w in in_club)
        # No word of a club runs past its column into the round points.
        assert all(x1 <= club_right for _x0, x1, _w in in_club), in_club
        names = [(x0, x1, w) for x0, x1, w in body if name_left <= x0 < club_left]
        assert all(x1 <= club_left for _x0, x1, _w in names)
        points = [w for x0, x1, w in body if club_right <= x0 and x1 <= heads["R1"][1] + 0.5]
        assert points and all(re.fullmatch(r"-?\d+|–", w) for w in points)


def test_the_standings_pdf_lists_no_shows_apart_without_a_rank(tournament):
    """Issue 15.4: a no-show was ranked 11th of 25 with 0 points."""
    entries = big_field(tournament, players=8, rounds=2, absent=2)
    text = layout_text(documents.standings_pdf(tournament))
    ranked, absent = text.split("Nicht angetreten")
    for entry in entries[:8]:
        assert entry.player.last_name in ranked
    for entry in entries[8:]:
        assert entry.player.last_name not in ranked and entry.player.last_name in absent
    # Start number and name, no rank and no points.
    line = re.search(r"^\s*9\s+Anna-Lena Schmidt 09 .*$", absent, re.M)
    assert line and not re.search(r"\d\s*$", line.group(0)), line
    with translation.override("en"):
        assert "Not started" in pdf_text(documents.standings_pdf(tournament))


def test_the_workbook_heads_each_sheet_with_the_tournament_and_lists_no_shows_apart(tournament):
    """Issue 15.18: the sheet itself says what it is, not only the file properties."""
    tournament.venue = "Gemeindehaus St. Marien"
    tournament.save()
    entries = big_field(tournament, players=8, rounds=2, absent=1)
    tournament.planned_rounds = 3
    tournament.save()
    book = load_workbook(BytesIO(xlsx.workbook(tournament)))
    assert book.properties.title == "Herbstturnier – vorläufig"
    sheet = book["Rangliste"]
    top = header_row(sheet)
    head = [sheet.cell(row=r, column=1).value for r in range(1, top)]
    assert head[0] == "Herbstturnier" and sheet["A1"].font.b
    assert head[1] == "Rangliste – vorläufig"
    assert head[2].startswith("5. Dezember 2026 · Gemeindehaus St. Marien · ")
    assert re.fullmatch(r"erstellt am \d+\. \w+ \d{4} um \d\d:\d\d Uhr", head[3])
    assert sheet.freeze_panes == f"A{top + 1}"
    rows = list(sheet.iter_rows(min_row=top + 1, values_only=True))
    ranked = rows[: rows.index((None,) * len(rows[0]))]
    assert sorted(r[1] for r in ranked) == [e.start_number for e in entries[:8]]
    assert all(isinstance(r[0], int) and isinstance(r[-2], int) for r in ranked)
    caption, no_show = rows[len(ranked) + 1], rows[len(ranked) + 2]
    assert caption[0] == "Nicht angetreten"
    assert no_show[:3] == (None, 9, entries[8].player.full_name) and no_show[5:] == (None,) * (
        len(no_show) - 5
    )
    for name in ("Runde 1", "Teams"):
        other = book[name]
        assert other["A1"].value == "Herbstturnier"
        assert other.freeze_panes == f"A{header_row(other) + 1}"
    assert book["Runde 1"]["A2"].value == "Runde 1 – abgeschlossen"
    assert book["Teams"]["A2"].value == "Teams – vorläufig"
    tournament.planned_rounds = 2
    tournament.save()
    final = load_workbook(BytesIO(xlsx.workbook(tournament)))["Rangliste"]
    assert final["A2"].value == "Rangliste – endgültig"
    with translation.override("en"):
        english = load_workbook(BytesIO(xlsx.workbook(tournament)))["Standings"]
    assert english["A2"].value == "Standings – final"


def test_the_rounds_pdf_lists_each_tables_penalties_under_it(tournament, director_user):
    a, b, c, d, e, f, g, h = big_field(tournament, players=8, rounds=1, absent=0)
    first, second = Table.objects.filter(round__number=1).order_by("number")
    signed = Penalty.objects.create(
        table=second, game_number=1, offender=second.seats.get(position=2).entry,
        offender_position=2, category="geringfuegig", p1=1, p2=-3, p3=1, p4=1,
        referee=director_user, signed_at=timezone.now())  # fmt: skip
    Penalty.objects.create(
        table=second, game_number=1, offender=second.seats.get(position=1).entry,
        offender_position=1, category="schwerwiegend", p1=-6, p2=2, p3=2, p4=2)  # fmt: skip
    text = pdf_text(documents.rounds_pdf(tournament))
    before, after = text.split("Tisch 2")
    heading = "STRAFEN AN DIESEM TISCH"
    assert heading not in before and "Keine Strafen an diesem Tisch" in before
    assert heading in after
    offender = signed.offender.player.full_name
    lines = [squeeze(line) for line in after.split("Spiel ")[1:]]
    assert squeeze(f"Nr. {signed.number} ·") in squeeze(after)
    assert lines[0].startswith(squeeze(f"1 · {signed.offender.start_number} {offender}"))
    assert squeeze("+1 / -3 / +1 / +1 · unterschrieben, zählt") in lines[0]
    assert squeeze("-6 / +2 / +2 / +2 · nicht unterschrieben, zählt nicht") in lines[1]
    # The seat of the offender: game points, the signed penalty, the total.
    row = next(line for line in after.splitlines() if offender in line)
    # Table 2 played (2, -2, 2, -2); the unsigned penalty does not count.
    assert squeeze(row).endswith("-2-3-5")


def test_the_round_sheets_show_penalties_and_totals_per_seat(tournament, director_user):
    big_field(tournament, players=4, rounds=1, absent=0)
    table = Table.objects.get()
    Penalty.objects.create(
        table=table, game_number=1, offender=table.seats.get(position=2).entry,
        offender_position=2, category="geringfuegig", p1=1, p2=-3, p3=1, p4=1,
        referee=director_user, signed_at=timezone.now())  # fmt: skip
    sheet = load_workbook(BytesIO(xlsx.workbook(tournament, "rounds")))["Runde 1"]
    top = header_row(sheet)
    header = [c.value for c in sheet[top]]
    assert header == ["Tisch", "Position", "Nr.", "Name", "Punkte", "Strafen", "Summe"]
    rows = list(sheet.iter_rows(min_row=top + 1, values_only=True))
    # big_field: the game row of round 1, table 1 is (1, -1, 2, -2).
    assert [r[4:] for r in rows] == [(1, 1, 2), (-1, -3, -4), (2, 1, 3), (-2, 1, -1)]


def test_the_page_the_workbook_and_the_pdf_show_the_same_standings(director_client, tournament):
    """One source of rows: ranks (ties shared, the disqualified without one), names and
    totals agree on the page, in the Excel file and in the PDF; the no-show is apart in all
    three, and so is the team's line."""
    names = ["Adler", "Bauer", "Christ", "Dorn", "Eck", "Fuchs", "Graf", "Haas", "Ibsen"]
    people = [
        EntryFactory(tournament=tournament, start_number=n, player=PlayerFactory(
            first_name="Karl", last_name=last, club=f"Club {n % 2}"))
        for n, last in enumerate(names, start=1)
    ]  # fmt: skip
    red = Team.objects.create(tournament=tournament, name="Rot")
    for entry in (people[0], people[4]):
        entry.team = red
        entry.save()
    people[7].status = EntryStatus.DISQUALIFIED
    people[7].save()
    play(tournament, 1, [people[0:4], people[4:8]], [[(3, -3, 1, -1)], [(3, -3, 1, -1)]])
    expected = [
        ("1", "Karl Adler", "3"), ("1", "Karl Eck", "3"), ("3", "Karl Christ", "1"),
        ("3", "Karl Graf", "1"), ("5", "Karl Dorn", "-1"), ("6", "Karl Bauer", "-3"),
        ("6", "Karl Fuchs", "-3"), ("", "Karl Haas", "-1"),
    ]  # fmt: skip

    page = director_client.get(reverse("manage:standings", args=["herbst"])).content.decode()
    table = page.split('id="standings"')[1].split("</table>")[0]
    on_page = [
        (re.search(r'class="num rank">([^<]*)<', tr)[1],
         html.unescape(re.search(r'class="name">([^<]*)<', tr)[1]),
         re.search(r'class="num total">([^<]*)<', tr)[1])
        for tr in re.findall(r'<tr class="[^"]*" id="line-\d+">.*?</tr>', table)
    ]  # fmt: skip
    apart_on_page = re.findall(r'<li id="absent-(\d+)">', page)
    teams_on_page = re.findall(r'class="num rank">(\d+)</td><td class="name">(\w+)<', page)

    book = load_workbook(BytesIO(xlsx.workbook(tournament)))
    sheet = book["Rangliste"]
    top = header_row(sheet)
    header = [cell.value for cell in sheet[top]]
    lines = [[cell.value for cell in row] for row in sheet.iter_rows(min_row=top + 1)]
    gap = next(i for i, line in enumerate(lines) if not any(line))
    in_book = [
        ("" if line[0] is None else str(line[0]), line[2], str(line[header.index("Summe")]))
        for line in lines[:gap]
    ]
    assert lines[gap + 1][0] == "Nicht angetreten"
    apart_in_book = [str(line[1]) for line in lines[gap + 2 :]]
    teams = book["Teams"]
    teams_in_book = [
        (str(row[0].value), row[1].value) for row in teams.iter_rows(min_row=header_row(teams) + 1)
    ]

    text = layout_text(documents.standings_pdf(tournament))
    ranked, rest = text.split("Nicht angetreten")
    absent_part, team_part = rest.split("Teams")
    row = re.compile(r"^\s*(?:(\d+)\s+)?\d+\s+(Karl \w+).*?(-?\d+)\s*$", re.M)
    in_pdf = [(rank or "", name, total) for rank, name, total in row.findall(ranked)]
    apart_in_pdf = re.findall(r"^\s*(\d+)\s+Karl", absent_part, re.M)
    teams_in_pdf = re.findall(r"^\s*(\d+)\s+(Rot)\b", team_part, re.M)

    assert on_page == in_book == in_pdf == expected
    assert apart_on_page == apart_in_book == apart_in_pdf == ["9"]
    assert teams_on_page == teams_in_book == teams_in_pdf == [("1", "Rot")]
