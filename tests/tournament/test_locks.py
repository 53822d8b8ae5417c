"""The one lock helper locks what it says: the tournament's row (SQLite: the database's write
lock, taken at BEGIN IMMEDIATE) until the transaction ends, with FOR UPDATE where the database
has it, several tournaments in the order of their keys."""

import threading

import pytest
from django.db import OperationalError, connection, transaction
from django.test.utils import CaptureQueriesContext

from tests.factories import TournamentFactory
from tournament.models import Entry, Tournament
from tournament.models.locks import lock, lock_tournament, lock_tournaments

WAIT = 30  # seconds: only reached when the test fails


def another_writer_gets_through(pk: int) -> bool:
    """From a second connection (a thread): may it lock the tournament right now? It does not
    wait: SQLite's busy timeout off, PostgreSQL's NOWAIT."""
    outcome = {}

    def write() -> None:
        try:
            if connection.vendor == "sqlite":
                with connection.cursor() as cursor:
                    cursor.execute("PRAGMA busy_timeout = 0")
            with transaction.atomic():
                nowait = connection.features.has_select_for_update_nowait
                Tournament.objects.select_for_update(nowait=nowait).filter(pk=pk).first()
            outcome["through"] = True
        except OperationalError:
            outcome["through"] = False
        finally:
            connection.close()

    thread = threading.Thread(target=write)
    thread.start()
    thread.join(WAIT)
    return outcome["through"]


@pytest.mark.django_db(transaction=True)
def test_a_locked_tournament_keeps_a_second_writer_out_until_the_transaction_ends():
    """On PostgreSQL (the second half of CI) this is the row lock of ``lock_tournament``; on
    SQLite the transaction's BEGIN IMMEDIATE holds the whole database already, so there it
    shows only that the verbs' transactions keep a second writer out."""
    tournament = TournamentFactory()
    with transaction.atomic():
        assert lock_tournament(tournament.pk) == tournament
        assert not another_writer_gets_through(tournament.pk)
    assert another_writer_gets_through(tournament.pk)


@pytest.mark.django_db
def test_the_lock_queries_say_for_update_where_the_database_has_it():
    first, second = TournamentFactory(), TournamentFactory()
    with transaction.atomic(), CaptureQueriesContext(connection) as queries:
        lock_tournament(second.pk)
        lock_tournaments([second.pk, first.pk])
        list(lock(Entry.objects.select_related("tournament"), of=("self",)))
    sql = [query["sql"] for query in queries]
    assert len(sql) == 3
    assert all('"tournament_tournament"' in text for text in sql)
    assert "ORDER BY" in sql[1] and '"tournament_tournament"."id" ASC' in sql[1]
    if connection.features.has_select_for_update:
        assert all("FOR UPDATE" in text for text in sql)
        assert 'FOR UPDATE OF "tournament_entry"' in sql[2]
    else:
        assert not any("FOR UPDATE" in text for text in sql)


@pytest.mark.django_db
def test_lock_tournament_of_a_tournament_that_is_gone_is_none():
    with transaction.atomic():
        assert lock_tournament(0) is None
