"""Where the hall publishes to: the results service's address and the club's publishing key,
from the environment (RESULTS_SERVICE_URL and RESULTS_SERVICE_KEY, which win) or as a
director entered them on the page "Results service" (a ``PublishingTarget`` row)."""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlsplit

from django.conf import settings

from tournament.models import PublishingTarget

from . import protocol


@dataclass(frozen=True)
class Target:
    url: str  # the service's address, without the API path
    key: protocol.Key
    from_environment: bool

    @property
    def endpoint(self) -> str:
        return self.url.rstrip("/") + protocol.PATH


def valid_url(url: str) -> bool:
    """An http(s) address with a host: what the publisher can send to."""
    parts = urlsplit(url.strip())
    return parts.scheme in ("http", "https") and bool(parts.hostname)


def from_environment() -> bool:
    """Whether the environment names the service (then the page's entry does not count)."""
    return bool(settings.RESULTS_SERVICE_URL or settings.RESULTS_SERVICE_KEY)


def stored() -> PublishingTarget | None:
    return PublishingTarget.objects.order_by("pk").first()


def target() -> Target | None:
    """The service to publish to, or None while none is set up (or it is set up wrong: the
    page "Results service" says what is missing)."""
    if from_environment():
        url, text, env = settings.RESULTS_SERVICE_URL, settings.RESULTS_SERVICE_KEY, True
    else:
        row = stored()
        if row is None:
            return None
        url, text, env = row.url, row.key, False
    key = protocol.parse_key(text)
    if key is None or not valid_url(url):
        return None
    return Target(url.strip(), key, env)
