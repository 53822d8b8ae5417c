"""The SQLite database, its write-ahead log and the backups hold password hashes and live
sessions: only the account that runs the site may read them (mode 0600), whatever the umask.

SQLite creates its -wal, -shm and -journal files with the mode of the database file, so a
private database keeps its companions private too. A database file that does not exist yet is
created empty and private when the site starts (tournament/apps.py, before any connection), so
SQLite never creates it itself under the umask; an existing database made readable by an older
version is tightened at start and on every new connection. The backup folder and the backups
already in it are tightened whenever a backup is written. Files of another account are left
alone. POSIX only: Windows has no such modes.
"""

import os
import stat
from pathlib import Path

PRIVATE = 0o600
PRIVATE_FOLDER = 0o700
_COMPANIONS = ("", "-wal", "-shm", "-journal")


def _tighten(path: str | os.PathLike[str], mode: int, *, follow_symlinks: bool = True) -> None:
    """``mode`` for ``path`` if it exists and belongs to this account (also when it runs as
    root: another account's file is not ours to change)."""
    if os.name != "posix":
        return
    try:
        info = os.stat(path, follow_symlinks=follow_symlinks)
        if stat.S_ISLNK(info.st_mode) or info.st_uid != os.geteuid():
            return
        if stat.S_IMODE(info.st_mode) != mode:
            os.chmod(path, mode)
    except (FileNotFoundError, PermissionError):
        pass


def make_private(path: str | os.PathLike[str]) -> None:
    """Mode 0600 for ``path`` if it exists."""
    _tighten(path, PRIVATE)


def make_private_folder(folder: str | os.PathLike[str]) -> None:
    """Mode 0700 for ``folder`` if it exists, and 0600 for the files directly in it (not for
    symbolic links, whose targets may be anywhere)."""
    if os.name != "posix" or not os.path.isdir(folder):
        return
    _tighten(folder, PRIVATE_FOLDER)
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return
    for entry in entries:
        if entry.is_file(follow_symlinks=False):
            _tighten(entry.path, PRIVATE, follow_symlinks=False)


def create_private(path: str | os.PathLike[str]) -> None:
    """An empty file at ``path``, mode 0600 from the first moment, so that nothing written into
    it is ever readable by others (an existing file is emptied and made private)."""
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, PRIVATE)
    os.close(descriptor)
    make_private(path)


def create_private_if_missing(path: str | os.PathLike[str]) -> None:
    """An empty file at ``path``, mode 0600 from the first moment, unless one exists (then it
    is only made private) or its folder is missing (then whoever needs it reports that)."""
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE)
    except FileExistsError:
        make_private(path)
    except OSError:
        pass
    else:
        os.close(descriptor)


def prepare_sqlite_databases(connections) -> None:
    """Called when the site starts, before any connection (tournament/apps.py): every SQLite
    database file is created private if it is missing (an empty file is an empty SQLite
    database) and made private with its companions if it exists."""
    if os.name != "posix":
        return
    for alias, database in connections.settings.items():
        # The engine by name first: loading another backend (PostgreSQL) could fail here.
        if not database["ENGINE"].endswith("sqlite3"):
            continue
        connection = connections[alias]  # a wrapper only: nothing is connected
        name = str(connection.settings_dict.get("NAME") or "")
        if not name or connection.is_in_memory_db():
            continue
        if name.startswith("file:"):  # a URI: SQLite resolves it, we do not guess
            continue
        create_private_if_missing(name)
        make_sqlite_private(name)


def make_sqlite_private(name: str | os.PathLike[str]) -> None:
    """Mode 0600 for a SQLite database and its -wal, -shm and -journal files."""
    for suffix in _COMPANIONS:
        make_private(Path(f"{name}{suffix}"))


_tightened: set[str] = set()


def on_connection_created(sender, connection, **kwargs) -> None:
    """Signal receiver (tournament/apps.py): the first SQLite connection of this process to a
    database file tightens it and its companions (they keep the mode afterwards: SQLite
    creates them with the database's), not every request's connection again."""
    if connection.vendor != "sqlite" or connection.is_in_memory_db():
        return
    name = str(connection.settings_dict["NAME"])
    if name not in _tightened:
        make_sqlite_private(name)
        _tightened.add(name)
