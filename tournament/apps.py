from django.apps import AppConfig
from django.db.backends.signals import connection_created
from django.utils.translation import gettext_lazy as _


class TournamentConfig(AppConfig):
    name = "tournament"
    verbose_name = _("Tournaments")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from django.db import connections

        from .base import versions
        from .ops import private_files

        # The database holds password hashes and sessions: mode 0600
        # (tournament/ops/private_files.py).
        # Every way of starting the site (manage.py, the WSGI server, the tests) comes here
        # before any connection is opened, so a new database file is private from its first byte;
        # each new connection tightens it again (an older version may have made it readable).
        private_files.prepare_sqlite_databases(connections)
        connection_created.connect(
            private_files.on_connection_created, dispatch_uid="tournament-private-db-files"
        )
        # Every write of a tournament's rows moves its version (the key of cached pages).
        versions.connect()
