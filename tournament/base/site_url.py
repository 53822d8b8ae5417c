"""The address that leaves the screen: QR codes, printed links, links read out in the hall.

A phone in the hall cannot open ``http://127.0.0.1:8000/``, the address the director's own
browser may be using. ``SITE_URL`` names the address the phones use (hall mode sets it from
the laptop's LAN address); without it the request's own host is used.
"""

from django.conf import settings
from django.http import HttpRequest


def public_url(request: HttpRequest | None, path: str) -> str:
    """``path`` (starting with "/") as an absolute URL the phones can open."""
    base = settings.SITE_URL
    if base:
        return base.rstrip("/") + path
    if request is None:
        raise ValueError("public_url needs a request when SITE_URL is not set")
    return request.build_absolute_uri(path)
