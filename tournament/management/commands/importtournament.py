"""python manage.py importtournament FILE [--slug S]: a tournament file made by
``exporttournament`` (or the director's "Als Datei exportieren") becomes a tournament here."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.utils import translation

from tournament import archive


class Command(BaseCommand):
    help = "Read a tournament file (JSON in a zip) and add the tournament to this site."

    def add_arguments(self, parser):
        parser.add_argument("file", help="the tournament file (.zip)")
        parser.add_argument("--slug", help="short name here (default: the file's, made unique)")

    def handle(self, *args, **options):
        path = Path(options["file"])
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise CommandError(f"Cannot read {path}: {exc.strerror}.") from exc
        with translation.override("en"):
            try:
                tournament = archive.restore(archive.unpack(data), slug=options["slug"])
            except archive.ArchiveError as exc:
                raise CommandError(str(exc.message)) from exc
        self.stdout.write(f"Imported {tournament.name!r} as {tournament.slug!r}.")
