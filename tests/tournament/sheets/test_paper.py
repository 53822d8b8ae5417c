"""Paper lists: one kind vocabulary and one reader for the desk grid, the sheet file import and
the ``checksheet`` command, seen from the pages that show the kinds again (keeper page, desk,
print pack)."""

import io
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.urls import reverse
from openpyxl import Workbook
from pypdf import PdfReader

from scoring.kinds import Kind
from scoring.rows import MAX_LINES, MAX_POINTS
from tests.factories import released_table
from tournament.exports import printpack
from tournament.imports.tabular import ImportFileError
from tournament.models import GameKind
from tournament.sheets.paper import read_file

pytestmark = pytest.mark.django_db

HEADER = ["game", "kind", "soloist", "1", "2", "3", "4"]
# A clean DDV round at a 4-table with every kind of game: positions 1-3 play their
# Pflichtsolo, 1 a Lustsolo after it, 2 a Hochzeit that became a solo, 3 a stille Hochzeit;
# position 4 never plays its Pflichtsolo and must play it vorgeführt in the last game.
EVERY_KIND = [
    ("P", 1, (3, -1, -1, -1)),
    ("P", 2, (-1, 3, -1, -1)),
    ("P", 3, (-1, -1, 3, -1)),
    ("L", 1, (6, -2, -2, -2)),
    ("H", 2, (-1, 3, -1, -1)),
    ("Q", 3, (-3, -3, 9, -3)),
    *[("N", None, (1, -1, 1, -1) if n % 2 else (-2, 2, 2, -2)) for n in range(17)],
    ("V", 4, (-1, -1, -1, 3)),
]
STORED = [
    (GameKind.of(Kind(letter)).value, soloist, points) for letter, soloist, points in EVERY_KIND
]


def rows(table):
    return [(g.kind, g.soloist_position, tuple(g.points)) for g in table.games.order_by("number")]


def desk_url(table):
    return reverse("manage:sheet-desk", args=["herbst", 1, table.number])


def desk_data(games, **extra) -> dict:
    data = {"lines": str(max(27, len(games))), **extra}
    for number, (letter, soloist, points) in enumerate(games, start=1):
        data.update({f"kind-{number}": letter, f"solo-{number}": str(soloist or "")})
        data.update({f"p{p}-{number}": str(v) for p, v in enumerate(points, start=1)})
    return data


def csv_text(lines, *, header=HEADER) -> str:
    body = [
        ",".join([str(number), letter, str(soloist or ""), *map(str, points)])
        for number, (letter, soloist, points) in enumerate(lines, start=1)
    ]
    return "\n".join([",".join(header), *body]) + "\n"


def xlsx_bytes(lines) -> bytes:
    workbook = Workbook()
    workbook.active.append(HEADER)
    for number, (letter, soloist, points) in enumerate(lines, start=1):
        workbook.active.append([number, letter, soloist, *points])
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


def upload(director_client, table, name, content, **extra):
    url = reverse("manage:sheet-import", args=["herbst", 1, table.number])
    return director_client.post(url, {"file": SimpleUploadedFile(name, content), **extra})


def checksheet(path, *args) -> tuple[int, dict]:
    """(exit code, report) of ``checksheet``."""
    out = io.StringIO()
    try:
        call_command("checksheet", str(path), *args, stdout=out)
    except SystemExit as exit_info:
        return int(exit_info.code or 0), json.loads(out.getvalue())
    return 0, json.loads(out.getvalue())


@pytest.fixture
def table(tournament):
    return released_table(tournament)


# --- one vocabulary ------------------------------------------------------------------------


def test_every_kind_has_one_letter_and_every_game_kind_is_stored_under_its_name():
    assert [k.value for k in Kind] == ["N", "P", "V", "L", "H", "Q", "S"]
    assert {k.scoring for k in GameKind} == {k for k in Kind if k.is_game}
    for kind in GameKind:
        assert GameKind.of(kind.scoring) is kind and kind.value == kind.name.lower()
    assert Kind.STILLE_HOCHZEIT.is_solo and not Kind.STILLE_HOCHZEIT.is_pflichtsolo
    assert not Kind.PENALTY.is_game and not Kind.PENALTY.is_solo
    with pytest.raises(KeyError):
        GameKind.of(Kind.PENALTY)


def test_every_kind_round_trips_through_desk_grid_file_import_and_checksheet(
    director_client, tournament, table, tmp_path
):
    response = director_client.post(desk_url(table), desk_data(EVERY_KIND))
    assert response.status_code == 302
    assert rows(table) == STORED
    assert [kind for kind, _soloist, _points in STORED] == [
        *["pflichtsolo"] * 3,
        *["lustsolo", "hochzeit", "stille_hochzeit"],
        *["normal"] * 17,
        "vorgefuehrt",
    ]
    assert table.games.get(number=6).get_kind_display() == "stille Hochzeit"

    from_csv = released_table(tournament, table_number=2, first_start=5)
    assert (
        upload(director_client, from_csv, "l.csv", csv_text(EVERY_KIND).encode()).status_code == 302
    )
    from_xlsx = released_table(tournament, table_number=3, first_start=9)
    assert upload(director_client, from_xlsx, "l.xlsx", xlsx_bytes(EVERY_KIND)).status_code == 302
    assert rows(from_csv) == rows(from_xlsx) == STORED

    path = tmp_path / "liste.csv"
    path.write_text(csv_text(EVERY_KIND), encoding="utf-8")
    code, report = checksheet(path)
    assert code == 0 and report["ok"] is True and report["findings"] == []
    xlsx_path = tmp_path / "liste.xlsx"
    xlsx_path.write_bytes(xlsx_bytes(EVERY_KIND))
    assert checksheet(xlsx_path) == (code, report)


def test_the_running_totals_of_every_source_give_the_same_games(director_client, table, tmp_path):
    running, totals = [], (0, 0, 0, 0)
    for letter, soloist, points in EVERY_KIND:
        totals = tuple(t + v for t, v in zip(totals, points, strict=True))
        running.append((letter, soloist, totals))
    response = director_client.post(desk_url(table), desk_data(running, cumulative="on"))
    assert response.status_code == 302 and rows(table) == STORED
    size, per_game = read_file("l.csv", csv_text(running).encode(), cumulative=True)
    assert [(GameKind.of(r.kind).value, r.soloist, r.points) for r in per_game] == STORED
    page = director_client.get(desk_url(table) + "?cumulative=1").content.decode()
    assert f'name="p1-24" value="{totals[0]}"' in page  # shown again as on paper


WRONG_TOTAL = (
    "Spiel 10, Position 2: die laufende Summe ist um 2 zu hoch; ab Spiel 11 stimmt sie wieder."
)


def test_one_wrong_running_total_is_named_on_the_desk_and_by_checksheet(
    director_client, table, tmp_path
):
    running, totals = [], (0, 0, 0, 0)
    for letter, soloist, points in EVERY_KIND:
        totals = tuple(t + v for t, v in zip(totals, points, strict=True))
        running.append((letter, soloist, totals))
    # Player 2's total in game 10 written 2 too high; game 11 is right again.
    letter, soloist, totals = running[9]
    running[9] = (letter, soloist, (totals[0], totals[1] + 2, *totals[2:]))
    path = tmp_path / "liste.csv"
    path.write_text(csv_text(running), encoding="utf-8")
    code, report = checksheet(path, "--cumulative")
    assert code == 1
    assert [(f["game"], f["code"], f["message"]) for f in report["findings"]] == [
        (10, "running-total-high", WRONG_TOTAL)
    ]
    # The desk stores the games and shows them again as running totals, with the same words.
    response = director_client.post(
        desk_url(table), desk_data(running, cumulative="on"), follow=True
    )
    page = response.content.decode()
    assert response.redirect_chain[-1][0].endswith("?cumulative=1")
    assert WRONG_TOTAL in page and "Zeilensumme" not in page
    assert "aber die Liste hat 1 Fehler" in page  # the notice counts as the list shows
    # Seen game by game, the two rows that do not add up are what the list shows.
    page = director_client.get(desk_url(table)).content.decode()
    assert "Zeilensumme 2" in page and "Zeilensumme -2" in page and WRONG_TOTAL not in page


def test_the_keeper_page_and_the_desk_name_each_kind_by_its_own_letter(
    client, director_client, table
):
    director_client.post(desk_url(table), desk_data(EVERY_KIND))
    page = client.get(reverse("keeper-sheet", args=[table.token])).content.decode()
    assert '<abbr title="stille Hochzeit">Q</abbr>' in page
    assert '<abbr title="Hochzeit als Solo">H</abbr>' in page
    assert '<abbr title="vorgeführtes Pflichtsolo">V</abbr>' in page
    assert ">S</abbr>" not in page
    desk = director_client.get(desk_url(table)).content.decode()
    assert 'name="kind-6" value="Q"' in desk
    legend = desk.split('id="kind-legend">')[1].split("</p>")[0]
    assert "Q stille Hochzeit" in legend and "Strafe" not in legend  # the desk takes no penalty


def test_the_print_pack_legend_names_each_letter_once(table):
    reader = PdfReader(io.BytesIO(printpack.print_pack(table.round, "http://x/")))
    sheet = " ".join(reader.pages[0].extract_text().split())
    legend = "Art: " + sheet.split("Art: ")[1]
    words = [
        "N Normalspiel",
        "P Pflichtsolo",
        "V vorgeführtes Pflichtsolo",
        "L Lustsolo",
        "H Hochzeit als Solo",
        "Q stille Hochzeit",
        "S Strafe",
    ]
    assert legend.startswith("Art: " + ", ".join(words) + ".")
    letters = [item.split()[0] for item in legend.split(".")[0][len("Art: ") :].split(", ")]
    assert letters == [k.value for k in Kind]


# --- old files, penalties ------------------------------------------------------------------


def test_an_old_file_with_h_loads_as_a_hochzeit_that_became_a_solo(director_client, table):
    old = "Spiel;Art;Solist;1;2;3;4\n1;H;2;-1;3;-1;-1\n2;N;;1;-1;1;-1\n"
    assert upload(director_client, table, "alt.csv", old.encode()).status_code == 302
    assert rows(table) == [("hochzeit", 2, (-1, 3, -1, -1)), ("normal", None, (1, -1, 1, -1))]


def test_a_penalty_row_is_refused_by_the_import_and_the_desk_and_read_by_checksheet(
    director_client, table, tmp_path
):
    lines = [("N", None, (1, -1, 1, -1)), ("S", None, (1, -3, 1, 1))]
    response = upload(director_client, table, "s.csv", csv_text(lines).encode())
    assert response.status_code == 422
    message = "S steht für Strafpunkte: Strafen tragen die Schiedsrichter ein"
    assert f"Zeile 3: {message}" in response.content.decode()
    assert "Eine stille Hochzeit ist Q." in response.content.decode()
    response = director_client.post(desk_url(table), desk_data(lines))
    assert response.status_code == 422 and message in response.content.decode()
    assert not table.games.exists()
    text = "game,kind,soloist,1,2,3,4\n1,N,,1,-1,1,-1\n1,S,,1,-3,1,1\n"
    path = tmp_path / "s.csv"
    path.write_text(text, encoding="utf-8")
    code, report = checksheet(path)
    assert code == 1  # read, and checked as an incomplete round
    assert report["totals"] == {"1": 2, "2": -4, "3": 2, "4": 0}


def test_a_bad_desk_line_is_named_and_what_was_typed_is_kept(director_client, table):
    data = desk_data([("N", None, (2, -2, 2, -2))])
    data.update({"kind-2": "X", "p1-2": "1", "p2-2": "zwei", "p3-2": "1", "p4-2": "-1"})
    data.update({"kind-4": "P", "p1-4": "3"})
    response = director_client.post(desk_url(table), data)
    html = response.content.decode()
    assert response.status_code == 422
    assert "Unbekannte Art „X“ (N, P, V, L, H, Q)." in html
    assert "„zwei“ bei Position 2 ist keine ganze Zahl." in html
    assert "Spiel 3 ist leer" in html
    assert "Bei einem Solo fehlt die Position des Solisten." in html
    assert 'value="zwei"' in html
    assert not table.games.exists()


def test_a_file_names_its_bad_lines(director_client, table, tmp_path):
    lines = [("N", 2, (1, -1, 1, -1)), ("X", None, (1, -1, 1, -1))]
    response = upload(director_client, table, "s.csv", csv_text(lines).encode())
    html = response.content.decode()
    assert "Zeile 2: Ein Normalspiel hat keinen Solisten." in html
    assert "Zeile 3: Unbekannte Art „X“ (N, P, V, L, H, Q)." in html
    gap = "game,kind,soloist,1,2,3,4\n1,N,,1,-1,1,-1\n3,N,,1,-1,1,-1\n"
    response = upload(director_client, table, "s.csv", gap.encode())
    assert "Zeile 3: Die Spielnummern müssen 1, 2, 3, … lauten" in response.content.decode()
    assert not table.games.exists()


def test_a_file_for_another_table_size_an_odd_header_or_no_games_changes_nothing(
    director_client, table
):
    for content, message in [
        ("game,kind,soloist,1,2,3,4,5\n1,N,,2,-2,2,-2,0\n", "für einen Tisch mit 5 Spielern"),
        # "³" is no position: no 4th column
        ("game,kind,soloist,1,2,³,4,²\n1,N,,2,-2,2,-2,0\n", "Die erste Zeile muss lauten"),
        ("game,kind,soloist,1,2,3,4\n", "Die Datei enthält keine Spiele."),
    ]:
        response = upload(director_client, table, "s.csv", content.encode())
        assert response.status_code == 422 and message in response.content.decode()
    assert not table.games.exists()


def test_a_file_replaces_existing_rows_only_when_asked(director_client, table):
    director_client.post(desk_url(table), desk_data([("N", None, (2, -2, 2, -2))]))
    content = csv_text([("N", None, (4, -4, 4, -4)), ("P", 2, (-1, 3, -1, -1))]).encode()
    response = upload(director_client, table, "s.csv", content)
    assert (
        response.status_code == 422 and "Diese Liste hat schon Spiele" in response.content.decode()
    )
    assert rows(table) == [("normal", None, (2, -2, 2, -2))]
    response = upload(director_client, table, "s.csv", content, replace="on")
    assert response.status_code == 302
    assert rows(table) == [("normal", None, (4, -4, 4, -4)), ("pflichtsolo", 2, (-1, 3, -1, -1))]


# --- one set of limits -----------------------------------------------------------------------


@pytest.mark.parametrize("cumulative", [False, True])
def test_max_points_holds_at_the_edge_for_every_source(
    director_client, table, tmp_path, cumulative
):
    edge = [("N", None, (MAX_POINTS, -MAX_POINTS, MAX_POINTS, -MAX_POINTS))]
    beyond = [("N", None, (MAX_POINTS + 1, -MAX_POINTS - 1, MAX_POINTS + 1, -MAX_POINTS - 1))]
    if cumulative:  # the limit is on the points of one game, not on the running total
        first = ("N", None, (MAX_POINTS, -MAX_POINTS, MAX_POINTS, -MAX_POINTS))
        edge = [first, ("N", None, tuple(2 * v for v in first[2]))]
        beyond = [first, ("N", None, tuple(2 * v + (1 if v > 0 else -1) for v in first[2]))]
    extra = {"cumulative": "on"} if cumulative else {}
    args = ["--cumulative"] if cumulative else []
    typo = f"{MAX_POINTS + 1} Punkte in einem Spiel sind nicht möglich"

    response = director_client.post(desk_url(table), desk_data(beyond, **extra))
    assert response.status_code == 422 and typo in response.content.decode()
    response = upload(director_client, table, "s.csv", csv_text(beyond).encode(), **extra)
    assert response.status_code == 422 and typo in response.content.decode()
    path = tmp_path / "s.csv"
    path.write_text(csv_text(beyond), encoding="utf-8")
    with pytest.raises(Exception, match=typo):
        call_command("checksheet", str(path), *args)
    assert not table.games.exists()

    assert director_client.post(desk_url(table), desk_data(edge, **extra)).status_code == 302
    stored = rows(table)
    assert stored[0][2] == (MAX_POINTS, -MAX_POINTS, MAX_POINTS, -MAX_POINTS)
    response = upload(
        director_client, table, "s.csv", csv_text(edge).encode(), replace="on", **extra
    )
    assert response.status_code == 302 and rows(table) == stored
    path.write_text(csv_text(edge), encoding="utf-8")
    code, _report = checksheet(path, *args)
    assert code == 1  # read and checked: a round of one or two games has findings


@pytest.mark.parametrize("games_only", [True, False])
def test_a_list_has_at_most_max_lines_lines_whatever_it_is_read_for(games_only):
    lines = [("N", None, (1, -1, 1, -1))] * MAX_LINES
    size, rows_read = read_file("l.csv", csv_text(lines).encode(), games_only=games_only)
    assert size == 4 and len(rows_read) == MAX_LINES
    too_many = csv_text([*lines, lines[0]]).encode()
    with pytest.raises(ImportFileError, match=f"höchstens {MAX_LINES} Zeilen"):
        read_file("l.csv", too_many, games_only=games_only)


def test_the_desk_grid_takes_max_lines_lines_and_not_one_more(director_client, table):
    lines = [("N", None, (1, -1, 1, -1))] * (MAX_LINES + 1)
    response = director_client.post(desk_url(table), desk_data(lines))
    assert response.status_code == 422
    assert f"höchstens {MAX_LINES} Zeilen" in response.content.decode()
    data = desk_data(lines[:MAX_LINES])
    assert director_client.post(desk_url(table), data).status_code == 302
    assert table.games.count() == MAX_LINES


# --- what paper cannot say (issue 35) ----------------------------------------------------------

# The same round as written on paper: the forced last Pflichtsolo is a "P" (no "V" there).
ON_PAPER = [*EVERY_KIND[:-1], ("P", 4, (-1, -1, -1, 3))]


def test_a_forced_last_pflichtsolo_written_as_p_is_stored_as_vorgefuehrt_from_every_source(
    director_client, tournament, table, tmp_path
):
    response = director_client.post(desk_url(table), desk_data(ON_PAPER), follow=True)
    assert "musste ein vorgeführtes Pflichtsolo" not in response.content.decode()
    assert rows(table) == STORED  # game 24 "vorgefuehrt"
    assert "aber die Liste hat" not in response.content.decode()  # no error left

    from_csv = released_table(tournament, table_number=2, first_start=5)
    assert (
        upload(director_client, from_csv, "l.csv", csv_text(ON_PAPER).encode()).status_code == 302
    )
    assert rows(from_csv) == STORED

    path = tmp_path / "liste.csv"
    path.write_text(csv_text(ON_PAPER), encoding="utf-8")
    code, report = checksheet(path)
    assert code == 0 and report["findings"] == []


PENALTY_IN_ROW = [("P", 1, (3, -1, -1, -1)), ("P", 2, (0, 15, -15, 0))]
HOW_TO = (
    "+15 für den Solisten und −15 für Position 3 sind Strafpunkte eines Schiedsrichters für "
    "einen schwerwiegenden Regelverstoß im Solo (TSR 9.4.4: das Solo gilt als gespielt). "
    "Tragen Sie das Solo mit 0 Punkten für alle ein (bei laufenden Summen: die Summen der "
    "Zeile darüber), die Strafe als eigene Zeile: die tragen die Schiedsrichter ein."
)


def test_a_referees_9_4_4_result_in_the_solos_row_says_how_to_enter_it_and_stores_nothing(
    director_client, table
):
    response = director_client.post(desk_url(table), desk_data(PENALTY_IN_ROW))
    html = response.content.decode()
    assert response.status_code == 422
    assert HOW_TO in html and "Gerade-Ungerade" not in html
    assert not table.games.exists()
    response = upload(director_client, table, "s.csv", csv_text(PENALTY_IN_ROW).encode())
    assert (
        response.status_code == 422 and "Zeile 3: +15 für den Solisten" in response.content.decode()
    )
    assert not table.games.exists()

    director_client.cookies["django_language"] = "en"
    html = director_client.post(desk_url(table), desk_data(PENALTY_IN_ROW)).content.decode()
    assert (
        "+15 for the soloist and −15 for position 3 are a referee&#x27;s penalty for a serious "
        "violation in the solo (TSR 9.4.4: the solo counts as played)."
    ) in html
    assert not table.games.exists()

    # Entered as the message says, the list is accepted.
    entered = [PENALTY_IN_ROW[0], ("P", 2, (0, 0, 0, 0))]
    assert director_client.post(desk_url(table), desk_data(entered)).status_code == 302
    assert rows(table) == [("pflichtsolo", 1, (3, -1, -1, -1)), ("pflichtsolo", 2, (0, 0, 0, 0))]
