"""Logging helpers."""

import logging
import re


class WithoutTraceback(logging.Filter):
    """Keeps the message, drops the traceback: for refusals that are not bugs, such as a
    phone asking for a host name the hall laptop does not answer to."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.exc_info = None
        record.exc_text = None
        return True


# A personal registration link in a logged path (a 4xx, the development server's request
# line): the secret part is replaced, so that the link does not outlive the deletion of the
# tournament's personal data in a log file.
PERSONAL_LINK = re.compile(r"(/anmeldung/)(?!link/)[A-Za-z0-9_-]{8,}")


class WithoutPersonalLinks(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        masked = PERSONAL_LINK.sub(r"\1…", message)
        if masked != message:
            record.msg, record.args = masked, ()
        return True
