"""python manage.py exporttournament SLUG --output FILE [--profile public]: the tournament as
one file (docs/archive-format.md), to move it to another laptop (``importtournament``)."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from tournament import archive
from tournament.models import Tournament


class Command(BaseCommand):
    help = (
        "Write a tournament as one file (JSON in a zip): everything of it (profile full, "
        "with personal data: keep it safe), or what its public pages show (profile public)."
    )

    def add_arguments(self, parser):
        parser.add_argument("slug", help="short name of the tournament")
        parser.add_argument("--output", required=True, help="file to write")
        parser.add_argument("--profile", choices=["full", "public"], default="full")

    def handle(self, *args, **options):
        tournament = Tournament.objects.filter(slug=options["slug"]).first()
        if tournament is None:
            raise CommandError(f"No tournament with the short name {options['slug']!r}.")
        data = archive.pack(archive.build(tournament, profile=options["profile"]))
        Path(options["output"]).write_bytes(data)
        self.stdout.write(f"{options['output']}: {len(data)} bytes ({options['profile']})")
