"""Money and the moment a fee was ticked, as the players page shows them:
``{% load fees %}{{ sums.collected|money }}`` reads "12,50 €" in German and "€12.50" in
English; ``{{ entry.fee_changed_at|ticked }}`` is the time alone when it was today."""

from decimal import Decimal, InvalidOperation

from django import template
from django.utils import formats, timezone
from django.utils.translation import get_language

register = template.Library()


def money_text(value) -> str:
    """An amount in euros in the active language: the German way puts the sign after the
    number, the English one before it; always two decimals, thousands grouped."""
    if value is None or value == "":
        return ""
    try:
        amount = Decimal(value)
    except (InvalidOperation, TypeError, ValueError):
        return ""
    number = formats.number_format(amount, decimal_pos=2, use_l10n=True, force_grouping=True)
    if (get_language() or "de").startswith("de"):
        return f"{number} €"
    return f"€{number}"


@register.filter
def money(value) -> str:
    return money_text(value)


@register.filter
def ticked(moment) -> str:
    """When a fee was ticked: "09:12" on the day itself, else date and time."""
    if not moment:
        return ""
    local = timezone.localtime(moment)
    if local.date() == timezone.localdate():
        return formats.time_format(local, "TIME_FORMAT")
    return formats.date_format(local, "SHORT_DATETIME_FORMAT")
