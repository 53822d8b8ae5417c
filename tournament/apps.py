from django.apps import AppConfig
from django.db.backends.signals import connection_created
from django.utils.translation import gettext_lazy as _


class TournamentConfig(AppConfig):
    name = "tournament"
    verbose_name = _("Tournaments")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from . import private_files

        # The database holds password hashes and sessions: mode 0600 (tournament/private_files.py).
        connection_created.connect(
            private_files.on_connection_created, dispatch_uid="tournament-private-db-files"
        )
