"""Uploaded tables (tournament.imports.tabular) against hostile XLSX files: reading stays
bounded whatever the file claims, damaged XML gets a message — for the player import and
the desk's sheet import alike."""

import io
import re
import zipfile

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from openpyxl import Workbook

from tests.factories import released_table
from tournament.domain.player_import import parse_player_file
from tournament.imports import tabular
from tournament.imports.tabular import ImportFileError, read_table
from tournament.models import Player
from tournament.sheets.paper import read_file

pytestmark = pytest.mark.django_db

PLAYERS = [["Vorname", "Nachname", "Verein"], ["Anna", "Schäfer", "Herz Dame Fulda"]]
SHEET = [["game", "kind", "soloist", "1", "2", "3", "4"], [1, "N", None, 2, -2, 2, -2]]
SHEET_PART = "xl/worksheets/sheet1.xml"
DAMAGED = "beschädigt oder keine XLSX-Datei"


def xlsx(rows, edit=None, part=SHEET_PART) -> bytes:
    """A workbook written by openpyxl; ``edit`` rewrites the XML of ``part``."""
    workbook = Workbook()
    for cells in rows:
        workbook.active.append(cells)
    buffer = io.BytesIO()
    workbook.save(buffer)
    if edit is None:
        return buffer.getvalue()
    return rewrite(buffer.getvalue(), part, edit)


def claim_every_column(xml: str) -> str:
    """The attack: the sheet claims 16,384 columns and has a cell in column XFD."""
    xml = re.sub(r'<dimension ref="[^"]*"/>', '<dimension ref="A1:XFD5"/>', xml)
    far = '<c r="XFD1" t="inlineStr"><is><t>far away</t></is></c>'
    return xml.replace("</row>", far + "</row>", 1)


def many_cells(xml: str) -> str:
    """Millions of empty cells in one row: a few KB zipped, far more XML unzipped."""
    return xml.replace("</row>", "<c/>" * 3_000_000 + "</row>", 1)


def test_a_claimed_width_of_16384_columns_reads_only_the_columns_of_the_format():
    content = xlsx(PLAYERS, claim_every_column)
    assert len(content) < 10_000
    rows = read_table("liste.xlsx", content)
    assert rows == [
        (1, ["Vorname", "Nachname", "Verein"]),
        (2, ["Anna", "Schäfer", "Herz Dame Fulda"]),
    ]
    assert all(len(cells) <= tabular.MAX_COLUMNS for _line, cells in rows)
    assert "far away" not in str(rows)


def test_cells_beyond_the_column_cap_are_not_read(monkeypatch):
    row = [f"c{i}" for i in range(1, 60)]
    rows = read_table("wide.xlsx", xlsx([row]))
    assert rows[0][1] == row[: tabular.MAX_COLUMNS]
    csv_rows = read_table("wide.csv", ";".join(row).encode())
    assert csv_rows[0][1] == row[: tabular.MAX_COLUMNS]


def test_a_row_of_millions_of_cells_is_refused_after_a_bounded_number_of_elements(monkeypatch):
    content = xlsx(PLAYERS, many_cells)
    assert len(content) < 100_000
    seen = []
    parse = tabular._Xlsx.parse

    def counting(self, *args, **kwargs):
        try:
            return parse(self, *args, **kwargs)
        finally:
            seen.append(self.elements)

    monkeypatch.setattr(tabular._Xlsx, "parse", counting)
    with pytest.raises(ImportFileError, match="mehr Daten als eine Liste"):
        read_table("liste.xlsx", content)
    assert max(seen) == tabular.MAX_XML_ELEMENTS + 1  # stopped there, not after 3 million


def test_a_file_that_unpacks_beyond_the_limit_is_refused_before_parsing(monkeypatch):
    monkeypatch.setattr(tabular, "MAX_UNPACKED_BYTES", 100_000)
    content = xlsx(PLAYERS, lambda xml: xml.replace("</row>", " " * 200_000 + "</row>", 1))
    monkeypatch.setattr(tabular._Xlsx, "parse", lambda *a, **k: pytest.fail("parsed"))
    with pytest.raises(ImportFileError, match="entpackt mehr als"):
        read_table("liste.xlsx", content)


@pytest.mark.parametrize(
    ("part", "edit"),
    [
        (SHEET_PART, lambda xml: xml.replace("</row>", "<row>", 1)),  # not well-formed
        (SHEET_PART, lambda xml: xml[: len(xml) // 2]),  # cut off
        ("xl/workbook.xml", lambda xml: "<?xml version='1.0'?><workbook"),
        ("xl/_rels/workbook.xml.rels", lambda xml: xml.replace("Relationship ", "Relation ")),
        # entities are never expanded: an XLSX part has no DTD
        (SHEET_PART, lambda xml: '<!DOCTYPE x [<!ENTITY a "aaaaaaaaaa">]>' + xml),
        (SHEET_PART, lambda xml: xml.replace('t="n"><v>42', 't="s"><v>42')),  # no such string
        (SHEET_PART, lambda xml: xml.replace("<v>42", "<v>4x2")),  # no number
    ],
)
def test_malformed_xml_is_a_message_not_a_crash(part, edit):
    content = xlsx([["Nachname"], ["Schäfer"], [42]], edit, part)
    with pytest.raises(ImportFileError, match=DAMAGED):
        read_table("liste.xlsx", content)


def shared_strings(content: bytes) -> bytes:
    """The workbook as Excel writes it: strings in xl/sharedStrings.xml, one rich text."""
    source = zipfile.ZipFile(io.BytesIO(content))
    strings: list[str] = []

    def share(match):
        strings.append(match.group(2))
        return f'<c r="{match.group(1)}" t="s"><v>{len(strings) - 1}</v></c>'

    sheet = re.sub(
        r'<c r="(\w+)" t="inlineStr"><is><t>(.*?)</t></is></c>',
        share,
        source.read(SHEET_PART).decode(),
    )
    main = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
    items = "".join(f"<si><t>{text}</t></si>" for text in strings)
    items += "<si><r><t>Mül</t></r><r><t>ler</t></r><rPh><t>myuraa</t></rPh></si>"
    rels = source.read("xl/_rels/workbook.xml.rels").decode()
    rels = rels.replace(
        "</Relationships>",
        '<Relationship Id="rIdS" Target="sharedStrings.xml" Type="http://schemas.openxml'
        'formats.org/officeDocument/2006/relationships/sharedStrings"/></Relationships>',
    )
    sheet = sheet.replace(
        "</sheetData>", f'<row r="9"><c r="B9" t="s"><v>{len(strings)}</v></c></row></sheetData>'
    )
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as target:
        for name in source.namelist():
            data = {SHEET_PART: sheet, "xl/_rels/workbook.xml.rels": rels}.get(name)
            target.writestr(name, data if data is not None else source.read(name))
        target.writestr("xl/sharedStrings.xml", f'<sst xmlns="{main}">{items}</sst>')
    return out.getvalue()


def test_shared_strings_inline_strings_numbers_and_formulas_are_read():
    content = xlsx([["Nachname", "Startnummer", "Summe"], ["Ötzi", 7.0, "=1+1"]])
    rows = [(1, ["Nachname", "Startnummer", "Summe"]), (2, ["Ötzi", "7", ""])]
    assert read_table("liste.xlsx", content) == rows
    assert read_table("liste.xlsx", shared_strings(content)) == [*rows, (9, ["", "Müller"])]


def test_the_player_import_upload_refuses_hostile_xlsx_with_a_message(director_client, tournament):
    url = reverse("manage:import", args=[tournament.slug])
    wide = SimpleUploadedFile("liste.xlsx", xlsx(PLAYERS, claim_every_column))
    response = director_client.post(url, {"file": wide})
    assert response.status_code == 200
    assert "Schäfer" in response.content.decode() and "far away" not in response.content.decode()
    broken = xlsx(PLAYERS, lambda xml: xml.replace("</row>", "<row>", 1))
    response = director_client.post(url, {"file": SimpleUploadedFile("liste.xlsx", broken)})
    assert response.status_code == 400
    assert DAMAGED in response.content.decode()
    bomb = SimpleUploadedFile("liste.xlsx", xlsx(PLAYERS, many_cells))
    response = director_client.post(url, {"file": bomb})
    assert response.status_code == 400
    assert "mehr Daten als eine Liste" in response.content.decode()
    assert Player.objects.count() == 0
    assert (
        parse_player_file(tournament, "l.xlsx", xlsx(PLAYERS, claim_every_column)).new_players == 1
    )


def test_the_desk_sheet_import_refuses_hostile_xlsx_with_a_message(director_client, tournament):
    table = released_table(tournament)
    url = reverse("manage:sheet-import", args=[tournament.slug, 1, 1])
    assert read_file("s.xlsx", xlsx(SHEET, claim_every_column)) == read_file("s.xlsx", xlsx(SHEET))
    for content, message in [
        (xlsx(SHEET, lambda xml: xml.replace("</row>", "<row>", 1)), DAMAGED),
        (xlsx(SHEET, many_cells), "mehr Daten als eine Liste"),
    ]:
        response = director_client.post(url, {"file": SimpleUploadedFile("s.xlsx", content)})
        assert response.status_code == 422
        assert message in response.content.decode()
    assert not table.games.exists()
    wide = SimpleUploadedFile("s.xlsx", xlsx(SHEET, claim_every_column))
    assert director_client.post(url, {"file": wide}).status_code == 302
    assert [tuple(g.points) for g in table.games.all()] == [(2, -2, 2, -2)]


# --- bounded work per character and per shared string ------------------------------------


def rewrite(content: bytes, part: str, edit) -> bytes:
    """``content`` with the XML of ``part`` rewritten by ``edit``."""
    source = zipfile.ZipFile(io.BytesIO(content))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for info in source.infolist():
            data = source.read(info.filename)
            if info.filename == part:
                data = edit(data.decode()).encode()
            target.writestr(info.filename, data)
    return out.getvalue()


def reading(monkeypatch) -> list:
    """Collects the reader (tabular._Xlsx) of every XLSX read, to look at its counters."""
    readers: list = []
    parse = tabular._Xlsx.parse

    def recording(self, *args, **kwargs):
        if self not in readers:
            readers.append(self)
        return parse(self, *args, **kwargs)

    monkeypatch.setattr(tabular._Xlsx, "parse", recording)
    return readers


@pytest.mark.parametrize("shared", [False, True], ids=["inline", "shared"])
@pytest.mark.parametrize(
    ("filler", "characters"),
    [("\n" * 1_000_000, 1_000_000), ("&#10;" * 100_000, 100_000)],
    ids=["newlines", "entities"],
)
def test_a_cell_of_a_million_line_breaks_costs_a_few_handler_calls(
    monkeypatch, shared, filler, characters
):
    """expat reports every line break and every character reference on its own; unbuffered,
    a 4 KB upload made a million handler calls, each summing up to 1,000 pieces."""
    content = xlsx([["Nachname"], ["X"]])
    part = SHEET_PART
    if shared:
        content, part = shared_strings(content), "xl/sharedStrings.xml"
    content = rewrite(content, part, lambda xml: xml.replace("<t>X</t>", f"<t>A{filler}B</t>"))
    assert len(content) < 10_000
    readers = reading(monkeypatch)
    rows = read_table("liste.xlsx", content)
    # cut to MAX_CELL_CHARS ("A" and 999 line breaks), then stripped
    assert rows[:2] == [(1, ["Nachname"]), (2, ["A"])]
    calls = readers[0].text_calls
    # one call per buffer of text plus one per other text run (the short cells)
    assert calls <= characters // tabular.TEXT_BUFFER_CHARS + 10
    assert calls <= 26  # instead of 1,000,000 or 100,000


def one_shared_string_everywhere(rows: int) -> bytes:
    """``rows`` rows of MAX_COLUMNS cells, each the one shared string of 1,000 characters
    with spaces around it."""
    content = shared_strings(xlsx([["X"]]))
    # rows and cells without "r": each is the next one
    data = ("<row>" + '<c t="s"><v>0</v></c>' * tabular.MAX_COLUMNS + "</row>") * rows
    content = rewrite(
        content, SHEET_PART, lambda xml: re.sub(r"<sheetData>.*</sheetData>", "", xml, flags=re.S)
    )
    content = rewrite(
        content,
        SHEET_PART,
        lambda xml: xml.replace("</worksheet>", f"<sheetData>{data}</sheetData></worksheet>"),
    )
    text = "  " + "x" * 996 + "  "
    return rewrite(
        content,
        "xl/sharedStrings.xml",
        lambda xml: xml.replace("<t>X</t>", f'<t xml:space="preserve">{text}</t>'),
    )


def test_every_cell_on_one_shared_string_is_refused_at_the_character_budget(monkeypatch):
    """5,001 rows of 30 cells, all the one 1,000-character string: under 20 KB of upload,
    150 million characters if every cell were read (195 MB when each cell stripped a copy)."""
    content = one_shared_string_everywhere(tabular.MAX_ROWS + 1)
    assert len(content) < 20_000
    readers = reading(monkeypatch)
    with pytest.raises(ImportFileError, match="mehr als 4 Millionen Zeichen Text"):
        read_table("liste.xlsx", content)
    reader = readers[0]
    # stopped at the first cell beyond the budget: 4,017 cells of 996 characters, 134 rows
    assert reader.chars == 996 * (tabular.MAX_TABLE_CHARS // 996 + 1) == 4_000_932
    assert tabular.MAX_TABLE_CHARS < reader.chars <= tabular.MAX_TABLE_CHARS + 996
    # a row, and a cell and its value per column: 134 rows parsed, not 5,001
    assert reader.elements < 135 * (1 + 2 * tabular.MAX_COLUMNS) + 100


def test_a_shared_string_is_stripped_once_and_the_same_object_in_every_cell(monkeypatch):
    content = one_shared_string_everywhere(100)
    readers = reading(monkeypatch)
    rows = read_table("liste.xlsx", content)
    assert [line for line, _cells in rows] == list(range(1, 101))
    cells = [cell for _line, row in rows for cell in row]
    assert len(cells) == 100 * tabular.MAX_COLUMNS == 3000
    assert cells[0] == "x" * 996
    assert len({id(cell) for cell in cells}) == 1  # one str, no copy per cell
    assert readers[0].chars == 3000 * 996 == 2_988_000 <= tabular.MAX_TABLE_CHARS


def test_the_character_budget_holds_for_csv_too(monkeypatch):
    monkeypatch.setattr(tabular, "MAX_TABLE_CHARS", 10)
    assert read_table("l.csv", b"abcde;fghij\n") == [(1, ["abcde", "fghij"])]
    with pytest.raises(ImportFileError, match="Millionen Zeichen"):
        read_table("l.csv", b"abcde;fghij\nk\n")


def test_max_rows_stops_after_that_many_rows_with_content():
    content = b"a\n\n\nb\nc\nd\n"
    assert read_table("l.csv", content, max_rows=2) == [(1, ["a"]), (2, []), (3, []), (4, ["b"])]
    rows = [[f"n{i}"] for i in range(1, 11)]
    assert read_table("l.xlsx", xlsx(rows), max_rows=3) == [(1, ["n1"]), (2, ["n2"]), (3, ["n3"])]
    assert len(read_table("l.xlsx", xlsx(rows), max_rows=None)) == 10


@pytest.mark.parametrize("kind", ["csv", "xlsx"])
def test_the_player_import_reads_one_line_beyond_its_limit_and_no_further(
    monkeypatch, tournament, kind
):
    from tournament.domain import player_import

    players = tabular.MAX_ROWS  # far more than MAX_IMPORT_LINES
    if kind == "csv":
        lines = "\n".join(f"Name{n};Club" for n in range(players))
        content = f"Nachname;Verein\n{lines}\n".encode()
    else:
        content = xlsx([["Nachname", "Verein"]] + [[f"Name{n}", "Club"] for n in range(players)])
    read = []

    def counting(*args, **kwargs):
        rows = read_table(*args, **kwargs)
        read.append(len(rows))
        return rows

    monkeypatch.setattr(player_import, "read_table", counting)
    with pytest.raises(ImportFileError, match="mehr als 1000 Zeilen mit Spielern; höchstens 1000"):
        parse_player_file(tournament, f"liste.{kind}", content)
    assert read == [player_import.MAX_IMPORT_LINES + 2] == [1002]  # header, 1000, one more
