"""Rows written in one ``executemany`` per table: a restore writes tens of thousands of games
and seats, and ``bulk_create`` spends most of its time preparing each value of each model
instance (like ``domain.bulk.insert`` for the draw, which lives above this layer)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import connection
from django.db.models import DateField, JSONField, Model
from django.utils import timezone

_PLAIN = (int, str, type(None))


def insert(model: type[Model], rows: Sequence[dict[str, Any]]) -> None:
    """INSERT ``rows`` (field attname -> value, the same keys in each) into ``model``'s table,
    without instances or signals; a field a row leaves out gets its default, a date stamped
    automatically (auto_now, auto_now_add) the present moment."""
    if not rows:
        return
    now = timezone.now()
    fields = [f for f in model._meta.concrete_fields if f.attname in rows[0] or not f.primary_key]
    given = {f.attname for f in fields if f.attname in rows[0]}

    def missing(field) -> Any:
        if isinstance(field, DateField) and (field.auto_now or field.auto_now_add):
            return now
        return field.get_default()

    params = []
    for row in rows:
        values = []
        for field in fields:
            value = row[field.attname] if field.attname in given else missing(field)
            if isinstance(field, JSONField) or not isinstance(value, _PLAIN):
                value = field.get_db_prep_save(value, connection)
            values.append(value)
        params.append(values)
    quote = connection.ops.quote_name
    columns = ", ".join(quote(f.column) for f in fields if f.column)
    marks = ", ".join(["%s"] * len(fields))
    # Only names from the model's metadata go into the text; the values are parameters.
    sql = f"INSERT INTO {quote(model._meta.db_table)} ({columns}) VALUES ({marks})"  # noqa: S608
    with connection.cursor() as cursor:
        cursor.executemany(sql, params)
