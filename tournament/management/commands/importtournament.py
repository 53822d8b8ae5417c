"""python manage.py importtournament FILE [--slug S] [--director NAME]: a tournament file made
by ``exporttournament`` (or the director's "Als Datei exportieren") becomes a tournament here."""

from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.utils import translation

from tournament import archive


class Command(BaseCommand):
    help = "Read a tournament file (JSON in a zip) and add the tournament to this site."

    def add_arguments(self, parser):
        parser.add_argument("file", help="the tournament file (.zip)")
        parser.add_argument("--slug", help="short name here (default: the file's, made unique)")
        parser.add_argument(
            "--director", help="user name of an account that directs the tournament here"
        )

    def handle(self, *args, **options):
        path = Path(options["file"])
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise CommandError(f"Cannot read {path}: {exc.strerror}.") from exc
        director = None
        if options["director"]:
            users = get_user_model()._default_manager
            director = users.filter(
                **{get_user_model().USERNAME_FIELD: options["director"]}
            ).first()
            if director is None:
                raise CommandError(f"No account with the user name {options['director']!r}.")
        with translation.override("en"):
            try:
                with transaction.atomic():
                    tournament = archive.restore(archive.unpack(data), slug=options["slug"])
                    if director is not None:
                        tournament.directors.add(director)
            except archive.ArchiveError as exc:
                raise CommandError(str(exc.message)) from exc
        self.stdout.write(f"Imported {tournament.name!r} as {tournament.slug!r}.")
