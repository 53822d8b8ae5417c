"""A series' own writes: saved with its tournaments and directors, deleted; each in the
history under the director who did it. The series' table is a read
(:mod:`tournament.queries.series`)."""

from __future__ import annotations

from django.db import transaction

from ..models import Series
from ..models.audit import stamp


def save_series(series: Series, tournaments, user, directors=()) -> Series:
    """Save a new or changed ``series`` with its ``tournaments`` and, besides ``user`` (who
    saves it and stays a director), its other ``directors``; in the history under
    ``user``."""
    with transaction.atomic():
        stamp(series, user)
        series.save()
        series.tournaments.set(tournaments)
        series.directors.set([user, *directors])
    return series


def delete_series(series: Series, user) -> None:
    """Delete a series (its tournaments and their results stay), in the history under
    ``user``."""
    stamp(series, user)
    series.delete()
