"""The version every cached page and document is keyed by moves with every change a page
shows, in the same transaction, and never goes back."""

import random

import pytest
from django.db import transaction

from tests.factories import EntryFactory, TournamentFactory, released_table
from tournament.base.versions import series_key, series_members
from tournament.management.demo_games import play_sheet
from tournament.models import Penalty, Series, Tournament
from tournament.sheets import verbs as sheet_domain

pytestmark = pytest.mark.django_db


def version(tournament) -> int:
    return Tournament.objects.get(pk=tournament.pk).version


def moves(tournament, change) -> bool:
    before = version(tournament)
    change()
    return version(tournament) > before


def test_a_saved_game_moves_its_tournaments_version_and_no_other(tournament):
    table = released_table(tournament)
    other = TournamentFactory()
    rows = play_sheet(tournament.profile, 4, random.Random(1), 2)
    actor = sheet_domain.Actor(label="test", privileged=True)
    before_other = version(other)
    inputs = [sheet_domain.RowInput(g.kind, g.soloist, g.points) for g in rows]
    assert moves(tournament, lambda: sheet_domain.replace_rows(table, actor, inputs, {}))
    assert version(other) == before_other
    game = table.games.order_by("number").last()
    assert moves(tournament, game.delete)


def test_entries_rounds_and_player_names_move_it(tournament):
    entry = EntryFactory(tournament=tournament)
    assert moves(tournament, lambda: EntryFactory(tournament=tournament))
    entry.player.last_name = "Neuname"
    assert moves(tournament, entry.player.save)
    table = released_table(tournament, first_start=10)
    round_ = table.round
    round_.planned_minutes = 90
    assert moves(tournament, round_.save)


def test_a_penalty_moves_it(tournament):
    table = released_table(tournament)
    offender = table.seats.first().entry
    assert moves(
        tournament,
        lambda: Penalty.objects.create(
            table=table,
            game_number=1,
            offender=offender,
            category="geringfuegig",
            p1=-3,
            p2=1,
            p3=1,
            p4=1,
        ),
    )


def test_a_save_of_an_object_read_earlier_does_not_write_its_old_version_back(tournament):
    stale = Tournament.objects.get(pk=tournament.pk)
    EntryFactory(tournament=tournament)  # bumps in the database, not in ``stale``
    bumped = version(tournament)
    stale.venue = "Bürgerhaus"
    stale.save()
    assert version(tournament) == bumped + 1
    assert Tournament.objects.get(pk=tournament.pk).venue == "Bürgerhaus"


def test_a_rolled_back_change_leaves_the_version(tournament):
    before = version(tournament)
    with pytest.raises(RuntimeError), transaction.atomic():
        EntryFactory(tournament=tournament)
        raise RuntimeError
    assert version(tournament) == before


def test_the_series_key_moves_with_its_settings_tournaments_and_their_data(tournament):
    tournament.is_public = True
    tournament.save()
    series = Series.objects.create(name="Cup", slug="cup")
    key = series_key(series, public_only=True)
    series.tournaments.add(tournament)
    series.refresh_from_db()
    assert series_key(series, public_only=True) != key
    key = series_key(series, public_only=True)
    EntryFactory(tournament=tournament)
    assert series_key(series, public_only=True) != key
    key = series_key(series, public_only=True)
    series.min_rounds = 2
    series.save()
    series.refresh_from_db()
    assert series_key(series, public_only=True) != key
    # Made private: it leaves the public table at once, and every director's but its own.
    key, everything = series_key(series, public_only=True), series_key(series, public_only=False)
    tournament.is_public = False
    tournament.save()
    assert series_members(series_key(series, public_only=True)) == ()
    assert series_key(series, public_only=True) != key
    assert series_members(series_key(series, public_only=False)) == ()
    assert series_members(everything) == ((tournament.pk, True, None),)
    series.directors.set(tournament.directors.all())
    assert series_members(series_key(series, public_only=False)) == ((tournament.pk, False, None),)


def test_a_save_in_the_running_round_leaves_the_series_key_closing_moves_it(tournament):
    """A series counts closed rounds: the keepers' saves leave its pages and files valid,
    closing the round (its stored results) makes them new."""
    series = Series.objects.create(name="Cup", slug="cup")
    series.tournaments.add(tournament)
    series.directors.set(tournament.directors.all())  # its private tournament counts for them
    table = released_table(tournament)
    series.refresh_from_db()
    key = series_key(series, public_only=False)
    rows = play_sheet(tournament.profile, 4, random.Random(1), 3)
    actor = sheet_domain.Actor(label="test", privileged=True)
    inputs = [sheet_domain.RowInput(g.kind, g.soloist, g.points) for g in rows]
    sheet_domain.replace_rows(table, actor, inputs, {})
    assert series_key(series, public_only=False) == key
    round_ = table.round
    round_.status = "closed"
    round_.save()
    assert series_key(series, public_only=False) != key
    key = series_key(series, public_only=False)
    from tournament.domain import results

    results.store_rounds([round_])
    assert series_key(series, public_only=False) != key


def test_the_table_plan_stays_computed_while_keepers_save(client, tournament):
    """The public table plan is keyed by the seating (results version): saves of games
    leave it, a change of the seating or of a name makes it new."""
    from django.urls import reverse

    from tournament.base.caching import memo

    tournament.is_public = True
    tournament.save()
    table = released_table(tournament)
    url = reverse("public-table-plan", args=[tournament.slug])
    assert client.get(url).status_code == 200
    computed = memo.computed
    rows = play_sheet(tournament.profile, 4, random.Random(2), 2)
    actor = sheet_domain.Actor(label="test", privileged=True)
    inputs = [sheet_domain.RowInput(g.kind, g.soloist, g.points) for g in rows]
    sheet_domain.replace_rows(table, actor, inputs, {})
    assert client.get(url).status_code == 200
    assert memo.computed == computed
    seat = table.seats.get(position=1)
    seat.entry.player.last_name = "Umgesetzt"
    seat.entry.player.save()
    seat.save()  # as a swap of seats saves them
    assert "Umgesetzt" in client.get(url).content.decode()
    assert memo.computed == computed + 1
