"""The device cookie of a tablet paired with a table (tournament/domain/devices.py): read once
per request, shared by the device's own pages and the keeper's table link.

The cookie holds the device's random token (the database only its hash). It is HttpOnly and
SameSite=Lax, and Secure only where the site runs behind TLS: the hall serves plain http on
a LAN name, where a Secure cookie would never be sent back."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse

from ..domain import devices as domain
from ..models import Table, TableDevice

COOKIE = "kreuzdame_device"
COOKIE_SECONDS = 400 * 24 * 3600  # the longest a browser keeps a cookie
_UNREAD = object()


def device_of(request: HttpRequest) -> TableDevice | None:
    """The pairing of the device making the request (also a revoked one), read once per
    request; its "last seen" is noted while it is paired."""
    found = getattr(request, "_kreuzdame_device", _UNREAD)
    if found is _UNREAD:
        found = domain.device_for_token(request.COOKIES.get(COOKIE, ""))
        if found is not None and found.is_paired:
            domain.seen(found)
        request._kreuzdame_device = found  # type: ignore[attr-defined]
    return found  # type: ignore[return-value]


def set_cookie(response: HttpResponse, token: str) -> HttpResponse:
    response.set_cookie(
        COOKIE,
        token,
        max_age=COOKIE_SECONDS,
        secure=settings.SESSION_COOKIE_SECURE,
        httponly=True,
        samesite="Lax",
    )
    return response


def forget_cookie(response: HttpResponse) -> HttpResponse:
    response.delete_cookie(COOKIE, samesite="Lax")
    return response


def revoked_at_table(request: HttpRequest, table: Table) -> TableDevice | None:
    """The device's pairing when it was revoked and belonged to the table's tournament: the
    table's link then refuses it with a message (tournament/views/keeper.py), so that games
    it still holds are not taken silently as if nothing had happened."""
    device = device_of(request)
    if device is None or device.revoked_at is None:
        return None
    return device if device.tournament_id == table.round.tournament_id else None


def following(request: HttpRequest, table: Table) -> TableDevice | None:
    """The device's pairing when it is paired with this table's number: its page then
    follows the table to the next round by itself."""
    device = device_of(request)
    if device is None or not device.is_paired:
        return None
    if device.tournament_id != table.round.tournament_id:
        return None
    return device if device.table_number == table.number else None
