"""With DEBUG on, Django's error pages show every setting and the process environment: the site
then answers this computer only, however it was started (`manage.py runserver 0.0.0.0:8000`,
gunicorn with DEBUG left at its default). `make run` checks its address before it starts
(tournament/ops/devserver.py); this middleware is the check that cannot be bypassed.

It stands first in MIDDLEWARE (tournament/settings.py adds it when DEBUG is on) and answers a
plain 404 before anything else runs, so a visitor from the network never reaches a page that
could fail. It reads DEBUG at every request, so the test runner (DEBUG off) and its live
servers are not affected.

DNS rebinding: a web page the director visits can point its own host name at 127.0.0.1, and
the director's browser then sends requests from this computer with that foreign name in the
Host header. Django answers a Host outside ALLOWED_HOSTS with its debug page (DisallowedHost),
settings included. So the guard also answers a plain 400 for every Host that is not one of
the allowed ones, before Django reads it. A "*" in ALLOWED_HOSTS counts for nothing here: with
DEBUG on, only this computer's own names are served then ("localhost", 127.0.0.1, [::1]).
"""

import ipaddress

from django.conf import settings
from django.http import HttpResponseBadRequest, HttpResponseNotFound
from django.http.request import split_domain_port, validate_host
from django.utils.translation import gettext as _

# Django's own default with DEBUG on and ALLOWED_HOSTS empty.
LOCAL_HOSTS = [".localhost", "127.0.0.1", "[::1]"]


def is_loopback_address(address: str) -> bool:
    """True for 127.0.0.0/8 and ::1, also written as an IPv4-mapped IPv6 address."""
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0].strip("[]"))
    except ValueError:
        return False
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return ip.is_loopback


def _hall_hint() -> str:
    """What a director who meant the hall's network runs instead (README: make run is for
    this computer only)."""
    return " " + _("For the phones in the hall, start the site with make hall.")


class LocalDebugMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if settings.DEBUG and not is_loopback_address(request.META.get("REMOTE_ADDR") or ""):
            return HttpResponseNotFound(
                _("Not found. With DEBUG on, this site answers this computer only.") + _hall_hint(),
                content_type="text/plain; charset=utf-8",
            )
        if settings.DEBUG and not is_allowed_host(_raw_host(request)):
            return HttpResponseBadRequest(
                _("Bad request. With DEBUG on, this site answers its own host names only.")
                + _hall_hint(),
                content_type="text/plain; charset=utf-8",
            )
        return self.get_response(request)


def _raw_host(request) -> str:
    """The host as Django reads it (HttpRequest.get_host): the forwarded host where that is
    switched on, else the Host header, else the server's own name."""
    meta = request.META
    if settings.USE_X_FORWARDED_HOST and "HTTP_X_FORWARDED_HOST" in meta:
        return meta["HTTP_X_FORWARDED_HOST"]
    if "HTTP_HOST" in meta:
        return meta["HTTP_HOST"]
    return f"{meta.get('SERVER_NAME', '')}:{meta.get('SERVER_PORT', '')}"


def is_allowed_host(header: str) -> bool:
    """True if ``header`` names one of ALLOWED_HOSTS (a "*" not counted) or, without one,
    this computer's own names."""
    domain, _port = split_domain_port(header)
    allowed = [host for host in settings.ALLOWED_HOSTS if host != "*"] or LOCAL_HOSTS
    return bool(domain) and validate_host(domain, allowed)
