"""Servers the browser and two-server tests start as a director would: `make hall` on a free
port with a database of its own, and phones that talk to it over plain http."""

from __future__ import annotations

import http.client
import os
import re
import signal
import socket
import sqlite3
import subprocess
import threading
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlencode

import pytest
from django.conf import settings

LAN_NAME = "turnierhalle.lan"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@dataclass
class Hall:
    port: int
    workdir: Path
    env: dict
    tokens: list[str]
    uid: str = ""  # the hall tournament's uid, where a test needs it
    process: subprocess.Popen | None = None
    output: Path = field(init=False)
    _news: threading.Condition = field(init=False, default_factory=threading.Condition)
    _reader: threading.Thread = field(init=False)
    _lines: list[str] = field(init=False, default_factory=list)
    _ended: bool = field(init=False, default=False)

    def __post_init__(self) -> None:
        self.output = self.workdir / "hall.out"

    def start(self) -> None:
        """``make hall`` on ``port``; on another free port when something took that one
        meanwhile (free_port() only proposes a port: another program may bind it first, or
        take it while the hall is stopped for a restart)."""
        for _attempt in range(5):
            self._launch()
            # The hall binds its port before it prints the addresses: once its own address
            # is out, it listens (a request waits in the queue until it is served).
            bound = f"http://127.0.0.1:{self.port}/"
            with self._news:
                self._news.wait_for(lambda bound=bound: bound in self.said() or self._ended, 120)
            if bound in self.said():
                return
            if not self._ended:
                pytest.fail("make hall did not start within 120 s:\n" + self.said())
            if f"Port {self.port} " not in self.said():  # not "in use": a real failure
                pytest.fail("make hall ended at its start:\n" + self.said())
            self.port = free_port()
            self.env["PORT"] = str(self.port)
        pytest.fail("no free port for make hall:\n" + self.said())

    def said(self) -> str:
        """What the hall has said since its last start."""
        with self._news:
            return "".join(self._lines)

    def hears(self, text: str, timeout: float = 30) -> str:
        """What the hall has said, once it has said ``text``: its output reaches us line by
        line through a thread, so a line written together with an earlier one may still be
        on its way."""
        with self._news:
            self._news.wait_for(lambda: text in "".join(self._lines) or self._ended, timeout)
        said = self.said()
        if text not in said:
            pytest.fail(f"make hall did not say {text!r}:\n{said}")
        return said

    def _launch(self) -> None:
        """Starts ``make hall``. Its output goes on to hall.out line by line, each line
        kept and announced to ``_news``, and so is its end."""
        # Started as a script's background job starts it, with Ctrl+C (SIGINT) ignored:
        # the hall must still end the day cleanly on it (stop() checks its goodbye).
        self.process = subprocess.Popen(
            ["bash", "-c", "trap '' INT; exec make --no-print-directory hall"],  # noqa: S607
            cwd=settings.BASE_DIR,
            env=self.env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # make and the server it starts stop together
        )
        self._lines, self._ended = [], False

        def copy(pipe, log) -> None:
            with pipe, log:
                for raw in pipe:
                    line = raw.decode(errors="replace")
                    log.write(line)
                    log.flush()
                    with self._news:
                        self._lines.append(line)
                        self._news.notify_all()
            with self._news:
                self._ended = True
                self._news.notify_all()

        self._reader = threading.Thread(
            target=copy, args=(self.process.stdout, self.output.open("a")), daemon=True
        )
        self._reader.start()

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        os.killpg(self.process.pid, signal.SIGINT)  # Ctrl+C in the terminal
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
        self._reader.join(10)  # all it said is in hall.out

    def table_state(self, token: str) -> tuple[str, int]:
        with sqlite3.connect(self.workdir / "hall.sqlite3") as db:
            status, table_id = db.execute(
                "SELECT sheet.status, tab.id FROM tournament_table tab "
                "JOIN tournament_sheet sheet ON sheet.table_id = tab.id WHERE tab.token = ?",
                (token,),
            ).fetchone()
            (games,) = db.execute(
                "SELECT count(*) FROM tournament_game WHERE table_id = ?", (table_id,)
            ).fetchone()
        return status, games

    def seated(self, token: str) -> list[int]:
        """The start numbers at the table, by position."""
        with sqlite3.connect(self.workdir / "hall.sqlite3") as db:
            rows = db.execute(
                "SELECT e.start_number FROM tournament_entry e"
                " JOIN tournament_seat s ON s.entry_id = e.id"
                " JOIN tournament_table t ON s.table_id = t.id"
                " WHERE t.token = ? ORDER BY s.position",
                (token,),
            ).fetchall()
        return [number for (number,) in rows]

    def confirm_code(self, token: str, start_number: int) -> str:
        """The confirmation code of the player with ``start_number`` at the table."""
        with sqlite3.connect(self.workdir / "hall.sqlite3") as db:
            (code,) = db.execute(
                "SELECT e.confirm_code FROM tournament_entry e"
                " JOIN tournament_seat s ON s.entry_id = e.id"
                " JOIN tournament_table t ON s.table_id = t.id"
                " WHERE t.token = ? AND e.start_number = ?",
                (token, start_number),
            ).fetchone()
        return code


@dataclass
class Response:
    status: int
    headers: http.client.HTTPMessage
    text: str


class Phone:
    """A phone in the hall: it connects to ``address`` (loopback here) but names the laptop
    by its LAN host name, keeps its cookies and sends what a browser sends with a form."""

    def __init__(self, hall: Hall, host: str = LAN_NAME, address: str = "127.0.0.1") -> None:
        self.hall, self.host, self.address = hall, f"{host}:{hall.port}", address
        self.cookies: dict[str, str] = {}

    def request(self, method: str, path: str, form: dict | None = None) -> Response:
        connection = http.client.HTTPConnection(self.address, self.hall.port, timeout=30)
        headers = {"Host": self.host, "Accept-Language": "de-DE,de;q=0.9"}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body = None
        if form is not None:
            body = urlencode(form, doseq=True)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            headers["Origin"] = f"http://{self.host}"
        connection.request(method, path, body=body, headers=headers)
        answer = connection.getresponse()
        text = answer.read().decode("utf-8", "replace")
        for cookie in answer.headers.get_all("Set-Cookie") or []:
            name, value = cookie.split(";", 1)[0].split("=", 1)
            self.cookies[name] = value
        connection.close()
        return Response(answer.status, answer.headers, text)

    def get(self, path: str) -> Response:
        return self.request("GET", path)

    def post(self, path: str, form: dict) -> Response:
        return self.request("POST", path, form)


def csrf_token(page: str) -> str:
    return re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
