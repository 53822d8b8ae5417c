"""The payout sheet (issue 38): every prize with name, club and a line to sign, and the fee
ledger beside it, so that the cash box checks; as PDF and Excel file, for directors only."""

from decimal import Decimal
from io import BytesIO

import pytest
from django.urls import reverse
from openpyxl import load_workbook
from pypdf import PdfReader

from tests.downloads import file_of
from tests.factories import (
    EntryFactory,
    PlayerFactory,
    five_player_round,
    prize_category,
    referee,
)
from tests.tournament.exports.test_exports import layout_text
from tournament.exports import prizes as payout
from tournament.exports.prizes import EURO_FORMAT
from tournament.models import (
    Entry,
    FeeStatus,
    Prize,
    PrizeKind,
)
from tournament.queries.prizes import prize_list

pytestmark = pytest.mark.django_db

PEOPLE = [  # first name, club, sex, fee
    ("Anna", "DK Köln", "f", FeeStatus.PAID),
    ("Bernd", "DK Bonn", "m", FeeStatus.PAID),
    ("Clara", "", "f", FeeStatus.PAID),
    ("Dieter", "DK Bonn", "m", FeeStatus.WAIVED),
    ("Emil", '=HYPERLINK("http://x")', "m", FeeStatus.OPEN),
]


def make_cup(tournament):
    """Five players at one five-player table, one of two rounds closed: Anna 3, Bernd 1,
    Clara -1, Dieter -1, Emil -2. Fee 10 €: three paid, one waived, one open. Prizes: overall
    15 € and a book; "Mitte" 7.01 € (Clara and Dieter share it); ladies 5 € (nobody left)."""
    tournament.planned_rounds = 2
    tournament.entry_fee = Decimal("10")
    tournament.venue = "Bürgerhaus"
    tournament.save()
    entries = [
        EntryFactory(
            tournament=tournament,
            start_number=number,
            player=PlayerFactory(first_name=name, last_name="Muster", club=club),
            sex=sex,
            fee=fee,
            publish=number != 3,
        )
        for number, (name, club, sex, fee) in enumerate(PEOPLE, start=1)
    ]
    five_player_round(tournament, entries)
    prize_category(tournament, "Gesamt", 1, [(PrizeKind.AMOUNT, "15"), (PrizeKind.GOODS, "Buch")])
    prize_category(tournament, "Mitte", 2, [(PrizeKind.AMOUNT, "7.01")])
    prize_category(tournament, "Damen", 3, [(PrizeKind.AMOUNT, "5")], sex="f")
    return tournament


@pytest.fixture
def cup(tournament):
    return make_cup(tournament)


def finish(tournament):
    tournament.planned_rounds = 1
    tournament.save()


def test_the_rows_name_every_prize_and_the_ledger_adds_up(cup):
    sheet = payout.payout_sheet(cup)
    rows = [(r.category, r.place, r.shared, r.name, r.club, r.goods) for r in sheet.rows]
    assert rows[:2] == [
        ("Gesamt", 1, 1, "Anna Muster", "DK Köln", ""),
        ("Gesamt", 2, 1, "Bernd Muster", "DK Bonn", "Buch"),
    ]
    assert sorted(rows[2:]) == [  # equal: they share the place
        ("Mitte", 1, 2, "Clara Muster", "", ""),
        ("Mitte", 1, 2, "Dieter Muster", "DK Bonn", ""),
    ]
    amounts = [r.amount for r in sheet.rows]
    assert amounts[:2] == [Decimal("15.00"), Decimal("0")]
    # 7.01 € shared by two: the cents add up.
    assert sorted(amounts[2:]) == [Decimal("3.50"), Decimal("3.51")]
    assert sheet.unawarded == [("Damen", [1])]
    ledger = sheet.ledger
    assert (ledger.fees.fee, ledger.fees.paid, ledger.fees.waived, ledger.fees.open) == (
        Decimal("10"), 3, 1, 1,
    )  # fmt: skip
    assert ledger.collected == Decimal("30.00")
    assert ledger.paid_out == Decimal("22.01")
    assert ledger.left == Decimal("7.99")
    assert ledger.paid_out + ledger.left == ledger.collected
    assert sheet.provisional
    assert sheet.rows[2].place_label == "1. (geteilt von 2)"
    assert sheet.rows[1].prize == "Buch" and sheet.rows[0].prize == "15,00 €"


def test_the_pdf_has_a_signature_line_per_prize_and_the_cash_box(cup):
    text = layout_text(payout.payout_pdf(cup))
    assert text.count("Erhalten:") == 4
    for name in ("Anna Muster", "Bernd Muster", "Clara Muster", "Dieter Muster"):
        assert name in text
    assert "Emil Muster" not in text
    assert "Vorläufig" in text and "vorläufig" in text
    lines = {" ".join(line.split()) for line in text.splitlines()}
    for expected in (
        "Startgeld 10,00 €",
        "Bezahlt 3",
        "Erlassen 1",
        "Noch offen 1 (10,00 €)",
        "Eingenommen 30,00 €",
        "Ausgezahlt 22,01 €",
        "Übrig 7,99 €",
    ):
        assert any(expected in line for line in lines), expected
    # As the prize page says it.
    assert "Damen: Platz 1 nicht vergeben (zu wenige berechtigte Spieler)" in " ".join(text.split())
    assert "mehr ausgezahlt" not in text
    finish(cup)
    final = layout_text(payout.payout_pdf(cup))
    assert "orläufig" not in final and "endgültig" in final


def test_the_workbook_has_euros_as_numbers_and_text_as_text(cup):
    book = load_workbook(BytesIO(payout.payout_workbook(cup)))
    sheet = book["Auszahlung"]
    cells = [list(row) for row in sheet.iter_rows()]
    values = [[cell.value for cell in row] for row in cells]
    assert values[0][0] == cup.name and "vorläufig" in values[1][0]
    head = next(i for i, row in enumerate(values) if row[0] == "Kategorie")
    assert values[head][:8] == ["Kategorie", "Platz", "Geteilt von", "Name", "Verein",
                                "Betrag", "Sachpreis", "Erhalten (Unterschrift)"]  # fmt: skip
    first = cells[head + 1]
    assert [c.value for c in first[:7]] == ["Gesamt", 1, None, "Anna Muster", "DK Köln", 15, None]
    assert first[5].number_format == EURO_FORMAT and first[5].data_type == "n"
    assert values[head + 2][6] == "Buch"
    assert values[head + 2][5] is None  # goods only: no "0,00 €"
    shared = values[head + 3 : head + 5]
    assert {row[3] for row in shared} == {"Clara Muster", "Dieter Muster"}
    assert sorted(row[5] for row in shared) == [3.5, 3.51] and {row[2] for row in shared} == {2}
    ledger = {row[0]: (row[4], row[5]) for row in values[head + 5 :] if row[0]}
    assert ledger["Startgeld"] == (None, 10)
    counts = (ledger["Bezahlt"], ledger["Erlassen"], ledger["Noch offen"])
    assert counts == ((3, None), (1, None), (1, 10))  # the open fee's amount, as in the PDF
    assert ledger["Eingenommen"][1] == 30 and ledger["Ausgezahlt"][1] == 22.01
    assert ledger["Übrig"][1] == pytest.approx(7.99)
    money = [c for row in cells[head + 5 :] for c in row if isinstance(c.value, float | int)]
    assert all(c.number_format == EURO_FORMAT for c in money if c.column == 6)
    # Nothing a user typed becomes a formula.
    assert all(c.data_type != "f" for row in cells for c in row)


def test_the_director_downloads_both_files_through_the_worker(director_client, cup):
    pdf = director_client.get(reverse("manage:payout-export", args=[cup.slug, "pdf"]))
    assert 'filename="herbst-auszahlung-vorlaeufig.pdf"' in pdf["Content-Disposition"]
    assert pdf["Cache-Control"] == "private, no-store"
    content = file_of(pdf)
    assert len(PdfReader(BytesIO(content)).pages) == 1
    book = director_client.get(reverse("manage:payout-export", args=[cup.slug, "xlsx"]))
    assert "Auszahlung" in load_workbook(BytesIO(file_of(book))).sheetnames
    finish(cup)
    again = director_client.get(reverse("manage:payout-export", args=[cup.slug, "pdf"]))
    assert 'filename="herbst-auszahlung.pdf"' in again["Content-Disposition"]


def test_a_changed_prize_makes_a_new_sheet(director_client, cup):
    url = reverse("manage:payout-export", args=[cup.slug, "pdf"])
    assert "22,01" in layout_text(file_of(director_client.get(url)))
    Prize.objects.filter(category__name="Gesamt", place=1).update(value=Decimal("16"))
    assert "23,01" in layout_text(file_of(director_client.get(url)))


def test_only_the_tournaments_directors_get_the_sheet(client, cup):
    url = reverse("manage:payout-export", args=[cup.slug, "pdf"])
    assert client.get(url).status_code == 302  # to the login
    client.force_login(referee(username="schiri"))
    assert client.get(url).status_code == 403


def test_the_worker_makes_the_files_the_page_then_serves(database_queue, director_client, cup):
    """The queue in the database, as on the day: the progress page first, then the worker."""
    urls = [
        reverse("manage:payout-export", args=[cup.slug, "pdf"]),
        reverse("manage:payout-export", args=[cup.slug, "xlsx"]),
        reverse("manage:certificates", args=[cup.slug]),
        reverse("manage:certificates-all", args=[cup.slug]),
    ]
    for url in urls:
        assert director_client.get(url).status_code == 202
    database_queue()
    for url in urls:
        assert director_client.get(url + "?status=1").json() == {"status": "ready"}
    sheet = layout_text(file_of(director_client.get(urls[0])))
    assert "Übrig 7,99 €" in " ".join(sheet.split())
    assert len(PdfReader(BytesIO(file_of(director_client.get(urls[2])))).pages) == 4
    assert len(PdfReader(BytesIO(file_of(director_client.get(urls[3])))).pages) == 5
    # A fee ticked since: the sheet is made again, never served stale.
    Entry.objects.filter(tournament=cup, start_number=5).update(fee=FeeStatus.PAID)
    assert director_client.get(urls[0]).status_code == 202


def test_more_paid_out_than_collected_is_said_in_both_files(cup):
    Prize.objects.filter(category__name="Gesamt", place=1).update(value=Decimal("40"))
    sheet = payout.payout_sheet(cup)
    assert (sheet.ledger.left, sheet.ledger.short) == (Decimal("-17.01"), Decimal("17.01"))
    text = " ".join(layout_text(payout.payout_pdf(cup)).split())
    assert "Übrig -17,01 €" in text
    warning = (
        "Es wird mehr ausgezahlt als eingenommen: 17,01 € müssen aus einer anderen Kasse kommen."
    )
    assert warning in text
    book = load_workbook(BytesIO(payout.payout_workbook(cup)))
    assert warning in [row[0] for row in book["Auszahlung"].iter_rows(values_only=True)]


def test_the_cash_box_is_the_prize_lists_pool_and_paid_out(cup):
    """The sheet counts nothing again: a fee ticked after the list was read does not make
    the cash box disagree with the prizes it lists."""
    prizes = prize_list(cup)
    Entry.objects.filter(tournament=cup, start_number=5).update(fee=FeeStatus.PAID)
    ledger = payout.sheet_of(prizes).ledger
    assert (ledger.collected, ledger.paid_out, ledger.left) == (
        prizes.pool, prizes.paid_out, prizes.left,
    )  # fmt: skip
    assert ledger.fees.open == 1 and ledger.collected == Decimal("30.00")


def test_the_english_sheet_says_it_in_english(cup):
    from django.utils import translation

    Prize.objects.filter(category__name="Gesamt", place=1).update(value=Decimal("40"))
    with translation.override("en"):
        text = " ".join(layout_text(payout.payout_pdf(cup)).split())
    assert "Damen: Place 1 not awarded (too few eligible players)" in text
    assert "More is paid out than was collected: €17.01 must come from elsewhere." in text
