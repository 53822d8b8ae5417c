"""Logging helpers."""

import logging


class WithoutTraceback(logging.Filter):
    """Keeps the message, drops the traceback: for refusals that are not bugs, such as a
    phone asking for a host name the hall laptop does not answer to."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.exc_info = None
        record.exc_text = None
        return True
