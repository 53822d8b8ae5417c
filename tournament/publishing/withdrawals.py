"""A published tournament deleted on the laptop is still taken off the results service: while
its row is deleted (Django's ``pre_delete``, inside the deleting transaction, whichever page,
command or admin action deletes it) its withdrawal is recorded in a ``Withdrawal`` row that
outlives it; the publisher sends it and removes it once the service confirms."""

from __future__ import annotations

from django.db.models.signals import pre_delete
from django.utils import timezone

from tournament.models import Tournament

from . import outbox


def on_delete(sender, instance: Tournament, **kwargs) -> None:
    outbox.withdraw_deleted(instance, timezone.now())


def connect() -> None:
    pre_delete.connect(on_delete, sender=Tournament, dispatch_uid="tournament-withdraw-deleted")
