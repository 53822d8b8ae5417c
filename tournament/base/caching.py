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

With a shared cache (``SHARED_CACHE``: the results service's several gunicorn workers, see
docs/service.md) a family's value missing in a process is looked up there before it is
computed (``Shared``): one process computes it under a lock taken with ``cache.add``, the
others wait for its value, and a process keeps what it found in its own memo as before. So
a page is computed once per state across all the processes.
"""

from __future__ import annotations

import hashlib
import logging
import os
import socket
import sys
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from django.conf import settings
from django.core.cache import BaseCache, cache, caches

logger = logging.getLogger(__name__)

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


# How long the shared cache keeps a value nobody replaced (a finished tournament's pages).
KEEP_SECONDS = 7 * 24 * 3600


class Shared:
    """One computation per (family, state) across processes, through a cache they share
    (Django's database cache or Redis).

    The value of a family is kept under one key with the state it was computed from, and
    that state with the (wall clock) time under a second, small key: a process whose state
    moved on reads the small key and loads no value it cannot use. So the cache holds one
    value per family, as the memo does. A process that finds no usable value takes the
    family's lock for that state with ``cache.add`` (atomic in every backend) and computes;
    the others poll the cache for the value with growing pauses. A lock lives
    ``lock_seconds`` at most: the holder's process may die. One on this machine is
    recognised as gone at once (the lock names host and process id); one elsewhere when
    its lock expires; after ``lock_seconds`` of waiting a process computes without the lock.
    When the cache fails (Redis down, a value that no longer unpickles after an update),
    the process computes for itself: a page is never refused for the cache's sake."""

    def __init__(self, store: BaseCache, lock_seconds: float = 60) -> None:
        self.store = store
        self.lock_seconds = lock_seconds
        self.owner = f"{socket.gethostname()}:{os.getpid()}"

    def get(
        self, family: Hashable, state: Hashable, compute: Callable[[], T], stale: float = 0
    ) -> tuple[T, Hashable, float, bool]:
        """The value of ``family`` usable at ``state``: (value, the state it was computed
        from, its age in seconds, whether this process computed it)."""
        key = _key("memo", family)
        lock = _key("memo-lock", (family, state))
        deadline = time.monotonic() + self.lock_seconds
        pause = 0.005
        while True:
            found = self._usable(key, state, stale)
            if found is not None:
                return (*found, False)
            if self._acquire(lock):
                # The holder before may have stored the value and let go just now.
                found = self._usable(key, state, stale)
                if found is not None:
                    self._release(lock)
                    return (*found, False)
                break
            if time.monotonic() >= deadline:
                lock = ""  # the holder is far too slow: compute without the lock
                break
            time.sleep(pause)  # another process computes this state
            pause = min(pause * 2, 0.2)
        try:
            value = compute()
            self._store(key, state, value)
        finally:
            if lock:
                self._release(lock)
        return value, state, 0.0, True

    def _usable(self, key: str, state: Hashable, stale: float):
        try:
            held = self.store.get(key + ":state")
            if not (isinstance(held, tuple) and len(held) == 2):
                return None
            held_state, made = held
            age = max(0.0, time.time() - made)
            if not (held_state == state or age < stale):
                return None
            kept = self.store.get(key)
        except Exception:  # a broken cache must not break the page
            logger.warning("shared cache: reading %s failed", key, exc_info=True)
            return None
        # Written one after the other: a value of another state is no value for this one.
        if not (isinstance(kept, tuple) and len(kept) == 2 and kept[0] == held_state):
            return None
        return kept[1], held_state, age

    def _acquire(self, lock: str) -> bool:
        """True: this thread holds the lock, or the cache cannot be asked (compute)."""
        me = f"{self.owner}:{threading.get_ident()}"
        try:
            if self.store.add(lock, me, self.lock_seconds):
                return True
            holder = self.store.get(lock)
            if holder is not None and _gone(str(holder)):
                self.store.delete(lock)
                return self.store.add(lock, me, self.lock_seconds)
            return holder is None and self.store.add(lock, me, self.lock_seconds)
        except Exception:
            logger.warning("shared cache: locking failed", exc_info=True)
            return True

    def _store(self, key: str, state: Hashable, value: Any) -> None:
        try:
            # The value first: a process that reads the new state finds its value.
            self.store.set(key, (state, value), KEEP_SECONDS)
            self.store.set(key + ":state", (state, time.time()), KEEP_SECONDS)
        except Exception:  # e.g. a value that does not pickle: kept in this process
            logger.warning("shared cache: storing %s failed", key, exc_info=True)

    def _release(self, lock: str) -> None:
        try:
            self.store.delete(lock)
        except Exception:
            logger.warning("shared cache: unlocking failed", exc_info=True)


def _key(kind: str, what: Hashable) -> str:
    """A cache key for a family (or family and state): its digest, the same in every
    process (families and states are tuples of numbers, strings, booleans and dates)."""
    return f"{kind}:{hashlib.sha256(repr(what).encode()).hexdigest()}"


def _gone(holder: str) -> bool:
    """Whether the process named by a lock (``host:pid:thread``) is known to have ended: it
    ran on this machine and no process has its id any more."""
    host, _, rest = holder.partition(":")
    pid = rest.partition(":")[0]
    if host != socket.gethostname() or not pid.isdecimal():
        return False
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return True
    except OSError:  # it exists under another user
        return False
    return False


class Memo:
    def __init__(
        self,
        max_entries: int | None = None,
        max_bytes: int | None = None,
        shared: Shared | None = None,
    ) -> None:
        self._slots: OrderedDict[Hashable, _Slot] = OrderedDict()
        self._lock = threading.Lock()
        self._max_entries = max_entries
        self._max_bytes = max_bytes
        self._shared = shared
        self.bytes = 0
        self.computed = 0  # how many computations ran (tests and the load test read it)
        self.fetched = 0  # how many values came from the shared cache

    def clear(self) -> None:
        with self._lock:
            self._slots.clear()
            self.bytes = 0

    def __len__(self) -> int:
        return len(self._slots)

    def shared(self) -> Shared | None:
        """The cache shared with the other processes: the one given, else the site's
        default cache when ``SHARED_CACHE`` is on (settings.py), else none (the hall)."""
        if self._shared is not None:
            return self._shared
        if getattr(settings, "SHARED_CACHE", False):
            return Shared(caches["default"], settings.SHARED_CACHE_LOCK_SECONDS)
        return None

    def get(
        self,
        family: Hashable,
        state: Hashable,
        compute: Callable[[], T],
        stale: float = 0,
        share: bool = True,
    ) -> T:
        """The value of ``family`` at ``state``: stored, or computed now by one thread.
        ``stale``: seconds for which the value of an older state is still served.
        ``share=False``: kept in this process only, also with a shared cache (see
        ``cached``)."""
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
            shared = self.shared() if share else None
            if shared is None:
                value, made_state, age, here = compute(), state, 0.0, True
            else:
                value, made_state, age, here = shared.get(family, state, compute, stale)
        except BaseException:
            with self._lock:
                event, slot.computing = slot.computing, None
            if event is not None:
                event.set()
            raise
        with self._lock:
            if here:
                self.computed += 1
            else:
                self.fetched += 1
            self.bytes -= slot.size
            # What another process computed keeps its own state and age: an older state
            # served within ``stale`` must not pass for the current one here.
            slot.state, slot.value, slot.made = made_state, value, time.monotonic() - age
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


def cached(
    family: Hashable,
    state: Hashable,
    compute: Callable[[], T],
    stale: float = 0,
    share: bool = True,
) -> T:
    """``compute()`` once per ``state`` of ``family`` (see ``Memo``). ``share=False`` for a
    value that costs more to load from the shared cache than to compute: a big graph of
    objects (a tournament's or a series' figures, a series' table), which only the process
    rendering a page from it needs; the rendered pages themselves are shared."""
    return memo.get(family, state, compute, stale, share)


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
