"""Rate limits kept in the database: they hold across all server processes and restarts.

A bucket counts the events of one key (e.g. wrong table tokens from one address) in a fixed
window; once the count passes the limit, further events are refused until the window ends.
The window is short, so a real user who mistyped is not locked out for long.

Where a request may run in parallel with others (a password or a code being checked), count
first: :func:`take` increments the bucket and compares in one short transaction of its own,
*before* the check, so that of any number of parallel requests at most the limit get to try;
:func:`give_back` returns the slot when the attempt turned out not to count (a successful
login). Checking first and counting afterwards would let every parallel request read the
count below the limit.
"""

import ipaddress
import math
import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import F
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from ..models import RateBucket


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


def network(request: HttpRequest) -> str:
    """The key of the client's network for limits: an IPv4 address as it is, an IPv6 address
    as its /64 network (one home, phone or server holds a whole /64 and may use any address
    in it, so counting each address alone would set no limit at all)."""
    address = client_address(request)
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:  # ::ffff:192.0.2.1 of a dual-stack socket
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


def retry_after(key: str, limit: int, window: int) -> int | None:
    """Seconds until ``key`` may act again, or None when it is below ``limit``."""
    bucket = RateBucket.objects.filter(key=key).first()
    if bucket is None or bucket.count < limit:
        return None
    left = (bucket.window_start + timedelta(seconds=window) - timezone.now()).total_seconds()
    return math.ceil(left) if left > 0 else None


def hit(key: str, window: int) -> None:
    """Count one event for ``key`` in the current window of ``window`` seconds."""
    _count(key, window)


@dataclass(frozen=True)
class Slot:
    """One event counted by :func:`take` in the window that began at ``window_start``;
    ``wait`` is None when it was within the limit, else the seconds until the window ends."""

    key: str
    window_start: datetime
    wait: int | None = None


def take(key: str, limit: int, window: int) -> Slot:
    """Count one event for ``key`` before it is tried and say whether it is within ``limit``:
    increment and compare are one step, so parallel callers cannot all read a count below the
    limit. Call it outside other transactions, so that the count is committed at once."""
    window_start, count = _count(key, window)
    if count <= limit:
        return Slot(key, window_start)
    left = (window_start + timedelta(seconds=window) - timezone.now()).total_seconds()
    return Slot(key, window_start, max(1, math.ceil(left)))


def take_all(limits: Iterable[tuple[str, int]], window: int) -> tuple[tuple[Slot, ...], int | None]:
    """:func:`take` a slot in each bucket of ``limits`` (key, limit). When any of them is over
    its limit, every slot is given back and the longest wait returned with no slots."""
    return take_each((key, limit, window) for key, limit in limits)


def take_each(limits: Iterable[tuple[str, int, int]]) -> tuple[tuple[Slot, ...], int | None]:
    """:func:`take_all` with a window of its own for each bucket (key, limit, window)."""
    slots = tuple(take(key, limit, window) for key, limit, window in limits)
    waits = [slot.wait for slot in slots if slot.wait is not None]
    if waits:
        give_back(slots)
        return (), max(waits)
    return slots, None


def give_back(slots: Iterable[Slot]) -> None:
    """Uncount events taken by :func:`take`, in the window they were counted in (a window that
    has begun anew since is not touched); an empty bucket is removed."""
    for slot in slots:
        with transaction.atomic():
            mine = RateBucket.objects.filter(key=slot.key, window_start=slot.window_start)
            mine.filter(count__gt=0).update(count=F("count") - 1)
            mine.filter(count=0).delete()


def _count(key: str, window: int) -> tuple[datetime, int]:
    """Count one event for ``key``; the window start and the count including this event.

    Each step is a single UPDATE or INSERT, and the count is read back in the same
    transaction, which holds the row's write lock (SQLite: the database's) until it ends."""
    now = timezone.now()
    buckets = RateBucket.objects.filter(key=key)
    fresh = buckets.filter(window_start__gt=now - timedelta(seconds=window))
    expired = buckets.filter(window_start__lte=now - timedelta(seconds=window))
    for attempt in range(3):
        try:
            with transaction.atomic():
                counted = fresh.update(count=F("count") + 1)
                if not counted:
                    counted = expired.update(window_start=now, count=1)
                if not counted:
                    RateBucket.objects.create(key=key, window_start=now, count=1)
                return buckets.values_list("window_start", "count").get()
        except IntegrityError:  # another process created the bucket first: count again
            if attempt == 2:
                raise
    raise AssertionError("not reached")


class InMemory:
    """Fixed-window counts kept in the server process instead of the database: for limits
    that are counted on every anonymous request (the downloads), where a write per request
    would make the keepers' saves wait for the database's write lock. Holds in one process
    (the hall's server); with several processes each counts on its own. At most ``keys``
    addresses are kept, the oldest windows dropped first."""

    def __init__(self, keys: int = 10_000) -> None:
        self._windows: dict[str, tuple[float, int]] = {}
        self._lock = threading.Lock()
        self._keys = keys

    def take(self, key: str, limit: int, window: int, now: float | None = None) -> int | None:
        """Count one event of ``key``; None when it is within ``limit`` per ``window``
        seconds, else the seconds until it may act again (the event is not counted)."""
        now = time.monotonic() if now is None else now
        with self._lock:
            start, count = self._windows.get(key, (now, 0))
            if now - start >= window:
                start, count = now, 0
            if count >= limit:
                return max(1, math.ceil(start + window - now))
            self._windows[key] = (start, count + 1)
            if len(self._windows) > self._keys:
                oldest = min(self._windows, key=lambda k: self._windows[k][0])
                del self._windows[oldest]
            return None

    def forget(self, prefix: str) -> None:
        """Drop the counts of every key that starts with ``prefix``."""
        with self._lock:
            for key in [key for key in self._windows if key.startswith(prefix)]:
                del self._windows[key]

    def clear(self) -> None:
        with self._lock:
            self._windows.clear()


def minutes_of(seconds: int) -> int:
    """A wait in whole minutes, rounded up and at least one: "1 minute" is never too short."""
    return max(1, math.ceil(seconds / 60))


def wait_in_words(seconds: int) -> str:
    """How long to wait, in the reader's language: seconds under a minute, else the minutes
    (:func:`minutes_of`)."""
    if seconds < 60:
        return ngettext("%(count)s second", "%(count)s seconds", seconds) % {"count": seconds}
    minutes = minutes_of(seconds)
    return ngettext("%(count)s minute", "%(count)s minutes", minutes) % {"count": minutes}


def too_many(
    request: HttpRequest, seconds: int, heading: str = "", reason: str = ""
) -> HttpResponse:
    """The one answer to a request over a rate limit (the form pages that were filled in
    show their own form with the message instead): the page ``429.html`` in the site's look
    and the reader's language, with the wait in words and in ``Retry-After``. Nobody's
    answer is cached: the next one may be different."""
    context = {
        "heading": heading or _("Too many attempts"),
        "reason": reason or _("There were too many requests from your connection."),
        "wait": wait_in_words(seconds),
    }
    response = render(request, "429.html", context, status=429)
    response["Retry-After"] = str(seconds)
    response["Cache-Control"] = "private, no-store"
    return response
