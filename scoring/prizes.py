"""Prizes: who takes which prize of a tournament, from the standings and the director's
categories (issue 38). Pure Python, no Django.

The categories are handed out in the director's order; a player takes at most one prize
(a category "also for winners" neither blocks nor is blocked). Within a category the eligible
players stand by the category's measure (points in the standings, best single round, best
round at a five-player table); equal players either share the prizes of the places they
cover (the money split to the cent, the place merged) or are separated by the tournament's
tie-breakers; players the tie-breakers cannot separate (equal in every one, or the tournament
has none) share as well. Goods cannot be split: they go in place order to the group in the
order of the tie-breakers, then the start number, and a member left with neither money nor
goods takes no prize (and may still win in a later category). Shares of the fee pool become
amounts by the largest remainder, so that the shares' cents add up to exactly their part of
the pool.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import ROUND_DOWN, ROUND_HALF_UP, Decimal
from itertools import groupby

TOTAL, BEST_ROUND, BEST_FIVE_TABLE = "total", "best-round", "best-five-table"
SHARE_TIES, TIEBREAK_TIES = "share", "tiebreak"
AMOUNT, SHARE, GOODS = "amount", "share", "goods"
CENT = Decimal("0.01")


@dataclass(frozen=True)
class Contender:
    """A player who may win: ``key`` names them (the entry's id)."""

    key: int
    start_number: int
    total: int  # points in the standings, penalties included
    tiebreak: tuple[int, ...]  # the tournament's tie-break key after the total, smaller is better
    best_round: int | None  # points of the best single round
    best_five_table: int | None  # points of the best round at a five-player table
    sex: str = ""  # "f", "m", "d" or unknown ""
    birth_year: int | None = None
    guest: bool = False
    newcomer: bool = False
    eligible: bool = True  # False: disqualified, or not ranked at all


@dataclass(frozen=True)
class PrizeRule:
    place: int
    kind: str  # AMOUNT (value in euros), SHARE (value in percent of the pool), GOODS
    value: Decimal = Decimal("0")
    goods: str = ""


@dataclass(frozen=True)
class CategoryRule:
    key: int
    name: str
    prizes: tuple[PrizeRule, ...]
    measure: str = TOTAL
    ties: str = SHARE_TIES
    sex: str = ""
    born_from: int | None = None
    born_until: int | None = None
    guests_only: bool = False
    newcomers_only: bool = False
    also_for_winners: bool = False


@dataclass(frozen=True)
class Award:
    """One prize handed to one player."""

    category: int  # CategoryRule.key
    key: int  # Contender.key
    place: int  # the place, shared places by their first (two players on 2 and 3: 2, 2)
    shared: int  # how many players share this place (1: alone)
    score: int  # the value of the category's measure
    amount: Decimal  # money, to the cent (0 for goods only)
    goods: tuple[str, ...]  # the goods, empty for money only


def allocate(
    contenders: Sequence[Contender], categories: Sequence[CategoryRule], pool: Decimal
) -> list[Award]:
    """The awards of ``categories`` (in the director's order) among ``contenders``, with
    shares of ``pool``; in category order, then by place and standings order.

    A player equal with others (by the category's measure, or with ``ties`` "tiebreak" by
    the measure and the tournament's tie-breakers) stands in one group with them: the group
    covers as many places as it has players, and the prizes of those places are split among
    them: the money evenly, a remaining cent each to the first of the group (tie-breakers,
    then start number), the goods in place order to the group in that order. A member who
    gets neither money nor goods (more equal players than goods, or less than a cent each)
    has no award."""
    amounts = prize_amounts(categories, pool)
    awarded: set[int] = set()
    awards: list[Award] = []
    for category in categories:
        taken = [] if category.also_for_winners else awarded
        field = [c for c in contenders if c.key not in taken and qualifies(category, c)]
        for award in _category_awards(category, field, amounts):
            awards.append(award)
            if not category.also_for_winners:
                awarded.add(award.key)
    return awards


def qualifies(category: CategoryRule, contender: Contender) -> bool:
    """Whether ``contender`` may win in ``category``: eligible, every condition of the
    category holds (an unknown sex or birth year meets no condition on it), and the category's
    measure has a value for them (a player who never sat at a five-player table has no
    result there)."""
    if not contender.eligible or score_of(category, contender) is None:
        return False
    year = contender.birth_year
    return not (
        (category.sex and contender.sex != category.sex)
        or (category.born_from is not None and (year is None or year < category.born_from))
        or (category.born_until is not None and (year is None or year > category.born_until))
        or (category.guests_only and not contender.guest)
        or (category.newcomers_only and not contender.newcomer)
    )


def score_of(category: CategoryRule, contender: Contender) -> int | None:
    if category.measure == BEST_ROUND:
        return contender.best_round
    if category.measure == BEST_FIVE_TABLE:
        return contender.best_five_table
    return contender.total


def prize_amounts(
    categories: Sequence[CategoryRule], pool: Decimal
) -> dict[tuple[int, int], Decimal]:
    """(category key, place) -> the money of each prize: an amount as it is, a share of
    ``pool`` in cents by the largest remainder (earlier prizes first among equal
    remainders), so that the shares together are exactly their percentage of the pool,
    rounded half up to the cent."""
    money = {
        (c.key, p.place): p.value.quantize(CENT)
        for c in categories
        for p in c.prizes
        if p.kind == AMOUNT
    }
    shares = [(c.key, p.place, p.value) for c in categories for p in c.prizes if p.kind == SHARE]
    pool_cents = int((pool / CENT).to_integral_value(ROUND_DOWN))
    exact = [pool_cents * percent / 100 for *_, percent in shares]
    cents = [int(value.to_integral_value(ROUND_DOWN)) for value in exact]
    target = int(sum(exact, Decimal(0)).to_integral_value(ROUND_HALF_UP))
    by_remainder = sorted(range(len(shares)), key=lambda i: (-(exact[i] - cents[i]), i))
    for i in by_remainder[: max(0, target - sum(cents))]:
        cents[i] += 1
    for (key, place, _percent), value in zip(shares, cents, strict=True):
        money[key, place] = Decimal(value) * CENT
    return money


def _category_awards(
    category: CategoryRule, field: list[Contender], amounts: dict[tuple[int, int], Decimal]
) -> list[Award]:
    def standing(c: Contender) -> tuple[int, ...]:
        # The standings' own order: total, then the tournament's tie-breakers.
        return (-c.total, *c.tiebreak)

    def key(c: Contender) -> tuple[int, ...]:
        score = score_of(category, c)
        if category.measure == TOTAL:
            return (-c.total,) if category.ties == SHARE_TIES else standing(c)
        return (-(score or 0),) if category.ties == SHARE_TIES else (-(score or 0), *standing(c))

    ordered = sorted(field, key=lambda c: (key(c), standing(c), c.start_number))
    prizes = {p.place: p for p in category.prizes}
    last = max(prizes, default=0)
    awards: list[Award] = []
    place = 1
    for _key, members in groupby(ordered, key=key):
        group = list(members)
        if place > last:
            break
        covered = [prizes[p] for p in range(place, place + len(group)) if p in prizes]
        if covered:
            money = sum(
                (amounts.get((category.key, p.place), Decimal(0)) for p in covered), Decimal(0)
            )
            goods = [p.goods for p in covered if p.kind == GOODS and p.goods]
            split = _split(money, len(group))
            for index, contender in enumerate(group):
                if not split[index] and index >= len(goods):
                    continue  # nothing left for them: no prize, so not blocked either
                awards.append(
                    Award(
                        category=category.key,
                        key=contender.key,
                        place=place,
                        shared=len(group),
                        score=score_of(category, contender) or 0,
                        amount=split[index],
                        goods=(goods[index],) if index < len(goods) else (),
                    )
                )
        place += len(group)
    return awards


def _split(money: Decimal, ways: int) -> list[Decimal]:
    """``money`` in ``ways`` parts that differ by at most a cent and add up to it, the larger
    parts first."""
    cents = int((money / CENT).to_integral_value(ROUND_HALF_UP))
    base, extra = divmod(cents, ways)
    return [Decimal(base + (1 if i < extra else 0)) * CENT for i in range(ways)]
