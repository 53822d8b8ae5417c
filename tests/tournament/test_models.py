"""The database itself keeps the data sane, whatever code writes to it."""

import datetime

import pytest
from django.db import IntegrityError, connection, transaction
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from tests.factories import (
    EntryFactory,
    PlayerFactory,
    RoundFactory,
    SeatFactory,
    TableFactory,
    TournamentFactory,
    released_table,
)
from tournament.models import (
    Game,
    Penalty,
    Player,
    Round,
    RoundStatus,
    Table,
    Tournament,
    TournamentStatus,
)
from tournament.models.names import name_key

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
    spelled = PlayerFactory(first_name="Juergen", last_name="Mueller")
    # The one name key (models/names.py), stored and indexed: an umlaut and its "e" spelling
    # are one person, a plain vowel is another.
    assert (
        composed.name_key == decomposed.name_key == spelled.name_key == name_key("Jürgen", "Müller")
    )
    assert PlayerFactory(first_name="Jurgen", last_name="Muller").name_key != composed.name_key
    assert set(Player.objects.filter(name_key=name_key("JÜRGEN", "MÜLLER"))) == {
        composed,
        decomposed,
        spelled,
    }


def test_the_longest_names_fit_their_stored_key():
    """A reviewer's find: each umlaut becomes two characters of the key, so two names of 100
    characters gave a key of 401 - longer than the column (a 500 on PostgreSQL, for example on
    the public registration form). The key is cut to the column; the player is still found."""
    longest = Player._meta.get_field("name_key").max_length
    first, last = "Ä" * 100, "Üß" * 50
    player = PlayerFactory(first_name=first, last_name=last)
    player.refresh_from_db()
    assert 0 < len(player.name_key) <= longest
    assert Player.objects.get(name_key=name_key(first.lower(), last.upper())) == player


# --- penalties are numbered per tournament (issue 15, point 11) ---------------------------


def penalty_at(table, **kwargs):
    entry = table.seats.order_by("position").first().entry
    return Penalty.objects.create(
        table=table, game_number=1, offender=entry, category="geringfuegig", **kwargs
    )


def test_penalty_numbers_start_at_1_in_every_tournament():
    first = released_table(TournamentFactory(slug="eins"), first_start=1)
    second = released_table(TournamentFactory(slug="zwei"), first_start=1)
    numbers = [penalty_at(t).number for t in (first, first, second, first, second)]
    assert numbers == [1, 2, 1, 3, 2]
    assert {p.tournament_id for p in Penalty.objects.filter(table=second)} == {
        second.round.tournament_id
    }


def test_the_database_refuses_a_penalty_number_twice_in_a_tournament():
    table = released_table(TournamentFactory(), first_start=1)
    penalty_at(table)
    assert violates(lambda: penalty_at(table, number=1))
    assert violates(lambda: penalty_at(table, number=0))
    other = released_table(TournamentFactory(), first_start=1)
    assert not violates(lambda: penalty_at(other, number=1))


@pytest.mark.django_db(transaction=True)
def test_the_migration_numbers_existing_penalties_per_tournament_in_their_order():
    before = [("tournament", "0011_entry_confirm_code")]
    after = [("tournament", "0012_penalty_number_per_tournament")]
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    try:
        apps = executor.loader.project_state(before).apps
        models = {
            name: apps.get_model("tournament", name)
            for name in ("Tournament", "Player", "Entry", "Round", "Table", "Penalty")
        }
        history = apps.get_model("tournament", "HistoricalPenalty")
        tables = {}
        for slug in ("a", "b"):
            tournament = models["Tournament"].objects.create(
                name=slug, slug=slug, date="2026-11-21", projector_token=f"token-{slug}"
            )
            round_ = models["Round"].objects.create(tournament=tournament, number=1)
            tables[slug] = models["Table"].objects.create(round=round_, number=1, size=4)
            player = models["Player"].objects.create(first_name=slug, last_name="P")
            models["Entry"].objects.create(
                tournament=tournament, player=player, start_number=1, confirm_code="12345"
            )
        created = []
        start = timezone.now()
        # Entered in this order (b's first penalty between a's); the primary keys do not
        # follow it, the creation times do.
        for slug, minutes in (("a", 3), ("b", 1), ("a", 1), ("b", 5), ("a", 7)):
            table = tables[slug]
            penalty = models["Penalty"].objects.create(
                table=table,
                game_number=1,
                offender=models["Entry"].objects.get(tournament=table.round.tournament),
                category="geringfuegig",
            )
            models["Penalty"].objects.filter(pk=penalty.pk).update(
                created_at=start + datetime.timedelta(minutes=minutes)
            )
            history.objects.create(
                id=penalty.pk,
                table_id=table.pk,
                game_number=1,
                offender_id=penalty.offender_id,
                category="geringfuegig",
                history_date=start,
                history_type="+",
            )
            created.append((slug, penalty.pk))
        executor = MigrationExecutor(connection)
        executor.migrate(after)
        apps = executor.loader.project_state(after).apps
        Penalty_ = apps.get_model("tournament", "Penalty")
        numbers = {pk: Penalty_.objects.get(pk=pk).number for _slug, pk in created}
        a = [pk for slug, pk in created if slug == "a"]
        b = [pk for slug, pk in created if slug == "b"]
        # a: created at minutes 3, 1, 7 -> numbers 2, 1, 3; b: minutes 1, 5 -> 1, 2.
        assert [numbers[pk] for pk in a] == [2, 1, 3]
        assert [numbers[pk] for pk in b] == [1, 2]
        assert all(Penalty_.objects.get(pk=pk).tournament.slug == slug for slug, pk in created)
        records = apps.get_model("tournament", "HistoricalPenalty").objects.all()
        assert {(r.id, r.number) for r in records} == set(numbers.items())
    finally:
        executor = MigrationExecutor(connection)
        executor.loader.build_graph()
        executor.migrate(executor.loader.graph.leaf_nodes())


# --- the tournament's status follows its rounds (issue 15, point 9) -----------------------


def test_the_status_follows_the_rounds():
    tournament = TournamentFactory(planned_rounds=2)
    assert tournament.status == TournamentStatus.PLANNED
    round_one = RoundFactory(tournament=tournament, number=1)  # planned, not drawn
    assert Tournament.objects.get(pk=tournament.pk).status == TournamentStatus.PLANNED
    for status in (RoundStatus.RELEASED, RoundStatus.CLOSED):
        Round.objects.filter(pk=round_one.pk).update(status=status)
        assert Tournament.objects.get(pk=tournament.pk).status == TournamentStatus.RUNNING
    round_two = RoundFactory(tournament=tournament, number=2, status=RoundStatus.RELEASED)
    assert Tournament.objects.get(pk=tournament.pk).status == TournamentStatus.RUNNING
    Round.objects.filter(pk=round_two.pk).update(status=RoundStatus.CLOSED)
    finished = Tournament.objects.get(pk=tournament.pk)
    assert finished.status == TournamentStatus.FINISHED
    assert finished.get_status_display() == "beendet"
    # A director who stops after fewer rounds lowers the planned rounds: finished once no
    # round is being played any more, never while one is.
    Round.objects.filter(pk=round_two.pk).update(status=RoundStatus.RELEASED)
    Tournament.objects.filter(pk=tournament.pk).update(planned_rounds=1)
    assert Tournament.objects.get(pk=tournament.pk).status == TournamentStatus.RUNNING
    listed = Tournament.objects.with_status().get(pk=tournament.pk)
    assert listed.status == TournamentStatus.RUNNING
    Round.objects.filter(pk=round_two.pk).update(status=RoundStatus.CLOSED)
    assert Tournament.objects.get(pk=tournament.pk).status == TournamentStatus.FINISHED


def test_a_drawn_round_is_not_started_until_it_is_released():
    """A drawn round is a plan (its seats are not shown and may be drawn again): the tournament
    stays planned and the round is not started, in the list query as for one tournament."""
    tournament = TournamentFactory(planned_rounds=2)
    round_one = RoundFactory(tournament=tournament, number=1, status=RoundStatus.DRAWN)
    assert not round_one.started
    assert not tournament.rounds.started().exists()
    assert Tournament.objects.get(pk=tournament.pk).status == TournamentStatus.PLANNED
    assert Tournament.objects.with_status().get(pk=tournament.pk).status == "planned"
    Round.objects.filter(pk=round_one.pk).update(status=RoundStatus.RELEASED)
    round_one.refresh_from_db()
    assert round_one.started
    assert list(tournament.rounds.started()) == [round_one]
    assert Tournament.objects.get(pk=tournament.pk).status == TournamentStatus.RUNNING
    assert Tournament.objects.with_status().get(pk=tournament.pk).status == "running"


def test_a_list_of_tournaments_reads_the_status_in_one_query(django_assert_num_queries):
    expected = {}
    rounds = [
        [],
        [RoundStatus.PLANNED],
        [RoundStatus.DRAWN],
        [RoundStatus.CLOSED, RoundStatus.RELEASED],
        [RoundStatus.CLOSED] * 3,
    ]
    for statuses in rounds:
        tournament = TournamentFactory(planned_rounds=3)
        for number, status in enumerate(statuses, start=1):
            RoundFactory(tournament=tournament, number=number, status=status)
        expected[tournament.pk] = Tournament.objects.get(pk=tournament.pk).status
    assert list(expected.values()) == ["planned", "planned", "planned", "running", "finished"]
    with django_assert_num_queries(1):
        listed = {t.pk: t.status for t in Tournament.objects.with_status()}
    assert listed == expected
