from datetime import timedelta

import pytest
from django.utils import timezone

from tests.tournament.publishing.fake_service import FakeService, serve
from tournament.publishing import protocol


@pytest.fixture
def service():
    fake = FakeService(protocol.new_key())
    server = serve(fake)
    yield fake
    server.shutdown()
    server.server_close()


@pytest.fixture
def hall(settings, service):
    """The laptop set up to publish to the fake service (by the environment's settings)."""
    settings.RESULTS_SERVICE_URL = service.url
    settings.RESULTS_SERVICE_KEY = str(service.key)
    settings.PUBLISH_MIN_INTERVAL = 0
    settings.PUBLISH_TIMEOUT = 10
    return service


class Clock:
    def __init__(self):
        self.now = timezone.now()

    def __call__(self):
        return self.now

    def advance(self, seconds):
        self.now += timedelta(seconds=seconds)


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def published(tournament):
    tournament.is_public = True
    tournament.publish_results = True
    tournament.save()
    return tournament
