from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand

from tournament.domain import draw
from tournament.models import Tournament

DEMO_FIXTURE = settings.BASE_DIR / "fixtures" / "demo.json"
DEMO_SLUG = "kreuzdame-cup-2026"
DEMO_SEED = 2026
DEMO_LOGINS = [
    ("leitung", "kreuzdame-demo", "Turnierleitung"),
    ("schiri", "kreuzdame-demo", "Schiedsrichter"),
    ("admin", "kreuzdame-demo", "Administrator"),
]


class Command(BaseCommand):
    help = (
        "Load the demo tournament (37 players) from fixtures/demo.json and draw its three "
        "rounds (round 1 released)."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--if-empty",
            action="store_true",
            help="Load only when the database holds no tournament yet.",
        )

    def handle(self, *args, **options):
        if options["if_empty"] and Tournament.objects.exists():
            self.stdout.write("Database not empty: demo data not loaded.")
            return
        call_command("loaddata", str(DEMO_FIXTURE), verbosity=0)
        tournament = Tournament.objects.get(slug=DEMO_SLUG)
        director = tournament.directors.first()
        result = draw.draw(tournament, director, all_rounds=True, seed=DEMO_SEED, time_limit=5)
        draw.release(result.rounds[0], director)
        self.stdout.write(self.style.SUCCESS("Demo data loaded."))
        for username, password, role in DEMO_LOGINS:
            self.stdout.write(f"  {role}: {username} / {password}")
