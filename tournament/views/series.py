"""Series across tournaments: the public table and a player's history in it, the
downloads, and the directors' pages (list, create, change)."""

from functools import partial

from django.conf import settings
from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from ..base.caching import cached
from ..base.versions import series_key, series_members
from ..domain.series import delete_series, save_series
from ..exports import series
from ..forms import SeriesForm
from ..models import Series
from ..permissions import (
    changeable_players,
    directed_series,
    director_required,
    get_directed_series,
    managed_tournaments,
)
from ..queries import series as series_domain
from ..tasks import documents


def _context(standings) -> dict:
    """What the series table shows: each row with the player it links to."""
    ranked, below = series.series_rows(standings), series.below_rows(standings)

    def linked(listing, lines):
        return [(row, line.player.pk) for row, line in zip(listing.rows, lines, strict=True)]

    return {
        "series": standings.series,
        "standings": standings,
        "about": series.describe(standings),
        "ranked_rows": linked(ranked, standings.lines),
        "below_rows": linked(below, standings.below_minimum),
        "value_label": series.value_label(standings),
    }


def _state(found: Series, public_only: bool = True) -> tuple:
    """The state a series' table is computed from: the series and its tournaments' versions
    (tournament/base/versions.py) and the date (the time window moves with it)."""
    return (series_key(found, public_only=public_only), timezone.localdate())


def _computed(found: Series, state: tuple, public_only: bool = True):
    """The series' table, computed once per state for every page that shows it."""
    # A director's saved change (the series' own version) shows at once: a family of its own.
    family = ("series", found.pk, found.version, public_only, series_members(state[0]))
    compute = partial(series_domain.compute, found, public_only=public_only)
    return cached(family, state, compute, settings.SERIES_CACHE_SECONDS, share=False)


def series_public(request, slug):
    found = get_object_or_404(Series, slug=slug, is_public=True)
    state = _state(found)

    def render_body() -> str:
        context = {**_context(_computed(found, state)), "public_page": True}
        return render_to_string("tournament/partials/series_public_body.html", context, request)

    family = ("series-page", found.pk, found.version, get_language(), series_members(state[0]))
    body = mark_safe(cached(family, state, render_body, settings.SERIES_CACHE_SECONDS))  # noqa: S308
    return render(request, "tournament/series.html", {"series": found, "body": body})


def series_player(request, slug, player):
    """One player's whole history in a public series: every tournament with its rounds,
    read from the one cached computation of the series."""
    found = get_object_or_404(Series, slug=slug, is_public=True)
    standings = _computed(found, _state(found))
    line = standings.line_of(player)
    if line is None:  # not in this series (or no such player)
        nobody = {"series": found, "line": None}
        stranger = render_to_string("tournament/partials/series_player_body.html", nobody, request)
        page = {"series": found, "name": "", "body": stranger}
        return render(request, "tournament/series_player.html", page, status=404)
    context: dict = {
        **_context(standings),
        "line": line,
        "ranked_line": line in standings.lines,
        "shown_value": standings.shown(line.value),
        "results": series.result_rows(standings, [line]),
    }
    if line in standings.below_minimum:
        context["below_note"] = series.below_note(standings, line)
    body = render_to_string("tournament/partials/series_player_body.html", context, request)
    page = {"series": found, "name": line.player.full_name, "body": body}
    return render(request, "tournament/series_player.html", page)


def _download(request, found: Series, fmt: str, *, public_only: bool):
    """The series as PDF or Excel file, made in the background (tournament/tasks/documents.py)."""
    kind = f"series-{fmt}" if public_only else f"series-all-{fmt}"
    return documents.respond(request, kind, found)


def series_export(request, slug, fmt):
    found = get_object_or_404(Series, slug=slug, is_public=True)
    return _download(request, found, fmt, public_only=True)


@director_required
def series_list(request):
    mine = directed_series(request.user).prefetch_related("tournaments")
    return render(request, "tournament/manage/series_list.html", {"series_list": mine})


def _save(form: SeriesForm, user) -> Series:
    data = form.cleaned_data
    changed = form.save(commit=False)
    return save_series(changed, data["tournaments"], user, data["directors"])


@director_required
def series_create(request):
    form = SeriesForm(request.POST or None, user=request.user)
    if request.method == "POST" and form.is_valid():
        created = _save(form, request.user)
        messages.success(request, _("Series “%(name)s” created.") % {"name": created})
        return redirect("manage:series-detail", created.slug)
    return render(request, "tournament/manage/series_form.html", {"form": form})


@director_required
def series_edit(request, slug):
    found = get_directed_series(request, slug)
    form = SeriesForm(request.POST or None, instance=Series.objects.get(pk=found.pk),
                      user=request.user)  # fmt: skip
    if request.method == "POST" and form.is_valid():
        saved = _save(form, request.user)
        messages.success(request, _("Changes saved."))
        return redirect("manage:series-detail", saved.slug)
    return render(request, "tournament/manage/series_form.html", {"form": form, "series": found})


@director_required
def series_detail(request, slug):
    """The director's view: the same figures as the public page, every result listed."""
    found = get_directed_series(request, slug)
    standings = series_domain.compute(found)
    every = standings.lines + standings.below_minimum
    # Merging happens on a tournament's merge page (the player database is shared), and
    # only for players the director may change: otherwise an administrator merges them.
    merge_at = managed_tournaments(request.user).filter(series=found).order_by("-date").first()
    groups = standings.possible_duplicates()
    shown = [player.pk for group in groups for player in group]
    mine = set(changeable_players(request.user).filter(pk__in=shown).values_list("pk", flat=True))
    duplicates = []
    for group in groups:
        pair = [player for player in group if player.pk in mine][:2]
        duplicates.append((group, pair if merge_at and len(pair) == 2 else None))
    context = {
        **_context(standings),
        "results": series.result_rows(standings, every, with_player=True),
        "duplicates": duplicates,
        "merge_at": merge_at,
    }
    return render(request, "tournament/manage/series_detail.html", context)


@director_required
def series_download(request, slug, fmt):
    found = get_directed_series(request, slug)
    return _download(request, found, fmt, public_only=False)


@director_required
def series_delete(request, slug):
    """Delete a series after the director ticked the confirmation; the tournaments stay."""
    found = get_directed_series(request, slug)
    if request.method != "POST":
        return redirect("manage:series-edit", slug)
    if request.POST.get("confirm") != "yes":
        messages.error(request, _("Tick the box to confirm the deletion."))
        return redirect("manage:series-edit", slug)
    name = found.name
    delete_series(found, request.user)
    messages.success(
        request, _("Series “%(name)s” deleted; its tournaments stay.") % {"name": name}
    )
    return redirect("manage:series-list")
