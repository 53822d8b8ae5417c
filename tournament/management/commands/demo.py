import datetime
import random
from dataclasses import dataclass
from datetime import timedelta
from decimal import Decimal

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand
from django.utils import timezone

from scoring.penalties import Category
from tournament.domain import bulk, draw, fees, penalties, prizes, registrations
from tournament.domain.entries import EntryAttributes, register, set_attributes
from tournament.domain.penalties import Facts
from tournament.domain.series import save_series
from tournament.forms.registrations import consent_text
from tournament.management.demo_games import play_sheet
from tournament.models import (
    Entry,
    FeeStatus,
    GameKind,
    PenaltyContext,
    Player,
    PrizeKind,
    RefereeCall,
    RegistrationState,
    Round,
    Series,
    SeriesMethod,
    SeriesTiebreak,
    Sex,
    Sheet,
    Tournament,
)
from tournament.models.audit import LIST_KEEPER, SYSTEM, stamp
from tournament.queries import sheets as reads
from tournament.queries.players import PlayerData
from tournament.sheets import verbs as sheet_domain

DEMO_FIXTURE = settings.BASE_DIR / "fixtures" / "demo.json"
DEMO_SLUG = "kreuzdame-cup-2026"
DEMO_SEED = 2026
DEMO_LOGINS = [
    ("leitung", "kreuzdame-demo", "Turnierleitung"),
    ("schiri", "kreuzdame-demo", "Schiedsrichter"),
    ("admin", "kreuzdame-demo", "Administrator"),
]
DEMO_REASON = "demo data loaded"
DEMO_SERIES_SLUG = "vereinsmeisterschaft-2026"
UPCOMING_SLUG = "neujahrsturnier-2027"


@dataclass(frozen=True)
class Earlier:
    """One of the finished tournaments before the demo tournament that make up the demo's
    series with it: mostly the demo tournament's players, a few guests."""

    name: str
    slug: str
    weeks_before: int  # before the demo tournament's date: the same weekday
    venue: str
    rounds: int
    absent: tuple[int, ...]  # start numbers of the demo tournament who did not play
    guests: tuple[int, ...]  # indexes into GUESTS


# Players of the earlier tournaments who do not come to the demo tournament.
GUESTS = [
    ("Lars", "Petersen", "Karlchen Hamburg"),
    ("Miriam", "Albers", "Doko-Freunde Kassel"),
    ("Tobias", "Kern", ""),
    ("Nicole", "Haas", "Herz Dame Fulda"),
]
# The demo tournament's start numbers 34 to 37 play their first tournament of the series.
NEWCOMERS = range(34, 38)
# Two and three rounds: 7 and 8 tables (one a 5-table). Every other player of the demo
# tournament plays at least one of them, so the series' minimum of four rounds leaves out
# the newcomers and the guests who came once (Tobias Kern, Nicole Haas): six players listed
# apart from the ranking.
EARLIER = [
    Earlier(
        "Herbstturnier 2026",
        "herbstturnier-2026",
        weeks_before=8,
        venue="Vereinsheim Doko-Freunde Kassel",
        rounds=2,
        absent=(3, 8, 12, 17, 21, 26, 29, 31),
        guests=(0, 1, 2),
    ),
    Earlier(
        "Martinsturnier 2026",
        "martinsturnier-2026",
        weeks_before=4,
        venue="Bürgerhaus Kassel",
        rounds=3,
        absent=(5, 14, 22),
        guests=(0, 1, 3),
    ),
]
SERIES_MIN_ROUNDS = 4
SERIES_DESCRIPTION = (
    "Herbstturnier, Martinsturnier und Kreuzdame-Cup zählen zusammen. Gewertet wird der "
    "Schnitt je gespielter Runde (Rundenschnitt); in die Wertung kommt, wer mindestens vier "
    "Runden gespielt hat. Bei gleichem Schnitt liegt vorn, wer mehr Runden gespielt hat."
)


@dataclass(frozen=True)
class Upcoming:
    """The next tournament: online registration open and full, a waiting list, entry fees
    partly paid."""

    name: str = "Neujahrsturnier 2027"
    slug: str = UPCOMING_SLUG
    weeks_after: int = 6  # after the demo tournament (at least three weeks from today)
    venue: str = "Vereinsheim Doko-Freunde Kassel"
    rounds: int = 3
    places: int = 16
    fee: Decimal = Decimal("10.00")
    # Start numbers of the demo tournament the director typed in (from the phone and the
    # club evening): these take the first places.
    typed_in: tuple[int, ...] = (1, 2, 3, 5, 9, 10, 13, 17, 21, 25)
    # Registered on the public form, in this order: the first ones fill the places (two are
    # in the player database: the director accepted all but the last confirmed one, which
    # shows the button), the last two wait.
    online: tuple[tuple[str, str, str, str], ...] = (
        ("Heike", "Kaiser", "Karlchen Hamburg", "heike.kaiser@example.org"),
        ("Petra", "Schmitz", "Karlchen Hamburg", "petra.schmitz@example.org"),
        ("Lena", "Hartwig", "Doko-Freunde Kassel", "lena.hartwig@example.org"),
        ("Jonas", "Brenner", "", "jonas.brenner@example.org"),
        ("Fatma", "Aydın", "Die Füchse Köln", "fatma.aydin@example.org"),
        ("Carsten", "Vogt", "Herz Dame Fulda", "c.vogt@example.org"),
        ("Kai", "Ostermann", "Karlchen Hamburg", "kai.ostermann@example.org"),
        ("Greta", "Lindner", "", "greta.lindner@example.org"),
    )
    not_published: tuple[str, ...] = ("Brenner",)  # no consent to publication
    # Start numbers in the upcoming tournament whose fee is ticked (paid in advance).
    paid: tuple[int, ...] = (1, 2, 4, 6, 11, 12, 14)
    waived: tuple[int, ...] = (3,)  # the club's youth player


UPCOMING = Upcoming()


class Command(BaseCommand):
    help = (
        "Load the demo tournament (37 players) from fixtures/demo.json and draw its three "
        "rounds: rounds 1 and 2 played, confirmed and closed, round 3 running with sheets "
        "in progress (one with an error); a few referee decisions and a call from a table. "
        "Before it, two finished tournaments of mostly the same players, and a public series "
        "of the three (average per round). After it, an upcoming tournament with online "
        "registration open: its 16 places taken, two players on the waiting list, entry fees "
        "partly paid."
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
        record_entries(tournament)
        director = tournament.directors.first()
        guests = [
            stamp(Player(first_name=first, last_name=last, club=club), None, DEMO_REASON)
            for first, last, club in GUESTS
        ]
        for guest in guests:
            guest.save()
        earlier = [earlier_tournament(plan, tournament, director, guests) for plan in EARLIER]
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
        demo_series(tournament, earlier, director)
        demo_prizes(tournament, director)
        upcoming_tournament(UPCOMING, tournament, director)
        self.stdout.write(self.style.SUCCESS("Demo data loaded."))
        for username, password, role in DEMO_LOGINS:
            self.stdout.write(f"  {role}: {username} / {password}")


# The demo cup's women, by first name (the fixture has no sex; the office types it in).
WOMEN = frozenset(
    [
        "Anna",
        "Ayşe",
        "Birgit",
        "Christa",
        "Doris",
        "Elke",
        "Gabi",
        "Heike",
        "Helga",
        "Ingrid",
        "Karin",
        "Marion",
        "Monika",
        "Petra",
        "Renate",
        "Sabine",
        "Sandra",
        "Ute",
    ]
)


def demo_prizes(tournament: Tournament, director) -> None:
    """The end of the day prepared (issue 38): a fee of 10 EUR, paid by all but two; year
    of birth and sex of the players as the office would type them in; the overall prizes as
    shares of the fee pool, flowers for the best woman, a bottle for the best senior and a
    voucher for the best single round."""
    tournament.entry_fee = Decimal("10.00")
    tournament.save(update_fields=["entry_fee"])
    rng = random.Random(DEMO_SEED)
    for entry in tournament.entries.select_related("player").order_by("start_number"):
        fee = FeeStatus.OPEN if entry.start_number % 11 == 0 else FeeStatus.PAID
        fees.set_fee(entry, fee, None)  # by the system, as the fixture's entries
        attributes = EntryAttributes(
            birth_year=rng.randrange(1944, 2008),
            sex=Sex.FEMALE if entry.player.first_name in WOMEN else Sex.MALE,
            guest=entry.start_number in (7, 19),
            newcomer=entry.start_number in (4, 21),
        )
        set_attributes(entry, attributes, None, DEMO_REASON)
    prizes.add_preset(tournament, "overall", user=director)
    goods = {"women": "Blumenstrauß", "seniors": "Flasche Winzersekt", "best-round": "Gutschein"}
    for key, what in goods.items():
        category = prizes.add_preset(tournament, key, user=director)
        prizes.add_prize(category, prizes.PrizeData(1, PrizeKind.GOODS, goods=what), user=director)


def record_entries(tournament: Tournament) -> None:
    """The first history record of entries written without one (a fixture, bulk_create),
    made by the command."""
    bulk.history(Entry, tournament.entries.values(), "+", None, SYSTEM, DEMO_REASON)


def on_the_day(date: datetime.date, hour: int, minute: int = 0) -> datetime.datetime:
    return timezone.make_aware(datetime.datetime.combine(date, datetime.time(hour, minute)))


def earlier_tournament(
    plan: Earlier, demo: Tournament, director, guests: list[Player]
) -> Tournament:
    """A finished tournament ``plan.weeks_before`` weeks before the demo tournament, played
    the demo's way: the same rows of the player database (so that the series finds the
    players), every planned round drawn, released, played, confirmed and closed, with the
    rounds' and sheets' times moved to the tournament's day."""
    date = demo.date - timedelta(weeks=plan.weeks_before)
    tournament = Tournament(
        name=plan.name,
        slug=plan.slug,
        date=date,
        venue=plan.venue,
        planned_rounds=plan.rounds,
        is_public=True,
    )
    stamp(tournament, None, DEMO_REASON).save()
    tournament.directors.set(demo.directors.all())
    tournament.referees.set(demo.referees.all())
    regulars = [
        entry.player
        for entry in demo.entries.select_related("player").order_by("start_number")
        if entry.start_number not in plan.absent and entry.start_number not in NEWCOMERS
    ]
    players = regulars + [guests[index] for index in plan.guests]
    checked_in = on_the_day(date, 9, 30)
    Entry.objects.bulk_create(
        Entry(
            tournament=tournament,
            player=player,
            start_number=number,
            checked_in=True,
            checked_in_at=checked_in,
            publish=True,  # the club's players consented to publication
        )
        for number, player in enumerate(players, start=1)
    )
    record_entries(tournament)
    seed = DEMO_SEED - plan.weeks_before
    result = draw.draw(tournament, director, all_rounds=True, seed=seed, time_limit=5)
    rng = random.Random(seed)  # the demo tournament's games stay those of its own seed
    for round_ in result.rounds:
        draw.release(round_, director)
        for table in round_.tables.select_related("round__tournament").order_by("number"):
            play_table(table, director, rng, running=False)
        sheet_domain.close_round(round_, director)
        started = on_the_day(date, 10) + timedelta(hours=2 * (round_.number - 1))
        Round.objects.filter(pk=round_.pk).update(
            started_at=started, closed_at=started + timedelta(minutes=110)
        )
        Sheet.objects.filter(table__round=round_).update(
            submitted_at=started + timedelta(minutes=100),
            confirmed_at=started + timedelta(minutes=102),
        )
    return tournament


def upcoming_tournament(plan: Upcoming, demo: Tournament, director) -> Tournament:
    """The next tournament, some weeks after the demo tournament and at least three weeks
    from today, so that ``make run`` always shows a registration that is open: 16 places,
    all taken (entries the director typed in and online registrations), two players on the
    waiting list, 10 € entry fee, some paid in advance and one waived."""
    date = max(
        demo.date + timedelta(weeks=plan.weeks_after), timezone.localdate() + timedelta(weeks=3)
    )
    tournament = Tournament(
        name=plan.name,
        slug=plan.slug,
        date=date,
        venue=plan.venue,
        planned_rounds=plan.rounds,
        is_public=True,
        registration_open=True,
        registration_capacity=plan.places,
        registration_closes_at=on_the_day(date - timedelta(days=1), 20),
        entry_fee=plan.fee,
    )
    stamp(tournament, None, DEMO_REASON).save()
    tournament.directors.set(demo.directors.all())
    tournament.referees.set(demo.referees.all())
    regulars = demo.entries.select_related("player").filter(start_number__in=plan.typed_in)
    for entry in regulars.order_by("start_number"):
        player = entry.player
        data = PlayerData(player.first_name, player.last_name, player.club, player.ddv_number)
        register(tournament, data, director=director, publish=True)
    consent = consent_text(tournament)
    online = [
        registrations.submit(
            tournament,
            # One player left the publication box unticked: "Spieler <number>" in public.
            registrations.Details(
                first, last, club=club, email=email, publish=last not in plan.not_published
            ),
            consent=consent,
        )
        for first, last, club, email in plan.online
    ]
    confirmed = [r for r in online if r.state == RegistrationState.CONFIRMED]
    for registration in confirmed[:-1]:
        registrations.accept_identity(registration, director)
    for entry in tournament.entries.filter(start_number__in=plan.paid + plan.waived):
        fee = FeeStatus.WAIVED if entry.start_number in plan.waived else FeeStatus.PAID
        fees.set_fee(entry, fee, director)
    return tournament


def demo_series(demo: Tournament, earlier: list[Tournament], director) -> Series:
    """The club championship over the three tournaments, ranked by the average per round
    (the demo tournament counts with its closed rounds while it runs), saved in the name of
    the demo's director, who directs it."""
    series = Series(
        name="Vereinsmeisterschaft 2026",
        slug=DEMO_SERIES_SLUG,
        description=SERIES_DESCRIPTION,
        is_public=True,
        method=SeriesMethod.AVERAGE,
        min_rounds=SERIES_MIN_ROUNDS,
        tiebreak=SeriesTiebreak.ROUNDS,
    )
    return save_series(series, [*earlier, demo], director)


def play_table(table, director, rng: random.Random, *, running: bool) -> None:
    """Fill a table's sheet with engine-made games, as the list keeper (position 1). A played
    round is entered, submitted by the keeper and confirmed by the player at position 2; in
    the running round the sheets are in progress, saved row by row as on the phone, and the
    second table carries a typo to show."""
    profile = table.round.tournament.profile
    games = rng.randint(6, 18) if running else None
    sheet = play_sheet(profile, table.size, rng, games)
    entries = {s.position: s.entry for s in table.seats.select_related("entry")}
    keeper = sheet_domain.keeper_actor(table, entries[1].start_number)
    # At odd tables the keeper took every row from the Spielwert-Rechner: the games carry
    # their facts (who was Re, announcements), for the statistics' Re/Kontra figures.
    calculator = table.number % 2 == 1
    rows = [
        sheet_domain.RowInput(
            game.kind, game.soloist, game.points, game.facts if calculator else None
        )
        for game in sheet
    ]
    if running:
        for number, row in enumerate(rows, start=1):
            sheet_domain.save_row(table, keeper, row, number=number)
        if table.number == 2:
            typo = table.games.order_by("-number").first()
            typo.p1 += 10  # 3 typed as 13: the zero-sum check flags it
            typo.facts = None  # typed: no longer the calculator's row
            stamp(typo, keeper.user, keeper.label, role=LIST_KEEPER)
            typo.version += 1
            typo.save()
        return
    # A played sheet in one transaction: the checks and the history records of entering it
    # row by row, in a quarter of the time (the demo fills seven played rounds).
    sheet_domain.replace_rows(table, keeper, rows, {})
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
