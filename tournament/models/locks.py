"""Row locks for the verbs' write transactions: the one way a verb locks rows.

Call these inside ``transaction.atomic()``. What a lock does depends on the database:

- SQLite (the default; ``SQLITE_OPTIONS`` in settings) begins every transaction with
  ``BEGIN IMMEDIATE``: the transaction holds the database's one write lock from its first
  statement, so every row is locked already and these queries only read (SQLite has no
  ``FOR UPDATE``; Django leaves it out there).
- PostgreSQL takes a row lock (``SELECT … FOR UPDATE``): a second transaction locking the
  same row waits until the first commits. Two transactions that take the same rows in
  opposite orders deadlock, so every verb locks in one order.

The lock order (take what you need, always top to bottom):

1. the tournament (several: by primary key, :func:`lock_tournaments`); a verb that changes
   what the tournament's other verbs read (numbers, the field, rounds, penalties) locks it
   first, and everything below it is then serialised per tournament;
2. the round;
3. its tables (the Spielliste saves lock their table);
4. players;
5. entries;
6. registrations;
7. rows hanging off one table or tournament that nothing else locks after them: referee
   calls, table devices.

The tournament's lock serialises the verbs that take it, so below it the order only matters
between verbs that reach the same rows without sharing a tournament: merging two players
therefore locks every tournament they play in first. (Accepting an online registration's
identity locks the registration before its entry and player, under its tournament's lock.)
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TypeVar

from django.db.models import Manager, Model, QuerySet

from .round import Table
from .tournament import Tournament

M = TypeVar("M", bound=Model)


def lock(rows: QuerySet[M] | Manager[M], *, of: tuple[str, ...] = ()) -> QuerySet[M]:
    """``rows`` locked for this transaction once evaluated (``of``: only these tables of a
    join, as Django's ``select_for_update(of=…)``); in the order of this module's list."""
    return rows.select_for_update(of=of)


def lock_tournament(tournament_id: int) -> Tournament | None:
    """Lock the tournament's row (first, see the order above) and return it; None if it is
    gone."""
    return lock(Tournament.objects.filter(pk=tournament_id)).first()


def lock_tournaments(tournament_ids: Iterable[int] | QuerySet) -> None:
    """Lock several tournaments' rows in the order of their primary keys."""
    list(lock(Tournament.objects.filter(pk__in=tournament_ids)).order_by("pk"))


def locked_table(table: Table) -> Table:
    """The table row locked for this transaction (third in the order above), with its sheet:
    saves to one sheet happen one at a time (the Spielliste verbs and the penalty verbs write
    a table's sheet under this lock)."""
    return (
        lock(Table.objects, of=("self",))
        .select_related("round__tournament", "sheet")
        .get(pk=table.pk)
    )
