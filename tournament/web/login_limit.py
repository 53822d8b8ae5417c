"""Limits on failed logins, for the site's login and the admin's alike (see views/auth.py and
admin.py): per account and per address, counted in the database so that they hold across all
server processes.

Every attempt takes a slot in its buckets *before* the password is checked (see
:func:`tournament.base.ratelimit.take`), and a successful login gives its slots back: only failures
stay counted, and parallel requests cannot all slip in below the limit while the slow password
hash is computed.

An account under attack must not lock out its owner. A browser that has logged in to an account
before carries a signed "known browser" cookie; its attempts on that account are counted in a
bucket of its own, so the owner's correct password still works while strangers guessing the
same account get 429 (the device-cookie scheme of the OWASP authentication cheat sheet). A
stolen cookie buys no more guesses than the account limit: its bucket has the same limit. The
cookie names each account by its primary key with an HMAC of the account's password hash (like
Django's session auth hash): it opens the bucket of exactly that account, and only until its
password changes.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import AbstractBaseUser
from django.core import signing
from django.http import HttpRequest, HttpResponse
from django.utils.crypto import constant_time_compare, salted_hmac
from django.utils.translation import gettext, ngettext

from ..base import ratelimit

# Failed logins allowed per window, for one user name and for one address (a hall behind
# one router shares an address, but only officials log in).
PER_ACCOUNT, PER_ADDRESS, WINDOW = 8, 30, 300

KNOWN_BROWSER_COOKIE = "kreuzdame_known"
KNOWN_BROWSER_SECONDS = 400 * 24 * 3600  # the most a browser keeps a cookie (RFC 6265bis)
_SALT = "tournament.login_limit.known-browser"
_ACCOUNT_SALT = "tournament.login_limit.known-browser.account"
_MAX_ACCOUNTS = 10  # a shared laptop: director, referees, admin


def account_key(username: str) -> str:
    """The user name as Django looks it up (stripped, NFKC) and case-folded, so that every
    spelling that reaches the same account counts against the same bucket (distinct accounts
    that differ only in case share it: stricter, never looser)."""
    name = get_user_model().normalize_username(username.strip())
    return name.casefold()[:150]


def _account(username: str) -> AbstractBaseUser | None:
    """The account a login with ``username`` would check, looked up as ModelBackend does."""
    model = get_user_model()
    name = model.normalize_username(username.strip())
    if not name or "\x00" in name:  # the form refuses it before any lookup
        return None
    try:
        return model._default_manager.get_by_natural_key(name)
    except model.DoesNotExist:
        return None


def _account_mark(user: AbstractBaseUser) -> str:
    """Ties a cookie entry to the account and its current password (hash)."""
    return salted_hmac(_ACCOUNT_SALT, f"{user.pk}:{user.password}", algorithm="sha256").hexdigest()


@dataclass(frozen=True)
class KnownBrowser:
    nonce: str
    accounts: tuple[tuple[str, str], ...]  # (primary key, mark) of each account

    def knows(self, user: AbstractBaseUser | None) -> bool:
        if user is None or not user.is_active:
            return False
        marks = [mark for pk, mark in self.accounts if pk == str(user.pk)]
        return bool(marks) and constant_time_compare(marks[0], _account_mark(user))


def known_browser(request: HttpRequest) -> KnownBrowser | None:
    value = request.COOKIES.get(KNOWN_BROWSER_COOKIE)
    if not value:
        return None
    try:
        data = signing.loads(value, salt=_SALT, max_age=KNOWN_BROWSER_SECONDS)
        accounts = tuple(
            (str(entry[0]), str(entry[1]))
            for entry in data["a"]
            if isinstance(entry, list) and len(entry) == 2  # older cookies held bare names
        )
        return KnownBrowser(str(data["n"]), accounts)
    except (signing.BadSignature, KeyError, TypeError, ValueError):
        return None


@dataclass
class Attempt:
    """One POST to a login form: which buckets it is counted in."""

    keys: tuple[tuple[str, int], ...]
    browser: KnownBrowser | None
    slots: tuple[ratelimit.Slot, ...] = field(default=())

    @classmethod
    def of(cls, request: HttpRequest) -> Attempt:
        username = request.POST.get("username", "")
        browser = known_browser(request)
        if browser is not None and browser.knows(_account(username)):
            # The owner's own browser: neither the account's lock nor the address's applies.
            keys: tuple[tuple[str, int], ...] = ((f"login-device:{browser.nonce}", PER_ACCOUNT),)
        else:
            keys = (
                (f"login-user:{account_key(username)}", PER_ACCOUNT),
                (f"login-ip:{ratelimit.network(request)}", PER_ADDRESS),
            )
        return cls(keys, browser)

    def take(self) -> int | None:
        """Count this attempt as a failure before the password is checked: None when it may
        be tried, else the seconds to wait (and nothing stays counted)."""
        self.slots, wait = ratelimit.take_all(self.keys, WINDOW)
        return wait

    def record(self, request: HttpRequest, response: HttpResponse) -> None:
        """After a success, give the slots back and remember the browser for this account;
        anything else (the form came back: wrong user name or password) stays counted."""
        if response.status_code == 302 and request.user.is_authenticated:
            ratelimit.give_back(self.slots)
            self.slots = ()
            remember_browser(response, self.browser, request.user)


def remember_browser(
    response: HttpResponse, browser: KnownBrowser | None, user: AbstractBaseUser
) -> None:
    nonce = browser.nonce if browser else secrets.token_urlsafe(16)
    pk = str(user.pk)
    others = [list(entry) for entry in (browser.accounts if browser else ()) if entry[0] != pk]
    accounts = [[pk, _account_mark(user)], *others][:_MAX_ACCOUNTS]
    response.set_cookie(
        KNOWN_BROWSER_COOKIE,
        signing.dumps({"n": nonce, "a": accounts}, salt=_SALT, compress=True),
        max_age=KNOWN_BROWSER_SECONDS,
        secure=settings.SESSION_COOKIE_SECURE,
        httponly=True,
        samesite="Lax",
    )


def message(wait: int) -> str:
    minutes = ratelimit.minutes_of(wait)
    return ngettext(
        "Too many failed logins. Please wait %(minutes)s minute.",
        "Too many failed logins. Please wait %(minutes)s minutes.",
        minutes,
    ) % {"minutes": minutes}


def too_many(request: HttpRequest, wait: int) -> HttpResponse:
    """The admin's answer to a login over the limit (the site's login shows its form with
    :func:`message`)."""
    return ratelimit.too_many(
        request,
        wait,
        heading=gettext("Too many failed logins"),
        # The limit is per account name as well as per connection: do not blame the network.
        reason=gettext("There were too many failed logins for this user name or from here."),
    )
