"""Stored results (domain.results): closing a round writes each player's result for it,
correcting a closed round writes it anew, the standings read them and read the same as the
games, and ``manage.py checkresults`` finds a stored result that does not fit the games."""

import random
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse
from django.utils import timezone

from scoring.penalties import Category
from tests.factories import EntryFactory, PlayerFactory, UserFactory
from tournament.domain import penalties, results
from tournament.domain.penalties import Facts
from tournament.exports import federation
from tournament.management.demo_games import play_sheet
from tournament.models import Round, RoundResult, RoundStatus, Seat, Table
from tournament.queries import standings as standings_domain
from tournament.sheets import verbs

pytestmark = pytest.mark.django_db


def play_round(tournament, number, entries, director_user, seed):
    """Round ``number`` at a four-table and a five-table, every sheet played in full through
    the verbs, submitted, confirmed; then closed by the director."""
    round_ = Round.objects.create(
        tournament=tournament, number=number, status=RoundStatus.RELEASED, started_at=timezone.now()
    )
    order = entries[number - 1 :] + entries[: number - 1]
    office = verbs.office_actor(director_user, director=True)
    for table_number, group in ((1, order[:4]), (2, order[4:9])):
        table = Table.objects.create(round=round_, number=table_number, size=len(group))
        for position, entry in enumerate(group, start=1):
            Seat.objects.create(round=round_, table=table, entry=entry, position=position)
        games = play_sheet(tournament.profile, table.size, random.Random(seed + table_number))
        rows = [verbs.RowInput(g.kind, g.soloist, g.points) for g in games]
        verbs.replace_rows(table, office, rows, {})
        verbs.submit(table, office)
        verbs.confirm(table, office)
    verbs.close_round(round_, director_user)
    return round_


@pytest.fixture
def played(tournament, director_user):
    entries = [
        EntryFactory(tournament=tournament, start_number=n, player=PlayerFactory())
        for n in range(1, 10)
    ]
    rounds = [play_round(tournament, n, entries, director_user, seed=10 * n) for n in (1, 2)]
    return tournament, rounds


def figures(tournament):
    """What the standings and the federation export show of every player."""
    standings = standings_domain.compute(tournament)
    games = federation.games_played(standings)
    return [
        (line.entry.start_number, line.rank, line.rounds, line.penalties, line.total,
         games.get(line.entry.pk))
        for line in standings.lines
    ]  # fmt: skip


def from_the_games(tournament):
    """The same figures with no result stored: every round summed from its games."""
    kept = list(RoundResult.objects.all())
    RoundResult.objects.all().delete()
    try:
        return figures(tournament)
    finally:
        RoundResult.objects.bulk_create(kept)


def test_closing_stores_every_players_result_and_corrections_store_it_anew(played, director_user):
    tournament, (first, second) = played
    stored = RoundResult.objects.filter(round=first)
    assert stored.count() == 9 and RoundResult.objects.filter(round=second).count() == 9
    five = first.tables.get(number=2)
    # At the five-table each player sits out the games they deal (TSR 3.3.1).
    assert sorted(r.games for r in stored.filter(entry__seats__table=five)) != [24] * 5
    assert all(r.pflichtsoli == 1 and r.pflichtsoli_missing == 0 for r in stored)
    assert results.differences() == []
    assert figures(tournament) == from_the_games(tournament)

    office = verbs.office_actor(director_user, director=True)
    four = first.tables.get(number=1)
    game = four.games.get(number=1)
    seated = Seat.objects.get(table=four, position=1).entry
    before = RoundResult.objects.get(round=first, entry=seated).points
    changed = [game.p2, game.p1, game.p4, game.p3]  # the other side won the game
    verbs.save_row(
        four, office, verbs.RowInput(game.kind, game.soloist_position, tuple(changed)),
        number=1, version=game.version, reason="Zahlendreher",
    )  # fmt: skip
    after = RoundResult.objects.get(round=first, entry=seated).points
    assert after == before - game.p1 + game.p2
    last = five.games.order_by("-number").first()
    verbs.delete_last(five, office, number=last.number, version=last.version, reason="doppelt")
    late = Facts(1, 2, Category.GERINGFUEGIG, reason="nachträglich gemeldet")
    penalty = penalties.enter(four, late, director_user, sign=True, director=True)
    offender = RoundResult.objects.get(round=first, entry=penalty.offender)
    assert offender.penalties == penalty.points[1] < 0

    assert results.differences() == []
    assert figures(tournament) == from_the_games(tournament)
    penalties.revoke(penalty, director_user, "Schiedsgericht", director=True)
    assert RoundResult.objects.get(round=first, entry=penalty.offender).penalties == 0
    assert results.differences() == []


def test_checkresults_reports_a_tampered_result(played):
    tournament, (first, _second) = played
    call_command("checkresults", stdout=StringIO())  # no difference: no error

    row = RoundResult.objects.filter(round=first).order_by("entry__start_number").first()
    row.points += 5
    row.save()
    out = StringIO()
    with pytest.raises(CommandError) as failure:
        call_command("checkresults", stdout=out)
    assert failure.value.returncode == 1
    [line] = out.getvalue().splitlines()  # one difference, named by round and player
    assert line.startswith(tournament.slug)
    assert f"{row.points}" in line and f"{row.points - 5}" in line

    with pytest.raises(CommandError):
        call_command("checkresults", "--store", stdout=StringIO())
    assert RoundResult.objects.get(round=first, entry=row.entry).points == row.points - 5
    call_command("checkresults", stdout=StringIO())  # agrees again: no error


def test_an_admin_edit_of_a_closed_round_stores_its_results_anew(client, played):
    tournament, (first, _second) = played
    client.force_login(UserFactory(username="admin", is_staff=True, is_superuser=True))
    table = first.tables.get(number=1)
    last = table.games.order_by("-number").first()
    url = reverse("admin:tournament_game_delete", args=[last.pk])
    assert client.post(url, {"post": "yes"}).status_code == 302
    seated = Seat.objects.get(table=table, position=1).entry
    assert RoundResult.objects.get(round=first, entry=seated).games == last.number - 1
    assert results.differences() == []
    assert figures(tournament) == from_the_games(tournament)


def test_a_changed_rule_profile_stores_the_closed_rounds_anew(played, director_user):
    """The stored results are computed with the rule profile (its Pflichtsolo rules): a
    director who changes it after rounds are closed sees them computed again."""
    from tournament.domain.tournaments import update_tournament

    tournament, _rounds = played
    stored = set(RoundResult.objects.values_list("pk", flat=True))
    assert stored
    tournament.venue = "Bürgerhaus"  # another setting: the results stay as they are
    update_tournament(tournament, director_user)
    assert set(RoundResult.objects.values_list("pk", flat=True)) == stored
    tournament.rule_profile = "eppstein-2001"
    update_tournament(tournament, director_user)
    assert not stored & set(RoundResult.objects.values_list("pk", flat=True))  # written anew
    assert results.differences([tournament]) == []
    assert figures(tournament) == from_the_games(tournament)
