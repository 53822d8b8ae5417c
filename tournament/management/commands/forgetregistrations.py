"""python manage.py forgetregistrations SLUG [SLUG ...] | --finished-before YYYY-MM-DD
[--dry-run]: delete the e-mail addresses and personal links of finished tournaments' online
registrations (the same verb as the button on the registrations page). Names, entries and
results stay."""

import datetime

from django.core.management.base import BaseCommand, CommandError

from tournament.domain.personal_data import forget_personal_data
from tournament.errors import DomainError
from tournament.models import Tournament, TournamentStatus


def _date(text: str) -> datetime.date:
    try:
        return datetime.date.fromisoformat(text)
    except ValueError as exc:
        raise CommandError(f"{text!r} is not a date: write it as YYYY-MM-DD.") from exc


class Command(BaseCommand):
    help = (
        "Delete the e-mail addresses and personal links of the online registrations of "
        "finished tournaments, named by short name or all finished before a date. Names, "
        "start numbers and results stay; the personal links stop working."
    )

    def add_arguments(self, parser):
        parser.add_argument("slugs", nargs="*", metavar="SLUG", help="short name of a tournament")
        parser.add_argument(
            "--finished-before",
            metavar="YYYY-MM-DD",
            help="every finished tournament dated before this day",
        )
        parser.add_argument("--dry-run", action="store_true", help="only say what would be deleted")

    def handle(self, *args, **options):
        slugs, before = options["slugs"], options["finished_before"]
        if bool(slugs) == bool(before):
            raise CommandError("Name tournaments by their short names, or give --finished-before.")
        tournaments = self._finished_before(_date(before)) if before else self._named(slugs)
        if not tournaments:
            self.stdout.write("No finished tournament before that date.")
            return
        verb = "would clear" if options["dry_run"] else "cleared"
        total = 0
        for tournament in tournaments:
            left = tournament.registrations.filter(personal_data_deleted_at__isnull=True).count()
            if not options["dry_run"]:
                try:
                    left = forget_personal_data([tournament])
                except DomainError as exc:  # finished a moment ago, running again now
                    raise CommandError(exc.message) from exc
            total += left
            self.stdout.write(f"{tournament.slug}: {verb} {left} registration(s)")
        count = len(tournaments)
        self.stdout.write(f"{verb.capitalize()} {total} registration(s) in {count} tournament(s).")

    def _named(self, slugs: list[str]) -> list[Tournament]:
        found = Tournament.objects.in_bulk(slugs, field_name="slug")
        missing = [slug for slug in slugs if slug not in found]
        if missing:
            raise CommandError(f"No tournament with the short name {missing[0]!r}.")
        tournaments = [found[slug] for slug in dict.fromkeys(slugs)]
        unfinished = [t.slug for t in tournaments if t.status != TournamentStatus.FINISHED]
        if unfinished:
            raise CommandError(
                f"Not finished: {', '.join(unfinished)}. Personal data is deleted only once "
                "all planned rounds of a tournament are closed; nothing was deleted."
            )
        return tournaments

    def _finished_before(self, day: datetime.date) -> list[Tournament]:
        candidates = Tournament.objects.filter(date__lt=day).with_status().order_by("date", "slug")
        return [t for t in candidates if t.status == TournamentStatus.FINISHED]
