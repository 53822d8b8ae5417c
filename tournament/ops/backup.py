"""Online backup and restore of the whole database, while the site is in use.

SQLite: the backup API copies a consistent snapshot page by page — including what is still in
the write-ahead log, which a plain copy of the database file misses. PostgreSQL: ``pg_dump``
in its custom format (one consistent transaction), restored with ``pg_restore``.

Before a restore the current state is saved as a backup of its own, so a restore never loses
anything either.
"""

from __future__ import annotations

import logging
import os
import shutil
import sqlite3
import subprocess
from collections.abc import Mapping
from pathlib import Path

from django.conf import settings
from django.db import connections
from django.utils import timezone

from .private_files import create_private, make_private_folder, make_sqlite_private

log = logging.getLogger(__name__)


class BackupError(Exception):
    pass


def _database() -> Mapping[str, object]:
    return settings.DATABASES["default"]


def _is_sqlite() -> bool:
    return _database()["ENGINE"] == "django.db.backends.sqlite3"


def _sqlite_path() -> str:
    return str(connections["default"].settings_dict["NAME"])


def default_path(label: str = "") -> Path:
    """``<BACKUP_DIR>/kreuzdame-<UTC time>[-label].<sqlite3|dump>``."""
    stamp = timezone.now().strftime("%Y%m%d-%H%M%S-%f")
    suffix = "sqlite3" if _is_sqlite() else "dump"
    name = f"kreuzdame-{stamp}{'-' + label if label else ''}.{suffix}"
    return Path(settings.BACKUP_DIR) / name


def backup(path: Path | None = None, *, label: str = "") -> Path:
    """Write a consistent copy of the database to ``path`` (default: a new file in
    ``BACKUP_DIR``) and return the path."""
    path = Path(path) if path else default_path(label)
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    # mkdir leaves an existing folder as it is: an older version left the backup folder and
    # the backups in it readable by every local account.
    make_private_folder(settings.BACKUP_DIR)
    partial = path.with_name(path.name + ".partial")
    # Password hashes and sessions: readable by the site's own account only (mode 0600).
    create_private(partial)
    if _is_sqlite():
        _sqlite_copy(_sqlite_path(), str(partial))
    else:
        _pg(["pg_dump", "--format=custom", "--no-owner", f"--file={partial}"])
    partial.replace(path)  # a backup file is either complete or not there
    return path


def restore(path: Path) -> Path:
    """Bring back the database from ``path``; the current state is first saved as a backup
    (returned) so that nothing is lost."""
    path = Path(path)
    if not path.is_file():
        raise BackupError(f"{path}: no such file")
    if _is_sqlite():
        _check_sqlite_file(path)
    safety = backup(label="before-restore")
    connections.close_all()
    if _is_sqlite():
        _sqlite_copy(str(path), _sqlite_path())
        make_sqlite_private(_sqlite_path())
    else:
        _pg(["pg_restore", "--clean", "--if-exists", "--no-owner", "--single-transaction"], path)
    return safety


def backup_quietly(label: str) -> Path | None:
    """The automatic backup (e.g. when a round is closed): a failure is logged, never raised
    into the request that triggered it."""
    if not settings.BACKUP_ON_ROUND_CLOSE:
        return None
    try:
        return backup(label=label)
    except (BackupError, OSError, sqlite3.Error) as exc:
        log.error("automatic backup %s failed: %s", label, exc)
        return None


def _sqlite_copy(source: str, target: str) -> None:
    src = sqlite3.connect(source, timeout=30)
    dst = sqlite3.connect(target, timeout=30)
    try:
        with dst:
            src.backup(dst, pages=1024)
    finally:
        dst.close()
        src.close()


def _check_sqlite_file(path: Path) -> None:
    try:
        con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            ok = con.execute("PRAGMA integrity_check").fetchone()[0]
            tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master")}
        finally:
            con.close()
    except sqlite3.DatabaseError as exc:
        raise BackupError(f"{path}: not a SQLite database ({exc})") from exc
    if ok != "ok":
        raise BackupError(f"{path}: damaged ({ok})")
    if "tournament_tournament" not in tables:
        raise BackupError(f"{path}: not a Kreuzdame database")


def _pg(command: list[str], source: Path | None = None) -> None:
    db = _database()
    tool = shutil.which(command[0])
    if tool is None:
        raise BackupError(
            f"{command[0]} is not installed (Debian: apt-get install postgresql-client)"
        )
    env = dict(os.environ)
    if db.get("PASSWORD"):
        env["PGPASSWORD"] = str(db["PASSWORD"])
    args = [tool, *command[1:], f"--dbname={db['NAME']}"]
    if db.get("HOST"):
        args.append(f"--host={db['HOST']}")
    if db.get("PORT"):
        args.append(f"--port={db['PORT']}")
    if db.get("USER"):
        args.append(f"--username={db['USER']}")
    if source is not None:
        args.append(str(source))
    done = subprocess.run(args, env=env, capture_output=True, text=True, check=False)  # noqa: S603
    if done.returncode != 0:
        raise BackupError(f"{command[0]} failed: {done.stderr.strip()[:500]}")
