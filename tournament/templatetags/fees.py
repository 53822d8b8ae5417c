"""Money and the moment a fee was ticked, as the players page shows them:
``{% load fees %}{{ sums.collected|money }}`` reads "12,50 €" in German and "€12.50" in
English; ``{{ entry.fee_changed_at|ticked }}`` is the time alone when it was today."""

from django import template
from django.utils import formats, timezone

from ..wording.money import money_text

register = template.Library()


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
