"""Limits on failed logins, for the site's login and the admin's alike (see views/auth.py and
admin.py): per account and per address, counted in the database so that they hold across all
server processes.

An account under attack must not lock out its owner. A browser that has logged in to an account
before carries a signed "known browser" cookie; its attempts on that account are counted in a
bucket of its own, so the owner's correct password still works while strangers guessing the
same account get 429 (the device-cookie scheme of the OWASP authentication cheat sheet). A
stolen cookie buys no more guesses than the account limit: its bucket has the same limit.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import signing
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _

from . import ratelimit

# Failed logins allowed per window, for one user name and for one address (a hall behind
# one router shares an address, but only officials log in).
PER_ACCOUNT, PER_ADDRESS, WINDOW = 8, 30, 300

KNOWN_BROWSER_COOKIE = "kreuzdame_known"
KNOWN_BROWSER_SECONDS = 400 * 24 * 3600  # the most a browser keeps a cookie (RFC 6265bis)
_SALT = "tournament.login_limit.known-browser"
_MAX_ACCOUNTS = 10  # a shared laptop: director, referees, admin


def account_key(username: str) -> str:
    """The user name as Django looks it up (stripped, NFKC) and case-folded, so that every
    spelling that reaches the same account counts against the same bucket."""
    name = get_user_model().normalize_username(username.strip())
    return name.casefold()[:150]


@dataclass(frozen=True)
class KnownBrowser:
    nonce: str
    accounts: tuple[str, ...]


def known_browser(request: HttpRequest) -> KnownBrowser | None:
    value = request.COOKIES.get(KNOWN_BROWSER_COOKIE)
    if not value:
        return None
    try:
        data = signing.loads(value, salt=_SALT, max_age=KNOWN_BROWSER_SECONDS)
        return KnownBrowser(str(data["n"]), tuple(str(a) for a in data["a"]))
    except (signing.BadSignature, KeyError, TypeError, ValueError):
        return None


@dataclass(frozen=True)
class Attempt:
    """One POST to a login form: which buckets it is counted in."""

    account: str
    keys: tuple[tuple[str, int], ...]
    browser: KnownBrowser | None

    @classmethod
    def of(cls, request: HttpRequest) -> Attempt:
        account = account_key(request.POST.get("username", ""))
        browser = known_browser(request)
        if browser is not None and account in browser.accounts:
            # The owner's own browser: neither the account's lock nor the address's applies.
            keys: tuple[tuple[str, int], ...] = ((f"login-device:{browser.nonce}", PER_ACCOUNT),)
        else:
            keys = (
                (f"login-user:{account}", PER_ACCOUNT),
                (f"login-ip:{ratelimit.client_address(request)}", PER_ADDRESS),
            )
        return cls(account, keys, browser)

    def wait(self) -> int | None:
        """Seconds until this attempt may be tried, or None when it may be tried now."""
        waits = [ratelimit.retry_after(key, limit, WINDOW) for key, limit in self.keys]
        return max((w for w in waits if w is not None), default=None)

    def record(self, request: HttpRequest, response: HttpResponse) -> None:
        """Count a failure; after a success, remember the browser for this account."""
        if response.status_code == 302 and request.user.is_authenticated:
            remember_browser(response, self.browser, self.account)
        elif response.status_code == 200:  # the form came back: wrong user name or password
            for key, _limit in self.keys:
                ratelimit.hit(key, WINDOW)


def remember_browser(response: HttpResponse, browser: KnownBrowser | None, account: str) -> None:
    nonce = browser.nonce if browser else secrets.token_urlsafe(16)
    accounts = [a for a in (browser.accounts if browser else ()) if a != account]
    accounts = [account, *accounts][:_MAX_ACCOUNTS]
    response.set_cookie(
        KNOWN_BROWSER_COOKIE,
        signing.dumps({"n": nonce, "a": accounts}, salt=_SALT, compress=True),
        max_age=KNOWN_BROWSER_SECONDS,
        secure=settings.SESSION_COOKIE_SECURE,
        httponly=True,
        samesite="Lax",
    )


def message(wait: int) -> str:
    return _("Too many failed logins. Please wait %(minutes)s minute(s).") % {
        "minutes": (wait + 59) // 60
    }


def too_many(wait: int) -> HttpResponse:
    """The plain 429 answer (the admin's login; the site's login shows its own page)."""
    response = HttpResponse(message(wait), status=429, content_type="text/plain; charset=utf-8")
    response["Retry-After"] = str(wait)
    return response
