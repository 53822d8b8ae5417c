"""The SQLite database, its write-ahead log and the backups hold password hashes and live
sessions: only the account that runs the site may read them (mode 0600), whatever the umask.

SQLite creates its -wal, -shm and -journal files with the mode of the database file, so a
private database keeps its companions private too; an existing database made readable by an
older version is tightened on the next connection. POSIX only: Windows has no such modes.
"""

import os
import stat
from pathlib import Path

PRIVATE = 0o600
_COMPANIONS = ("", "-wal", "-shm", "-journal")


def make_private(path: str | os.PathLike) -> None:
    """Mode 0600 for ``path`` if it exists."""
    if os.name != "posix":
        return
    try:
        if stat.S_IMODE(os.stat(path).st_mode) != PRIVATE:
            os.chmod(path, PRIVATE)
    except FileNotFoundError:
        pass
    except PermissionError:  # someone else's file: not ours to change
        pass


def create_private(path: str | os.PathLike) -> None:
    """An empty file at ``path``, mode 0600 from the first moment, so that nothing written into
    it is ever readable by others (an existing file is emptied and made private)."""
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, PRIVATE)
    os.close(descriptor)
    make_private(path)


def make_sqlite_private(name: str | os.PathLike) -> None:
    """Mode 0600 for a SQLite database and its -wal, -shm and -journal files."""
    for suffix in _COMPANIONS:
        make_private(Path(f"{name}{suffix}"))


def on_connection_created(sender, connection, **kwargs) -> None:
    """Signal receiver (tournament/apps.py): each new SQLite connection to a database file."""
    if connection.vendor == "sqlite" and not connection.is_in_memory_db():
        make_sqlite_private(connection.settings_dict["NAME"])
