import hashlib
import json
from datetime import timedelta

import pytest
from django.utils import timezone

from tests.tournament.publishing.fake_service import FakeService, serve
from tournament import archive
from tournament.models import Tournament
from tournament.publishing import protocol


# --- STAND-IN for part A's tournament.archive (build, pack, digest) --------------------------
# Used only while tournament.archive has no ``build`` (the parts are built side by side); once
# the archive is merged these tests run against the real one. It makes a small document of
# what the public pages would show (name, entries, rounds with their results visible or not).
def _stand_in_build(tournament, *, profile="full", results_visible=None, now=None):
    t = Tournament.objects.get(pk=tournament.pk)
    rounds = list(t.rounds.order_by("number"))
    return {
        "format": "stand-in",
        "profile": profile,
        "created_at": (now or timezone.now()).isoformat(),
        "tournament": {"uid": str(t.uid), "slug": t.slug, "name": t.name},
        "entries": sorted(t.entries.values_list("start_number", flat=True)),
        "rounds": [
            {
                "number": r.number,
                "status": r.status,
                "results": results_visible is None or bool(results_visible(r)),
            }
            for r in rounds
        ],
    }


def _stand_in_pack(doc):
    return json.dumps(doc, sort_keys=True).encode()


def _stand_in_digest(doc):
    rest = {k: v for k, v in doc.items() if k != "created_at"}
    return hashlib.sha256(json.dumps(rest, sort_keys=True).encode()).hexdigest()


REAL_ARCHIVE = hasattr(archive, "build")


@pytest.fixture
def snapshots(monkeypatch):
    if not REAL_ARCHIVE:
        monkeypatch.setattr(archive, "build", _stand_in_build, raising=False)
        monkeypatch.setattr(archive, "pack", _stand_in_pack, raising=False)
        monkeypatch.setattr(archive, "digest", _stand_in_digest, raising=False)


# ---------------------------------------------------------------------------------------------


@pytest.fixture
def service():
    fake = FakeService(protocol.new_key())
    server = serve(fake)
    yield fake
    server.shutdown()
    server.server_close()


@pytest.fixture
def hall(settings, service, snapshots):
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
