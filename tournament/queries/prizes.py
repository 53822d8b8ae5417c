"""The prize list of a tournament (issue 38): the director's categories applied to the
standings (``scoring.prizes.allocate``), with names, clubs and the fee pool. Provisional until
the tournament is finished. The office's list: it counts every round, hidden or not."""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal

from ..models import Entry, Tournament


@dataclass(frozen=True)
class AwardLine:
    category: str  # the category's name
    category_id: int
    place: int
    shared: int  # players sharing the place (1: alone)
    entry: Entry
    name: str  # the real name (office, payout sheet, certificates)
    public_name: str  # the name the public pages and the projector show
    club: str
    public_club: str
    score: int  # the category's measure: points in the standings, best round, ...
    total: int  # points in the standings
    amount: Decimal  # money to the cent, 0 for goods only
    goods: str  # the goods, joined by " + ", empty for money only

    @property
    def place_label(self) -> str:
        """ "3." or, shared, "3." too: the template says "shared" next to it."""
        return f"{self.place}."


@dataclass(frozen=True)
class CategoryAwards:
    id: int
    name: str
    order: int
    measure: str
    awards: list[AwardLine] = field(default_factory=list)
    # Places with a prize that nobody took (too few eligible players).
    unawarded: list[int] = field(default_factory=list)


@dataclass(frozen=True)
class PrizeList:
    tournament: Tournament
    categories: list[CategoryAwards]  # in the director's order
    pool: Decimal  # the fee pool: the entry fees collected (queries.fees.FeeSums.collected)
    provisional: bool  # until the tournament is finished

    @property
    def awards(self) -> list[AwardLine]:
        return [award for category in self.categories for award in category.awards]

    @property
    def paid_out(self) -> Decimal:
        return sum((award.amount for award in self.awards), Decimal("0.00"))

    @property
    def left(self) -> Decimal:
        return self.pool - self.paid_out


def prize_list(tournament: Tournament) -> PrizeList:
    """The tournament's prize list from its full standings (the office's view)."""
    raise NotImplementedError  # issue 38: the prizes helper writes it
