"""Backup and restore: consistent online copies on both backends, a round trip with identical
standings, the automatic backup when a round is closed — and why a plain file copy is not a
backup."""

import shutil
import sqlite3
import threading

import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from tests.factories import EntryFactory, TournamentFactory
from tests.tournament.exports.test_standings import play
from tournament.models import Game, RoundStatus, Sheet, SheetStatus
from tournament.ops import backup as backup_module
from tournament.queries import standings as standings_domain
from tournament.sheets import verbs as sheet_domain

pytestmark = pytest.mark.django_db(transaction=True)
sqlite_only = pytest.mark.skipif(
    connection.vendor != "sqlite", reason="the file-copy comparison is about SQLite's WAL"
)


def played_tournament():
    tournament = TournamentFactory(planned_rounds=2, standings_live=True)
    people = [EntryFactory(tournament=tournament, start_number=n) for n in range(1, 9)]
    a, b, c, d, e, f, g, h = people
    play(tournament, 1, [[a, b, c, d], [e, f, g, h]], [[(4, -4, 2, -2)], [(1, -1, 3, -3)]])
    return tournament


def snapshot(tournament):
    lines = standings_domain.compute(tournament).lines
    return [(line.rank, line.entry.start_number, dict(line.rounds), line.total) for line in lines]


def test_a_round_trip_gives_identical_standings(tmp_path):
    tournament = played_tournament()
    before = snapshot(tournament)
    target = tmp_path / "copy.bak"
    call_command("backup", output=str(target))
    assert target.stat().st_size > 0

    Game.objects.filter(table__round__tournament=tournament).delete()  # the laptop's bad day
    assert snapshot(tournament) != before
    call_command("restore", str(target))
    assert snapshot(tournament) == before
    # The state before the restore was kept as a backup of its own.
    kept = list(backup_module.default_path().parent.glob("*before-restore*"))
    assert len(kept) == 1


def test_restore_refuses_files_that_are_no_backup(tmp_path):
    with pytest.raises(CommandError, match="no such file"):
        call_command("restore", str(tmp_path / "missing.sqlite3"))
    if connection.vendor == "sqlite":
        junk = tmp_path / "junk.sqlite3"
        junk.write_bytes(b'=HYPERLINK("http://example.org")' * 100)
        with pytest.raises(CommandError, match="not a SQLite database"):
            call_command("restore", str(junk))
        other = tmp_path / "other.sqlite3"
        sqlite3.connect(other).execute("CREATE TABLE x (y)").connection.commit()
        with pytest.raises(CommandError, match="not a Kreuzdame database"):
            call_command("restore", str(other))


def test_closing_a_round_writes_a_backup(settings):
    tournament = played_tournament()
    round_ = tournament.rounds.get(number=1)
    round_.status = RoundStatus.RELEASED
    round_.save()
    Sheet.objects.filter(table__round=round_).update(status=SheetStatus.CONFIRMED)
    # The sheets of the helper are short, which is fine for a closed round here.
    from unittest import mock

    with mock.patch.object(sheet_domain, "_refuse_errors"):
        sheet_domain.close_round(round_, None)
    files = list(settings.BACKUP_DIR.glob(f"*{tournament.slug}-round-1-closed*"))
    assert len(files) == 1 and files[0].stat().st_size > 0


@sqlite_only
def test_a_plain_file_copy_under_load_misses_committed_rows_the_backup_has(tmp_path):
    """Rows committed in WAL mode sit in the -wal file until a checkpoint: copying the
    database file alone loses them. The backup API copies them."""
    path = str(connection.settings_dict["NAME"])
    setup = sqlite3.connect(path)
    setup.execute("CREATE TABLE IF NOT EXISTS load_probe (id INTEGER PRIMARY KEY, note TEXT)")
    setup.commit()
    setup.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    setup.close()
    committed = []
    started, stop = threading.Event(), threading.Event()

    def writer():
        con = sqlite3.connect(path, timeout=30)
        con.execute("PRAGMA wal_autocheckpoint=0")  # a busy site: no checkpoint just now
        while not stop.is_set():
            cursor = con.execute("INSERT INTO load_probe (note) VALUES ('row')")
            con.commit()
            committed.append(cursor.lastrowid)
            if len(committed) >= 200:
                started.set()
        con.close()

    thread = threading.Thread(target=writer)
    thread.start()
    try:
        assert started.wait(30)
        acknowledged = len(committed)
        plain = tmp_path / "plain-copy.sqlite3"
        shutil.copyfile(path, plain)
        proper = backup_module.backup(tmp_path / "backup.sqlite3")
    finally:
        stop.set()
        thread.join()

    def count(file):
        con = sqlite3.connect(file)
        try:
            return con.execute("SELECT count(*) FROM load_probe").fetchone()[0]
        finally:
            con.close()

    try:
        assert count(plain) < acknowledged  # committed rows lost by the plain copy
        assert count(proper) >= acknowledged  # every acknowledged row is in the backup
        con = sqlite3.connect(proper)
        assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        con.close()
    finally:
        cleanup = sqlite3.connect(path)
        cleanup.execute("DROP TABLE load_probe")
        cleanup.commit()
        cleanup.close()
