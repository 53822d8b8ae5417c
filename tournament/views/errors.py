"""Error pages that tell a person in the hall what to do."""

from django.conf import settings
from django.core.exceptions import DisallowedHost
from django.shortcuts import render


def bad_request(request, exception):
    """400. A phone that names the laptop by an address the site does not answer to (a
    router's DNS name, an old address) learns the address that works."""
    context = {
        "wrong_host": isinstance(exception, DisallowedHost),
        "site_url": settings.SITE_URL,
    }
    return render(request, "400.html", context, status=400)
