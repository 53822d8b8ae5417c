"""Thousands of rows inside a short transaction: a draw's tables and seats.

Django's ``bulk_create`` spends some 60 us per row preparing each value of each field, and
the ORM's ``delete`` writes the history of every deleted row one by one through signals; for
a 400-player field drawn over 8 rounds that held the database's write lock for seconds. These
helpers write the same rows and the same history records (as simple-history writes them:
the row as it is, the type, the date, the request's user and the role) with one
``executemany`` per table; values are plain ints and strings, only the others are prepared.
"""

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from django.db import connection
from django.db.models import Field, Model, QuerySet
from django.utils import timezone
from simple_history.utils import get_history_model_for_model

from ..models.audit import Reason, record_columns

_PLAIN = (int, str, type(None))
# Ids per DELETE statement: far below every backend's limit of query parameters.
CHUNK = 500


def _quoted(name: str) -> str:
    return connection.ops.quote_name(name)


def _quoted_column(field: "Field[Any, Any]") -> str:
    """The quoted column of a concrete field (a concrete field is one with a column)."""
    assert field.column is not None
    return _quoted(field.column)


def _prepared(field, value):
    return value if isinstance(value, _PLAIN) else field.get_db_prep_save(value, connection)


def insert(model: type[Model], rows: Sequence[dict], same: dict | None = None) -> None:
    """INSERT ``rows`` (field attname -> value, the same keys in every row) into ``model``'s
    table: no instances, no signals. ``same`` holds values shared by every row; missing
    fields get their default (a callable default is called per row)."""
    if not rows:
        return
    same = same or {}
    fields = model._meta.concrete_fields
    # The columns in three groups: the rows' values, defaults called per row, constants (an
    # automatic primary key is left out: the database numbers the rows).
    given = [f for f in fields if f.attname in rows[0]]
    left = [f for f in fields if f not in given and not (f.primary_key and f.attname not in same)]
    called = [f for f in left if f.attname not in same and f.has_default() and callable(f.default)]
    constant = [f for f in left if f not in called]
    shared = tuple(
        _prepared(f, same[f.attname] if f.attname in same else f.get_default()) for f in constant
    )
    values = [tuple(row[f.attname] for f in given) for row in rows]
    for index, field in enumerate(given):
        if not all(isinstance(v[index], _PLAIN) for v in values):
            values = [v[:index] + (_prepared(field, v[index]),) + v[index + 1 :] for v in values]
    # A called default may be no plain value either (a uid's UUID): prepared like the rest.
    params = [v + tuple(_prepared(f, f.get_default()) for f in called) + shared for v in values]
    columns = ", ".join(_quoted_column(f) for f in (*given, *called, *constant))
    marks = ", ".join(["%s"] * (len(given) + len(called) + len(constant)))
    # Only names from the model's metadata go into the text; the values are parameters.
    sql = f"INSERT INTO {_quoted(model._meta.db_table)} ({columns}) VALUES ({marks})"  # noqa: S608
    with connection.cursor() as cursor:
        cursor.executemany(sql, params)


def history(
    model: type[Model],
    rows: Iterable[Mapping[str, Any]],
    kind: str,
    user,
    role: str = "",
    reason: Reason | None = None,
) -> None:
    """Write the history records (``kind``: "+" created, "~" changed, "-" deleted) of
    ``rows`` of ``model``, each row with its id and every tracked field as it is now, and
    ``reason`` as the change reason, their columns as :func:`~tournament.models.audit.stamp`
    gives them to a saved row (:func:`~tournament.models.audit.record_columns`)."""
    historical = get_history_model_for_model(model)
    names = {f.attname for f in historical._meta.concrete_fields}
    extra = {"history_date": timezone.now(), "history_type": kind}
    columns = record_columns(user, reason or "", role)
    extra |= {name: value for name, value in columns.items() if name in names}
    tracked = [name for name in names if name not in extra]
    insert(
        historical, [{name: row[name] for name in tracked if name in row} for row in rows], extra
    )


def delete(queryset: QuerySet, user, role: str = "") -> None:
    """DELETE the rows of ``queryset`` after writing their deletion into the history. When
    other rows still refer to them, the ORM deletes them instead (cascades, signals)."""
    model = queryset.model
    for relation in model._meta.related_objects:  # history models' links are hidden
        related = relation.related_model._default_manager
        if related.filter(**{f"{relation.field.name}__in": queryset}).exists():
            queryset.delete()
            return
    rows = list(queryset.values(*(f.attname for f in model._meta.concrete_fields)))
    history(model, rows, "-", user, role)
    pk = model._meta.pk
    ids = [row[pk.attname] for row in rows]
    table, column = _quoted(model._meta.db_table), _quoted(pk.column)
    with connection.cursor() as cursor:
        for start in range(0, len(ids), CHUNK):
            chunk = ids[start : start + CHUNK]
            marks = ", ".join(["%s"] * len(chunk))
            sql = f"DELETE FROM {table} WHERE {column} IN ({marks})"  # noqa: S608 (as above)
            cursor.execute(sql, chunk)
