"""Two servers on this machine, as on a tournament day with a results service: the hall
(`make hall`, SQLite) and the service (gunicorn, PostgreSQL), loopback only, and between them
a proxy that cuts the hall's uplink the way a phone hotspot does. The service ends with exactly
the hall's public state after every cut; what is forged, replayed or another club's is
refused; a restart of the laptop loses nothing that waited for a connection; Chromium reads
the published standings as a player at home does."""

from __future__ import annotations

import http.client
import json
import os
import random
import re
import socket
import subprocess
import sys
import time
import urllib.request
import uuid
from dataclasses import dataclass
from pathlib import Path

import pytest
from django.conf import settings

from scoring.profiles import get_profile
from tests.e2e.cutting_proxy import CuttingProxy
from tests.e2e.servers import LAN_NAME, Hall, Phone, csrf_token, free_port
from tests.waiting import WAIT
from tournament.management.demo_games import play_sheet
from tournament.publishing import protocol

pytestmark = pytest.mark.browser

PG_SOCKET = "/var/run/postgresql"
# What the test process sets for itself; the servers run as on the day (a worker makes the
# documents, the publisher sends).
TEST_ONLY = {"DJANGO_ALLOW_ASYNC_UNSAFE", "TASKS_IMMEDIATE", "DATABASE_URL"}
HALL_SLUG = "halle"
CLUB = "nord"
SETUP = """
import json
from tests.factories import TournamentFactory, released_table
from tournament.domain.accounts import create_director
from tournament.models import Entry
user = create_director("leitung", "Herbst-Turnier-2026!")
tournament = TournamentFactory(
    name="Hallenturnier", slug="halle", directors=[user], is_public=True, publish_results=True
)
tables = [released_table(tournament, size=4, table_number=n, first_start=4 * n - 3)
          for n in (1, 2, 3)]
# Everyone agreed to be named on the public pages but start number 8.
Entry.objects.filter(tournament=tournament, start_number=8).update(publish=False)
tournament.save()
print(json.dumps({"uid": str(tournament.uid), "tokens": [t.token for t in tables]}))
"""
# The hall's public state as the publisher sends it, and its outbox (run in the hall's env).
HALL_STATE = """
import json
from django.utils import timezone
from tournament.models import PublishChange, Tournament
from tournament.publishing import snapshot
from tournament.publishing.visibility import visibility
t = Tournament.objects.get(slug="halle")
now = timezone.now()
doc = snapshot.build(t, visibility(t, now), now)
waiting = PublishChange.objects.filter(tournament=t, sent_at__isnull=True).count()
print(json.dumps({"digest": snapshot.digest(doc), "waiting": waiting}))
"""
SERVICE_STATE = """
import json
from tournament.models import Tournament
t = Tournament.objects.filter(uid={uid!r}).first()
print(json.dumps(None if t is None else {{
    "digest": t.published_digest, "sequence": t.published_sequence, "slug": t.slug}}))
"""


def manage(env: dict, *args: str, check: bool = True) -> str:
    done = subprocess.run(  # noqa: S603
        [sys.executable, "manage.py", *args],
        cwd=settings.BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
    )
    if check and done.returncode:
        pytest.fail(f"manage.py {' '.join(args)} failed:\n{done.stdout}\n{done.stderr}")
    return done.stdout


def last_json(output: str):
    return json.loads(output.strip().splitlines()[-1])


def postgres_ready() -> bool:
    try:
        import psycopg

        with psycopg.connect(f"host={PG_SOCKET} dbname=postgres", autocommit=True):
            return True
    except Exception:  # any failure: no PostgreSQL to test against
        return False


def postgres(sql: str) -> None:
    import psycopg

    with psycopg.connect(f"host={PG_SOCKET} dbname=postgres", autocommit=True) as db:
        db.execute(sql)


@dataclass
class Service:
    port: int
    env: dict
    keys: dict[str, protocol.Key]
    process: subprocess.Popen
    log: Path

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def state(self, uid: str) -> dict | None:
        return last_json(manage(self.env, "shell", "-c", SERVICE_STATE.format(uid=uid)))

    def get(self, path: str) -> tuple[int, str]:
        try:
            with urllib.request.urlopen(self.base + path, timeout=30) as answer:  # noqa: S310
                return answer.status, answer.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode()


def wait_until(condition, what: str, timeout: float = 60):
    """``condition()`` once it is true (polled: another process does the work)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.25)  # a poll interval, not a wait for an effect: the deadline decides
    pytest.fail(f"{what}: not within {timeout} s")


@pytest.fixture(scope="module")
def service(tmp_path_factory):
    if not postgres_ready():
        if os.environ.get("CI") == "true":
            pytest.fail("CI needs PostgreSQL for the results service (.ci/run starts it)")
        pytest.skip("PostgreSQL is not running (pg_ctlcluster 15 main start)")
    workdir = tmp_path_factory.mktemp("service")
    name = f"kreuzdame_service_{os.getpid()}"
    postgres(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
    postgres(f"CREATE DATABASE {name}")
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in TEST_ONLY}
    env.update(
        DATABASE_URL=f"postgres:///{name}?host={PG_SOCKET}",
        DEBUG="0",
        SECRET_KEY="service-test-" + uuid.uuid4().hex,
        ALLOWED_HOSTS="127.0.0.1,localhost",
        SITE_URL=f"http://127.0.0.1:{port}",
        LOG_LEVEL="WARNING",
        # On the internet a TLS proxy stands in front (docs/service.md); here plain loopback.
        SECURE_SSL_REDIRECT="0",
        SECURE_HSTS_SECONDS="0",
        # Its own static files: collectstatic into the checkout's folder would race with the
        # test processes that serve from it at the same time.
        STATIC_ROOT=str(workdir / "static"),
    )
    manage(env, "migrate", "--noinput")
    manage(env, "collectstatic", "--noinput", "--verbosity", "0")
    keys = {}
    for slug, club_name in ((CLUB, "Skatfreunde Nord"), ("sued", "Doko Süd")):
        manage(env, "club", "add", club_name, "--slug", slug)
        keys[slug] = protocol.parse_key(
            re.search(r"kd1\.\S+", manage(env, "club", "key", slug)).group(0)
        )
    log = workdir / "service.log"
    gunicorn = str(Path(sys.executable).with_name("gunicorn"))
    with log.open("ab") as out:
        process = subprocess.Popen(  # noqa: S603
            [gunicorn, "tournament.wsgi", "--workers", "2", "--bind", f"127.0.0.1:{port}"],
            cwd=settings.BASE_DIR,
            env=env,
            stdout=out,
            stderr=out,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
        )
    server = Service(port, env, keys, process, log)
    wait_until(lambda: _answers(server), f"the service did not start (see {log})")
    yield server
    process.terminate()
    process.wait(20)
    postgres(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def _answers(server: Service) -> bool:
    try:
        return server.get("/")[0] == 200
    except OSError:
        return False


@pytest.fixture(scope="module")
def proxy(service):
    link = CuttingProxy(service.port)
    yield link
    link.close()


@pytest.fixture(scope="module")
def hall(tmp_path_factory, service, proxy):
    workdir = tmp_path_factory.mktemp("hall")
    env = {k: v for k, v in os.environ.items() if k not in TEST_ONLY}
    env.update(
        PORT=str(free_port()),
        DATABASE_URL=f"sqlite:///{workdir / 'hall.sqlite3'}",
        SECRET_KEY_FILE=str(workdir / "secret_key"),
        BACKUP_DIR=str(workdir / "backups"),
        # Its own static files: collectstatic into the checkout's folder would race with the
        # test processes that serve from it at the same time.
        STATIC_ROOT=str(workdir / "static"),
        HALL_ADDRESS=LAN_NAME,
        SITE_URL="",
        SECRET_KEY="",
        RESULTS_SERVICE_URL=f"http://127.0.0.1:{proxy.port}",
        RESULTS_SERVICE_KEY=str(service.keys[CLUB]),
        # Quick turns for a test: a hotspot's minute is a few seconds here.
        PUBLISH_MIN_INTERVAL="0.5",
        PUBLISH_TIMEOUT="3",
        PUBLISH_LONGEST_PAUSE="2",
    )
    manage(env, "migrate", "--noinput")
    made = last_json(manage(env, "shell", "-c", SETUP))
    server = Hall(int(env["PORT"]), workdir, env, made["tokens"])
    server.uid = made["uid"]
    server.start()
    yield server
    server.stop()


def hall_state(hall: Hall) -> dict:
    return last_json(manage(hall.env, "shell", "-c", HALL_STATE))


def converged(hall: Hall, service: Service, timeout: float = 60) -> dict:
    """Waits until the service holds the hall's public state; that state."""

    def same():
        mine, theirs = hall_state(hall), service.state(hall.uid)
        return theirs if theirs and theirs["digest"] == mine["digest"] else None

    return wait_until(same, "the service did not reach the hall's public state", timeout)


def change_on_the_hall(hall: Hall, name: str) -> None:
    """The director renames the tournament: a new public state."""
    manage(
        hall.env,
        "shell",
        "-c",
        "from tournament.models import Tournament\n"
        f"t = Tournament.objects.get(slug={HALL_SLUG!r}); t.name = {name!r}; t.save()",
    )


def play_and_confirm(hall: Hall, token: str, seed: int) -> None:
    """A table plays its Spielliste on a phone and two players confirm it."""
    phone = Phone(hall)
    csrf = csrf_token(phone.get(f"/tisch/{token}/").text)
    for number, game in enumerate(play_sheet(get_profile("ddv"), 4, random.Random(seed)), 1):
        form = {"csrfmiddlewaretoken": csrf, "kind": game.kind, "mode": "direct"}
        form.update(number=number, client_id=str(uuid.uuid4()), soloist=game.soloist or "")
        form.update({f"p{p}": v for p, v in enumerate(game.points, start=1)})
        assert phone.post(f"/tisch/{token}/", form).status == 200
    seated = hall.seated(token)
    for path, start in (("abgeben", seated[0]), ("bestaetigen", seated[1])):
        code = hall.confirm_code(token, start)
        form = {"csrfmiddlewaretoken": csrf, "start_number": start, "code": code}
        assert phone.post(f"/tisch/{token}/{path}/", form).status == 200
    assert hall.table_state(token)[0] == "confirmed"


def standings_rows(html: str) -> list[str]:
    """The rows of the standings table as text, whitespace collapsed."""
    body = html[html.index("<tbody") : html.index("</tbody>")]
    rows = re.findall(r"<tr.*?</tr>", body, re.S)
    return [" ".join(re.sub(r"<[^>]+>", " ", row).split()) for row in rows]


def test_a_confirmed_sheet_reaches_the_service_with_the_standings_of_the_hall(hall, service, proxy):
    proxy.mode = "pass"
    converged(hall, service)
    confirmed_at = time.monotonic()
    play_and_confirm(hall, hall.tokens[0], seed=11)
    state = converged(hall, service)
    seconds = time.monotonic() - confirmed_at
    hall_page = Phone(hall).get(f"/t/{HALL_SLUG}/stand/").text
    status, service_page = service.get(f"/t/{state['slug']}/stand/")
    assert status == 200
    assert standings_rows(service_page) == standings_rows(hall_page)
    assert "Spieler1" in service_page and "Spieler8" not in service_page  # no consent, no name
    assert "Stand" in service_page
    print(f"confirmed sheet -> service: {seconds:.1f} s")  # a figure for the closing note


@pytest.mark.parametrize("cut", ["refuse", "hang", "lose_answer"])
def test_the_service_ends_with_the_halls_state_after_a_cut(hall, service, proxy, cut):
    proxy.mode = "pass"
    before = converged(hall, service)
    proxy.mode = cut
    change_on_the_hall(hall, f"Hallenturnier ({cut})")
    if cut == "lose_answer":
        # The service takes the change, the hall never hears so and sends it again.
        lost = proxy.lost_answers
        wait_until(lambda: proxy.lost_answers > lost, "no answer was cut")
        assert service.state(hall.uid)["sequence"] > before["sequence"]
    else:
        wait_until(lambda: hall_state(hall)["waiting"] >= 1, "the change is not queued")
        assert service.state(hall.uid)["digest"] == before["digest"]  # nothing got through
    proxy.mode = "pass"
    after = converged(hall, service)
    assert after["sequence"] > before["sequence"]
    status, page = service.get(f"/t/{after['slug']}/")
    assert status == 200 and f"Hallenturnier ({cut})" in page
    # The hall learns it too (after a lost answer: by sending again, which changes nothing).
    wait_until(lambda: hall_state(hall)["waiting"] == 0, "the hall still waits")
    assert service.state(hall.uid) == after


def _captured_request(hall, service, proxy) -> bytes:
    """One publishing request as the hall sent it (read back from the wire)."""
    proxy.mode = "pass"
    converged(hall, service)
    proxy.record = []
    change_on_the_hall(hall, "Hallenturnier (mitgeschnitten)")
    converged(hall, service)
    requests = [r for r in proxy.record if r.startswith(b"POST ")]
    assert requests
    return requests[-1]


def _send_raw(service: Service, request: bytes) -> int:
    with socket.create_connection(("127.0.0.1", service.port), timeout=30) as sock:
        sock.sendall(request)
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
            if b"\r\n\r\n" in answer:
                break
    return int(answer.split(b" ", 2)[1])


def _split(request: bytes) -> tuple[dict[str, str], bytes]:
    head, body = request.split(b"\r\n\r\n", 1)
    lines = head.decode("latin-1").split("\r\n")[1:]
    headers = dict(line.split(": ", 1) for line in lines)
    return headers, body


def _post(service: Service, headers: dict[str, str], body: bytes) -> tuple[int, dict]:
    connection = http.client.HTTPConnection("127.0.0.1", service.port, timeout=30)
    connection.request("POST", protocol.PATH, body=body, headers=headers)
    answer = connection.getresponse()
    data = answer.read()
    connection.close()
    return answer.status, json.loads(data or b"{}")


def test_forged_replayed_and_foreign_snapshots_are_refused(hall, service, proxy):
    old = _captured_request(hall, service, proxy)
    change_on_the_hall(hall, "Hallenturnier (weiter)")
    state = converged(hall, service)
    headers, body = _split(old)
    sent = {k: v for k, v in headers.items() if k.lower().startswith(("x-kreuzdame", "content-t"))}

    # The old snapshot once more, byte for byte: an older number than the service holds.
    assert _send_raw(service, old) == 409
    # A changed byte in the body, the signature kept: forged.
    tampered = body[:-10] + bytes([body[-10] ^ 1]) + body[-9:]
    assert _post(service, sent, tampered)[0] == 401
    # The sequence number raised on the way: the signature no longer matches.
    raised = {**sent, protocol.HEADER_SEQUENCE: str(state["sequence"] + 5)}
    assert _post(service, raised, body)[0] == 401
    # Another club's valid key, signing this club's tournament: not theirs.
    other = service.keys["sued"]
    foreign = protocol.signed_headers(other, hall.uid, state["sequence"] + 1, body)
    status, answer = _post(service, foreign, body)
    assert status == 403 and answer["error"] == protocol.FOREIGN
    # A made-up key.
    made_up = protocol.signed_headers(protocol.new_key(), hall.uid, 10**6, body)
    assert _post(service, made_up, body)[0] == 401
    # None of it changed what the service shows.
    assert service.state(hall.uid) == state
    assert "mitgeschnitten" not in service.get(f"/t/{state['slug']}/")[1]


def test_a_restart_of_the_laptop_loses_nothing_that_waited(hall, service, proxy):
    proxy.mode = "pass"
    before = converged(hall, service)
    proxy.mode = "refuse"
    change_on_the_hall(hall, "Hallenturnier (nach dem Neustart)")
    wait_until(lambda: hall_state(hall)["waiting"] >= 1, "the change is not queued")
    hall.stop()
    hall.start()
    assert service.state(hall.uid)["digest"] == before["digest"]
    proxy.mode = "pass"
    after = converged(hall, service)
    assert after["sequence"] > before["sequence"]
    assert "nach dem Neustart" in service.get(f"/t/{after['slug']}/")[1]


def test_chromium_reads_the_published_standings_at_home(hall, service, proxy, browser):
    proxy.mode = "pass"
    state = converged(hall, service)
    for language, stand in (("de-DE", "Stand"), ("en-GB", "As of")):
        context = browser.new_context(locale=language, viewport={"width": 390, "height": 844})
        page = context.new_page()
        page.set_default_timeout(WAIT * 1000)
        page.goto(f"{service.base}/t/{state['slug']}/stand/")
        rows = page.locator("table tbody tr")
        assert rows.count() == 12
        text = page.inner_text("body")
        assert stand in text and "Spieler1" in text
        context.close()
