"""python manage.py restore FILE: bring back a backup; the current state is saved first."""

from django.core.management.base import BaseCommand, CommandError

from tournament.ops.backup import BackupError, restore


class Command(BaseCommand):
    help = (
        "Restore the database from a file written by `manage.py backup`. The current state is "
        "saved as a backup of its own first, so nothing is lost."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", help="the backup file")

    def handle(self, *args, **options):
        try:
            safety = restore(options["file"])
        except BackupError as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(f"Restored from {options['file']}. The state before: {safety}")
