"""A tournament's prize categories and their prizes (issue 38, README "Preise und
Siegerehrung"): added (by hand or from a preset), changed, deleted and put in order by the
director. Each verb owns its transaction under the tournament's lock, checks everything before
it writes (bad input raises :class:`DomainError` and changes nothing), stamps the history, and
moves the tournament's version through the signals of ``base.versions`` (the prize list, the
payout sheet, the certificates and the ceremony follow). Who wins what is a read:
``tournament.queries.prizes``."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from decimal import Decimal

from django.db import transaction
from django.db.models import Max, Sum
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ..errors import DomainError
from ..models import Measure, Prize, PrizeCategory, PrizeKind, Sex, Ties, Tournament
from ..models.audit import stamp
from ..models.locks import lock_tournament
from ..models.tournament import FIRST_BIRTH_YEAR, LAST_BIRTH_YEAR
from ..wording.money import percent_number

HUNDRED = Decimal("100")
# Ages of the presets: seniors from 60, juniors up to 18, counted by the year of birth.
SENIOR_AGE, JUNIOR_AGE = 60, 18
YEARS = (FIRST_BIRTH_YEAR, LAST_BIRTH_YEAR)  # what the models take as a year of birth


@dataclass(frozen=True)
class CategoryData:
    """What a category says: its name, what it ranks by, how ties go and who may win."""

    name: str
    measure: str = Measure.TOTAL
    ties: str = Ties.SHARE
    sex: str = ""
    born_from: int | None = None
    born_until: int | None = None
    guests_only: bool = False
    newcomers_only: bool = False
    also_for_winners: bool = False


@dataclass(frozen=True)
class PrizeData:
    place: int
    kind: str = PrizeKind.AMOUNT
    value: Decimal = Decimal("0")
    goods: str = ""


CATEGORY_FIELDS = tuple(CategoryData.__dataclass_fields__)
PRIZE_FIELDS = ("place", "kind", "value", "goods")


# -- the checks (the forms ask them too, so that the message stands next to the field) ----


def check_category(data: CategoryData) -> None:
    """Refuse a category that cannot be: no name, an unknown choice, years out of range or
    "born from" after "born until"."""
    if not data.name.strip():
        raise DomainError(_("Give the category a name."))
    if data.measure not in Measure.values or data.ties not in Ties.values:
        raise DomainError(_("Unknown choice for the category."))
    if data.sex and data.sex not in Sex.values:
        raise DomainError(_("Unknown choice for the category."))
    for year in (data.born_from, data.born_until):
        if year is not None and not YEARS[0] <= year <= YEARS[1]:
            raise DomainError(
                _("A year of birth must lie between %(first)s and %(last)s.")
                % {"first": YEARS[0], "last": YEARS[1]}
            )
    start, end = data.born_from, data.born_until
    if start is not None and end is not None and start > end:
        raise DomainError(
            _(
                "“Born in or after” (%(start)s) is later than “born in or before” "
                "(%(end)s): nobody could win this category."
            )
            % {"start": start, "end": end}
        )


def check_prize(category: PrizeCategory, data: PrizeData, prize: Prize | None = None) -> None:
    """Refuse a prize that cannot be: a place below 1 or taken in the category, a negative
    value, money without an amount, goods without words, or shares of the fee pool above
    100 % over all the tournament's categories (``prize``: the one being changed)."""
    if data.kind not in PrizeKind.values:
        raise DomainError(_("Unknown kind of prize."))
    if data.place < 1:
        raise DomainError(_("The place must be 1 or more."))
    if data.value < 0:
        raise DomainError(_("The value cannot be negative."))
    if data.kind == PrizeKind.GOODS and not data.goods.strip():
        raise DomainError(_("Say what the prize is (e.g. “a hamper”)."))
    if data.kind != PrizeKind.GOODS and data.value <= 0:
        raise DomainError(_("Give the amount or the share of the fee pool."))
    if data.kind == PrizeKind.SHARE and data.value > HUNDRED:
        raise DomainError(_("A share of the fee pool cannot be more than 100 %."))
    others = Prize.objects.exclude(pk=prize.pk) if prize is not None else Prize.objects.all()
    if others.filter(category=category, place=data.place).exists():
        raise DomainError(
            _("Place %(place)s of “%(category)s” has a prize already.")
            % {"place": data.place, "category": category.name}
        )
    if data.kind == PrizeKind.SHARE:
        shares = others.filter(category__tournament_id=category.tournament_id, kind=PrizeKind.SHARE)
        before = shares.aggregate(total=Sum("value"))["total"] or Decimal("0")
        if before + data.value > HUNDRED:
            raise DomainError(
                _(
                    "The shares of the fee pool would add up to %(total)s %% over all "
                    "categories: at most 100 %% can be paid out (%(left)s %% are left)."
                )
                % {
                    "total": percent_number(before + data.value),
                    "left": percent_number(HUNDRED - before),
                }
            )


def _category(pk: int) -> PrizeCategory:
    """The category ``pk`` as it is now (under the tournament's lock): another director may
    have deleted it since the page was read."""
    category = PrizeCategory.objects.filter(pk=pk).first()
    if category is None:
        raise DomainError(_("This category was deleted meanwhile (by another director?)."))
    return category


def _prize(pk: int) -> Prize:
    prize = Prize.objects.select_related("category").filter(pk=pk).first()
    if prize is None:
        raise DomainError(_("This prize was deleted meanwhile (by another director?)."))
    return prize


# -- categories ---------------------------------------------------------------------------


def _set(instance, fields: Sequence[str], data) -> None:
    if isinstance(data, PrizeData) and data.kind == PrizeKind.GOODS:
        data = replace(data, value=Decimal("0"))  # goods are their words, no money
    for name in fields:
        value = getattr(data, name)
        setattr(instance, name, value.strip() if isinstance(value, str) else value)


def add_category(
    tournament: Tournament, data: CategoryData, prizes: Sequence[PrizeData] = (), *, user
) -> PrizeCategory:
    """A new category after the last one (the director's order), with its ``prizes``."""
    check_category(data)
    with transaction.atomic():
        lock_tournament(tournament.pk)
        last = tournament.prize_categories.aggregate(m=Max("order"))["m"]
        category = PrizeCategory(tournament=tournament, order=0 if last is None else last + 1)
        _set(category, CATEGORY_FIELDS, data)
        stamp(category, user).save()
        for wanted in prizes:
            check_prize(category, wanted)
            prize = Prize(category=category)
            _set(prize, PRIZE_FIELDS, wanted)
            stamp(prize, user).save()
    return category


def edit_category(category: PrizeCategory, data: CategoryData, *, user) -> PrizeCategory:
    check_category(data)
    with transaction.atomic():
        lock_tournament(category.tournament_id)
        category = _category(category.pk)
        _set(category, CATEGORY_FIELDS, data)
        stamp(category, user).save()
    return category


def delete_category(category: PrizeCategory, *, user) -> None:
    """Delete a category with its prizes (each in the history under ``user``)."""
    with transaction.atomic():
        lock_tournament(category.tournament_id)
        category = _category(category.pk)
        for prize in Prize.objects.filter(category_id=category.pk):
            stamp(prize, user).delete()
        stamp(category, user).delete()


def move_category(category: PrizeCategory, *, up: bool, user) -> None:
    """Swap a category with the one before (``up``) or after it; the first stays first.
    The order is numbered anew 0, 1, 2, ... so that equal numbers of old never confuse it."""
    with transaction.atomic():
        lock_tournament(category.tournament_id)
        category = _category(category.pk)
        ordered = list(PrizeCategory.objects.filter(tournament_id=category.tournament_id))
        at = next(i for i, other in enumerate(ordered) if other.pk == category.pk)
        to = at - 1 if up else at + 1
        if not 0 <= to < len(ordered):
            return
        ordered[at], ordered[to] = ordered[to], ordered[at]
        for number, other in enumerate(ordered):
            if other.order != number:
                other.order = number
                stamp(other, user).save(update_fields=["order"])


# -- prizes -------------------------------------------------------------------------------


def add_prize(category: PrizeCategory, data: PrizeData, *, user) -> Prize:
    with transaction.atomic():
        lock_tournament(category.tournament_id)
        category = _category(category.pk)
        check_prize(category, data)
        prize = Prize(category=category)
        _set(prize, PRIZE_FIELDS, data)
        stamp(prize, user).save()
    return prize


def edit_prize(prize: Prize, data: PrizeData, *, user) -> Prize:
    with transaction.atomic():
        lock_tournament(prize.category.tournament_id)
        prize = _prize(prize.pk)
        check_prize(prize.category, data, prize)
        _set(prize, PRIZE_FIELDS, data)
        stamp(prize, user).save()
    return prize


def delete_prize(prize: Prize, *, user) -> None:
    with transaction.atomic():
        lock_tournament(prize.category.tournament_id)
        stamp(_prize(prize.pk), user).delete()


# -- presets ------------------------------------------------------------------------------

# The presets a director picks with one click: key -> (the name in the director's language,
# the category's rule). The years of seniors and juniors come from the tournament's date.
PRESETS = {
    "overall": (gettext_lazy("Overall"), CategoryData("")),
    "women": (gettext_lazy("Women"), CategoryData("", sex=Sex.FEMALE)),
    "seniors": (gettext_lazy("Seniors"), CategoryData("")),
    "juniors": (gettext_lazy("Juniors"), CategoryData("")),
    "guests": (gettext_lazy("Guests"), CategoryData("", guests_only=True)),
    "newcomer": (gettext_lazy("Best newcomer"), CategoryData("", newcomers_only=True)),
    "best-round": (
        gettext_lazy("Best single round"),
        CategoryData("", measure=Measure.BEST_ROUND, also_for_winners=True),
    ),
    "best-five-table": (
        gettext_lazy("Best 5-table result"),
        CategoryData("", measure=Measure.BEST_FIVE_TABLE),
    ),
}
# The overall prizes of a fresh list: half, three tenths and a fifth of the fee pool (a DDV
# Ranglistenturnier pays out the fees in full), when no shares are set yet.
OVERALL_SHARES = (Decimal("50"), Decimal("30"), Decimal("20"))


def senior_year(tournament: Tournament) -> int:
    """The preset's "born in or before" of seniors: 60 in the tournament's year."""
    return tournament.date.year - SENIOR_AGE


def junior_year(tournament: Tournament) -> int:
    """The preset's "born in or after" of juniors: at most 18 in the tournament's year."""
    return tournament.date.year - JUNIOR_AGE


def _free_name(tournament: Tournament, name: str) -> str:
    """``name``, or "name 2", "name 3", ... when the tournament has a category of that name
    (a preset added twice: the ceremony and the payout sheet tell them apart)."""
    taken = set(tournament.prize_categories.values_list("name", flat=True))
    number, free = 1, name
    while free in taken:
        number += 1
        free = f"{name} {number}"
    return free


def add_preset(
    tournament: Tournament, key: str, *, user, born_until: int | None = None
) -> PrizeCategory:
    """The preset ``key`` of :data:`PRESETS` as a new last category (``born_until``: the
    seniors' year, by default :func:`senior_year`). The overall category comes with three
    shares of the fee pool when the tournament has none yet; the others without prizes. A
    name the tournament has already gets a number ("Overall 2")."""
    if key not in PRESETS:
        raise DomainError(_("Unknown preset."))
    name, rule = PRESETS[key]
    data = replace(rule, name=_free_name(tournament, str(name)))
    if key == "seniors":
        data = replace(data, born_until=born_until or senior_year(tournament))
    elif key == "juniors":
        data = replace(data, born_from=junior_year(tournament))
    prizes: list[PrizeData] = []
    if key == "overall":
        with transaction.atomic():
            lock_tournament(tournament.pk)
            taken = Prize.objects.filter(
                category__tournament=tournament, kind=PrizeKind.SHARE
            ).exists()
            if not taken:
                prizes = [
                    PrizeData(place, PrizeKind.SHARE, share)
                    for place, share in enumerate(OVERALL_SHARES, start=1)
                ]
            return add_category(tournament, data, prizes, user=user)
    return add_category(tournament, data, user=user)
