"""Versions: what the cached pages and documents are keyed by.

A tournament's ``version`` moves whenever anything its pages, standings or files show is
written: every saved or deleted row of the tournament's models bumps it in the same
transaction (the signals below, connected in ``apps.py``), and the verbs that write in bulk
(no signals: ``bulk.insert``, ``QuerySet.update``) call ``mark_changed`` themselves. A reader
that sees the new version also sees the change, so a cache key made of (object, version,
language) names one state of the data, and nothing but these bumps ever writes the field.

A series is keyed by its own ``version`` (its settings and list of tournaments) together with
the versions of its tournaments (``series_key``).
"""

from collections.abc import Iterable

from django.db.models import F, Model
from django.db.models.signals import m2m_changed, post_delete, post_save

from tournament.models import (
    Entry,
    Game,
    Penalty,
    Player,
    Prize,
    PrizeCategory,
    Registration,
    Round,
    Seat,
    Series,
    Sheet,
    Table,
    Team,
    Tournament,
)


def mark_changed(*tournaments: Tournament | int | None, results: bool = False) -> None:
    """Bump the version of these tournaments (objects or primary keys); ``results``: also
    their ``results_version`` (what a series counts changed)."""
    pks = {t if isinstance(t, int) else t.pk for t in tournaments if t is not None}
    if pks:
        bumped = {"version": F("version") + 1}
        if results:
            bumped["results_version"] = F("results_version") + 1
        Tournament.objects.filter(pk__in=pks).update(**bumped)


def mark_series_changed(series: Iterable[Series | int]) -> None:
    """Bump the version of these series (their settings or list of tournaments changed)."""
    pks = {s if isinstance(s, int) else s.pk for s in series}
    if pks:
        Series.objects.filter(pk__in=pks).update(version=F("version") + 1)


def series_key(series: Series, *, public_only: bool) -> tuple:
    """The state of a series' table: its own version and each counted tournament's results
    version, visibility and first hidden round (one query). A tournament made private (or
    public) leaves or joins the counted ones, and its save moves its results version: the key
    moves either way."""
    counted = series.counted_tournaments(public_only=public_only)
    fields = ("pk", "results_version", "is_public", "hide_standings_from")
    return (
        series.pk,
        series.version,
        public_only,
        tuple(counted.order_by("pk").values_list(*fields)),
    )


def series_members(key: tuple) -> tuple:
    """The counted tournaments of a :func:`series_key`, their visibility and their first hidden
    round. A page cached under an older key may be served a little longer
    (``SERIES_CACHE_SECONDS``) when only results changed; the pages put this into their cache
    family instead, so that a tournament made private, a round hidden or revealed (or a series
    director gone) is never served from a copy made before."""
    return tuple((pk, public, hidden) for pk, _version, public, hidden in key[3])


# Where each model's row finds its tournament: the relations from the row to the one that
# holds ``tournament_id``, and the query for it when they are not loaded.
_OWNER: dict[type[Model], tuple[tuple[str, ...], type[Model] | None, str]] = {
    Team: ((), None, ""),
    Entry: ((), None, ""),
    Registration: ((), None, ""),
    Round: ((), None, ""),
    Penalty: ((), None, ""),
    Table: (("round",), Round, "tournament_id"),
    Seat: (("round",), Round, "tournament_id"),
    Game: (("table", "round"), Table, "round__tournament_id"),
    Sheet: (("table", "round"), Table, "round__tournament_id"),
    # The prize list and its documents (payout sheet, certificates, ceremony) follow them.
    PrizeCategory: ((), None, ""),
    Prize: (("category",), PrizeCategory, "tournament_id"),
}


def _tournament_of(instance: Model, relations: tuple[str, ...], parent, path: str) -> int | None:
    """The tournament's id, from the loaded relations if they are (no query), else with one
    query from the first relation's id."""
    holder: Model | None = instance
    for name in relations:
        holder = holder._state.fields_cache.get(name) if holder is not None else None
    if holder is not None:
        return holder.tournament_id  # type: ignore[attr-defined]
    first = getattr(instance, f"{relations[0]}_id")
    if first is None:
        return None
    return parent._default_manager.filter(pk=first).values_list(path, flat=True).first()


# Rows that move the results version too: what a series counts (rounds, entries; the stored
# results are written by tournament/domain/results.py, which bumps it itself) and the seating
# (the table plan), and a sheet's state (submitted, confirmed: what the standings count) and
# the penalties. Only the games, what the keepers write all day, move the version alone.
_COUNTED = (Round, Entry, Seat, Table, Team, Sheet, Penalty)


def _owner_changed(sender, instance, raw=False, **kwargs) -> None:
    if raw:  # loading a fixture: the data is the fixture's, versions included
        return
    mark_changed(_tournament_of(instance, *_OWNER[sender]), results=sender in _COUNTED)


def _tournament_saved(sender, instance, raw=False, created=False, **kwargs) -> None:
    if not raw and not created:
        mark_changed(instance, results=True)


def _player_changed(sender, instance, raw=False, **kwargs) -> None:
    """A player's name or club shows in every tournament they play."""
    if raw or instance.pk is None:
        return
    tournaments = Entry.objects.filter(player_id=instance.pk).values_list("tournament_id")
    Tournament.objects.filter(pk__in=tournaments).update(
        version=F("version") + 1, results_version=F("results_version") + 1
    )


def _series_saved(sender, instance, raw=False, created=False, **kwargs) -> None:
    if not raw and not created:
        mark_series_changed([instance])


def _series_tournaments_changed(sender, instance, action, reverse, pk_set, **kwargs) -> None:
    if not action.startswith("post_"):
        return
    if reverse:  # tournament.series.add(...): the series in pk_set (all of them on clear)
        mark_series_changed(pk_set or Series.objects.filter(tournaments=instance))
    else:
        mark_series_changed([instance])


def connect() -> None:
    """Connect the bumps (once, from the app's ``ready``)."""
    for model in _OWNER:
        uid = f"version-{model.__name__}"
        post_save.connect(_owner_changed, sender=model, dispatch_uid=uid + "-save")
        post_delete.connect(_owner_changed, sender=model, dispatch_uid=uid + "-delete")
    post_save.connect(_tournament_saved, sender=Tournament, dispatch_uid="version-tournament")
    post_save.connect(_player_changed, sender=Player, dispatch_uid="version-player")
    post_save.connect(_series_saved, sender=Series, dispatch_uid="version-series")
    m2m_changed.connect(
        _series_tournaments_changed,
        sender=Series.tournaments.through,
        dispatch_uid="version-series-tournaments",
    )
