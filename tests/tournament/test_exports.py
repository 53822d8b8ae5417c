"""Exports read back: xlsx cells are numbers where numbers belong and never formulas, the
PDF lists the ranks in order, the command writes every kind of file."""

from io import BytesIO

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse
from openpyxl import load_workbook
from pypdf import PdfReader

from tests.factories import EntryFactory, PlayerFactory
from tests.tournament.test_standings import play
from tournament.domain import exports

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


def test_the_workbook_has_numbers_as_numbers_and_no_formulas(tournament):
    a, b, c, d = field(tournament)
    play(tournament, 1, [[a, b, c, d]], [[(3, -3, 1, -1)]])
    book = load_workbook(BytesIO(exports.workbook(tournament)))
    assert book.sheetnames == ["Rangliste", "Runde 1", "Teams"]
    sheet = book["Rangliste"]
    assert sheet.freeze_panes == "A2"
    header = [cell.value for cell in sheet[1]]
    assert header[:3] == ["Platz", "Nr.", "Name"] and header[-2] == "Summe"
    ranks = [row[0].value for row in sheet.iter_rows(min_row=2)]
    totals = [row[header.index("Summe")].value for row in sheet.iter_rows(min_row=2)]
    assert ranks == [1, 2, 3, 4] and totals == [3, 1, -1, -3]
    assert all(isinstance(v, int) for v in ranks + totals)
    names = {row[2].value for row in sheet.iter_rows(min_row=2)}
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
    text = pdf_text(exports.standings_pdf(tournament))
    order = [text.index(f"Nummer{n}") for n in (2, 4, 3, 1)]
    assert order == sorted(order)
    assert "Herbstturnier" in text and "Vorläufiger Stand" in text
    assert "Seite 1 von 1" in text


def test_hostile_names_are_text_in_the_pdf(tournament):
    a, b, c, d = field(tournament)
    play(tournament, 1, [[a, b, c, d]], [[(3, -3, 1, -1)]])
    text = pdf_text(exports.standings_pdf(tournament))
    assert "=HYPERLINK" in text and "@SUM(A1)" in text


def test_the_director_downloads_the_files(director_client, tournament):
    a, b, c, d = field(tournament)
    play(tournament, 1, [[a, b, c, d]], [[(3, -3, 1, -1)]])
    xlsx = director_client.get(
        reverse("manage:standings-export", args=["herbst", "standings", "xlsx"])
    )
    assert xlsx["Content-Type"] == exports.XLSX_TYPE
    assert load_workbook(BytesIO(xlsx.content))["Rangliste"]["A2"].value == 1
    pdf = director_client.get(reverse("manage:standings-export", args=["herbst", "rounds", "pdf"]))
    assert pdf.content.startswith(b"%PDF") and "Runde 1" in pdf_text(pdf.content)


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
