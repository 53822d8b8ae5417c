"""`make hall` as the director starts it on the tournament day: a free port, a database of its
own, no terminal. A phone on the hall's network reaches it by a LAN host name and plays a
whole Spielliste through it over plain http (CSRF cookie, submit, confirm); a foreign host
is refused; logins survive a restart of the server; Chromium opens the table link by the
LAN name as a phone in the hall does."""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
import uuid

import pytest
from django.conf import settings

from scoring.profiles import get_profile
from tests.e2e.servers import LAN_NAME, Hall, Phone, csrf_token, free_port
from tournament.management.demo_games import play_sheet

pytestmark = pytest.mark.browser

PASSWORD = "Herbst-Turnier-2026!"
SETUP = """
import json
from tests.factories import TournamentFactory, released_table
from tournament.domain.accounts import create_director
user = create_director("leitung", {password!r})
tournament = TournamentFactory(name="Hallenturnier", slug="halle", directors=[user])
tables = [released_table(tournament, size=4, table_number=n, first_start=4 * n - 3)
          for n in (1, 2)]
print(json.dumps([t.token for t in tables]))
"""


@pytest.fixture(scope="module")
def hall(tmp_path_factory):
    workdir = tmp_path_factory.mktemp("hall")
    env = {k: v for k, v in os.environ.items() if k not in {"DJANGO_ALLOW_ASYNC_UNSAFE"}}
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
    )
    manage = [sys.executable, "manage.py"]
    subprocess.run(  # noqa: S603
        [*manage, "migrate", "--noinput"],
        cwd=settings.BASE_DIR,
        env=env,
        check=True,
        capture_output=True,
    )
    made = subprocess.run(  # noqa: S603
        [*manage, "shell", "-c", SETUP.format(password=PASSWORD)],
        cwd=settings.BASE_DIR,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    tokens = json.loads(made.stdout.strip().splitlines()[-1])
    server = Hall(int(env["PORT"]), workdir, env, tokens)
    server.start()
    yield server
    server.stop()


def test_the_terminal_says_where_the_phones_and_the_director_go(hall):
    out = hall.hears(str(hall.workdir / "backups"))  # the banner's last address
    url = f"http://{LAN_NAME}:{hall.port}/"
    assert url in out and f"{url}login/" in out
    assert str(hall.workdir / "hall.sqlite3") in out and str(hall.workdir / "backups") in out
    assert "python manage.py createdirector" not in out  # a director exists already
    assert "█" in out  # the QR code of the address


def test_a_phone_plays_a_whole_sheet_over_plain_http_by_the_lan_name(hall):
    token = hall.tokens[0]
    phone = Phone(hall)
    page = phone.get(f"/tisch/{token}/")
    assert page.status == 200 and "Tisch 1" in page.text
    cookie = next(c for c in page.headers.get_all("Set-Cookie") if c.startswith("csrftoken"))
    assert "secure" not in cookie.lower()  # a cookie only https could carry is no use here
    # Without its token the form is refused; with it every game is stored.
    assert phone.post(f"/tisch/{token}/", {"kind": "normal"}).status == 403
    csrf = csrf_token(page.text)
    games = play_sheet(get_profile("ddv"), 4, random.Random(13))
    for number, game in enumerate(games, start=1):
        form = {"csrfmiddlewaretoken": csrf, "kind": game.kind, "mode": "direct"}
        form.update(number=number, client_id=str(uuid.uuid4()), soloist=game.soloist or "")
        form.update({f"p{p}": v for p, v in enumerate(game.points, start=1)})
        saved = phone.post(f"/tisch/{token}/", form)
        assert saved.status == 200, saved.text[-2000:]
        assert f"Spiel {number} gespeichert." in saved.text
    assert hall.table_state(token) == ("open", 24)
    submitted = phone.post(
        f"/tisch/{token}/abgeben/",
        {"csrfmiddlewaretoken": csrf, "start_number": 1, "code": hall.confirm_code(token, 1)},
    )
    assert submitted.status == 200 and hall.table_state(token) == ("submitted", 24)
    other = Phone(hall)  # another player of the table, on their own phone
    csrf = csrf_token(other.get(f"/tisch/{token}/").text)
    # The start number alone confirms nothing: it takes the code of that player's card.
    refused = other.post(
        f"/tisch/{token}/bestaetigen/", {"csrfmiddlewaretoken": csrf, "start_number": 2}
    )
    assert refused.status == 422 and hall.table_state(token) == ("submitted", 24)
    code = hall.confirm_code(token, 2)
    confirmed = other.post(
        f"/tisch/{token}/bestaetigen/",
        {"csrfmiddlewaretoken": csrf, "start_number": 2, "code": code},
    )
    assert confirmed.status == 200 and hall.table_state(token) == ("confirmed", 24)


def test_a_foreign_host_is_refused_with_the_friendly_page(hall):
    answer = Phone(hall, host="evil.example").get("/")
    assert answer.status == 400 and "Anfrage abgelehnt" in answer.text
    assert f"http://{LAN_NAME}:{hall.port}/" in answer.text  # the address that works
    log = hall.hears("evil.example")
    assert "DisallowedHost" not in log  # one line, no traceback


def test_the_server_listens_on_every_interface(hall):
    # 127.0.0.2 is not 127.0.0.1: only a server bound to all interfaces answers there.
    assert Phone(hall, address="127.0.0.2").get("/").status == 200


def test_static_files_come_from_the_laptop_cached_for_weak_wifi(hall):
    page = Phone(hall).get("/").text
    paths = re.findall(r'(?:href|src)="(/static/[^"]+)"', page)
    assert paths and all(re.search(r"\.[0-9a-f]{12}\.", p) for p in paths)  # hashed names
    for path in paths:
        answer = Phone(hall).get(path)
        assert answer.status == 200, path
        assert "max-age=315360000" in answer.headers["Cache-Control"]


def test_an_unknown_page_is_the_friendly_404(hall):
    answer = Phone(hall).get("/gibt-es-nicht/")
    assert answer.status == 404 and "Nicht gefunden" in answer.text
    assert "Traceback" not in answer.text and "urlpatterns" not in answer.text


def test_a_login_survives_a_restart_of_the_laptop(hall):
    director = Phone(hall)
    csrf = csrf_token(director.get("/login/").text)
    login = {"csrfmiddlewaretoken": csrf, "username": "leitung", "password": PASSWORD}
    assert director.post("/login/", login).status == 302
    assert director.get("/manage/").status == 200
    hall.stop()
    assert "Beendet" in hall.output.read_text()
    hall.start()
    assert director.get("/manage/").status == 200  # still logged in: same key, same session


def test_chromium_opens_the_table_link_by_the_lan_name(hall, browser_launcher):
    browser = browser_launcher(f"--host-resolver-rules=MAP {LAN_NAME} 127.0.0.1")
    context = browser.new_context(
        locale="de-DE", viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
    )
    page = context.new_page()
    page.set_default_timeout(15_000)
    token = hall.tokens[1]
    page.goto(f"http://{LAN_NAME}:{hall.port}/tisch/{token}/")
    form = page.locator("#game-form")
    for position in (1, 3):
        form.get_by_role("checkbox", name=re.compile(rf"^{position} · ")).check()
    form.get_by_label("Spielwert", exact=True).fill("2")
    page.locator("#save-game").tap()
    page.locator("#notice").filter(has_text="Spiel 1 gespeichert.").wait_for()
    assert hall.table_state(token) == ("open", 1)
    # The keeper's outbox ran (ES modules under hashed names): it sent the game from its queue.
    assert page.evaluate(f"localStorage.getItem('kreuzdame-outbox-{token}')") == "[]"
    context.close()
