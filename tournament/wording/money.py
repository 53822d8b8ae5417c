"""Money and percentages as the reader's language writes them: "1.234,50 €" and "101,5" in
German, "€1,234.50" and "101.5" in English (the players page, the prize page, the payout
sheet, the prize rules' messages)."""

from decimal import Decimal, InvalidOperation

from django.utils import formats
from django.utils.translation import get_language


def money_text(value) -> str:
    """An amount in euros in the active language: the German way puts the sign after the
    number, the English one before it (a minus before both: "-€35.50"); always two
    decimals, thousands grouped."""
    if value is None or value == "":
        return ""
    try:
        amount = Decimal(value)
    except (InvalidOperation, TypeError, ValueError):
        return ""
    number = formats.number_format(amount, decimal_pos=2, use_l10n=True, force_grouping=True)
    if (get_language() or "de").startswith("de"):
        return f"{number} €"
    if number.startswith("-"):
        return f"-€{number[1:]}"  # the English minus stands before the sign: -€35.50
    return f"€{number}"


def percent_number(value: Decimal) -> str:
    """A percentage's number without needless zeros: "50", "33,33", "101,5" in German."""
    return formats.number_format(value.normalize(), use_l10n=True)
