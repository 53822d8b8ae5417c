"""The prize list of a tournament (issue 38): the director's categories applied to the
standings (``scoring.prizes.allocate``), with names, clubs and the fee pool. Provisional until
the tournament is finished. The office's list: it counts every round, hidden or not."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from decimal import Decimal

from scoring import prizes

from ..models import Entry, PrizeCategory, Seat, Tournament
from ..wording.money import money_text
from . import standings as standings_domain
from .fees import FeeSums, fee_sums
from .standings import Line


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

    @property
    def prize_text(self) -> str:
        """What the winner gets in words, in the reader's language: "25,00 €", "Präsentkorb"
        or "10,00 € + Buch" (the ceremony, the certificates and the payout sheet)."""
        return self.prize_words()

    def prize_words(self, *, unbroken: bool = False) -> str:
        """:attr:`prize_text`; ``unbroken``: the amount with a non-breaking space, so that a
        narrow column never breaks "222,00 €" inside."""
        money = money_text(self.amount)
        parts = [money.replace(" ", "\u00a0") if unbroken else money] if self.amount else []
        if self.goods:
            parts.append(self.goods)
        return " + ".join(parts)


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
    # The fee sums the pool was taken from (the payout sheet's ledger); None in a list made
    # by hand.
    fees: FeeSums | None = None

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
    """The tournament's prize list from its full standings (the office's view): every ranked
    player may win (a disqualified one may not, nor one who never started); the pool is the
    entry fees collected. Four queries besides the standings' six, whatever the size."""
    standings = standings_domain.compute(tournament)
    lines = [line for line in standings.lines if line.rank is not None]
    five_tables = _five_table_rounds(tournament)
    contenders = [_contender(line, tournament.tiebreak, five_tables) for line in lines]
    by_key = {line.entry.pk: line for line in lines}
    categories = list(
        tournament.prize_categories.prefetch_related("prizes").order_by("order", "pk")
    )
    rules = [_rule(category) for category in categories]
    fees = fee_sums(tournament)
    awards = prizes.allocate(contenders, rules, fees.collected)
    listed = []
    for category in categories:
        own = [a for a in awards if a.category == category.pk]
        covered = {place for a in own for place in range(a.place, a.place + a.shared)}
        listed.append(
            CategoryAwards(
                id=category.pk,
                name=category.name,
                order=category.order,
                measure=category.measure,
                awards=[_line(category, a, by_key[a.key]) for a in own],
                unawarded=sorted(p.place for p in category.prizes.all() if p.place not in covered),
            )
        )
    return PrizeList(
        tournament=tournament,
        categories=listed,
        pool=fees.collected,
        provisional=standings.provisional,  # final exactly when the tournament is finished
        fees=fees,
    )


def _five_table_rounds(tournament: Tournament) -> dict[int, set[int]]:
    """Entry id -> the numbers of the rounds it sat at a five-player table, in one query."""
    rounds: dict[int, set[int]] = defaultdict(set)
    seats = Seat.objects.filter(round__tournament=tournament, table__size=5)
    for entry_id, number in seats.values_list("entry_id", "round__number"):
        rounds[entry_id].add(number)
    return rounds


def _contender(line: Line, tiebreak: str, five_tables: dict[int, set[int]]) -> prizes.Contender:
    entry = line.entry
    at_five = [points for number, points in line.rounds.items() if number in five_tables[entry.pk]]
    return prizes.Contender(
        key=entry.pk,
        start_number=entry.start_number,
        total=line.total,
        tiebreak=standings_domain.tiebreak_key(line, tiebreak)[1:],
        best_round=line.best_round,
        best_five_table=max(at_five, default=None),
        sex=entry.sex,
        birth_year=entry.birth_year,
        guest=entry.guest,
        newcomer=entry.newcomer,
        eligible=not line.disqualified,
    )


def _rule(category: PrizeCategory) -> prizes.CategoryRule:
    return prizes.CategoryRule(
        key=category.pk,
        name=category.name,
        prizes=tuple(
            prizes.PrizeRule(place=p.place, kind=p.kind, value=p.value, goods=p.goods)
            for p in category.prizes.all()
        ),
        measure=category.measure,
        ties=category.ties,
        sex=category.sex,
        born_from=category.born_from,
        born_until=category.born_until,
        guests_only=category.guests_only,
        newcomers_only=category.newcomers_only,
        also_for_winners=category.also_for_winners,
    )


def _line(category: PrizeCategory, award: prizes.Award, line: Line) -> AwardLine:
    entry = line.entry
    return AwardLine(
        category=category.name,
        category_id=category.pk,
        place=award.place,
        shared=award.shared,
        entry=entry,
        name=entry.player.full_name,
        public_name=entry.public_name,
        club=entry.player.club,
        public_club=entry.public_club,
        score=award.score,
        total=line.total,
        amount=award.amount,
        goods=" + ".join(award.goods),
    )
