"""Versions: what the cached pages and documents are keyed by.

Every verb that changes what a tournament's pages, standings or files show calls
``mark_changed`` inside its transaction. The bump is one UPDATE of the tournament row; a reader
that sees the new version also sees the change (same transaction). Nothing else ever writes the
field, so a cache key made of (object, version, language) names one state of the data.
"""

from collections.abc import Iterable

from django.db.models import F

from tournament.models import Series, Tournament


def mark_changed(*tournaments: Tournament | int | None) -> None:
    """Bump the version of these tournaments (objects or primary keys)."""
    pks = {t if isinstance(t, int) else t.pk for t in tournaments if t is not None}
    if pks:
        Tournament.objects.filter(pk__in=pks).update(version=F("version") + 1)


def mark_series_changed(series: Iterable[Series | int]) -> None:
    """Bump the version of these series (their settings or list of tournaments changed)."""
    pks = {s if isinstance(s, int) else s.pk for s in series}
    if pks:
        Series.objects.filter(pk__in=pks).update(version=F("version") + 1)


def tournament_version(tournament: Tournament | int) -> int:
    """The stored version now (one indexed read; the object in hand may be older)."""
    pk = tournament if isinstance(tournament, int) else tournament.pk
    return Tournament.objects.filter(pk=pk).values_list("version", flat=True).first() or 0
