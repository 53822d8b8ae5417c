"""Entry fees, the verb: ticking an entry's fee. What a fee stands for and the sums are
read in ``queries.fees``, the one home of the fee rules."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from ..errors import DomainError
from ..models import Entry, FeeStatus
from ..models.audit import event, stamp
from ..models.locks import lock


def set_fee(entry: Entry, fee: str, user) -> Entry:
    """Tick an entry's fee paid, not paid or waived; who and when are kept."""
    if fee not in FeeStatus.values:
        raise DomainError(_("Unknown fee status."))
    with transaction.atomic():
        entry = lock(Entry.objects).get(pk=entry.pk)
        entry.fee = fee
        entry.fee_changed_by = user
        entry.fee_changed_at = timezone.now()
        stamp(entry, user, event("entry-fee"))
        entry.save(update_fields=["fee", "fee_changed_by", "fee_changed_at"])
    return entry
