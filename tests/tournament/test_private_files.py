"""Issue 14: the database and the backups hold password hashes and live sessions, so only the
site's own account may read them (mode 0600) — whatever the umask says."""

import os
import sqlite3
import stat

import pytest
from django.conf import settings
from django.db.utils import ConnectionHandler

from tournament import backup as backup_module
from tournament.private_files import create_private

pytestmark = pytest.mark.skipif(os.name != "posix", reason="file modes are POSIX")


def mode(path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


@pytest.fixture(autouse=True)
def own_databases(django_db_blocker):
    """These tests open SQLite files of their own, not the test database."""
    with django_db_blocker.unblock():
        yield


@pytest.fixture(autouse=True)
def generous_umask():
    """The usual umask, under which new files are readable by every local user."""
    old = os.umask(0o022)
    yield
    os.umask(old)


def open_database(path):
    handler = ConnectionHandler(
        {
            "default": {
                "ENGINE": "django.db.backends.sqlite3",
                "NAME": str(path),
                "OPTIONS": dict(settings.SQLITE_OPTIONS),
            }
        }
    )
    connection = handler["default"]
    with connection.cursor() as cursor:
        cursor.execute("CREATE TABLE IF NOT EXISTS sessions (key TEXT)")
        cursor.execute("INSERT INTO sessions VALUES ('geheim')")
    return connection


def test_a_new_database_and_its_write_ahead_log_are_private(tmp_path):
    database = tmp_path / "db.sqlite3"
    connection = open_database(database)
    try:
        companions = [database, tmp_path / "db.sqlite3-wal", tmp_path / "db.sqlite3-shm"]
        assert all(path.exists() for path in companions)
        assert [mode(path) for path in companions] == [0o600, 0o600, 0o600]
    finally:
        connection.close()


def test_a_database_made_readable_before_is_made_private(tmp_path):
    database = tmp_path / "db.sqlite3"
    sqlite3.connect(database).close()
    os.chmod(database, 0o644)
    open_database(database).close()
    assert mode(database) == 0o600


def sqlite_source(tmp_path, monkeypatch):
    source = tmp_path / "live.sqlite3"
    con = sqlite3.connect(source)
    con.execute("CREATE TABLE auth_user (password TEXT)")
    con.commit()
    con.close()
    monkeypatch.setattr(backup_module, "_is_sqlite", lambda: True)
    monkeypatch.setattr(backup_module, "_sqlite_path", lambda: str(source))


def test_a_sqlite_backup_is_private(tmp_path, monkeypatch):
    sqlite_source(tmp_path, monkeypatch)
    written = backup_module.backup(tmp_path / "backups" / "copy.sqlite3")
    assert mode(written) == 0o600
    assert mode(written.parent) == 0o700
    default = backup_module.backup(label="round-1")
    assert mode(default) == 0o600


def test_a_postgres_dump_is_private(tmp_path, monkeypatch):
    def fake_pg_dump(command, source=None):
        target = next(a.split("=", 1)[1] for a in command if a.startswith("--file="))
        with open(target, "wb") as dump:  # pg_dump opens its --file like this
            dump.write(b"PGDMP")

    monkeypatch.setattr(backup_module, "_is_sqlite", lambda: False)
    monkeypatch.setattr(backup_module, "_pg", fake_pg_dump)
    written = backup_module.backup(tmp_path / "copy.dump")
    assert written.read_bytes() == b"PGDMP" and mode(written) == 0o600


def test_an_existing_file_is_emptied_and_made_private(tmp_path):
    target = tmp_path / "old.partial"
    target.write_text("old")
    os.chmod(target, 0o644)
    create_private(target)
    assert target.read_text() == "" and mode(target) == 0o600
