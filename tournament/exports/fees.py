"""The entry fees as an Excel list for the treasurer: every entry with its fee in words, the
amount as a number in euros, who ticked it and when (a real date and time, local), and the
totals below: collected, outstanding, waived.

Built like the other workbooks (``xlsx``): the lines that say what the sheet is, a frozen
header row, text always text (a name never becomes a formula).
"""

from __future__ import annotations

from decimal import Decimal

from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from openpyxl import Workbook
from openpyxl.cell import WriteOnlyCell
from openpyxl.cell.cell import Cell

from ..models import Tournament
from ..queries.fees import amount_of, fee_sums
from .rows import heading
from .xlsx import BOLD, _cell, _saved, start_sheet

EURO_FORMAT = '#,##0.00 "€"'
# A real Excel date and time, shown the way the reader's language writes it.
DATETIME_FORMATS = {"de": "DD.MM.YYYY HH:MM", "en": "D MMM YYYY HH:MM"}
WIDTHS = (8, 28, 24, 14, 14, 12, 16, 18)


def _datetime_format() -> str:
    return DATETIME_FORMATS.get((get_language() or "de")[:2], DATETIME_FORMATS["de"])


def _euro(sheet, amount: Decimal | None, *, font=None) -> Cell:
    cell = WriteOnlyCell(sheet, value=None if amount is None else float(amount))
    cell.number_format = EURO_FORMAT
    if font is not None:
        cell.font = font
    return cell


def _moment(sheet, moment) -> Cell:
    """Local time without a time zone: Excel knows none, and the treasurer reads the clock
    of the hall."""
    value = timezone.localtime(moment).replace(tzinfo=None) if moment else None
    cell = WriteOnlyCell(sheet, value=value)
    if value is not None:
        cell.number_format = _datetime_format()
    return cell


def _who(user) -> str:
    if user is None:
        return ""
    return user.get_full_name() or user.get_username()


def fees_workbook(tournament: Tournament) -> bytes:
    book = Workbook(write_only=True)
    title = _("Entry fees")
    head = heading(tournament, title)
    labels = [
        _("No."),
        _("Name"),
        _("Club"),
        _("Status"),
        _("Entry fee"),
        _("Amount"),
        _("Ticked by"),
        _("Ticked at"),
    ]
    sheet = start_sheet(book, title, head, labels, WIDTHS)
    fee = tournament.entry_fee
    entries = tournament.entries.select_related("player", "fee_changed_by").order_by("start_number")
    for entry in entries:
        sheet.append(
            [
                _cell(sheet, entry.start_number),
                _cell(sheet, entry.player.full_name),
                _cell(sheet, entry.player.club),
                _cell(sheet, entry.get_status_display()),
                _cell(sheet, entry.get_fee_display()),
                _euro(sheet, amount_of(entry, fee)),
                _cell(sheet, _who(entry.fee_changed_by)),
                _moment(sheet, entry.fee_changed_at),
            ]
        )
    sums = fee_sums(tournament)
    sheet.append([])
    sheet.append(
        [
            None,
            _cell(sheet, _("Totals"), font=BOLD),
            _cell(sheet, _("Players"), font=BOLD),
            None,
            None,
            _cell(sheet, _("Amount"), font=BOLD),
        ]
    )
    totals = [
        (_("Entry fee"), None, fee),
        (_("Collected"), sums.paid, sums.collected),
        (_("Outstanding"), sums.open, sums.outstanding),
        (_("Waived"), sums.waived, None),
    ]
    for label, count, amount in totals:
        # The amounts stand under the amount column.
        sheet.append(
            [
                None,
                _cell(sheet, label, font=BOLD),
                _cell(sheet, count),
                None,
                None,
                _euro(sheet, amount, font=BOLD) if amount is not None else None,
            ]
        )
    return _saved(book, f"{tournament.name} – {title}")
