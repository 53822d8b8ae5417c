import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

from scoring.errors import InvalidFacts
from scoring.game import evaluate, parse_facts
from scoring.profiles import PROFILES
from tournament.management.commands._profiles import profile_or_exit
from tournament.wording.findings import invalid_facts_message


class Command(BaseCommand):
    help = "Score one game from its facts and print winner, value and points as JSON."

    def add_arguments(self, parser):
        parser.add_argument("--profile", required=True, help=", ".join(PROFILES))
        source = parser.add_mutually_exclusive_group(required=True)
        source.add_argument("--facts", help="the facts as a JSON object")
        source.add_argument("--facts-file", help="a file holding the facts as JSON")

    def handle(self, *args, **options):
        profile = profile_or_exit(options["profile"])
        text = options["facts"]
        if options["facts_file"]:
            try:
                text = Path(options["facts_file"]).read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError) as exc:
                raise CommandError(
                    _("Cannot read %(path)s: %(reason)s")
                    % {"path": options["facts_file"], "reason": exc},
                    returncode=2,
                ) from None
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise CommandError(
                _("The facts are not valid JSON: %(reason)s") % {"reason": exc}, returncode=2
            ) from None
        try:
            result = evaluate(profile, parse_facts(data, profile.cards))
        except InvalidFacts as exc:
            raise CommandError(invalid_facts_message(exc.code, exc.params), returncode=2) from None
        self.stdout.write(json.dumps(result.as_dict()))
