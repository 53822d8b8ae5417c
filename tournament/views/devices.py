"""Tablets that stay at their table (issue 35): the device's own pages (pair with a code, wait
between rounds, follow the table to the round being played) and the director's page (make a
pairing code, see the devices per table, revoke).

A paired device opens ``/geraet/``: while a round is played it is sent on to that round's
table link, whose page follows the table by itself (templates/tournament/device/_follow.html);
between rounds it waits here and switches when the next round is released."""

from __future__ import annotations

from django.contrib import messages
from django.http import JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.debug import sensitive_post_parameters
from django.views.decorators.http import require_GET, require_POST

from ..base import ratelimit
from ..base.site_url import public_url
from ..domain import devices as domain
from ..errors import DomainError
from ..exports.printpack import qr_svg
from ..forms.devices import NewPairingForm, PairingForm
from ..models import TableDevice
from ..permissions import director_required, get_managed_tournament
from ..queries.devices import current_table, devices_of, waiting
from ..web import devices

_NEW_CODE = "kreuzdame_new_pairing_code"


def _device_page(request, form=None, *, status=200):
    """The device's page: the pairing form, a revoked pairing, or the waiting screen."""
    device = devices.device_of(request)
    context: dict = {"device": device, "form": form or PairingForm()}
    if device is not None and device.is_paired:
        context["waiting"] = waiting(device)
    response = render(request, "tournament/device/home.html", context, status=status)
    response["X-Robots-Tag"] = "noindex, nofollow"
    return response


@require_GET
@never_cache
def device_home(request):
    device = devices.device_of(request)
    if device is not None and device.is_paired:
        table = current_table(device)
        if table is not None:
            return redirect("keeper-sheet", token=table.token)
    return _device_page(request)


@require_POST
@sensitive_post_parameters("code")
def device_pair(request):
    form = PairingForm(request.POST)
    if not form.is_valid():
        return _device_page(request, form, status=422)
    try:
        paired = domain.pair(
            form.cleaned_data["code"], ratelimit.network(request), devices.device_of(request)
        )
    except domain.TooManyPairings as exc:
        form.add_error("code", exc.message)
        response = _device_page(request, form, status=429)
        response["Retry-After"] = str(exc.seconds)
        return response
    except DomainError as exc:
        form.add_error("code", exc.message)
        return _device_page(request, form, status=422)
    return devices.set_cookie(redirect("device-home"), paired.token)


@require_POST
def device_forget(request):
    """The device forgets its pairing (a revoked one, or to pair it anew)."""
    return devices.forget_cookie(redirect("device-home"))


@require_GET
@never_cache
def device_state(request):
    """Polled by the device's pages: where it should be now. ``url`` is the table link of
    the round being played, or null between rounds."""
    device = devices.device_of(request)
    if device is None:
        return JsonResponse({"state": "unpaired", "url": None})
    if not device.is_paired:
        return JsonResponse({"state": "revoked", "url": None})
    table = current_table(device)
    url = reverse("keeper-sheet", args=[table.token]) if table is not None else None
    return JsonResponse({"state": "paired", "url": url})


# --- the director's page -----------------------------------------------------------------------


@director_required
def device_list(request, slug):
    """The tournament's tablets per table: make a pairing code, see when each device was last
    seen, revoke a pairing."""
    tournament = get_managed_tournament(request, slug)
    form = NewPairingForm()
    status = 200
    if request.method == "POST":
        form = NewPairingForm(request.POST)
        if form.is_valid():
            number = form.cleaned_data["table_number"]
            try:
                code = domain.new_pairing(
                    tournament, number, request.user, form.cleaned_data["label"]
                )
            except DomainError as exc:
                form.add_error("table_number", exc.message)
            else:
                # Shown once, on the page the redirect leads to; only its hash is stored.
                request.session[_NEW_CODE] = {"code": code, "table": number, "slug": slug}
                return redirect("manage:device-list", slug=slug)
        status = 422
    now = timezone.now()
    new = request.session.pop(_NEW_CODE, None)
    if new is not None and new.get("slug") != slug:
        new = None
    context = {
        "tournament": tournament,
        "form": form,
        "devices": devices_of(tournament),
        "device_url": public_url(request, reverse("device-home")),
        "minutes": domain.PAIRING_CODE_SECONDS // 60,
        "now": now,
        # A tablet asks every few seconds while its page is open; its "last seen" is written
        # at most once a minute (domain.SEEN_EVERY).
        "just_now": now - 2 * domain.SEEN_EVERY,
    }
    if new is not None:
        shown = domain.shown_code(new["code"])
        context["new"] = {
            "code": shown,
            "table": new["table"],
            "qr": qr_svg(f"{context['device_url']}#{shown}"),
        }
    return render(request, "tournament/manage/devices.html", context, status=status)


@director_required
@require_POST
def device_revoke(request, slug, pk):
    tournament = get_managed_tournament(request, slug)
    device = get_object_or_404(TableDevice, pk=pk, tournament=tournament)
    domain.revoke(device, request.user)
    if device.paired_at is None:
        done = _("The pairing code for table %(number)s no longer works.")
    else:
        done = _("The tablet of table %(number)s is no longer paired.")
    messages.success(request, done % {"number": device.table_number})
    return redirect("manage:device-list", slug=slug)
