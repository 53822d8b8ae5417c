"""The projector view for the hall: a full-screen page that rotates on its own and polls its
data, opened by its secret link (any tournament) or publicly (public tournaments); and the
director's page that shows the link."""

from functools import partial

from django.conf import settings
from django.contrib import messages
from django.http import JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from ..base.caching import cached
from ..base.site_url import public_url
from ..domain.tournaments import renew_projector_link
from ..models import Tournament
from ..permissions import director_required, get_managed_tournament
from ..queries import projector as projector_domain
from ..queries import statistics as statistics_domain

SECONDS_PARAMETER = "sekunden"  # ?sekunden=N: another interval for this screen only
SECONDS_OVERRIDE = (2, 120)
DAY_PARAMETER = "zahlen"  # ?zahlen=1: the Zahlen des Tages as one more slide


def _seconds(request, tournament) -> int:
    raw = request.GET.get(SECONDS_PARAMETER, "")
    if raw.isdecimal() and len(raw) < 6:
        low, high = SECONDS_OVERRIDE
        return min(high, max(low, int(raw)))
    return tournament.projector_seconds


def _data(tournament, *, day: bool = False) -> dict:
    """Every screen (and on a public tournament anybody) may poll it: computed once per
    version of the tournament (and language: a pseudonym is a word), the clocks as of now.
    ``day``: with the numbers of the day, for a screen that shows them (``?zahlen=1``),
    computed once per state of the statistics behind them."""
    family = ("projector", tournament.pk, get_language())
    read = partial(projector_domain.read, tournament)
    data = cached(family, tournament.version, read, settings.STANDINGS_CACHE_SECONDS)
    shown = projector_domain.at(data, timezone.now())
    if day:
        current, stale = statistics_domain.state(tournament)
        numbers = partial(projector_domain.day, tournament)
        family = ("projector-day", tournament.pk, get_language())
        shown["day"] = cached(family, current, numbers, stale)
    return shown


def _wants_day(request) -> bool:
    return request.GET.get(DAY_PARAMETER) == "1"


def _screen(request, tournament, data_url):
    day = _wants_day(request)
    context = {
        "tournament": tournament,
        "data": _data(tournament, day=day),
        "data_url": data_url + (f"?{DAY_PARAMETER}=1" if day else ""),
        "seconds": _seconds(request, tournament),
        "day": day,
    }
    response = render(request, "tournament/projector.html", context)
    response["X-Robots-Tag"] = "noindex, nofollow"
    return response


def _json(request, tournament):
    response = JsonResponse(_data(tournament, day=_wants_day(request)))
    response["X-Robots-Tag"] = "noindex, nofollow"
    return response


@require_GET
def screen(request, token):
    tournament = get_object_or_404(Tournament, projector_token=token)
    return _screen(request, tournament, reverse("projector-data", args=[token]))


@require_GET
@never_cache
def screen_data(request, token):
    return _json(request, get_object_or_404(Tournament, projector_token=token))


@require_GET
def public_screen(request, slug):
    tournament = get_object_or_404(Tournament, slug=slug, is_public=True)
    return _screen(request, tournament, reverse("public-projector-data", args=[slug]))


@require_GET
@never_cache
def public_screen_data(request, slug):
    return _json(request, get_object_or_404(Tournament, slug=slug, is_public=True))


@director_required
def projector(request, slug):
    """The director's page: the secret link to open on the hall's screen."""
    tournament = get_managed_tournament(request, slug)
    path = reverse("projector", args=[tournament.projector_token])
    context = {
        "tournament": tournament,
        "link": public_url(request, path),
        "path": path,
        "public_link": (
            public_url(request, reverse("public-projector", args=[tournament.slug]))
            if tournament.is_public
            else ""
        ),
    }
    return render(request, "tournament/manage/projector.html", context)


@director_required
@require_POST
def projector_renew(request, slug):
    tournament = get_managed_tournament(request, slug)
    renew_projector_link(tournament, request.user)
    messages.success(request, _("New projector link made; the old one no longer works."))
    return redirect("manage:projector", slug=tournament.slug)
