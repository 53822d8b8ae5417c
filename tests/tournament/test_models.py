"""The database itself keeps the data sane, whatever code writes to it."""

import pytest
from django.db import IntegrityError, transaction

from tests.factories import (
    EntryFactory,
    PlayerFactory,
    RoundFactory,
    SeatFactory,
    TableFactory,
    TournamentFactory,
)
from tournament.models import Game, Penalty, Player, Table, Tournament

pytestmark = pytest.mark.django_db


def violates(create) -> bool:
    try:
        with transaction.atomic():
            create()
    except IntegrityError:
        return True
    return False


def test_start_numbers_are_unique_per_tournament_but_not_across_tournaments():
    entry = EntryFactory(start_number=7)
    assert violates(lambda: EntryFactory(tournament=entry.tournament, start_number=7))
    assert not violates(lambda: EntryFactory(start_number=7))


def test_a_player_enters_a_tournament_once():
    entry = EntryFactory()
    assert violates(lambda: EntryFactory(tournament=entry.tournament, player=entry.player))


def test_start_number_zero_and_unknown_status_are_refused():
    assert violates(lambda: EntryFactory(start_number=0))
    assert violates(lambda: EntryFactory(status="on-holiday"))


def test_one_seat_per_entry_per_round():
    table = TableFactory(number=1)
    other_table = TableFactory(round=table.round, number=2)
    entry = EntryFactory(tournament=table.round.tournament)
    SeatFactory(table=table, entry=entry, position=1)
    assert violates(lambda: SeatFactory(table=other_table, entry=entry, position=2))
    # The same entry in the next round is fine.
    next_table = TableFactory(round=RoundFactory(tournament=table.round.tournament, number=2))
    assert not violates(lambda: SeatFactory(table=next_table, entry=entry, position=1))


def test_positions_are_unique_per_table_and_between_1_and_5():
    table = TableFactory(size=5)
    tournament = table.round.tournament
    SeatFactory(table=table, entry=EntryFactory(tournament=tournament), position=3)
    assert violates(
        lambda: SeatFactory(table=table, entry=EntryFactory(tournament=tournament), position=3)
    )
    assert violates(
        lambda: SeatFactory(table=table, entry=EntryFactory(tournament=tournament), position=6)
    )


def test_tables_have_4_or_5_players_and_unguessable_tokens():
    assert violates(lambda: TableFactory(size=6))
    table = TableFactory()
    other = TableFactory(round=table.round, number=2)
    assert len(table.token) >= 32  # 24 random bytes = 192 bits, base64url
    assert table.token != other.token
    assert violates(lambda: Table.objects.create(round=table.round, number=1, size=4))


def test_game_numbers_are_unique_per_table_and_solo_kinds_need_a_soloist():
    table = TableFactory()

    def game(number, kind="normal", soloist=None):
        return Game.objects.create(
            table=table,
            number=number,
            kind=kind,
            soloist_position=soloist,
            p1=1,
            p2=-1,
            p3=1,
            p4=-1,
        )

    game(1)
    assert violates(lambda: game(1))
    assert violates(lambda: game(2, kind="pflichtsolo"))
    assert violates(lambda: game(3, kind="normal", soloist=2))
    assert violates(lambda: game(4, kind="skat", soloist=2))
    assert not violates(lambda: game(5, kind="lustsolo", soloist=2))


def test_a_penalty_is_signed_by_a_referee_with_a_time_or_not_at_all(director_user):
    table = TableFactory()
    entry = EntryFactory(tournament=table.round.tournament)

    def penalty(category="geringfuegig", **kwargs):
        return Penalty.objects.create(
            table=table, game_number=3, offender=entry, category=category, **kwargs
        )

    assert violates(lambda: penalty(referee=director_user))
    assert not violates(lambda: penalty())
    assert violates(lambda: penalty(category="spitting"))


def test_unknown_rule_profile_is_refused_by_the_database():
    assert violates(lambda: TournamentFactory(rule_profile="skat"))


def test_results_carry_history():
    entry = EntryFactory()
    entry.checked_in = True
    entry.save()
    assert entry.history.count() == 2
    assert Tournament.history.model is not None and Player.history.model is not None


def test_player_name_key_ignores_case_and_unicode_normalisation():
    composed = PlayerFactory(first_name="Jürgen", last_name="Müller")
    decomposed = PlayerFactory(first_name="JU\u0308RGEN", last_name="mu\u0308ller")
    assert composed.name_key == decomposed.name_key == "jürgen müller"
