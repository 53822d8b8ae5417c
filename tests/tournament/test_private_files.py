"""Issue 14: the database and the backups hold password hashes and live sessions, so only the
site's own account may read them (mode 0600) — whatever the umask says."""

import os
import sqlite3
import stat

import pytest
from django.conf import settings
from django.db.utils import ConnectionHandler

from tests.processes import run_python
from tournament.ops import backup as backup_module
from tournament.ops import private_files
from tournament.ops.private_files import create_private

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


# --- what an older version (or SQLite under the umask) left readable ---------------------------


def test_backups_written_before_and_their_folder_are_made_private(tmp_path, monkeypatch):
    sqlite_source(tmp_path, monkeypatch)
    folder = settings.BACKUP_DIR
    folder.mkdir(mode=0o755)
    os.chmod(folder, 0o755)  # noqa: S103 - what an older version left
    old = folder / "kreuzdame-20250101-round-1.sqlite3"
    old.write_bytes(b"SQLite format 3\x00")
    os.chmod(old, 0o644)
    elsewhere = tmp_path / "elsewhere.txt"  # a link's target is not the backup folder's
    elsewhere.write_text("x")
    os.chmod(elsewhere, 0o644)
    (folder / "link").symlink_to(elsewhere)
    written = backup_module.backup(label="round-2")
    assert (mode(folder), mode(old), mode(written), mode(elsewhere)) == (0o700, 0o600, 0o600, 0o644)


def test_files_of_another_account_are_left_alone_quietly(tmp_path, monkeypatch):
    folder = tmp_path / "backups"
    folder.mkdir(mode=0o755)
    os.chmod(folder, 0o755)  # noqa: S103 - what an older version left
    (folder / "theirs.sqlite3").write_text("x")
    os.chmod(folder / "theirs.sqlite3", 0o644)
    monkeypatch.setattr(os, "geteuid", lambda: os.stat(folder).st_uid + 1)  # root changes all
    private_files.make_private_folder(folder)
    private_files.make_private(folder / "theirs.sqlite3")
    assert (mode(folder), mode(folder / "theirs.sqlite3")) == (0o755, 0o644)


def handler_for(path):
    return ConnectionHandler(
        {"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": str(path)}}
    )


def test_a_missing_database_is_created_private_before_the_first_connection(tmp_path):
    database = tmp_path / "db.sqlite3"
    private_files.prepare_sqlite_databases(handler_for(database))
    assert database.read_bytes() == b"" and mode(database) == 0o600
    connection = open_database(database)  # SQLite takes the empty file as an empty database
    connection.close()
    readable = tmp_path / "old.sqlite3"
    with sqlite3.connect(readable) as con:
        con.execute("CREATE TABLE sessions (key TEXT)")
    con.close()
    os.chmod(readable, 0o644)
    private_files.prepare_sqlite_databases(handler_for(readable))
    assert mode(readable) == 0o600 and readable.stat().st_size > 0  # tightened, not emptied
    private_files.prepare_sqlite_databases(handler_for(tmp_path / "no-folder" / "db.sqlite3"))
    private_files.prepare_sqlite_databases(handler_for(":memory:"))
    assert not (tmp_path / "no-folder").exists() and not (tmp_path / ":memory:").exists()


def test_every_start_of_the_site_creates_a_missing_database_privately(tmp_path):
    """manage.py (migrate, runserver, hall) and the WSGI server start Django the same way."""
    database = tmp_path / "site.sqlite3"
    probe = (
        "import os, stat, django\n"
        "django.setup()\n"
        f"print(oct(stat.S_IMODE(os.stat({str(database)!r}).st_mode)))\n"
    )
    result = run_python(
        "-c",
        probe,
        DJANGO_SETTINGS_MODULE="tournament.settings",
        DATABASE_URL=f"sqlite:///{database}",
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "0o600"
