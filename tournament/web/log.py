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


# The secret links: a personal registration link (/anmeldung/<token>/, but not the page
# /anmeldung/link/ that sends them again), a table's link for its list keeper
# (/tisch/<token>/) and the projector's (/leinwand/<token>/). Whoever reads a log (a 4xx, an
# error's traceback, the development server's request line, a Referer in an error report)
# must not be able to open them, and a personal link must not outlive the deletion of the
# tournament's personal data in a log file.
SECRET_LINK = re.compile(
    r"(/(?:anmeldung|tisch|leinwand)/)(?!link(?:[/?#\s\"'<>]|$))[^/?#\s\"'<>]+"
)
PERSONAL_LINK = SECRET_LINK  # the older name


def mask_secret_links(text: str) -> str:
    """``text`` with the secret part of every table, projector and personal link replaced."""
    return SECRET_LINK.sub(r"\1…", text)


class WithoutPersonalLinks(logging.Filter):
    """Masks the secret links in a record's message and in its traceback."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        masked = mask_secret_links(message)
        if masked != message:
            record.msg, record.args = masked, ()
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = mask_secret_links(record.exc_text)
        return True
