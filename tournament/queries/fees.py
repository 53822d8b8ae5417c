"""The entry fees of a tournament: counts and sums for the players page and the fee list."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from django.db.models import Count, Q

from ..models import EntryStatus, FeeStatus, Tournament


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
    paid counts as collected)."""
    active = Q(status=EntryStatus.ACTIVE)
    counts = tournament.entries.aggregate(  # one query: the live players page asks often
        paid=Count("pk", filter=Q(fee=FeeStatus.PAID)),
        waived=Count("pk", filter=active & Q(fee=FeeStatus.WAIVED)),
        open=Count("pk", filter=active & Q(fee=FeeStatus.OPEN)),
    )
    return FeeSums(fee=tournament.entry_fee, **counts)
