import datetime

import factory
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.db.models import Max

from tournament.models import Entry, Player, Round, Seat, Table, Tournament
from tournament.models.audit import DIRECTOR_GROUP, REFEREE_GROUP


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"user{n}")
    password = factory.PostGenerationMethodCall("set_password", "geheim-123")

    @factory.post_generation
    def role(self, create, extracted, **kwargs):
        if create and extracted:
            # get_or_create: transactional tests flush the groups the data migration made.
            self.groups.add(Group.objects.get_or_create(name=extracted)[0])
        self.save()


def director(**kwargs):
    return UserFactory(role=DIRECTOR_GROUP, **kwargs)


def referee(**kwargs):
    return UserFactory(role=REFEREE_GROUP, **kwargs)


class TournamentFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Tournament
        skip_postgeneration_save = True

    name = factory.Sequence(lambda n: f"Turnier {n}")
    slug = factory.Sequence(lambda n: f"turnier-{n}")
    date = datetime.date(2026, 12, 5)
    rule_profile = "ddv"

    @factory.post_generation
    def directors(self, create, extracted, **kwargs):
        if create and extracted:
            self.directors.add(*extracted)


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Player

    first_name = factory.Sequence(lambda n: f"Vorname{n}")
    last_name = factory.Sequence(lambda n: f"Nachname{n}")
    club = "DSC Testhausen"


def _next_start_number(tournament, n: int) -> int:
    if tournament.pk is None:  # built, not saved: nothing to collide with yet
        return n + 1
    taken = Entry.objects.filter(tournament=tournament).aggregate(Max("start_number"))
    return (taken["start_number__max"] or 0) + 1


class EntryFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Entry

    tournament = factory.SubFactory(TournamentFactory)
    player = factory.SubFactory(PlayerFactory)
    # The next free number of the tournament: a global sequence collided, in some test orders
    # only, with the numbers registration gave in the same tournament.
    start_number = factory.LazyAttributeSequence(lambda o, n: _next_start_number(o.tournament, n))
    # The players of the tests consented to publication unless a test says otherwise.
    publish = True


class RoundFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Round

    tournament = factory.SubFactory(TournamentFactory)
    number = 1


class TableFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Table

    round = factory.SubFactory(RoundFactory)
    number = 1
    size = 4


class SeatFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Seat

    table = factory.SubFactory(TableFactory)
    entry = factory.SubFactory(EntryFactory)
    position = 1


def released_table(tournament, *, size=4, round_number=1, table_number=1, first_start=1):
    """A table of a released round with ``size`` seated players, the round clock running."""
    from django.utils import timezone

    from tournament.models import RoundStatus

    round_, _ = Round.objects.get_or_create(
        tournament=tournament,
        number=round_number,
        defaults={"status": RoundStatus.RELEASED, "started_at": timezone.now()},
    )
    table = Table.objects.create(round=round_, number=table_number, size=size)
    for position in range(1, size + 1):
        entry = EntryFactory(
            tournament=tournament,
            start_number=first_start + position - 1,
            player=PlayerFactory(last_name=f"Spieler{first_start + position - 1}"),
        )
        Seat.objects.create(round=round_, table=table, entry=entry, position=position)
    return table


def played_tournament(date, planned, rounds, *, status_of=None):
    """A tournament of ``planned`` rounds at one 4-table: ``rounds`` lists per round the
    points of one game row as {player: points} (zero-sum); rounds are closed unless
    ``status_of`` says otherwise ({round number: status}). Returns it and its entries by
    player id."""
    from tournament.models import Game, RoundStatus

    t = TournamentFactory(date=date, planned_rounds=planned)
    entries = {}
    for number, points in enumerate(rounds, start=1):
        status = (status_of or {}).get(number, RoundStatus.CLOSED)
        round_ = Round.objects.create(tournament=t, number=number, status=status)
        table = Table.objects.create(round=round_, number=1, size=4)
        values = []
        for position, (player, value) in enumerate(points.items(), start=1):
            if player.pk not in entries:
                entries[player.pk] = EntryFactory(
                    tournament=t, player=player, start_number=len(entries) + 1
                )
            Seat.objects.create(
                round=round_, table=table, entry=entries[player.pk], position=position
            )
            values.append(value)
        assert sum(values) == 0, "a game row adds up to 0"
        Game.objects.create(table=table, number=1, kind="normal", p1=values[0], p2=values[1],
                            p3=values[2], p4=values[3])  # fmt: skip
    settle(t)
    return t, entries


def settle(tournament):
    """Store the results of the tournament's closed rounds, as closing them does: for rows
    written here directly rather than through the verbs (``domain.results``)."""
    from tournament.domain import results

    results.store_rounds(tournament.rounds.all())


def make_series(tournaments, **options):
    """A series "Vereinsmeisterschaft" (slug vm) of ``tournaments``, directed by the first
    tournament's director (or a new one), who also directs those without a director: their
    private ones count on the directors' page (a private tournament of anyone else would
    count nowhere)."""
    from tournament.models import Series

    series = Series.objects.create(name="Vereinsmeisterschaft", slug="vm", **options)
    series.tournaments.set(tournaments)
    first = tournaments[0].directors.first() if tournaments else None
    organiser = first or director()
    series.directors.add(organiser)
    for tournament in tournaments:
        if not tournament.directors.exists():
            tournament.directors.add(organiser)
    return series


def open_for_registration(tournament, places: int | None):
    """``tournament`` public with online registration open for ``places`` players (None: no
    limit), saved."""
    tournament.is_public = tournament.registration_open = True
    tournament.registration_capacity = places
    tournament.save()
    return tournament


def five_player_round(tournament, entries):
    """The five ``entries`` at one five-player table of a closed round 1, two games in which
    the dealer sits out: in seat order 3, 1, -1, -1, -2 points; the results stored."""
    from tournament.models import Game, RoundStatus

    round_ = Round.objects.create(tournament=tournament, number=1, status=RoundStatus.CLOSED)
    table = Table.objects.create(round=round_, number=1, size=5)
    for position, entry in enumerate(entries, start=1):
        Seat.objects.create(round=round_, table=table, entry=entry, position=position)
    Game.objects.create(table=table, number=1, kind="normal", p1=3, p2=3, p3=-3, p4=-3, p5=0)
    Game.objects.create(table=table, number=2, kind="normal", p1=0, p2=-2, p3=2, p4=2, p5=-2)
    settle(tournament)


def prize_category(tournament, name, order, prizes, **options):
    """A prize category with ``prizes`` for places 1, 2, ...: (kind, euros, percent or
    goods)."""
    from decimal import Decimal

    from tournament.models import Prize, PrizeCategory, PrizeKind

    made = PrizeCategory.objects.create(tournament=tournament, name=name, order=order, **options)
    for place, (kind, value) in enumerate(prizes, start=1):
        goods = value if kind == PrizeKind.GOODS else ""
        amount = Decimal(value) if kind != PrizeKind.GOODS else Decimal("0")
        Prize.objects.create(category=made, place=place, kind=kind, value=amount, goods=goods)
    return made
