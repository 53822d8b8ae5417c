"""A club's series on the service, as its hall publishes them.

A publication names the public series its tournament belongs to (the doc's "series": uid,
name, settings and the uids of their public tournaments). Each becomes, or updates, a series
of that club on the service, counting the club's replicas of those tournaments. A series
made on the service itself (no club: e.g. a regional ranking across clubs) is never touched by
a publication; nor is another club's."""

from __future__ import annotations

import uuid

from django.db.models import Q

from ..base.versions import mark_series_changed
from ..models import Club, Series, SeriesMethod, Tournament
from .slugs import unique_slug

# The settings of a series that travel with it (the model's field names).
SETTINGS = ("method", "best_of", "min_rounds", "window_months", "placement_points", "tiebreak")


def _uid(value) -> uuid.UUID | None:
    try:
        return uuid.UUID(str(value))
    except (TypeError, ValueError, AttributeError):
        return None


def _settings(data: dict) -> dict:
    """The series' settings from the doc (top level, or under "settings"), checked as far as
    the model's constraints go: anything odd keeps the field's default."""
    nested = data.get("settings")
    if not isinstance(nested, dict):
        nested = {}
    values = {field: data.get(field, nested.get(field)) for field in SETTINGS}
    clean: dict = {}
    if values["method"] in SeriesMethod.values:
        clean["method"] = values["method"]
    for field, low, high in (("best_of", 1, 99), ("window_months", 1, 120)):
        number = values[field]
        clean[field] = number if isinstance(number, int) and low <= number <= high else None
    rounds = values["min_rounds"]
    clean["min_rounds"] = rounds if isinstance(rounds, int) and 0 <= rounds <= 999 else 0
    for field, limit in (("placement_points", 300), ("tiebreak", 100)):
        text = values[field]
        clean[field] = text[:limit] if isinstance(text, str) else ""
    return clean


def upsert(club: Club, replica: Tournament, published: list) -> None:
    """Bring the club's series on the service in line with the series ``replica``'s latest
    publication names: create or update them, count the club's replicas they list, and take
    ``replica`` out of the club's series it no longer belongs to."""
    kept: set[int] = set()
    changed: set[int] = set()
    for data in published if isinstance(published, list) else []:
        uid = _uid(data.get("uid")) if isinstance(data, dict) else None
        if uid is None:
            continue
        series = Series.objects.filter(uid=uid).first()
        if series is not None and series.club_id != club.pk:
            continue  # made on the service, or another club's: not this publication's
        name = data.get("name") if isinstance(data.get("name"), str) else ""
        description = data.get("description")
        fields = {
            "name": (name.strip() or str(uid))[:150],
            "description": description[:2000] if isinstance(description, str) else "",
            "is_public": True,
            **_settings(data),
        }
        if series is None:
            hall_slug = data.get("slug") if isinstance(data.get("slug"), str) else ""
            slug = unique_slug(Series, f"{club.slug}-{hall_slug or name}")
            series = Series.objects.create(uid=uid, club=club, slug=slug, **fields)
        elif any(getattr(series, field) != value for field, value in fields.items()):
            for field, value in fields.items():
                setattr(series, field, value)
            series.save()
        uids = [u for u in map(_uid, data.get("tournaments") or []) if u]
        members = Tournament.objects.filter(Q(uid__in=uids, club=club) | Q(pk=replica.pk))
        before = set(series.tournaments.values_list("pk", flat=True))
        wanted = set(members.values_list("pk", flat=True))
        if before != wanted:
            series.tournaments.set(wanted)
            changed.add(series.pk)
        kept.add(series.pk)
    for series in Series.objects.filter(club=club, tournaments=replica).exclude(pk__in=kept):
        series.tournaments.remove(replica)
        changed.add(series.pk)
    # Only what changed: a series' version names its settings and members (its results are
    # keyed by the tournaments' results versions); bumped on every publication, it would be
    # computed anew for every reader after every publication of any of its tournaments.
    mark_series_changed(changed)
