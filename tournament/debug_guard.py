"""With DEBUG on, Django's error pages show every setting and the process environment: the site
then answers this computer only, however it was started (`manage.py runserver 0.0.0.0:8000`,
gunicorn with DEBUG left at its default). `make run` checks its address before it starts
(tournament/devserver.py); this middleware is the check that cannot be bypassed.

It stands first in MIDDLEWARE (tournament/settings.py adds it when DEBUG is on) and answers a
plain 404 before anything else runs, so a visitor from the network never reaches a page that
could fail: the Host header, which the visitor chooses, is not consulted. It reads DEBUG at
every request, so the test runner (DEBUG off) and its live servers are not affected.
"""

import ipaddress

from django.conf import settings
from django.http import HttpResponseNotFound
from django.utils.translation import gettext as _


def is_loopback_address(address: str) -> bool:
    """True for 127.0.0.0/8 and ::1, also written as an IPv4-mapped IPv6 address."""
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0].strip("[]"))
    except ValueError:
        return False
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return ip.is_loopback


class LocalDebugMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if settings.DEBUG and not is_loopback_address(request.META.get("REMOTE_ADDR") or ""):
            return HttpResponseNotFound(
                _("Not found. With DEBUG on, this site answers this computer only."),
                content_type="text/plain; charset=utf-8",
            )
        return self.get_response(request)
