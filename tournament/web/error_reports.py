"""What Django's error reports (the debug page with DEBUG on, the e-mails to ADMINS) may show.

Django hides settings named like PASSWORD or SECRET_KEY, but shows the process environment in
request.META under the development server, and with it ``DATABASE_URL`` with its password. This
filter also hides every URL's password and the database and cache URLs as a whole, the
password of a login form even with DEBUG on (Django only hides that with DEBUG off), and the
same in the local variables of the traceback, and the secret part of table, projector and
personal links (tournament/web/log.py) wherever a string shows one. Values that are other objects
are shown as they represent themselves. With DEBUG on, only this computer gets the page
(tournament/web/debug_guard.py).

The request's META is not shown whole: under the development server it holds the whole
process environment, which is nobody's business on an error page. Only the request's own
entries are listed (its headers, method, path, query, addresses and server name).
"""

import re
from typing import Any

from django.views.debug import SafeExceptionReporterFilter

from .log import mask_secret_links
from .login_limit import KNOWN_BROWSER_COOKIE

_URL = re.compile(r"[a-z][a-z0-9+.-]*://\S+", flags=re.I)
# libpq's "host=db user=kreuzdame password=..." (psycopg's conninfo); a value may be quoted.
_CONNINFO_PASSWORD = re.compile(r"(\bpassword\s*=\s*)('(?:[^'\\]|\\.)*'|\S+)", flags=re.I)


def hide_passwords(text: str, substitute: str) -> str:
    """``text`` with the password of every URL (scheme://user:password@host) and of every
    libpq connection string replaced by ``substitute``; the rest is kept for debugging."""

    def url(match: re.Match) -> str:
        scheme, _sep, rest = match.group().partition("://")
        # The last "@" ends the credentials: a password may hold a raw "@" (or "/"), and the
        # few URLs with an "@" in their path lose some of it only on an error page.
        userinfo, at, host = rest.rpartition("@")
        user, colon, _password = userinfo.partition(":")
        if not at or not colon or any(c in user for c in "/?#"):
            return match.group()
        return f"{scheme}://{user}:{substitute}@{host}"

    text = _URL.sub(url, text)
    return _CONNINFO_PASSWORD.sub(lambda match: match.group(1) + substitute, text)


# What WSGI and the server put into META about the request itself (PEP 3333).
_REQUEST_META = frozenset(
    {
        "CONTENT_LENGTH", "CONTENT_TYPE", "PATH_INFO", "QUERY_STRING", "REMOTE_ADDR",
        "REMOTE_HOST", "REQUEST_METHOD", "SCRIPT_NAME", "SERVER_NAME", "SERVER_PORT",
        "SERVER_PROTOCOL", "wsgi.url_scheme",
    }
)  # fmt: skip


def is_request_meta(key: str) -> bool:
    """True for a META key that describes the request (its headers and the WSGI entries),
    False for everything the server copied from the process environment."""
    return key.startswith("HTTP_") or key in _REQUEST_META


class ReporterFilter(SafeExceptionReporterFilter):
    hidden_settings = re.compile(
        "API|AUTH|TOKEN|KEY|SECRET|PASS|SIGNATURE|HTTP_COOKIE|DATABASE_URL|_DSN$|CACHE_URL|"
        + KNOWN_BROWSER_COOKIE,
        flags=re.I,
    )

    def get_safe_request_meta(self, request):
        """The request's own entries of META, cleansed; never the process environment."""
        meta = super().get_safe_request_meta(request)
        return {key: value for key, value in meta.items() if is_request_meta(key)}

    def is_active(self, request) -> bool:
        return True  # sensitive_post_parameters and sensitive_variables, also with DEBUG on

    def cleanse_setting(self, key, value) -> Any:
        cleansed = super().cleanse_setting(key, value)
        if isinstance(cleansed, str):
            # The request's META (its path, the Referer) and the frames' locals may hold a
            # table's or a player's secret link.
            return mask_secret_links(hide_passwords(cleansed, self.cleansed_substitute))
        return cleansed

    def get_traceback_frame_variables(self, request, tb_frame):
        """The local variables of a frame, cleansed like settings: a variable or dictionary
        key named like a password is hidden (a failed PostgreSQL connection has
        ``conn_params["password"]`` among its locals), and so is every password in a URL."""
        cleansed = []
        for name, value in super().get_traceback_frame_variables(request, tb_frame):
            try:
                value = self.cleanse_setting(name, value)
            except RecursionError:  # a dictionary or list that contains itself
                value = self.cleansed_substitute
            cleansed.append((name, value))
        return cleansed
