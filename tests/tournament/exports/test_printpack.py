"""The print pack of a round (Spiellisten, table plan, seat list, table cards) and the safe
PDF rendering: the PDFs are read back with pypdf."""

import copy
import html
import io
import re
import shutil
import subprocess

import pytest
import segno
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from pypdf import PdfReader

from scoring.kinds import Kind
from scoring.ledger import PlayedGame, walk
from scoring.profiles import DDV
from tests.downloads import file_of
from tests.factories import TournamentFactory, director, released_table
from tournament.exports import GENERATED, printpack
from tournament.exports import pdf as pdf_module
from tournament.exports.pdf import ResourceRefused, StaticOnlyFetcher, render_pdf
from tournament.models import Round, RoundStatus

pytestmark = pytest.mark.django_db

BASE = "http://testserver/"
HOSTILE_HTML = "<img src=\"file:///etc/passwd\"> =cmd|' /C calc'!A0 "
HOSTILE_CSS = "url(file:///etc/passwd)"


def pages_text(data: bytes) -> list[str]:
    """The text of every page, whitespace collapsed."""
    reader = PdfReader(io.BytesIO(data))
    return [re.sub(r"\s+", " ", page.extract_text()) for page in reader.pages]


def flat(text: str) -> str:
    """Text without any whitespace: line breaks inside a name do not matter."""
    return re.sub(r"\s+", "", text)


def rename(table, names):
    """Give the players of ``table`` (in position order) the ``(first, last)`` names."""
    for seat, (first, last) in zip(table.seats.order_by("position"), names, strict=True):
        seat.entry.player.first_name = first
        seat.entry.player.last_name = last
        seat.entry.player.save()


@pytest.fixture
def round_with_tables(tournament):
    """Round 1 of "herbst": table 1 with four players, table 2 with five."""
    four = released_table(tournament, size=4, table_number=1, first_start=1)
    five = released_table(tournament, size=5, table_number=2, first_start=11)
    rename(four, [("Jürgen", "Müller"), ("Anna", "Özdemir"), ("Eva", "Adler"), ("Ute", "Zander")])
    rename(
        five,
        [("Lisa", "Ärmel"), ("Bernd", "Weiß"), ("Max", "Becker"), ("Ömer", "Schulz"),
         ("Ida", "Ostermann")],
    )  # fmt: skip
    return four.round


@pytest.fixture
def pack(round_with_tables):
    with translation.override("en"):
        return pages_text(printpack.print_pack(round_with_tables, BASE))


def sheet_players(round_):
    return {
        table.number: [seat.entry for seat in table.seats.order_by("position")]
        for table in round_.tables.all()
    }


def test_pack_has_a_page_per_sheet_plan_seat_list_and_a_card_per_table(pack):
    # Sheets for a 4-table (24 games) and a 5-table (30 games) fit one A4 page each.
    assert len(pack) == 2 + 1 + 1 + 2
    sheet_4, sheet_5, plan, seats, card_1, card_2 = pack
    assert "SCORE SHEET" in sheet_4 and "SCORE SHEET" in sheet_5
    assert "Table plan" in plan
    assert "Where do I sit?" in seats
    for number, page in ((1, card_1), (2, card_2)):
        assert "Round 1" in page
        assert re.search(rf"\b{number}\b", page)
    # Page numbers from the @page counters on every page with a footer.
    for index, page in enumerate(pack[:4], start=1):
        assert f"Page {index} of 6" in page
        assert "Herbstturnier" in page


def test_every_table_and_player_appears(pack, round_with_tables):
    sheets, plan, seats = pack[:2], pack[2], pack[3]
    for number, entries in sheet_players(round_with_tables).items():
        sheet = sheets[number - 1]
        assert re.search(rf"TABLE {number}\b", sheet, re.IGNORECASE)
        assert f"Table {number}" in plan
        for entry in entries:
            name = entry.player.full_name
            assert flat(name) in flat(sheet)
            assert flat(name) in flat(plan)
            last_first = f"{entry.player.last_name}, {entry.player.first_name}"
            assert flat(last_first) in flat(seats)
            # Start number, table and position on the seat list line.
            assert re.search(rf"{re.escape(last_first)} {entry.start_number} {number} \d", seats), (
                last_first
            )


def test_seat_list_is_sorted_by_name_as_in_a_phone_book(pack):
    seats = pack[3]
    expected = [
        "Adler, Eva", "Ärmel, Lisa", "Becker, Max", "Müller, Jürgen", "Ostermann, Ida",
        "Özdemir, Anna", "Schulz, Ömer", "Weiß, Bernd", "Zander, Ute",
    ]  # fmt: skip
    found = [seats.index(name) for name in expected]
    assert found == sorted(found)


def test_game_lines_dealers_and_list_keeper(pack, round_with_tables):
    sheet_4, sheet_5 = pack[0], pack[1]
    games_24 = " ".join(str(n) for n in range(1, 25))
    games_30 = " ".join(str(n) for n in range(1, 31))
    assert games_24 in sheet_4 and f"{games_24} 25" not in sheet_4
    assert games_30 in sheet_5
    # The dealer column: the normal sequence, position 1 deals game 1.
    assert " ".join(["1 2 3 4"] * 6) in sheet_4
    assert " ".join(["1 2 3 4 5"] * 6) in sheet_5
    assert "The dealer sits out" in sheet_5 and "The dealer sits out" not in sheet_4
    # The last position keeps the list; position 1 deals the first game.
    players = sheet_players(round_with_tables)
    for sheet, number in ((sheet_4, 1), (sheet_5, 2)):
        keeper = players[number][-1].player.full_name
        assert "✎ list keeper" in sheet
        assert flat(f"list keeper: {keeper}") in flat(sheet)
        assert "deals game 1" in sheet
        assert sheet.count("Pflichtsolo played in game") == len(players[number])


@pytest.mark.parametrize("size", [4, 5])
def test_the_printed_dealers_are_the_engines(size):
    """The pre-filled dealer column and the shaded sitter are what the ledger says for a
    round in which every game is a normal one (no dealer deals again)."""
    games = DDV.games_per_round(size)
    lines = printpack.game_lines(size, games)
    steps = walk(DDV, size, [PlayedGame(Kind.NORMAL)] * games)[:games]
    assert [line.dealer for line in lines] == [step.dealer for step in steps]
    sitters = [step.sitter for step in steps]
    assert [line.sits_out.index(True) + 1 if any(line.sits_out) else None for line in lines] == (
        sitters
    )
    assert all(sum(line.sits_out) == (size == 5) for line in lines)


def test_context_rows_and_few_queries(round_with_tables, django_assert_num_queries):
    with django_assert_num_queries(3):
        context = printpack.build_context(round_with_tables, BASE)
    four, five = context["tables"]
    assert [line.number for line in four.games] == list(range(1, 25))
    assert [line.number for line in five.games] == list(range(1, 31))
    assert [line.dealer for line in five.games[:6]] == [1, 2, 3, 4, 5, 1]
    assert five.games[2].sits_out == (False, False, True, False, False)
    assert not any(any(line.sits_out) for line in four.games)
    assert [p.is_keeper for p in five.players] == [False] * 4 + [True]
    assert [p.deals_first for p in four.players] == [True, False, False, False]


def test_qr_codes_carry_the_entry_links_and_the_links_are_not_printed(round_with_tables, pack):
    images: dict[str, bytes] = {}
    context = printpack.build_context(round_with_tables, BASE, images)
    html = render_to_string(printpack.TEMPLATE, context)
    assert sorted(images) == ["qr-1.png", "qr-2.png"]
    for table in round_with_tables.tables.all():
        url = "http://testserver" + reverse("keeper-sheet", args=[table.token])
        item = next(t for t in context["tables"] if t.number == table.number)
        assert item.keeper_url == url
        assert item.qr == f"{GENERATED}qr-{table.number}.png"
        assert images[f"qr-{table.number}.png"] == printpack.qr_png(url)
        # The table card shows the image; the score sheet draws the same modules.
        assert html.count(f'<img class="qr" src="{item.qr}"') == 1
        code = segno.make(url, error="m", micro=False)
        assert item.qr_modules == [[bool(bit) for bit in row] for row in code.matrix_iter(border=4)]
        # The secret link is only in the QR code, never as text.
        assert table.token not in html
        assert all(table.token not in page for page in pack)
        assert all("tisch/" not in page for page in pack)


def modules_of(image) -> list[list[bool]]:
    """The modules of a QR code image of QR_SCALE pixels per module, quiet zone included:
    True where the module is dark (read at the centre of each module)."""
    grey = image.convert("L")
    scale = printpack.QR_SCALE
    size = grey.width // scale
    return [
        [grey.getpixel((x * scale + scale // 2, y * scale + scale // 2)) < 128 for x in range(size)]
        for y in range(size)
    ]


def test_qr_code_images_are_segnos_matrix_module_for_module(round_with_tables):
    """The PNG of a table card is segno's code of the link: same size, every module the same,
    the quiet zone of four modules white, and scaled without smoothing (Interpolate false).
    (The score sheets draw the modules as squares: tests/tournament/test_site_url.py reads
    every code of the pack back with zbar.)"""
    reader = PdfReader(io.BytesIO(printpack.print_pack(round_with_tables, BASE)))
    tables = {t.number: t for t in round_with_tables.tables.all()}
    # Table cards 1 and 2 (pages 5, 6).
    for page, number in ((4, 1), (5, 2)):
        url = "http://testserver" + reverse("keeper-sheet", args=[tables[number].token])
        code = segno.make(url, error="m", micro=False)
        expected = [[bool(bit) for bit in row] for row in code.matrix_iter(scale=1, border=4)]
        # The page's resources name every image of the document: the one it draws counts.
        objects = reader.pages[page]["/Resources"]["/XObject"]
        drawn = reader.pages[page].get_contents().get_data()
        used = [name for name in objects if f"{name} Do".encode() in drawn]
        assert len(used) == 1 and objects[used[0]].get_object()["/Interpolate"].value is False
        image = reader.pages[page].images[used[0]].image
        assert image.width == image.height == len(expected) * printpack.QR_SCALE
        assert modules_of(image) == expected


def test_german_dates_and_labels(round_with_tables):
    with translation.override("de"):
        text = " ".join(pages_text(printpack.print_pack(round_with_tables, BASE)))
    assert "5. Dezember 2026" in text
    assert "Runde 1" in text


@pytest.mark.parametrize(
    "url",
    [
        "file:///etc/passwd",
        "http://127.0.0.1:1/x",
        "https://example.org/x",
        "../../etc/passwd",
        "data:text/css,body{background:url(file:///etc/passwd)}",
        "/static/../../etc/passwd",
        "http://localhost/static/%2e%2e/%2e%2e/etc/passwd",
        "http://localhost/static/tournament/../../../etc/passwd",
        "//example.org/static/tournament/site.css",
        "http://localhost/static/tournament/no-such-file.css",
        "http://localhost/static/",
        GENERATED + "qr-1.png",  # no such image made for the document
    ],
)
def test_fetcher_refuses_everything_but_static_files(url):
    with pytest.raises(ResourceRefused):
        StaticOnlyFetcher("http://localhost/").fetch(url)


@pytest.mark.parametrize(
    "url", ["/static/tournament/site.css", "http://localhost/static/tournament/site.css"]
)
def test_fetcher_serves_static_files(url):
    response = StaticOnlyFetcher("http://localhost/").fetch(url)
    body = response.read()
    response.close()
    assert body.startswith(b"/* Kreuzdame")
    assert response.content_type == "text/css"


@pytest.fixture
def fetched(monkeypatch):
    """Every URL WeasyPrint asks the fetcher for, refused or not."""
    urls = []
    original = StaticOnlyFetcher.fetch

    def recording(self, url, headers=None):
        urls.append(url)
        return original(self, url, headers)

    monkeypatch.setattr(pdf_module.StaticOnlyFetcher, "fetch", recording)
    return urls


def test_hostile_names_stay_text_and_fetch_nothing(tournament, fetched):
    table = released_table(tournament, size=4, table_number=7, first_start=1)
    rename(
        table,
        [("Eve", HOSTILE_HTML), ("Mallory", HOSTILE_CSS), ("Trent", "</style><b>bold"),
         ("Ann", "Normal")],
    )  # fmt: skip
    context = printpack.build_context(table.round, BASE)
    html = render_to_string(printpack.TEMPLATE, context)
    # The only images are the QR codes made for the document.
    assert html.count("<img") == html.count('<img class="qr" src="kreuzdame-generated:qr-7.png"')
    assert "<b>bold" not in html
    assert "&lt;img src=&quot;file:///etc/passwd&quot;&gt;" in html

    with translation.override("en"):
        pack = pages_text(printpack.print_pack(table.round, BASE))
    assert len(pack) == 4  # sheet, plan, seat list, card: the long names fit
    everything = flat(" ".join(pack))
    for name in (HOSTILE_HTML, HOSTILE_CSS, "</style><b>bold"):
        assert flat(name) in everything
    assert fetched, "the stylesheet goes through the fetcher"
    # The stylesheet and the QR code made for this document, nothing else.
    assert all(url.startswith(BASE + "static/") for url in fetched if url != GENERATED + "qr-7.png")
    assert not any("passwd" in url or url.startswith(("file:", "data:")) for url in fetched)


def test_render_pdf_skips_refused_resources(tmp_path, fetched, settings):
    templates = copy.deepcopy(settings.TEMPLATES)
    templates[0]["DIRS"] = [tmp_path, *templates[0]["DIRS"]]
    settings.TEMPLATES = templates
    (tmp_path / "probe.html").write_text(
        '{% load static %}<link rel="stylesheet" href="{% static "tournament/site.css" %}">'
        '<link rel="stylesheet" href="file:///etc/passwd">'
        '<img src="http://127.0.0.1:1/x"><p>{{ text }}</p>'
    )
    text = pages_text(render_pdf("probe.html", {"text": "Hallo <Welt>"}))
    assert text == ["Hallo <Welt>"]
    assert sorted(fetched) == [
        "file:///etc/passwd",
        "http://127.0.0.1:1/x",
        "http://localhost/static/tournament/site.css",
    ]


def test_director_downloads_the_pack(director_client, round_with_tables):
    url = reverse("manage:print-pack", args=["herbst", 1])
    response = director_client.get(url)
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert response["Content-Disposition"] == 'attachment; filename="herbst-druckpaket-runde-1.pdf"'
    content = file_of(response)
    assert content.startswith(b"%PDF")
    assert len(PdfReader(io.BytesIO(content)).pages) == 6


def test_pack_is_only_for_the_tournaments_directors(client, round_with_tables):
    url = reverse("manage:print-pack", args=["herbst", 1])
    other = director(username="andere")
    TournamentFactory(slug="other", directors=[other])
    client.force_login(other)
    assert client.get(url).status_code == 404
    client.logout()
    assert client.get(url).status_code == 302  # to the login page


def test_no_pack_for_a_round_without_tables(director_client, tournament):
    Round.objects.create(tournament=tournament, number=1, status=RoundStatus.PLANNED)
    assert director_client.get(reverse("manage:print-pack", args=["herbst", 1])).status_code == 404
    assert director_client.get(reverse("manage:print-pack", args=["herbst", 9])).status_code == 404


# --- a round of 30 players at 4- and 5-tables (issue 15, point 19) -------------------------

PAGE_WIDTH, MM = 595.28, 72 / 25.4
# The right edge of the sheet header's text column: page width, the right margin (13 mm)
# and the room of the round and table badges and the QR code (54 mm), see print.css.
INTRO_RIGHT = PAGE_WIDTH - (13 + 54) * MM
LAST_NAMES = [
    "Adler", "Ärmel", "Becker", "Dietz", "Ernst", "Fuchs", "Graf", "Hoffmann", "Ibrahim",
    "Jansen", "Kaiser", "Lehmann", "Müller", "Neumann", "Ostermann", "Özdemir",
    "Papadopoulos", "Quast", "Richter", "Schmidt-Rottluff", "Sommer", "Thiel", "Ulrich",
    "Vogel", "Weiß", "Xaver", "Yilmaz", "Zander", "Zuse", "Zwick",
]  # fmt: skip


def words_of(data: bytes) -> list[list[tuple[float, float, float, float, str]]]:
    """Every word of every page with its box (x min, y min, x max, y max) as poppler's
    pdftotext sees it: a word cut off by a clipped box still has its full box here."""
    assert shutil.which("pdftotext"), "make test installs poppler-utils"
    xml = subprocess.run(
        ["pdftotext", "-bbox", "-", "-"],  # noqa: S607
        input=data,
        capture_output=True,
        check=True,
    ).stdout.decode()
    pages = []
    for page in xml.split("<page ")[1:]:
        found = re.findall(
            r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)</word>',
            page,
        )
        pages.append([(*map(float, box), html.unescape(text)) for *box, text in found])
    return pages


@pytest.fixture
def round_of_30(tournament):
    """Round 1: two 5-tables and five 4-tables, the players named for the seat list."""
    tournament.name = "Großer Herbstpreis des Doppelkopfvereins Köln-Nippes 2026"
    tournament.venue = "Bürgerhaus Köln-Nippes, Großer Saal im Obergeschoss"
    tournament.save()
    names = iter(LAST_NAMES)
    start = 1
    for number, size in enumerate((5, 5, 4, 4, 4, 4, 4), start=1):
        table = released_table(tournament, size=size, table_number=number, first_start=start)
        rename(table, [("Karl-Heinz", next(names)) for _ in range(size)])
        start += size
    return table.round


def test_the_30_player_pack_shows_every_heading_whole_on_one_page_per_sheet(round_of_30):
    with translation.override("de"):
        data = printpack.print_pack(round_of_30, BASE)
    texts = pages_text(data)
    # 7 sheets, the table plan, the seat list (two pages), 7 table cards.
    assert len(texts) == 7 + 1 + 2 + 7
    for page, size in zip(texts[:7], (5, 5, 4, 4, 4, 4, 4), strict=True):
        assert "SPIELLISTE" in page and page.count("SPIELLISTE") == 1
        assert f"{30 if size == 5 else 24} Spiele" in page
        assert flat("Großer Herbstpreis des Doppelkopfvereins Köln-Nippes 2026") in flat(page)
        assert flat("Bürgerhaus Köln-Nippes, Großer Saal im Obergeschoss") in flat(page)
        # The value column, three spare lines for penalties, a box for vorgeführt.
        assert "Wert" in page and page.count("Kürzel Schiedsrichter") == 3
        assert page.count("vorgeführt") == size + 1  # each player's box and the legend
    assert "Spieler: 30" in texts[8]
    # The table plan: three tables a row (the third used to wrap below the first two).
    headings = [w for w in words_of(data)[7] if w[4] == "Tisch"]
    assert len(headings) == 7
    assert len({round(w[1]) for w in headings[:3]}) == 1
    assert len({round(w[1]) for w in headings[3:6]}) == 1 and headings[3][1] > headings[0][1]
    # Nothing of the header is cut: every word of the sheet header lies in its column,
    # left of the badges and the QR code (before: "… DDV Turnier-Spielregeln 202…").
    tournament = round_of_30.tournament
    lines = [tournament.name, tournament.venue, "30 Spiele", "DDV Turnier-Spielregeln 2026"]
    expected = {word for line in lines for word in line.split()}
    for page in words_of(data)[:7]:
        header = [w for w in page if w[3] < 60 * MM and w[4] in expected]
        assert {w[4] for w in header} >= expected - {"30"}  # a 4-table has 24 games
        for _x, _y, x_max, _y2, text in header:
            assert x_max <= INTRO_RIGHT, text


def test_no_seat_list_page_ends_with_a_letter_heading(tournament):
    """Two A names, then one name per letter: with the old stylesheet the heading "N" was the
    last line of the first seat-list page and its name began the next one."""
    letters = "ABCDEFGHIJKLMNOPRSTUVWZ"
    names = [f"{letters[0]}name0", *[f"{letter}name" for letter in letters]]
    for number in range(len(names) // 4):
        table = released_table(tournament, table_number=number + 1, first_start=4 * number + 1)
        rename(table, [("Vor", name) for name in names[4 * number : 4 * number + 4]])
    with translation.override("de"):
        data = printpack.print_pack(table.round, BASE)
    tables = len(names) // 4
    seat_pages = words_of(data)[tables + 1 : -tables]  # after the sheets and the plan
    assert len(seat_pages) == 2
    for page in seat_pages:
        # Above the running footer, which starts below the 15 mm bottom margin.
        body = sorted((w for w in page if w[1] < (297 - 15) * MM), key=lambda w: (w[1], w[0]))
        last_line = [w[4] for w in body if abs(w[1] - body[-1][1]) < 1]
        assert not re.fullmatch(r"[A-Z#]", " ".join(last_line)), last_line


def test_a_player_card_keeps_the_date_beside_a_long_tournament_name(round_of_30):
    from tournament.exports import cards

    with translation.override("de"):
        data = cards.player_cards_pdf(round_of_30.tournament)
    first_page = words_of(data)[0]
    # The left column of cards: 13 mm margin, 92 mm card, 5 mm padding.
    card_right = (13 + 92 - 5) * MM
    dates = [w for w in first_page if w[4] == "Dezember"]
    assert len(dates) == 10  # ten cards a page, each with the date
    assert all(w[2] <= card_right for w in dates if w[0] < card_right)


@pytest.mark.parametrize("soli", [1, 2, 5])
def test_a_sheet_with_the_longest_texts_and_most_pflichtsoli_stays_on_its_page(tournament, soli):
    """The header grew with a long name and venue while the grid kept its height, and more
    Pflichtsoli than one ran into the signatures or off the page: every word of a sheet now
    lies inside the margins, above the foot line, and no Pflichtsolo line crosses the
    signatures."""
    tournament.name = ("Großer Preis " * 20)[:150].strip()
    tournament.venue = ("Bürgerhaus Köln-Nippes, Saal " * 10)[:200].strip()
    tournament.rule_profile, tournament.custom_base = "custom", "ddv"
    tournament.custom_overrides = {"pflichtsoli_per_round": soli, "games_per_round_5": 35}
    tournament.save()
    table = released_table(tournament, size=5, table_number=1)
    rename(table, [("Maximilian-Alexander", "Hoffmann-Becker-Schmidtke-Wolkenstein")] * 5)
    with translation.override("de"):
        data = printpack.print_pack(table.round, BASE)
    sheet = words_of(data)[0]
    foot_line = (297 - 15) * MM
    body = [w for w in sheet if w[1] < foot_line]
    assert "Summe" in {w[4] for w in body} and "UNTERSCHRIFTEN" in {w[4] for w in body}
    assert all(w[0] >= 13 * MM - 1 and w[2] <= (210 - 13) * MM + 1 for w in sheet), sheet
    assert all(w[3] <= foot_line for w in body)
    # Below the bottom margin only the foot line.
    assert all(w[1] < foot_line + 8 * MM for w in sheet)
    # The signatures start below the last Pflichtsolo line or right of every one of them.
    signatures = next(w for w in body if w[4] == "UNTERSCHRIFTEN")
    # One box a Pflichtsolo, "vorgeführt" beside it ("V" where several share a line).
    label = "vorgeführt" if soli == 1 else "V"
    soli_top = next(w for w in body if w[4] == "PFLICHTSOLO")[1]
    shown = [w for w in body if w[4] == label and w[1] > soli_top and w[0] > 80 * MM]
    assert len(shown) == 5 * soli
    assert all(w[2] < signatures[0] or w[3] < signatures[1] for w in shown)
