"""The words of the prize page (issue 38): ``{% load prizes %}{{ prize|prize_text }}`` reads
"50 % of the fee pool", "120,00 €" or the goods; ``{{ category|rule_text }}`` says who may
win and what counts ("women · born in or before 1966 · best single round")."""

from decimal import Decimal

from django import template
from django.utils.translation import gettext as _

from ..models import Measure, Prize, PrizeCategory, PrizeKind, Sex
from ..wording.money import money_text, percent_number

register = template.Library()


def percent_text(value: Decimal) -> str:
    return f"{percent_number(value)} %"


@register.filter
def prize_text(prize: Prize) -> str:
    if prize.kind == PrizeKind.GOODS:
        return prize.goods
    if prize.kind == PrizeKind.SHARE:
        said = _("%(share)s of the fee pool") % {"share": percent_text(prize.value)}
    else:
        said = money_text(prize.value)
    return f"{said} + {prize.goods}" if prize.goods else said


@register.filter
def rule_text(category: PrizeCategory) -> str:
    parts = []
    if category.sex:
        parts.append(str(Sex(category.sex).label))
    if category.born_from is not None:
        parts.append(_("born in or after %(year)s") % {"year": category.born_from})
    if category.born_until is not None:
        parts.append(_("born in or before %(year)s") % {"year": category.born_until})
    if category.guests_only:
        parts.append(_("guests only"))
    if category.newcomers_only:
        parts.append(_("newcomers only"))
    if not parts:
        parts.append(_("all players"))
    parts.append(str(Measure(category.measure).label))
    if category.also_for_winners:
        parts.append(_("also for winners of other prizes"))
    return " · ".join(parts)


@register.filter
def award_prize(award) -> str:
    """An award line's prize: the money and the goods; the amount never breaks inside on a
    phone ("222,00 €" stays one piece)."""
    return award.prize_words(unbroken=True)
