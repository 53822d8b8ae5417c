"""Tests of data migrations: they migrate the shared test database back and forth, and must
leave it at the latest migrations whatever happens, so that later tests find their schema."""

from collections.abc import Iterator
from contextlib import contextmanager

from django.db import connection
from django.db.migrations.executor import MigrationExecutor


def migrate_to(target=None):
    """Migrate to ``target`` (default: the latest migrations) and give its models."""
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    target = target or executor.loader.graph.leaf_nodes()
    executor.migrate(target)
    return executor.loader.project_state(target).apps


@contextmanager
def migrated_back(target) -> Iterator:
    """The models at ``target``; back at the latest migrations afterwards."""
    try:
        yield migrate_to(target)
    finally:
        migrate_to()
