"""python manage.py hall: the tournament day. The laptop serves the site to the phones on the
hall's network (``make hall`` is a thin wrapper around this command).

Start it through manage.py: manage.py recognises the command and switches the settings to
hall mode (tournament/settings.py) before Django reads them. The server is waitress, pure
Python, so the same command runs on Windows, macOS and Linux. Beside it runs the worker that
makes the documents (``manage.py worker``) and the publisher to the results service
(``manage.py publisher``), each started again if it dies and stopped with the hall.
"""

from __future__ import annotations

import contextlib
import errno
import getpass
import io
import os
import select
import signal
import sys
from pathlib import Path

import segno
from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _

from tournament.domain.accounts import create_director, director_exists
from tournament.errors import DomainError
from tournament.ops.hall import (
    Supervisor,
    is_internet_address,
    publisher_command,
    worker_command,
)

# 150 tables saving games and 60 phones polling keep a handful of threads busy; the rest
# absorbs the rush when a round is released and everybody looks up their seat. Anonymous
# requests hold at most PUBLIC_CONCURRENCY + PUBLIC_QUEUE of them (tournament/web/gate.py), so
# keepers always find a free thread. Slow phones on weak Wi-Fi cost no thread: waitress
# buffers their answers. A waiting thread costs memory only.
THREADS = 48
SWITCH_INTERVAL = 0.001  # seconds (sys.setswitchinterval)
CONNECTION_LIMIT = 400  # below Windows' select() limit of 512 sockets
IDLE_SECONDS = 60


class Command(BaseCommand):
    help = (
        "Serve the tournament day: the site for the phones on the hall's network, production "
        "server, plain http on the LAN, migrations applied, no demo data."
    )

    def add_arguments(self, parser):
        parser.add_argument("--threads", type=int, default=THREADS, help="worker threads")
        parser.add_argument(
            "--noinput",
            "--no-input",
            action="store_false",
            dest="interactive",
            help="never ask for anything (e.g. no director account on first start)",
        )

    def handle(self, *args, threads: int, interactive: bool, **options):
        if not getattr(settings, "HALL_MODE", False):
            raise CommandError("Start hall mode as: python manage.py hall")
        if not 1 <= threads <= 200:
            raise CommandError("--threads must be between 1 and 200.")
        # The terminal speaks the site's language (German), like the rest of the day.
        with translation.override(settings.LANGUAGE_CODE):
            self.stdout.write(_("Preparing the database and the files of the site …"))
            call_command("migrate", interactive=False, verbosity=0)
            call_command("collectstatic", interactive=False, verbosity=0)
            # The port first: if another Kreuzdame holds it, no banner may send the phones
            # there.
            server = self._bind(threads)
            missing = self._director(interactive and sys.stdin is not None and sys.stdin.isatty())
            self._banner()
            if missing:
                self.stdout.write(self.style.WARNING("  " + missing + "\n"))
            self.stdout.flush()
            # Ctrl+C ends the day, also when the hall was started by something that ignores
            # it (a background job of a script): then Python installs no handler itself.
            signal.signal(signal.SIGINT, signal.default_int_handler)
            # The threads share one interpreter: a thread rendering a big page hands it on
            # every SWITCH_INTERVAL, so a keeper's save that waits for its database answer
            # gets on again within a millisecond rather than Python's default five.
            sys.setswitchinterval(SWITCH_INTERVAL)
            # A polite stop (SIGTERM) ends the day the same way, the worker with it.
            signal.signal(signal.SIGTERM, signal.default_int_handler)
            # The documents' worker beside the server, started again if it dies.
            manage = str(Path(settings.BASE_DIR) / "manage.py")
            worker = Supervisor(worker_command(manage))
            worker.start()
            # The publisher to the results service beside it (idle until one is set up).
            publisher = Supervisor(publisher_command(manage))
            publisher.start()
            try:
                with contextlib.suppress(KeyboardInterrupt):
                    server.run()
            finally:
                publisher.stop()
                worker.stop()
                server.close()
            self.stdout.write(
                _("Stopped. The tournament is in the database; start again any time.")
            )

    def _director(self, can_ask: bool) -> str:
        """No director yet: ask for one in a terminal. Returns what is still missing (how to
        create one), or nothing."""
        if director_exists():
            return ""
        hint = _(
            "No director account exists yet. Create one in another window, in this folder, "
            "with: %(command)s"
        ) % {"command": manage_command("createdirector")}
        if os.environ.get("DATABASE_URL"):
            hint += " " + _("(with the same DATABASE_URL as here)")
        if not can_ask:
            self.stdout.write(self.style.WARNING(hint))
            return hint
        self.stdout.write(_("No director account exists yet: create one now."))
        for _attempt in range(3):
            try:
                username = input(_("User name [leitung]: ")).strip() or "leitung"
                password = getpass.getpass(_("Password: "))
                again = getpass.getpass(_("Password (again): "))
            except (EOFError, KeyboardInterrupt):
                self.stdout.write("")
                break
            if password != again:
                self.stdout.write(self.style.ERROR(_("The two passwords differ.")))
                continue
            try:
                create_director(username, password)
            except DomainError as exc:
                self.stdout.write(self.style.ERROR(str(exc.message)))
                continue
            self.stdout.write(self.style.SUCCESS(_("Director account %s created.") % username))
            return ""
        self.stdout.write(self.style.WARNING(hint))
        return hint

    def _banner(self) -> None:
        url = settings.SITE_URL
        port = settings.HALL_PORT
        lines = [
            "",
            "  " + _("Kreuzdame — tournament day (hall mode)"),
            "",
            "  " + _("Address for the phones:") + f"  {url}",
        ]
        self.stdout.write("\n".join(lines))
        self._qr(url)
        others = [a for a in settings.HALL_ADDRESSES if a != settings.HALL_ADDRESS]
        lines = [
            "  " + _("Directors log in at:") + f"  {url.rstrip('/')}{reverse('login')}",
            "  " + _("On this laptop also:") + f"  http://127.0.0.1:{port}/",
        ]
        if others:
            lines.append(
                "  "
                + _("Other addresses of this laptop (choose one with HALL_ADDRESS=…):")
                + "  "
                + ", ".join(others)
            )
        if is_internet_address(settings.HALL_ADDRESS):
            lines.append(
                "  "
                + self.style.WARNING(
                    _(
                        "This is an internet address: hall mode serves plain http for a "
                        "private network. On the internet, run the site behind HTTPS (README)."
                    )
                )
            )
        if settings.HALL_ADDRESS == "127.0.0.1":
            lines.append(
                "  "
                + self.style.WARNING(
                    _(
                        "No network found: phones cannot reach this laptop. Connect it to the "
                        "hall's Wi-Fi and start again."
                    )
                )
            )
        lines += [
            "  " + _("Database:") + f"  {database_label()}",
            "  " + _("Backups (after each closed round):") + f"  {settings.BACKUP_DIR}",
            "",
            "  " + _("Stop with Ctrl+C."),
            "",
        ]
        self.stdout.write("\n".join(lines))

    def _qr(self, url: str) -> None:
        """The phones' address as a QR code in the terminal: a phone's camera opens it."""
        code = segno.make(url, error="m", micro=False)
        drawn = io.StringIO()
        code.terminal(out=drawn, compact=True, border=2)
        text = drawn.getvalue()
        encoding = getattr(sys.stdout, "encoding", None) or "utf-8"
        try:
            text.encode(encoding)
        except UnicodeEncodeError:  # a console without block characters: ANSI colours
            drawn = io.StringIO()
            code.terminal(out=drawn, border=2)
            text = drawn.getvalue()
        self.stdout.write(text, ending="")

    def _bind(self, threads: int):
        """The server, listening already (so that a port in use is said before anything
        else); ``run()`` serves until Ctrl+C."""
        from waitress.server import create_server

        from tournament.wsgi import application

        try:
            return create_server(
                application,
                listen=f"0.0.0.0:{settings.HALL_PORT}",
                threads=threads,
                connection_limit=CONNECTION_LIMIT,
                channel_timeout=IDLE_SECONDS,
                ident="Kreuzdame",
                asyncore_use_poll=hasattr(select, "poll"),  # no select() limit where poll exists
            )
        except OSError as exc:
            if exc.errno in (errno.EADDRINUSE, 10048):  # 10048: Windows' WSAEADDRINUSE
                raise CommandError(
                    _(
                        "Port %(port)s is in use — is Kreuzdame already running? Start with "
                        "another port: PORT=8080 make hall (Windows: set PORT=8080, then "
                        "start again)."
                    )
                    % {"port": settings.HALL_PORT}
                ) from exc
            raise


def manage_command(*args: str) -> str:
    """A manage.py command as the director types it here: with this Python (the one in
    .venv), so that it also works where `python` is another one (Windows)."""
    python = Path(sys.executable)
    with contextlib.suppress(ValueError):
        python = python.relative_to(Path(settings.BASE_DIR))
    return " ".join([str(python), "manage.py", *args])


def database_label() -> str:
    """The database as a director needs to find it: the file, or the server (no password)."""
    db = settings.DATABASES["default"]
    if db["ENGINE"].endswith("sqlite3"):
        return str(db["NAME"])
    host = db.get("HOST") or "localhost"
    return f"PostgreSQL {db.get('NAME')} @ {host}"
