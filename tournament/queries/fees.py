"""Entry fees, the reads: who owes what (a withdrawn or disqualified player who did not pay
owes nothing; a waived fee is nothing), the sums of the players page and the treasurer's list,
and whether a tournament shows fees at all. Ticking a fee is the verb ``domain.fees.set_fee``;
the players page (``views.entries``) and the Excel list (``exports.fees``) only show what this
module says."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from django.db.models import Count, Q

from ..models import Entry, EntryStatus, FeeStatus, Tournament


def amount_of(entry: Entry, fee: Decimal) -> Decimal | None:
    """What an entry's fee stands for: the fee paid or still owed; nothing for a waived fee;
    None for a withdrawn or disqualified player who did not pay (they owe nothing)."""
    if entry.fee == FeeStatus.WAIVED:
        return Decimal("0")
    if entry.fee == FeeStatus.OPEN and entry.status != EntryStatus.ACTIVE:
        return None
    return fee


@dataclass(frozen=True)
class FeeSums:
    fee: Decimal
    paid: int
    waived: int
    open: int

    @property
    def collected(self) -> Decimal:
        return self.fee * self.paid

    @property
    def outstanding(self) -> Decimal:
        return self.fee * self.open


def fee_sums(tournament: Tournament) -> FeeSums:
    """Counts and sums over the active entries (a withdrawn player owes nothing, but what they
    paid counts as collected): the rule of :func:`amount_of`, counted in one query."""
    active = Q(status=EntryStatus.ACTIVE)
    counts = tournament.entries.aggregate(  # one query: the live players page asks often
        paid=Count("pk", filter=Q(fee=FeeStatus.PAID)),
        waived=Count("pk", filter=active & Q(fee=FeeStatus.WAIVED)),
        open=Count("pk", filter=active & Q(fee=FeeStatus.OPEN)),
    )
    return FeeSums(fee=tournament.entry_fee, **counts)


def shows_fees(tournament: Tournament) -> bool:
    """The fee column and sums appear where the tournament takes a fee, or some fee was
    ticked anyway."""
    return tournament.entry_fee > 0 or tournament.entries.exclude(fee=FeeStatus.OPEN).exists()
