"""A tournament hall in full swing, built fast with bulk_create: for the projector tests.

Round 1 is played and closed (every sheet complete and valid); round 2 is released and
running: some tables are done, some are playing, some have not started, one has extra time.
A few players withdrew or were disqualified. Names carry umlauts and repeat family names,
so the order on the seat list is worth checking.
"""

import itertools
import random
from datetime import timedelta

from django.utils import timezone

from tests.factories import TournamentFactory
from tournament.management.demo_games import play_sheet
from tournament.models import (
    Entry,
    EntryStatus,
    Game,
    Player,
    Round,
    RoundStatus,
    Seat,
    Sheet,
    SheetStatus,
    Table,
)
from tournament.models.names import name_key

LAST_NAMES = [
    "Müller", "Schmidt", "Schneider", "Fischer", "Weber", "Meyer", "Wagner", "Becker",
    "Schulz", "Hoffmann", "Schäfer", "Koch", "Bauer", "Richter", "Klein", "Wolf",
    "Schröder", "Neumann", "Schwarz", "Zimmermann", "Braun", "Krüger", "Hofmann", "Hartmann",
    "Lange", "Schmitt", "Werner", "Schmitz", "Krause", "Meier", "Lehmann", "Öztürk",
    "Ahrens", "Übel", "Groß", "Dreßler", "Von der Heydt-Oberkampf",
]  # fmt: skip
FIRST_NAMES = [
    "Jürgen", "Anna", "Björn", "Claudia", "Dieter", "Elke", "Frank", "Gisela", "Hans-Peter",
    "Ingrid", "Jörg", "Karin", "Lothar", "Monika", "Norbert", "Ölf", "Petra", "Rüdiger",
]  # fmt: skip


def _sheets(profile, size, count, seed):
    rng = random.Random(seed)
    return [play_sheet(profile, size, rng) for _ in range(count)]


def _table_sizes(players: int, fives: int) -> list[int]:
    fours, rest = divmod(players - 5 * fives, 4)
    assert rest == 0 and fours >= 0, "players must fill tables of four and five"
    return [4] * fours + [5] * fives


def _games(table, sheet, count=None):
    return [
        Game(
            table=table,
            number=number,
            kind=game.kind,
            soloist_position=game.soloist,
            **{f"p{position}": value for position, value in enumerate(game.points, start=1)},
        )
        for number, game in enumerate(sheet[:count], start=1)
    ]


def build_hall(players: int, *, fives: int = 0, **tournament_fields):
    """A tournament of ``players`` entries; round 2 running. Returns the tournament."""
    tournament = TournamentFactory(planned_rounds=4, **tournament_fields)
    profile = tournament.profile
    names = list(itertools.product(LAST_NAMES, FIRST_NAMES))
    random.Random(players).shuffle(names)
    people = Player.objects.bulk_create(
        Player(first_name=first, last_name=last, name_key=name_key(first, last))
        for last, first in (names[i % len(names)] for i in range(players))
    )
    statuses = {3: EntryStatus.WITHDRAWN, 7: EntryStatus.DISQUALIFIED}
    entries = Entry.objects.bulk_create(
        Entry(
            tournament=tournament,
            player=person,
            start_number=number,
            status=statuses.get(number, EntryStatus.ACTIVE),
            publish=True,  # the hall's players consented to be named
        )
        for number, person in enumerate(people, start=1)
    )
    now = timezone.now()
    closed = Round.objects.create(
        tournament=tournament,
        number=1,
        status=RoundStatus.CLOSED,
        started_at=now - timedelta(hours=3),
        closed_at=now - timedelta(hours=1),
    )
    running = Round.objects.create(
        tournament=tournament,
        number=2,
        status=RoundStatus.RELEASED,
        started_at=now - timedelta(minutes=25),
    )
    played = {size: _sheets(profile, size, 4, seed=size) for size in (4, 5)}
    sizes = _table_sizes(players, fives)
    games = []
    for round_, order in ((closed, entries), (running, entries[::-1])):
        tables = Table.objects.bulk_create(
            Table(round=round_, number=number, size=size)
            for number, size in enumerate(sizes, start=1)
        )
        sheets = [Sheet(table=table) for table in tables]
        seats, seated = [], iter(order)
        for table in tables:
            for position in range(1, table.size + 1):
                seats.append(Seat(round=round_, table=table, entry=next(seated), position=position))
        Seat.objects.bulk_create(seats)
        for index, (table, record) in enumerate(zip(tables, sheets, strict=True)):
            sheet = played[table.size][index % 4]
            if round_ is closed:
                record.status = SheetStatus.CONFIRMED
                games += _games(table, sheet)
            elif index % 3 == 0:
                record.status = SheetStatus.SUBMITTED if index % 2 else SheetStatus.CONFIRMED
                games += _games(table, sheet)
            elif index % 3 == 1:
                games += _games(table, sheet, count=1 + index % len(sheet))
            if round_ is running and index == 1:
                record.extra_minutes = 10
        Sheet.objects.bulk_create(sheets)
    Game.objects.bulk_create(games, batch_size=2000)
    return tournament
