"""The director's writes about publishing: the results service to publish to, and "send
now". (The outbox itself is written by the publisher process only: outbox.py.)"""

from __future__ import annotations

from django.db import transaction

from tournament.models import Publication, PublishingTarget, Tournament


def set_target(url: str, key: str | None) -> PublishingTarget:
    """Store the service's address and, if given, a new publishing key (``None``: keep the
    stored one)."""
    with transaction.atomic():
        row = PublishingTarget.objects.order_by("pk").first() or PublishingTarget()
        before = (row.url, row.key)
        row.url = url.strip()
        if key is not None:
            row.key = key.strip()
        row.save()
        if (row.url, row.key) != before:
            # Another service, or the key that cures a refusal: the waiting states are sent
            # at once and every tournament's state is built anew (a new service holds none).
            Publication.objects.update(next_try_at=None, built_state=[], digest="")
    return row


def forget_target() -> None:
    """No results service any more: nothing is sent until one is entered again."""
    PublishingTarget.objects.all().delete()


def send_now(tournament: Tournament) -> None:
    """The waiting change goes with the publisher's next pass, without waiting for the
    pause after a failed attempt."""
    Publication.objects.filter(tournament=tournament).update(next_try_at=None)
