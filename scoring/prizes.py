"""Prizes: who takes which prize of a tournament, from the standings and the director's
categories (issue 38). Pure Python, no Django.

The categories are handed out in the director's order; a player takes at most one prize
(a category "also for winners" neither blocks nor is blocked). Within a category the eligible
players stand by the category's measure (points in the standings, best single round, best
round at a five-player table); equal players either share the prizes of the places they
cover (the money split to the cent, the place merged) or are separated by the tournament's
tie-breakers and then the start number. Shares of the fee pool become amounts by the largest
remainder, so that the shares' cents add up to exactly their part of the pool.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

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
    tiebreak: tuple  # the tournament's tie-break key after the total, smaller is better
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
    shares of ``pool``; in category order, then by place and standings order."""
    raise NotImplementedError  # issue 38: the prizes helper writes it
