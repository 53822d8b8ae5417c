"""Rate limits kept in the database: they hold across all server processes and restarts.

A bucket counts the events of one key (e.g. wrong table tokens from one address) in a fixed
window; once the count passes the limit, further events are refused until the window ends.
The window is short, so a real user who mistyped is not locked out for long.
"""

import math
from datetime import timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.http import HttpRequest, HttpResponse
from django.utils import timezone
from django.utils.translation import gettext as _

from .models import RateBucket


def client_address(request: HttpRequest) -> str:
    """The address the request came from. Behind the reverse proxy (``BEHIND_TLS_PROXY``) that
    is the entry the outermost of ``TRUSTED_PROXIES`` proxies appended to X-Forwarded-For: the
    N-th from the right. Entries further left are whatever the client sent, so never trusted;
    without the setting the header is ignored, as anyone can send it."""
    address = request.META.get("REMOTE_ADDR") or "unknown"
    if getattr(settings, "BEHIND_TLS_PROXY", False):
        chain = [a.strip() for a in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
        chain = [a for a in chain if a]
        if chain:
            trusted = max(1, getattr(settings, "TRUSTED_PROXIES", 1))
            address = chain[-min(trusted, len(chain))]
    return address[:64]


def retry_after(key: str, limit: int, window: int) -> int | None:
    """Seconds until ``key`` may act again, or None when it is below ``limit``."""
    bucket = RateBucket.objects.filter(key=key).first()
    if bucket is None or bucket.count < limit:
        return None
    left = (bucket.window_start + timedelta(seconds=window) - timezone.now()).total_seconds()
    return math.ceil(left) if left > 0 else None


def hit(key: str, window: int) -> None:
    """Count one event for ``key`` in the current window of ``window`` seconds."""
    now = timezone.now()
    for _attempt in range(2):
        try:
            with transaction.atomic():
                bucket = RateBucket.objects.select_for_update().filter(key=key).first()
                if bucket is None:
                    RateBucket.objects.create(key=key, window_start=now, count=1)
                elif now - bucket.window_start >= timedelta(seconds=window):
                    bucket.window_start, bucket.count = now, 1
                    bucket.save(update_fields=["window_start", "count"])
                else:
                    bucket.count += 1
                    bucket.save(update_fields=["count"])
            return
        except IntegrityError:  # another process created the bucket first: count again
            continue


def too_many(seconds: int) -> HttpResponse:
    response = HttpResponse(
        _("Too many attempts. Please wait %(seconds)s seconds.") % {"seconds": seconds},
        status=429,
        content_type="text/plain; charset=utf-8",
    )
    response["Retry-After"] = str(seconds)
    return response
