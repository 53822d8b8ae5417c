from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand

from tournament.models import Tournament

DEMO_FIXTURE = settings.BASE_DIR / "fixtures" / "demo.json"
DEMO_LOGINS = [
    ("leitung", "kreuzdame-demo", "Turnierleitung"),
    ("schiri", "kreuzdame-demo", "Schiedsrichter"),
    ("admin", "kreuzdame-demo", "Administrator"),
]


class Command(BaseCommand):
    help = "Load the demo tournament (37 players) from fixtures/demo.json."

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
        self.stdout.write(self.style.SUCCESS("Demo data loaded."))
        for username, password, role in DEMO_LOGINS:
            self.stdout.write(f"  {role}: {username} / {password}")
