import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

from scoring.profiles import PROFILES
from scoring.sheet import ERROR, as_played, check_sheet, totals
from tournament.imports.tabular import ImportFileError
from tournament.management.commands._profiles import profile_or_exit
from tournament.sheets.paper import read_file
from tournament.wording.findings import finding_message


class Command(BaseCommand):
    help = (
        "Check a Spielliste (CSV or XLSX: game, kind, soloist, 1..4 or 1..5; kind N, P, V, "
        "L, H, Q or S) and print the findings as JSON. Exit 0 without errors, 1 with errors, "
        "2 if unreadable."
    )

    def add_arguments(self, parser):
        parser.add_argument("path")
        parser.add_argument("--profile", default="ddv", help=", ".join(PROFILES))
        parser.add_argument(
            "--cumulative", action="store_true", help="the columns hold running totals"
        )

    def handle(self, *args, **options):
        profile = profile_or_exit(options["profile"])
        path = Path(options["path"])
        try:
            content = path.read_bytes()
        except OSError as exc:
            raise CommandError(
                _("Cannot read %(path)s: %(reason)s") % {"path": path, "reason": exc.strerror},
                returncode=2,
            ) from None
        try:
            size, rows = read_file(
                path.name, content, cumulative=options["cumulative"], games_only=False
            )
        except ImportFileError as exc:
            raise CommandError(exc.message, returncode=2) from None
        rows = as_played(profile, size, rows)  # a "P" where vorführen was due is a "V"
        findings = check_sheet(
            profile, size, rows, complete=True, running_totals=options["cumulative"]
        )
        ok = not any(f.level == ERROR for f in findings)
        report = {
            "ok": ok,
            "findings": [
                {
                    "game": f.game,
                    "level": f.level,
                    "code": f.code,
                    "message": finding_message(f.code, f.params),
                }
                for f in findings
            ],
            "totals": {str(i): t for i, t in enumerate(totals(rows, size), start=1)},
        }
        self.stdout.write(json.dumps(report))
        if not ok:
            raise SystemExit(1)
