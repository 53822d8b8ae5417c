from django.apps import AppConfig
from django.db.backends.signals import connection_created
from django.db.models.signals import post_migrate
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
        post_migrate.connect(create_roles, sender=self, dispatch_uid="tournament-roles")
        # A published tournament deleted here is taken off the results service as well.
        from .publishing import withdrawals

        withdrawals.connect()


def create_roles(sender, using="default", apps=None, **kwargs) -> None:
    """The two role groups exist wherever the schema does. Migration 0002 made them once, but
    a flush (every transactional test, ``manage.py flush``) empties auth_group and then sends
    post_migrate again, as Django does for permissions and content types: creating them here
    keeps the demo fixture (it names the groups by natural key) and every role check working
    after it, without each caller having to remember ``get_or_create``."""
    from django.apps import apps as installed

    from .models.audit import DIRECTOR_GROUP, REFEREE_GROUP

    try:  # migrate passes the migrated state's models, flush none
        group = (apps or installed).get_model("auth", "Group")
    except LookupError:  # auth not migrated (yet) in this plan
        return
    for name in (DIRECTOR_GROUP, REFEREE_GROUP):
        group.objects.using(using).get_or_create(name=name)
