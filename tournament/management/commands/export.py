"""python manage.py export --tournament SLUG
--what standings|teams|rounds|sheets|tableplan|penalties --format pdf|xlsx --output FILE"""

from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.utils import translation

from tournament.exports import PdfUnavailable, documents, rows, xlsx
from tournament.exports.printpack import print_pack
from tournament.models import Tournament

FALLBACK_URL = "http://localhost:8000/"
WHAT = ["standings", "teams", "rounds", "sheets", "tableplan", "penalties"]


class Command(BaseCommand):
    help = (
        "Write standings, teams, rounds, score sheets or the table plan as PDF or XLSX, "
        "the referees' penalty record as XLSX."
    )

    def add_arguments(self, parser):
        parser.add_argument("--tournament", required=True, help="short name (slug)")
        parser.add_argument("--what", required=True, choices=WHAT)
        parser.add_argument("--format", required=True, choices=["pdf", "xlsx"])
        parser.add_argument("--output", required=True, help="file to write")
        parser.add_argument(
            "--round", type=int, help="round for sheets/tableplan (default: current)"
        )
        parser.add_argument(
            "--base-url",
            default=None,
            help="address of the site, for the QR codes of the table links "
            "(default: SITE_URL, else http://localhost:8000/)",
        )

    def handle(self, *args, **options):
        tournament = Tournament.objects.filter(slug=options["tournament"]).first()
        if tournament is None:
            raise CommandError(f"No tournament with the short name {options['tournament']!r}.")
        with translation.override("de"):
            try:
                content = self._content(tournament, options)
            except PdfUnavailable as exc:
                raise CommandError(exc.message) from exc
        Path(options["output"]).write_bytes(content)
        self.stdout.write(f"{options['output']}: {len(content)} bytes")

    def _content(self, tournament, options) -> bytes:
        what, fmt = options["what"], options["format"]
        if what == "penalties":
            if fmt != "xlsx":
                raise CommandError("The penalty record is exported as xlsx only.")
            return xlsx.penalties_workbook(tournament)
        if fmt == "xlsx":
            if what == "sheets":
                return xlsx.sheets_workbook(tournament, self._round(tournament, options))
            return xlsx.workbook(tournament, what)
        if what in ("standings", "teams"):
            return documents.standings_pdf(tournament, teams_only=what == "teams")
        if what == "rounds":
            return documents.rounds_pdf(tournament)
        round_ = self._round(tournament, options)
        if what == "tableplan":
            return documents.table_plan_pdf(round_)
        return print_pack(round_, options["base_url"] or settings.SITE_URL or FALLBACK_URL)

    def _round(self, tournament, options):
        if options["round"] is not None:
            round_ = tournament.rounds.filter(number=options["round"]).first()
        else:
            round_ = rows.round_to_print(tournament)
        if round_ is None or not round_.tables.exists():
            raise CommandError("This round has no tables yet (draw it first).")
        return round_
