"""python manage.py backup [--output FILE]: a consistent copy of the database, online."""

from django.core.management.base import BaseCommand, CommandError

from tournament.ops.backup import BackupError, backup


class Command(BaseCommand):
    help = (
        "Write a consistent copy of the database while the site is in use (SQLite backup API, "
        "pg_dump for PostgreSQL). Default file: a new one in BACKUP_DIR."
    )

    def add_arguments(self, parser):
        parser.add_argument("--output", help="file to write (default: in BACKUP_DIR)")

    def handle(self, *args, **options):
        try:
            path = backup(options["output"])
        except BackupError as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(f"Backup written: {path} ({path.stat().st_size} bytes)")
