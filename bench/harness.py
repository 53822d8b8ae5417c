"""What the server harnesses share (`make stress`, `make loadtest`): a throw-away database, the
site under gunicorn, and a phone that posts forms over HTTP as the browser does."""

from __future__ import annotations

import http.cookiejar
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PG_HOST = "/var/run/postgresql"


def database_url(kind: str, work: Path, name: str) -> str:
    if kind == "postgres":
        return f"postgres:///{name}?host={PG_HOST}"
    return f"sqlite:///{work}/{name}.sqlite3"


def postgres(statement: str) -> None:
    import psycopg

    with psycopg.connect(dbname="postgres", host=PG_HOST, autocommit=True) as con:
        con.execute(statement)


def setup_django(url: str, kind: str, name: str) -> None:
    """A fresh, migrated database at ``url``; Django set up in this process to fill it."""
    if kind == "postgres":
        postgres(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        postgres(f"CREATE DATABASE {name}")
    os.environ["DATABASE_URL"] = url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def drop(kind: str, name: str) -> None:
    from django.db import connections

    connections.close_all()
    if kind == "postgres":
        postgres(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """The site on loopback: gunicorn with 4 workers, or ``hall=True``: `manage.py hall` as
    the director starts it on the tournament day (waitress, one process, threads)."""

    def __init__(self, url: str, work: Path, sqlite_mode: str, *, hall: bool = False) -> None:
        self.port = free_port()
        self.log = work / "server.log"
        env = {
            **os.environ,
            "DATABASE_URL": url,
            "DJANGO_SETTINGS_MODULE": "tournament.settings",
            "SQLITE_TRANSACTION_MODE": sqlite_mode,
            "DEBUG": "1",
            "LOG_LEVEL": "ERROR",
        }
        if hall:
            env.update(PORT=str(self.port), HALL_ADDRESS="127.0.0.1", SITE_URL="",
                       SECRET_KEY_FILE=str(work / "key"), BACKUP_DIR=str(work / "b"))  # fmt: skip
            command = [sys.executable, "manage.py", "hall", "--noinput"]
        else:
            gunicorn = str(Path(sys.executable).with_name("gunicorn"))
            command = [gunicorn, "tournament.wsgi", "--workers", "4", "--bind",
                       f"127.0.0.1:{self.port}", "--timeout", "60",
                       "--graceful-timeout", "2"]  # fmt: skip
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(
                command, cwd=ROOT, env=env, stdout=log, stderr=log, start_new_session=True,
                stdin=subprocess.DEVNULL,
            )  # fmt: skip
        self.base = f"http://127.0.0.1:{self.port}"
        deadline = time.time() + 60
        while time.time() < deadline:
            try:
                urllib.request.urlopen(self.base + "/", timeout=2).read()
                return
            except OSError:
                time.sleep(0.2)
        raise SystemExit("the server did not start; see " + str(self.log))

    def kill(self) -> None:
        """SIGKILL to the whole process group: master and workers die mid-request."""
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.kill()


# --- a phone --------------------------------------------------------------------------


class Phone:
    """One browser: a cookie jar and the CSRF token, posting forms like the page does."""

    def __init__(self, base: str, token: str) -> None:
        self.url = f"{base}/tisch/{token}/"
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))
        self.opener.open(self.url, timeout=30).read()
        self.csrf = next(c.value for c in self.jar if c.name == "csrftoken")

    def save(self, number: int, points, *, version=None, client_id=None) -> tuple[int, float]:
        data = {"kind": "normal", "mode": "direct", "number": str(number), "reason": ""}
        data.update({f"p{i}": str(v) for i, v in enumerate(points, start=1)})
        if version is not None:
            data["version"] = str(version)
        data["client_id"] = str(client_id or uuid.uuid4())
        request = urllib.request.Request(
            self.url,
            data=urllib.parse.urlencode(data).encode(),
            headers={"X-CSRFToken": self.csrf, "Referer": self.url},
        )
        started = time.perf_counter()
        try:
            with self.opener.open(request, timeout=60) as response:
                response.read()
                status = response.status
        except urllib.error.HTTPError as exc:
            exc.read()
            status = exc.code
        return status, time.perf_counter() - started


def percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]
