"""The gate: a flood of anonymous requests holds a bounded number of the server's threads,
and keepers and logged-in users pass it at once."""

import threading

import pytest
from django.contrib.auth.models import AnonymousUser
from django.http import HttpResponse
from django.test import RequestFactory

from tests.factories import director
from tournament.web.gate import Gate

pytestmark = pytest.mark.django_db


class SlowSite:
    """A site whose anonymous pages take until ``release`` is set."""

    def __init__(self) -> None:
        self.release = threading.Event()
        self.running = 0
        self.most = 0
        self.lock = threading.Lock()

    def __call__(self, request):
        if request.path.startswith("/t/"):
            with self.lock:
                self.running += 1
                self.most = max(self.most, self.running)
            self.release.wait(10)
            with self.lock:
                self.running -= 1
        return HttpResponse("ok")


def request(path, user=None, **headers):
    made = RequestFactory().get(path, headers=headers)
    made.user = user or AnonymousUser()
    return made


@pytest.fixture
def gate(settings):
    settings.PUBLIC_CONCURRENCY, settings.PUBLIC_QUEUE, settings.PUBLIC_HOLD = 2, 3, 5
    site = SlowSite()
    return Gate(site), site


def flood(gate, count):
    answers = []
    threads = [
        threading.Thread(target=lambda: answers.append(gate(request("/t/cup/stand/"))))
        for _ in range(count)
    ]
    for thread in threads:
        thread.start()
    return threads, answers


def wait_until(condition):
    for _ in range(500):
        if condition():
            return
        threading.Event().wait(0.01)
    raise AssertionError("the gate never got there")


def test_a_flood_runs_two_at_once_queues_three_and_turns_the_rest_away(gate):
    gate, site = gate
    threads, answers = flood(gate, 2)
    wait_until(lambda: site.running == 2)
    waiting, queued = flood(gate, 3)
    wait_until(lambda: gate.waiting == 3)
    refused = gate(request("/t/cup/stand/"))
    assert refused.status_code == 429 and refused["Retry-After"] == "5"
    assert "busy" in refused.content.decode().lower() or "ausgelastet" in refused.content.decode()
    assert gate(request("/t/cup/stand/", HX_Request="true")).status_code == 204
    site.release.set()
    for thread in threads + waiting:
        thread.join(10)
    assert [a.status_code for a in answers + queued] == [200] * 5
    assert site.most == 2


def test_keepers_and_directors_pass_a_full_gate(gate):
    gate, site = gate
    threads, _ = flood(gate, 5)
    wait_until(lambda: site.running == 2 and gate.waiting == 3)
    assert gate(request("/tisch/abc123/")).status_code == 200
    assert gate(request("/t/cup/stand/", user=director())).status_code == 200
    assert gate(request("/login/")).status_code == 200
    site.release.set()
    for thread in threads:
        thread.join(10)


def test_a_request_that_waited_too_long_is_turned_away(gate, settings):
    gate, site = gate
    settings.PUBLIC_HOLD = 0.05
    threads, _ = flood(gate, 2)
    wait_until(lambda: site.running == 2)
    assert gate(request("/t/cup/")).status_code == 429
    site.release.set()
    for thread in threads:
        thread.join(10)
