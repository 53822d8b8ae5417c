"""Odd and hostile names: they come back from the database unchanged (on both backends),
show as text in HTML, are text in PDFs without the renderer fetching anything, and text —
never formulas — in xlsx. Oversized requests are refused with a message, nothing saved."""

import re
from io import BytesIO

import pytest
from django.urls import reverse
from openpyxl import load_workbook
from pypdf import PdfReader

from tests.factories import EntryFactory, PlayerFactory
from tests.tournament.exports.test_printpack import fetched  # noqa: F401 - the fixture
from tests.tournament.exports.test_standings import play
from tournament.exports import documents, xlsx
from tournament.models import Player, RefereeCall

pytestmark = pytest.mark.django_db

NAMES = [
    '=HYPERLINK("http://127.0.0.1:1/","klick")',
    "+49 170 1234",
    "-Meyer",
    "@Müller",
    "Tab\tim Namen",
    "Wagen\rrücklauf",
    "Pipe | und 100 %",
    "<b>fett</b> & <i>kursiv</i>",
    "<script>alert('x')</script>",
    "file:///etc/passwd",
    "http://127.0.0.1:1/bild.png",
    "שלום עליכם",  # right to left
    "Bidi \u202eesrever\u202c Ende",  # bidi override controls
    "Kreuz ♣ Dame 🂭 😀",
    "A\u0308rger Zoe\u0308",  # combining diaeresis, not precomposed
    "W" * 100,  # as long as the field allows
]
PRINTABLE = [n for n in NAMES if "\t" not in n and "\r" not in n and "\u202e" not in n]


@pytest.fixture
def hostile_field(tournament):
    tournament.is_public = True
    tournament.save()
    entries = [
        EntryFactory(
            tournament=tournament,
            start_number=n,
            player=PlayerFactory(first_name="", last_name=name, club=name[:150]),
        )
        for n, name in enumerate(NAMES, start=1)
    ]
    groups = [entries[i : i + 4] for i in range(0, len(entries), 4)]
    play(tournament, 1, groups, [[(1, -1, 1, -1)] for _ in groups])
    return entries


def test_names_come_back_from_the_database_unchanged(hostile_field):
    stored = {p.last_name for p in Player.objects.all()}
    assert stored == set(NAMES)
    for name in NAMES:
        assert Player.objects.get(last_name=name).club == name[:150]


def test_names_show_as_text_in_html(client, hostile_field, tournament):
    for url in (
        reverse("tournament-public", args=[tournament.slug]),
        reverse("public-standings", args=[tournament.slug]),
    ):
        html = client.get(url).content.decode()
        assert "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt;" in html
        assert "<script>alert(" not in html and "<b>fett</b>" not in html
        assert "&lt;b&gt;fett&lt;/b&gt; &amp; &lt;i&gt;kursiv&lt;/i&gt;" in html
        assert "A\u0308rger Zoe\u0308" in html and "שלום עליכם" in html
        assert 'src="file:' not in html and 'href="http://127.0.0.1:1' not in html


def test_names_are_text_in_the_pdf_and_nothing_is_fetched(hostile_field, tournament, fetched):  # noqa: F811
    content = documents.standings_pdf(tournament)
    text = " ".join(
        "".join(page.extract_text().split()) for page in PdfReader(BytesIO(content)).pages
    )
    for name in PRINTABLE:
        assert "".join(name.split())[:40] in text, name
    assert all("/static/" in url for url in fetched), fetched


def test_names_are_text_never_formulas_in_xlsx(hostile_field, tournament):
    book = load_workbook(BytesIO(xlsx.workbook(tournament)))
    cells = [cell for ws in book.worksheets for row in ws.iter_rows() for cell in row]
    assert not [c.coordinate for c in cells if c.data_type == "f"]
    names = {c.value for c in book["Rangliste"]["C"][6:]}
    # XML turns a carriage return into a line feed: the only change a cell may show.
    assert names == {name.replace("\r", "\n") for name in NAMES}


def test_an_oversized_request_is_refused_with_a_message(client, settings, tournament):
    from tests.factories import released_table

    table = released_table(tournament)
    url = reverse("keeper-call", args=[table.token])
    big = "x" * (settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 1)
    response = client.post(url, {"note": big})
    assert response.status_code == 400
    assert "zu groß" in response.content.decode()
    assert not RefereeCall.objects.exists()


def test_an_oversized_upload_is_refused_with_a_message(director_client, settings, tournament):
    from django.core.files.uploadedfile import SimpleUploadedFile

    upload = SimpleUploadedFile(
        "spieler.csv", b"Vorname;Nachname\n" + b"A;B\n" * (settings.IMPORT_MAX_BYTES // 4 + 10)
    )
    response = director_client.post(reverse("manage:import", args=[tournament.slug]),
                                    {"file": upload})  # fmt: skip
    assert response.status_code in (200, 400)
    assert "2 MB" in response.content.decode()
    assert not Player.objects.exists()


def test_the_public_form_takes_odd_names_but_refuses_control_characters(client, tournament):
    """Issue 34 (mail as a relay): a line feed, tab or bidi override in a name would become
    a line, column or reversed text of its own in a mail, PDF, CSV or log; refused at the
    form with a message. Every other odd name is taken as typed."""
    tournament.is_public, tournament.registration_open = True, True
    tournament.registration_capacity = 100
    tournament.save()
    client.cookies["django_language"] = "en"
    url = reverse("registration-form", args=[tournament.slug])
    for number, name in enumerate(NAMES):
        data = {
            "first_name": "Hostile",
            "last_name": name,
            "email": f"p{number}@example.org",
            "language": "en",
            "consent": "on",
        }
        response = client.post(url, data, REMOTE_ADDR=f"10.0.{number}.1")
        if name in PRINTABLE:
            assert response.status_code == 302, name
        else:
            assert response.status_code == 400, name
            assert "invisible control characters" in response.content.decode()
    stored = set(tournament.registrations.values_list("last_name", flat=True))
    assert stored == set(PRINTABLE)


@pytest.mark.parametrize(
    "typed", ["Jürgen Schäfer", "JUERGEN SCHAEFER", "Ju\u0308rgen Scha\u0308fer"]
)
def test_no_spelling_of_a_private_players_name_links_a_public_registration(
    tournament, director_user, typed
):
    """Issue 34: the public form is matched to nobody in the shared player database."""
    from tests.factories import TournamentFactory
    from tournament.domain import registrations

    private = TournamentFactory(directors=[director_user], is_public=False)
    secret = PlayerFactory(first_name="Jürgen", last_name="Schäfer", club="Geheim", ddv_number="9")
    EntryFactory(tournament=private, player=secret)
    tournament.is_public = tournament.registration_open = True
    tournament.registration_capacity = 4
    tournament.save()
    first, last = typed.split()
    details = registrations.Details(first, last, ddv_number="9", email="j@example.org")
    registration = registrations.submit(tournament, details, consent="")
    assert registration.entry.player != secret
    assert registration.entry.player.club == "" and registration.entry.player.ddv_number == ""


# --- issue 34: every CSV the site writes, read by a "," and by a ";" spreadsheet ------------

SPLITTING_NAMES = [
    'Max;=HYPERLINK("http://127.0.0.1:1/","klick")',
    "Moritz,=1+1",
    'Quote";@SUM(1)',
    "Tab;\t=1",
    "Zeilen\r\n=1",
]


def test_no_csv_cell_starts_like_a_formula_whichever_separator_splits_it(tournament):
    """Finding 7: a German spreadsheet splits on ";"; a name with ";=" gave a formula cell."""
    import csv
    from io import StringIO

    from tournament.exports import federation

    entries = [
        EntryFactory(
            tournament=tournament,
            start_number=n,
            player=PlayerFactory(first_name=name, last_name=name, club=name),
        )
        for n, name in enumerate(SPLITTING_NAMES[:4], start=1)
    ]
    play(tournament, 1, [entries], [[(1, -1, 1, -1)]])
    text = federation.results_csv(tournament).decode("utf-8-sig")
    for delimiter in (",", ";"):
        rows = list(csv.reader(StringIO(text, newline=""), delimiter=delimiter))
        cells = [cell for row in rows for cell in row]
        text_cells = [c for c in cells if not re.fullmatch(r"-?\d+(\.\d+)?", c)]
        assert not [c for c in text_cells if c.startswith(federation.FORMULA_START)], delimiter
    rows = list(csv.reader(StringIO(text, newline="")))
    assert {row[2] for row in rows[1:]} == {
        "Max;'=HYPERLINK(\"http://127.0.0.1:1/\",\"klick\")", "Moritz,'=1+1",
        "Quote\";'@SUM(1)", "Tab;'\t'=1",
    }  # fmt: skip
    assert sorted(row[0] for row in rows[1:]) == ["1", "1", "3", "3"]  # numbers stay bare


def test_a_csv_cell_keeps_a_line_break_inside_its_quotes():
    from tournament.exports import federation

    line = federation.csv_line([SPLITTING_NAMES[4], 3, None, -2])
    assert line == '"Zeilen\r\n\'=1",3,,-2\r\n'


# --- issue 34, finding 9: files, names and fields that gave a 500 ----------------------------

# Three bytes each: a byte order mark alone, an ideographic space, an em space.
TINY_FILES = [b"\xef\xbb\xbf", "\u3000".encode(), "\u2003".encode(), b"\xef\xbb\xbf "]


@pytest.mark.parametrize("content", TINY_FILES)
def test_a_csv_of_nothing_but_a_mark_or_a_space_is_an_empty_player_list(
    director_client, tournament, content
):
    from django.core.files.uploadedfile import SimpleUploadedFile

    upload = SimpleUploadedFile("spieler.csv", content, content_type="text/csv")
    response = director_client.post(reverse("manage:import", args=[tournament.slug]),
                                    {"file": upload})  # fmt: skip
    assert response.status_code == 400
    assert "Die Datei ist leer." in response.content.decode()
    assert not Player.objects.exists()


@pytest.mark.parametrize("content", TINY_FILES)
def test_a_csv_of_nothing_but_a_mark_or_a_space_is_an_empty_sheet(
    director_client, tournament, content
):
    from django.core.files.uploadedfile import SimpleUploadedFile

    from tests.factories import released_table

    table = released_table(tournament)
    url = reverse("manage:sheet-import", args=[tournament.slug, 1, 1])
    response = director_client.post(url, {"file": SimpleUploadedFile("liste.csv", content)})
    assert response.status_code == 422
    assert "Die Datei ist leer." in response.content.decode()
    assert not table.games.exists()


def test_a_full_width_referee_name_finds_the_account_it_stands_for(director_client, tournament):
    """'ｓｃｈｉｒｉ' is 'schiri' once Django normalises it: it created a second 'schiri'."""
    from django.contrib.auth.models import User

    from tests.factories import referee

    schiri = referee(username="schiri")
    url = reverse("manage:referees", args=[tournament.slug])
    response = director_client.post(url, {"username": "ｓｃｈｉｒｉ", "password": "x9-Lang-genug"})
    assert response.status_code == 302
    assert list(tournament.referees.all()) == [schiri]
    assert User.objects.filter(username__iexact="schiri").count() == 1
    new = director_client.post(url, {"username": "ｎｅｕ", "password": "x9-Lang-genug"})
    assert new.status_code == 302
    assert tournament.referees.filter(username="neu").exists()
    # 100 characters typed, 1,800 once normalised: a message, no account.
    long = director_client.post(url, {"username": "\ufdfa" * 100, "password": "x9-Lang-genug"})
    assert long.status_code == 422 and "Benutzername ist zu lang" in long.content.decode()
    assert User.objects.count() == 3  # the director, schiri, neu


def test_a_field_of_999_players_gets_its_public_table_plan_and_round_page(
    client, director_client, tournament
):
    """Below the documented 1,000 players, the pages failed on SQLite ("Expression tree is
    too large"): Django fetched the 999 entries with one chain of "id = ? OR …"."""
    from tournament.models import Entry, Round, RoundStatus, Seat, Table

    size = 999
    players = Player.objects.bulk_create(
        Player(first_name="Vor", last_name=f"Spieler {n}") for n in range(size)
    )
    entries = Entry.objects.bulk_create(
        Entry(tournament=tournament, player=player, start_number=n)
        for n, player in enumerate(players, start=1)
    )
    round_ = Round.objects.create(tournament=tournament, number=1, status=RoundStatus.RELEASED)
    sizes = [5, 5, 5] + [4] * ((size - 15) // 4)
    seats, first = [], 0
    for number, table_size in enumerate(sizes, start=1):
        table = Table.objects.create(round=round_, number=number, size=table_size)
        group = entries[first : first + table_size]
        seats += [Seat(round=round_, table=table, entry=e, position=p)
                  for p, e in enumerate(group, start=1)]  # fmt: skip
        first += table_size
    Seat.objects.bulk_create(seats)
    tournament.is_public = True
    tournament.save()
    plan = client.get(reverse("public-table-plan", args=[tournament.slug]))
    assert plan.status_code == 200 and "Spieler 998" in plan.content.decode()
    page = director_client.get(reverse("manage:round-detail", args=[tournament.slug, 1]))
    assert page.status_code == 200 and "Spieler 998" in page.content.decode()
    rounds = reverse("manage:standings-export", args=[tournament.slug, "rounds", "xlsx"])
    export = director_client.get(rounds)
    assert export.status_code == 200


ODD_ANSWERS = ['=HYPERLINK("http://127.0.0.1:1/")', "ja\u202e", "🂭", "J" * 500]


@pytest.mark.parametrize("answer", ODD_ANSWERS)
def test_an_odd_consent_answer_in_an_import_is_a_line_error(director_client, tournament, answer):
    from django.core.files.uploadedfile import SimpleUploadedFile

    content = f"Nachname;Veröffentlichen\nKarl;{answer}\n".encode()
    upload = SimpleUploadedFile("spieler.csv", content)
    response = director_client.post(reverse("manage:import", args=[tournament.slug]),
                                    {"file": upload})  # fmt: skip
    assert response.status_code == 200
    assert "neither yes nor no" in response.content.decode() or "weder ja noch nein" in (
        response.content.decode()
    )
    assert not Player.objects.exists()
