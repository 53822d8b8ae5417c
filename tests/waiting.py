"""Waiting for other threads of a test without sleeping: each thread writes down what
happened in a ``Notes``, which wakes the test; the test waits for its condition with a
deadline that only a failing test reaches."""

import threading
from collections.abc import Callable

WAIT = 30  # seconds: only reached when a test fails


class Notes:
    """Lists of what happened, written by several threads and read by the test."""

    def __init__(self) -> None:
        self._changed = threading.Condition()

    def add(self, record: list, item=True) -> None:
        with self._changed:
            record.append(item)
            self._changed.notify_all()

    def tell(self) -> None:
        """Something the condition reads has changed (other than through ``add``)."""
        with self._changed:
            self._changed.notify_all()

    def wait_for(self, condition: Callable[[], bool], timeout: float = WAIT) -> bool:
        """True once ``condition`` holds; False when ``timeout`` seconds passed first."""
        with self._changed:
            return self._changed.wait_for(condition, timeout)
