"""Player import: the domain functions and the upload -> preview -> confirm pages."""

import io

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from openpyxl import Workbook

from tests.factories import EntryFactory, PlayerFactory, TournamentFactory
from tournament.domain.player_import import ImportFileError, apply_import, parse_player_file
from tournament.errors import DomainError
from tournament.models import Entry, Player, Team

pytestmark = pytest.mark.django_db

GOOD_ROWS = [
    ["Vorname", "Nachname", "Verein", "DDV-Nr.", "Team"],
    ["Jürgen", "Müller", "Doko-Freunde Kassel", "10231", "Nordlichter"],
    ["Anna", "Schäfer", "Herz Dame Fulda", "", ""],
    ["Peter", "O'Neill", "Die Füchse Köln", "", "Nordlichter"],
]


def csv_bytes(rows, delimiter=";", encoding="utf-8"):
    text = "\r\n".join(delimiter.join(cells) for cells in rows) + "\r\n"
    return text.encode(encoding)


def xlsx_bytes(rows):
    workbook = Workbook()
    for cells in rows:
        workbook.active.append(cells)
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


@pytest.mark.parametrize(
    ("name", "content"),
    [
        ("semikolon.csv", csv_bytes(GOOD_ROWS, ";", "utf-8")),
        ("komma.csv", csv_bytes(GOOD_ROWS, ",", "utf-8")),
        ("excel.csv", csv_bytes(GOOD_ROWS, ";", "cp1252")),
        ("bom.csv", b"\xef\xbb\xbf" + csv_bytes(GOOD_ROWS, ";")),
        ("liste.xlsx", xlsx_bytes(GOOD_ROWS)),
    ],
)
def test_it_reads_csv_variants_and_xlsx(tournament, name, content):
    preview = parse_player_file(tournament, name, content)
    assert preview.errors == []
    assert [(r.first_name, r.last_name, r.club) for r in preview.rows] == [
        ("Jürgen", "Müller", "Doko-Freunde Kassel"),
        ("Anna", "Schäfer", "Herz Dame Fulda"),
        ("Peter", "O'Neill", "Die Füchse Köln"),
    ]
    assert Player.objects.count() == 0  # a preview writes nothing
    assert apply_import(tournament, preview.rows) == 3
    numbers = dict(tournament.entries.values_list("player__last_name", "start_number"))
    assert numbers == {"Müller": 1, "Schäfer": 2, "O'Neill": 3}
    assert Team.objects.get(name="Nordlichter").members.count() == 2


def test_it_matches_existing_players_ignoring_case_and_unicode_normalisation(
    tournament, director_user
):
    # A player of the director's own earlier tournament (test_import_privacy.py: no other).
    known = PlayerFactory(first_name="Jürgen", last_name="Müller", club="Doko-Freunde Kassel")
    EntryFactory(tournament=TournamentFactory(directors=[director_user]), player=known)
    rows = [["Vorname", "Nachname", "Verein"], ["Ju\u0308rgen", "MÜLLER", "doko-freunde kassel"]]
    preview = parse_player_file(tournament, "a.csv", csv_bytes(rows), director=director_user)
    assert preview.rows[0].player_id == known.pk
    apply_import(tournament, preview.rows, director=director_user)
    assert Player.objects.count() == 1
    assert tournament.entries.get().player == known


def test_a_single_name_column_is_split_into_first_and_last_name(tournament):
    rows = [["Name", "Verein"], ["Müller, Jürgen", "X"], ["Anna Maria Schäfer", "Y"]]
    preview = parse_player_file(tournament, "a.csv", csv_bytes(rows))
    assert [(r.first_name, r.last_name) for r in preview.rows] == [
        ("Jürgen", "Müller"),
        ("Anna Maria", "Schäfer"),
    ]


def test_it_lists_every_bad_line_with_its_number_and_reason(tournament):
    EntryFactory(tournament=tournament, start_number=4)
    rows = [
        ["Vorname", "Nachname", "Verein", "DDV-Nr.", "Startnummer"],
        ["Anna", "Schäfer", "A", "", "1"],
        ["Ohne", "", "A", "", ""],
        ["Anna", "SCHÄFER", "a", "", ""],
        ["Zu", "Lang" * 40, "A", "", ""],
        ["Bernd", "Wolf", "A", "", "vier"],
        ["Carla", "Vogt", "A", "", "1"],
        ["Dora", "Dorn", "A", "", "4"],
        ["Emil", "Eck", "A", "777", ""],
        ["Fritz", "Fuchs", "A", "777", ""],
    ]
    preview = parse_player_file(tournament, "a.csv", csv_bytes(rows))
    errors = {e.line: e.message for e in preview.errors}
    assert errors == {
        3: "der Nachname fehlt",
        4: "derselbe Spieler wie in Zeile 2",
        5: "Nachname ist länger als 100 Zeichen",
        6: "Startnummer „vier“ ist keine ganze Zahl von 1 bis 99999",
        7: "Startnummer 1 wie in Zeile 2",
        8: "Startnummer 4 ist in diesem Turnier bereits vergeben",
        10: "DDV-Mitgliedsnummer wie in Zeile 9",
    }
    assert not preview.ok


def test_a_file_with_bad_lines_cannot_be_confirmed_and_writes_nothing(director_client, tournament):
    rows = [*GOOD_ROWS, ["Ohne", "", "", "", ""]]
    upload = SimpleUploadedFile("liste.csv", csv_bytes(rows), content_type="text/csv")
    response = director_client.post(
        reverse("manage:import", args=[tournament.slug]), {"file": upload}
    )
    page = response.content.decode()
    assert response.status_code == 200
    assert "Zeile 5" in page and "der Nachname fehlt" in page
    assert reverse("manage:import-confirm", args=[tournament.slug]) not in page
    response = director_client.post(
        reverse("manage:import-confirm", args=[tournament.slug]), {"token": "guessed"}
    )
    assert response.status_code == 302
    assert Player.objects.count() == 0 and Entry.objects.count() == 0


def test_upload_preview_confirm_registers_the_players(director_client, tournament):
    url = reverse("manage:import", args=[tournament.slug])
    upload = SimpleUploadedFile("liste.xlsx", xlsx_bytes(GOOD_ROWS))
    response = director_client.post(url, {"file": upload})
    page = response.content.decode()
    assert "3 neue Spieler" in page
    assert Entry.objects.count() == 0
    token = response.context["token"]
    response = director_client.post(
        reverse("manage:import-confirm", args=[tournament.slug]), {"token": token}
    )
    assert response.status_code == 302
    assert tournament.entries.count() == 3
    # The preview is used up: confirming twice registers nobody twice.
    director_client.post(reverse("manage:import-confirm", args=[tournament.slug]), {"token": token})
    assert tournament.entries.count() == 3


def test_confirm_is_all_or_nothing_when_the_database_changed_meanwhile(tournament):
    rows = [["Vorname", "Nachname", "Startnummer"], ["Anna", "Schäfer", ""], ["Bernd", "Wolf", "2"]]
    preview = parse_player_file(tournament, "a.csv", csv_bytes(rows))
    EntryFactory(tournament=tournament, start_number=2)  # taken after the preview
    with pytest.raises(DomainError, match="Zeile 3"):
        apply_import(tournament, preview.rows)
    assert tournament.entries.count() == 1
    assert not Player.objects.filter(last_name__in=["Schäfer", "Wolf"]).exists()


def test_already_registered_players_are_skipped(tournament):
    entry = EntryFactory(tournament=tournament, player=PlayerFactory(first_name="A", last_name="B"))
    rows = [["Vorname", "Nachname", "Verein"], ["A", "B", entry.player.club], ["C", "D", ""]]
    preview = parse_player_file(tournament, "a.csv", csv_bytes(rows))
    assert [r.already_registered for r in preview.rows] == [True, False]
    assert apply_import(tournament, preview.rows) == 1


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("leer.csv", b"", "Die Datei ist leer."),
        ("leer.csv", b"\r\n  \r\n", "Die Datei ist leer."),
        ("kopf.csv", b"Vorname;Nachname\r\n", "nur die Kopfzeile"),
        ("ohne-kopf.csv", "Jürgen;Müller\n".encode(), "erste Zeile muss die Spalten"),
        ("kaputt.xlsx", b"PK\x03\x04 this is no zip", "beschädigt oder keine XLSX-Datei"),
        ("binär.csv", b"\x89PNG\r\n\x1a\n\x00\x00", "weder eine Textdatei"),
        ("alt.xls", b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "Alte Excel-Dateien"),
        ("riesig.csv", b"Nachname\n" + b"x" * (3 * 1024 * 1024), "größer als 2 MB"),
    ],
)
def test_an_unusable_file_gets_a_clear_german_message(tournament, name, content, message):
    with pytest.raises(ImportFileError, match=message):
        parse_player_file(tournament, name, content)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", "Die übertragene Datei ist leer."),
        (b"PK\x03\x04 kaputt", "beschädigt oder keine XLSX-Datei"),
        (b"Nachname\n" + b"x" * (3 * 1024 * 1024), "größer als 2 MB"),
    ],
)
def test_the_upload_page_shows_file_errors_and_writes_nothing(
    director_client, tournament, content, message
):
    upload = SimpleUploadedFile("liste.xlsx", content)
    response = director_client.post(
        reverse("manage:import", args=[tournament.slug]), {"file": upload}
    )
    assert response.status_code == 400
    assert message in response.content.decode()
    assert Player.objects.count() == 0


def test_it_matches_umlauts_spelt_with_e_as_the_same_player(tournament, director_user):
    """Issue 15, point 7: "Anna Schaefer" and "Jürgen Mueller" are the Schäfer and Müller of
    the director's player database, not new players; the preview shows them as known and the
    import links them instead of creating duplicates."""
    earlier = TournamentFactory(directors=[director_user])
    schaefer = PlayerFactory(first_name="Anna", last_name="Schäfer", club="Herz Dame Fulda")
    mueller = PlayerFactory(first_name="Jürgen", last_name="Müller", club="Doko-Freunde Kassel")
    weiss = PlayerFactory(first_name="Jörg", last_name="Weiß", club="")
    for player in (schaefer, mueller, weiss):
        EntryFactory(tournament=earlier, player=player)
    rows = [
        ["Vorname", "Nachname", "Verein"],
        ["Anna", "Schaefer", "Herz Dame Fulda"],
        ["Juergen", "MUELLER", "Doko-Freunde Kassel"],
        ["Joerg", "Weiss", "Pik As Gießen"],
    ]
    preview = parse_player_file(tournament, "a.csv", csv_bytes(rows), director=director_user)
    assert preview.errors == []
    assert [r.player_id for r in preview.rows] == [schaefer.pk, mueller.pk, weiss.pk]
    assert preview.new_players == 0
    players_before = Player.objects.count()
    apply_import(tournament, preview.rows, director=director_user)
    assert Player.objects.count() == players_before
    assert set(tournament.entries.values_list("player_id", flat=True)) == {
        schaefer.pk,
        mueller.pk,
        weiss.pk,
    }


@pytest.mark.parametrize(
    ("stored", "typed"),
    [
        (("Michael", "Schmidt"), ("Michal", "Schmidt")),  # "ae" in Michael is no umlaut
        (("Rafael", "Nowak"), ("Rafał", "Nowak")),
        (("Rafael", "Nowak"), ("Raphael", "Nowak")),
        (("Anna", "Schäfer"), ("Anna", "Schafer")),  # a dropped umlaut may be another family
        (("Jürgen", "Müller"), ("Jürgen", "Möller")),
    ],
)
def test_names_that_only_look_alike_are_not_matched(tournament, director_user, stored, typed):
    known = PlayerFactory(first_name=stored[0], last_name=stored[1], club="")
    EntryFactory(tournament=TournamentFactory(directors=[director_user]), player=known)
    rows = [["Vorname", "Nachname"], list(typed)]
    preview = parse_player_file(tournament, "a.csv", csv_bytes(rows), director=director_user)
    assert preview.rows[0].player_id is None


def test_one_person_twice_in_a_file_is_found_however_the_umlaut_is_spelt(tournament):
    rows = [["Vorname", "Nachname", "Verein"], ["Anna", "Schäfer", "X"], ["Anna", "Schaefer", "X"]]
    preview = parse_player_file(tournament, "a.csv", csv_bytes(rows))
    assert [(e.line, e.message) for e in preview.errors] == [(3, "derselbe Spieler wie in Zeile 2")]


def test_a_ddv_number_with_the_umlaut_spelt_out_is_no_conflict(tournament):
    holder = PlayerFactory(first_name="Jürgen", last_name="Müller", ddv_number="10231")
    rows = [["Vorname", "Nachname", "DDV-Nr."], ["Juergen", "Mueller", "10231"]]
    preview = parse_player_file(tournament, "a.csv", csv_bytes(rows))
    assert preview.errors == [] and preview.rows[0].player_id == holder.pk


def test_matching_a_whole_file_reads_the_player_database_once(
    tournament, director_user, django_assert_max_num_queries
):
    earlier = TournamentFactory(directors=[director_user])
    for number in range(30):
        EntryFactory(
            tournament=earlier, player=PlayerFactory(first_name="X", last_name=f"Müller{number}")
        )
    rows = [["Vorname", "Nachname"]] + [["X", f"Mueller{number}"] for number in range(30)]
    with django_assert_max_num_queries(8):
        preview = parse_player_file(tournament, "a.csv", csv_bytes(rows), director=director_user)
    assert all(r.player_id for r in preview.rows)


@pytest.mark.parametrize(
    "name", ["Max\u202eknuF", "Zero\u200bWidth", "Soft\u00adHyphen", "Byte\ufeffMark"]
)
def test_an_import_refuses_the_characters_every_form_refuses(tournament, name):
    """A reviewer's find: the import checked ASCII control codes only, so a text-direction
    override or a zero-width character reached the public pages and PDFs through it."""
    rows = [["Vorname", "Nachname"], ["Anna", name]]
    preview = parse_player_file(tournament, "a.csv", csv_bytes(rows))
    assert [(e.line, e.message) for e in preview.errors] == [(2, "Nachname enthält Steuerzeichen")]
    assert not preview.ok
