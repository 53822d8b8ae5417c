"""One computation per state: what every phone and screen asks for is computed once per
version of the data behind it, not per request.

A ``Memo`` keeps one value per *family* (a page of one object in one language, e.g.
``("standings", 7, "de")``) together with the *state* it was computed from (the object's
version, see tournament/base/versions.py). A request whose state matches gets the stored value: a
dictionary lookup. Otherwise one thread computes (single flight: the others wait for it, or
take the value before it if that is younger than the stale tolerance) and replaces the
family's value. So the number of stored values is bounded by what exists (objects x
languages, never by query strings), and a least recently used family is dropped beyond
``CACHE_MAX_ENTRIES`` families or ``CACHE_MAX_BYTES`` of text.

The memo lives in the process: the hall's single server process shares it between all its
threads; a second process (the test server, gunicorn workers) keeps its own, which costs
one computation more per process, never a wrong page: the state is read from the database.
"""

from __future__ import annotations

import sys
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from django.conf import settings
from django.core.cache import cache

T = TypeVar("T")
_MISSING: Any = object()


@dataclass
class _Slot:
    state: Hashable = None
    value: Any = _MISSING
    made: float = 0.0
    size: int = 0
    computing: threading.Event | None = None
    hits: int = field(default=0)


def _size(value: Any) -> int:
    """The bytes a value holds, counted for text (rendered pages) and containers of text;
    other objects count their own size only."""
    if isinstance(value, str | bytes):
        return len(value)
    if isinstance(value, tuple | list):
        return sum(_size(v) for v in value)
    if isinstance(value, dict):
        return sum(_size(v) for v in value.values())
    return sys.getsizeof(value)


class Memo:
    def __init__(self, max_entries: int | None = None, max_bytes: int | None = None) -> None:
        self._slots: OrderedDict[Hashable, _Slot] = OrderedDict()
        self._lock = threading.Lock()
        self._max_entries = max_entries
        self._max_bytes = max_bytes
        self.bytes = 0
        self.computed = 0  # how many computations ran (tests and the load test read it)

    def clear(self) -> None:
        with self._lock:
            self._slots.clear()
            self.bytes = 0

    def __len__(self) -> int:
        return len(self._slots)

    def get(
        self, family: Hashable, state: Hashable, compute: Callable[[], T], stale: float = 0
    ) -> T:
        """The value of ``family`` at ``state``: stored, or computed now by one thread.
        ``stale``: seconds for which the value of an older state is still served."""
        while True:
            with self._lock:
                slot = self._slots.get(family)
                if slot is None:
                    slot = self._slots[family] = _Slot()
                self._slots.move_to_end(family)
                fresh_enough = slot.value is not _MISSING and (
                    slot.state == state or time.monotonic() - slot.made < stale
                )
                if fresh_enough:
                    slot.hits += 1
                    return slot.value
                waiting = slot.computing
                if waiting is None:
                    slot.computing = threading.Event()
                    break
            waiting.wait(timeout=30)  # the other thread computes; then look again
        try:
            value = compute()
        except BaseException:
            with self._lock:
                event, slot.computing = slot.computing, None
            if event is not None:
                event.set()
            raise
        with self._lock:
            self.computed += 1
            self.bytes -= slot.size
            slot.state, slot.value, slot.made = state, value, time.monotonic()
            slot.size = _size(value)
            self.bytes += slot.size
            event, slot.computing = slot.computing, None
            self._evict()
        if event is not None:
            event.set()
        return value

    def _evict(self) -> None:
        max_entries = self._max_entries or settings.CACHE_MAX_ENTRIES
        max_bytes = self._max_bytes or settings.CACHE_MAX_BYTES
        while len(self._slots) > 1 and (len(self._slots) > max_entries or self.bytes > max_bytes):
            family, slot = next(iter(self._slots.items()))
            if slot.computing is not None:  # being computed: keep, drop the next one
                self._slots.move_to_end(family)
                if all(s.computing is not None for s in self._slots.values()):
                    return
                continue
            del self._slots[family]
            self.bytes -= slot.size


memo = Memo()


def cached(family: Hashable, state: Hashable, compute: Callable[[], T], stale: float = 0) -> T:
    """``compute()`` once per ``state`` of ``family`` (see ``Memo``)."""
    return memo.get(family, state, compute, stale)


def polled(key: str, compute: Callable[[], T], seconds: int | None = None) -> T:
    """``compute()``, reused for ``seconds`` (by default ``STANDINGS_CACHE_SECONDS``) under
    ``key`` (0: never reused): for what changes with the clock, not with the data."""
    if seconds is None:
        seconds = settings.STANDINGS_CACHE_SECONDS
    if not seconds:
        return compute()
    value = cache.get(key)
    if value is None:
        value = compute()
        cache.set(key, value, seconds)
    return value
