"""What every phone and screen in the hall polls is computed once per moment, not per poll."""

from collections.abc import Callable
from typing import TypeVar

from django.conf import settings
from django.core.cache import cache

T = TypeVar("T")


def polled(key: str, compute: Callable[[], T], seconds: int | None = None) -> T:
    """``compute()``, reused for ``seconds`` (by default ``STANDINGS_CACHE_SECONDS``) under
    ``key`` (0: never reused)."""
    if seconds is None:
        seconds = settings.STANDINGS_CACHE_SECONDS
    if not seconds:
        return compute()
    value = cache.get(key)
    if value is None:
        value = compute()
        cache.set(key, value, seconds)
    return value
