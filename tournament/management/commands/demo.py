import random
from datetime import timedelta

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand
from django.utils import timezone

from scoring.penalties import Category
from tournament.demo_games import play_sheet
from tournament.domain import draw, penalties
from tournament.domain.penalties import Facts
from tournament.models import (
    Entry,
    GameKind,
    PenaltyContext,
    RefereeCall,
    Tournament,
)
from tournament.models.audit import LIST_KEEPER, SYSTEM, stamp
from tournament.sheets import reads
from tournament.sheets import verbs as sheet_domain

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
        "rounds: rounds 1 and 2 played, confirmed and closed, round 3 running with sheets "
        "in progress (one with an error); a few referee decisions and a call from a table."
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
        # A fixture is loaded raw, without history: the entries get their first record here.
        Entry.history.bulk_history_create(
            list(tournament.entries.all()), default_change_reason="demo data loaded"
        )
        Entry.history.filter(tournament=tournament).update(history_role=SYSTEM)
        director = tournament.directors.first()
        result = draw.draw(tournament, director, all_rounds=True, seed=DEMO_SEED, time_limit=5)
        rng = random.Random(DEMO_SEED)
        now = timezone.now()
        for round_ in result.rounds:
            draw.release(round_, director)
            hours_ago = 2 * (len(result.rounds) - round_.number) + 0.75
            round_.started_at = now - timedelta(hours=hours_ago)
            round_.save(update_fields=["started_at"])
            running = round_.number == len(result.rounds)
            for table in round_.tables.select_related("round__tournament").order_by("number"):
                play_table(table, director, rng, running=running)
            referee_decisions(round_, tournament.referees.first() or director)
            if not running:
                sheet_domain.close_round(round_, director)
        self.stdout.write(self.style.SUCCESS("Demo data loaded."))
        for username, password, role in DEMO_LOGINS:
            self.stdout.write(f"  {role}: {username} / {password}")


def play_table(table, director, rng: random.Random, *, running: bool) -> None:
    """Fill a table's sheet with engine-made games. A played round is entered, submitted by
    the list keeper (position 1) and confirmed by the player at position 2; in the running
    round the sheets are in progress, and the second table carries a typo to show."""
    profile = table.round.tournament.profile
    games = rng.randint(6, 18) if running else None
    sheet = play_sheet(profile, table.size, rng, games)
    entries = {s.position: s.entry for s in table.seats.select_related("entry")}
    keeper = sheet_domain.keeper_actor(table, entries[1].start_number)
    for number, game in enumerate(sheet, start=1):
        row = sheet_domain.RowInput(game.kind, game.soloist, game.points)
        sheet_domain.save_row(table, keeper, row, number=number)
    if running:
        if table.number == 2:
            typo = table.games.order_by("-number").first()
            typo.p1 += 10  # 3 typed as 13: the zero-sum check flags it
            stamp(typo, keeper.user, keeper.label, role=LIST_KEEPER)
            typo.version += 1
            typo.save()
        return
    sheet_domain.submit(table, keeper, code=entries[1].confirm_code)
    confirmer = entries[2]
    sheet_domain.confirm(
        table,
        sheet_domain.keeper_actor(table, confirmer.start_number),
        code=confirmer.confirm_code,
    )


def _facts_for(table, number: int, category: str, reason: str, **extra) -> Facts:
    """A decision in game ``number`` that fits the game as it stands on the sheet."""
    game = table.games.get(number=number)
    offender = 2 if game.soloist_position != 2 else 3
    if table.size == 5:  # never the player who sits out
        sitter = reads.load(table).steps[number - 1].sitter
        offender = next(p for p in (2, 3, 4) if p not in (sitter, game.soloist_position))
    if game.kind == GameKind.NORMAL:
        context, soloist = PenaltyContext.NORMAL, None
    elif game.kind in (GameKind.HOCHZEIT, GameKind.STILLE_HOCHZEIT):
        context, soloist = PenaltyContext.HOCHZEIT_BEFORE, None
    else:
        context, soloist = PenaltyContext.SOLO, game.soloist_position
    return Facts(number, offender, category, context, soloist, reason=reason, **extra)


def referee_decisions(round_, official) -> None:
    """What the referees did in the demo: a warning in round 1; in round 2 a geringfügig
    penalty and a schwerwiegend one the Schiedsgericht reduced; in the running round a call
    from table 4 and a decision still waiting for its signature."""
    tables = {t.number: t for t in round_.tables.select_related("round__tournament")}
    if round_.number == 1:
        facts = _facts_for(tables[3], 2, Category.WARNING, "Laute Diskussion")
        penalties.enter(tables[3], facts, official, sign=True, director=False)
    elif round_.number == 2:
        facts = _facts_for(tables[1], 5, Category.GERINGFUEGIG, "Karte zu früh gezeigt")
        penalties.enter(tables[1], facts, official, sign=True, director=False)
        heavy = _facts_for(tables[2], 4, Category.SCHWERWIEGEND, "Falsch bedient")
        first = penalties.enter(tables[2], heavy, official, sign=True, director=False)
        light = _facts_for(tables[2], 4, Category.GERINGFUEGIG, "Falsch bedient")
        penalties.enter(
            tables[2],
            light,
            official,
            sign=True,
            director=False,
            replaces=first,
            revoke_reason="Schiedsgericht: das Spiel war nicht beeinträchtigt",
        )
    else:
        RefereeCall.objects.create(table=tables[4], game_number=3, note="Frage zur Absage")
        facts = _facts_for(tables[5], 1, Category.GERINGFUEGIG, "Ausspielen vor Zeit")
        penalties.enter(tables[5], facts, official, sign=False, director=False)
