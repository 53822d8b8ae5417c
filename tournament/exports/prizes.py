"""The payout sheet (issue 38): every prize of the prize list with the winner's real name, club,
what they get and a line to sign for it, and beside it the fee ledger (the fee, how many paid,
were let off or still owe, what was collected), what is paid out and what is left, so that the
cash box can be counted against the sheet. An office document: real names.

The prizes, the pool and the fee sums it was taken from are ``queries.prizes.prize_list``
(the fee rules live in ``queries.fees``). :func:`payout_sheet` reads them into plain rows;
the PDF (``print/payout.html``) and the workbook only set them.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from openpyxl import Workbook
from openpyxl.cell import WriteOnlyCell
from openpyxl.cell.cell import Cell

from ..models import Tournament
from ..queries.fees import FeeSums, fee_sums
from ..queries.prizes import AwardLine, PrizeList, prize_list
from ..wording.money import money_text
from .rows import heading, when
from .xlsx import BOLD, _cell, _saved, start_sheet

ZERO = Decimal("0.00")
EURO_FORMAT = '#,##0.00 "€"'
# The columns of the workbook: category, place, shared, name, club, amount, goods, received.
WIDTHS = (22, 7, 9, 28, 24, 12, 24, 24)


@dataclass(frozen=True)
class PayoutRow:
    """One prize handed to one player."""

    category: str
    place: int
    shared: int  # players sharing the place (1: alone)
    name: str  # the real name
    club: str
    amount: Decimal  # 0 for goods only
    goods: str
    prize: str  # what the winner gets in words (``AwardLine.prize_text``)

    @property
    def place_label(self) -> str:
        """ "2." or, shared by three, "2. (geteilt, 3)"."""
        if self.shared > 1:
            return _("%(place)s. (shared by %(count)s)") % {
                "place": self.place,
                "count": self.shared,
            }
        return f"{self.place}."


@dataclass(frozen=True)
class Ledger:
    """The cash box: the fees collected (the prize list's pool) against the prizes paid
    out, as the prize list counts them."""

    fees: FeeSums
    collected: Decimal
    paid_out: Decimal
    left: Decimal

    @property
    def short(self) -> Decimal:
        """How much more is paid out than was collected (0 when the fees cover it): a club
        may add money, so it is said, not refused."""
        return max(-self.left, ZERO)


@dataclass(frozen=True)
class PayoutSheet:
    tournament: Tournament
    provisional: bool
    rows: list[PayoutRow]
    ledger: Ledger
    # Places with a prize nobody took, by category name.
    unawarded: list[tuple[str, list[int]]]

    @property
    def unawarded_lines(self) -> list[tuple[str, str]]:
        """The category and, in words, its places nobody took, as the prize page says it."""
        return [(name, not_awarded(places)) for name, places in self.unawarded]


def not_awarded(places: list[int]) -> str:
    """ "Place 1 not awarded (too few eligible players)"; several: "Places 2, 3 …"."""
    listed = ", ".join(str(place) for place in places)
    return ngettext(
        "Place %(places)s not awarded (too few eligible players)",
        "Places %(places)s not awarded (too few eligible players)",
        len(places),
    ) % {"places": listed}


def short_text(ledger: Ledger) -> str:
    """The warning when the prizes cost more than the fees brought in; "" otherwise."""
    if not ledger.short:
        return ""
    return _("More is paid out than was collected: %(amount)s must come from elsewhere.") % {
        "amount": money_text(ledger.short)
    }


def _row(award: AwardLine) -> PayoutRow:
    return PayoutRow(
        category=award.category,
        place=award.place,
        shared=award.shared,
        name=award.name,
        club=award.club,
        amount=award.amount,
        goods=award.goods,
        prize=award.prize_text,
    )


def sheet_of(prizes: PrizeList) -> PayoutSheet:
    """The payout sheet of a prize list: its prizes, and its pool and paid-out sums with the
    fee sums the pool was taken from."""
    rows = [_row(award) for award in prizes.awards]
    fees = prizes.fees if prizes.fees is not None else fee_sums(prizes.tournament)
    ledger = Ledger(fees=fees, collected=prizes.pool, paid_out=prizes.paid_out, left=prizes.left)
    unawarded = [(c.name, list(c.unawarded)) for c in prizes.categories if c.unawarded]
    return PayoutSheet(
        tournament=prizes.tournament,
        provisional=prizes.provisional,
        rows=rows,
        ledger=ledger,
        unawarded=unawarded,
    )


def payout_sheet(tournament: Tournament) -> PayoutSheet:
    return sheet_of(prize_list(tournament))


def state_of(sheet: PayoutSheet) -> str:
    return _("provisional") if sheet.provisional else _("final")


def payout_pdf(tournament: Tournament) -> bytes:
    from .pdf import render_pdf  # WeasyPrint loads only when a PDF is made

    sheet = payout_sheet(tournament)
    ledger = sheet.ledger
    context = {
        "tournament": tournament,
        "sheet": sheet,
        "state": state_of(sheet),
        "money": {
            "fee": money_text(ledger.fees.fee),
            "collected": money_text(ledger.collected),
            "outstanding": money_text(ledger.fees.outstanding),
            "paid_out": money_text(ledger.paid_out),
            "left": money_text(ledger.left),
        },
        "short": short_text(ledger),
        "generated": when(timezone.now()),
    }
    return render_pdf("tournament/print/payout.html", context)


def _euro(sheet, amount: Decimal | None, *, font=None) -> Cell:
    cell = WriteOnlyCell(sheet, value=None if amount is None else float(amount))
    cell.number_format = EURO_FORMAT
    if font is not None:
        cell.font = font
    return cell


def payout_workbook(tournament: Tournament) -> bytes:
    """The payout sheet as an Excel workbook: the prizes (amounts as numbers in euros, an
    empty column to sign in), and below them the fee ledger."""
    payout = payout_sheet(tournament)
    book = Workbook(write_only=True)
    title = _("Payout")
    head = heading(tournament, title, state_of(payout))
    labels = [
        _("Category"),
        _("Place"),
        _("Shared by"),
        _("Name"),
        _("Club"),
        _("Amount"),
        _("Goods"),
        _("Received (signature)"),
    ]
    sheet = start_sheet(book, title, head, labels, WIDTHS)
    for row in payout.rows:
        sheet.append(
            [
                _cell(sheet, row.category),
                _cell(sheet, row.place),
                _cell(sheet, row.shared if row.shared > 1 else None),
                _cell(sheet, row.name),
                _cell(sheet, row.club),
                _euro(sheet, row.amount or None),  # goods only: no amount
                _cell(sheet, row.goods),
                None,
            ]
        )
    for name, missing in payout.unawarded_lines:
        sheet.append([_cell(sheet, name), _cell(sheet, missing)])
    ledger = payout.ledger
    sheet.append([])
    heads = [_("Cash box"), None, None, None, _("Players"), _("Amount")]
    sheet.append([_cell(sheet, text, font=BOLD) if text else None for text in heads])
    lines = [
        (_("Entry fee"), None, ledger.fees.fee),
        (_("Paid"), ledger.fees.paid, None),
        (_("Waived"), ledger.fees.waived, None),
        (_("Still open"), ledger.fees.open, ledger.fees.outstanding),
        (_("Collected"), None, ledger.collected),
        (_("Paid out"), None, ledger.paid_out),
        (_("Left"), None, ledger.left),
    ]
    for label, count, amount in lines:
        sheet.append(
            [
                _cell(sheet, label, font=BOLD),
                None,
                None,
                None,
                _cell(sheet, count),
                _euro(sheet, amount, font=BOLD) if amount is not None else None,
            ]
        )
    if warning := short_text(ledger):
        sheet.append([_cell(sheet, warning, font=BOLD)])
    return _saved(book, f"{tournament.name} – {title}")
