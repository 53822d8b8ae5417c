"""The results service's own pages: the receiving end of publishing (protocol.PATH), a club's
page and the club's address of a tournament."""

from __future__ import annotations

import re
import threading

from django.conf import settings
from django.http import Http404, HttpRequest, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt

from ..base.site_url import public_url
from ..models import Club, Series
from ..publishing import protocol
from ..queries.service import club_tournaments
from ..service import receive as service

# Publications restored at once in this process; the rest wait (SERVICE_PUBLISH_HOLD), then
# are told to come again. Only requests with a usable key get this far.
_places = threading.BoundedSemaphore(settings.SERVICE_PUBLISH_CONCURRENCY)

CHUNK = 64 * 1024
# A sequence number as the header carries it: ASCII digits, at most 18 (the column's 64 bits);
# a signature as protocol.signature writes it. Anything else is malformed (400), never a 500.
SEQUENCE = re.compile(r"[0-9]{1,18}")
SIGNATURE = re.compile(r"sha256=[0-9a-f]{64}")


def _answer(receipt: service.Receipt) -> JsonResponse:
    response = JsonResponse(receipt.data, status=receipt.status)
    response["Cache-Control"] = "no-store"
    if receipt.data.get("error") == service.BUSY:
        response["Retry-After"] = "5"
    return response


def _refuse(status: int, code: str, message: str) -> JsonResponse:
    return _answer(service.refusal(status, code, message))


def _read(request: HttpRequest, length: int) -> bytes:
    """The body, read from the stream in chunks (Django's ``request.body`` would apply the
    form limit DATA_UPLOAD_MAX_MEMORY_SIZE, meant for forms, not archives)."""
    parts, left = [], length
    while left > 0:
        part = request.read(min(CHUNK, left))
        if not part:
            break
        parts.append(part)
        left -= len(part)
    return b"".join(parts)


@csrf_exempt
def publish_endpoint(request: HttpRequest) -> JsonResponse:
    """Receive a hall's publication (tournament/publishing/protocol.py). What is refused is
    refused as early as it can be: the headers' form, then the key (one indexed query), then
    the announced length, all before a byte of the body is read."""
    if request.method != "POST":
        response = _refuse(405, protocol.BAD_REQUEST, _("Publications are sent with POST."))
        response["Allow"] = "POST"
        return response
    headers = request.headers
    key_id = headers.get(protocol.HEADER_KEY, "").strip()
    tournament_uid = headers.get(protocol.HEADER_TOURNAMENT, "").strip()
    signature = headers.get(protocol.HEADER_SIGNATURE, "").strip()
    sequence_text = headers.get(protocol.HEADER_SEQUENCE, "").strip()
    well_formed = SEQUENCE.fullmatch(sequence_text) and SIGNATURE.fullmatch(signature)
    if not (key_id and tournament_uid and well_formed):
        return _refuse(
            400, protocol.BAD_REQUEST, _("The publishing headers are missing or malformed.")
        )
    if service.usable_key(key_id) is None:
        return _answer(service.bad_key())
    try:
        length = int(request.META.get("CONTENT_LENGTH") or "")
    except ValueError:
        return _refuse(400, protocol.BAD_REQUEST, _("The request does not say its length."))
    if length > settings.SERVICE_MAX_ARCHIVE_BYTES:
        return _refuse(
            413,
            protocol.TOO_LARGE,
            _("The archive is larger than this service takes (%(limit)s MB).")
            % {"limit": settings.SERVICE_MAX_ARCHIVE_BYTES // (1024 * 1024)},
        )
    # The body first, then a place: a slow upload (a weak hotspot) holds this worker, never
    # one of the lane's places that the other clubs' publications wait for.
    body = _read(request, length)
    if not _places.acquire(timeout=settings.SERVICE_PUBLISH_HOLD):
        return _answer(service.busy(429))
    try:
        receipt = service.receive(
            key_id=key_id,
            tournament_uid=tournament_uid,
            sequence=int(sequence_text),
            signature=signature,
            body=body,
            absolute=lambda path: public_url(request, path),
        )
    finally:
        _places.release()
    return _answer(receipt)


def club_page(request: HttpRequest, club: str):
    """A club's page: its published tournaments (newest first) and its series."""
    found = get_object_or_404(Club, slug=club)
    context = {
        "club": found,
        "tournaments": club_tournaments(found),
        "series_list": Series.objects.filter(club=found, is_public=True),
    }
    return render(request, "tournament/service/club.html", context)


def club_tournament(request: HttpRequest, club: str, slug: str):
    """The club's address of a tournament (its short name in the hall): to the replica."""
    found = get_object_or_404(Club, slug=club)
    replica = (
        club_tournaments(found).filter(published_slug=slug).first()
        or club_tournaments(found).filter(slug=slug).first()
    )
    if replica is None:
        raise Http404
    return redirect("tournament-public", slug=replica.slug)
