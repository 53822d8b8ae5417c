import pytest

from tests.factories import EntryFactory, PlayerFactory, TournamentFactory, director
from tournament.domain import DomainError
from tournament.domain.registration import PlayerData, register, set_checked_in, set_status
from tournament.models import EntryStatus, Player

pytestmark = pytest.mark.django_db


def test_start_numbers_count_up_from_the_highest_and_leave_gaps_alone(tournament):
    EntryFactory(tournament=tournament, start_number=10)
    first = register(tournament, PlayerData("Anna", "Schäfer"))
    second = register(tournament, PlayerData("Bernd", "Wolf"), start_number=3)
    third = register(tournament, PlayerData("Carla", "Vogt"))
    assert (first.start_number, second.start_number, third.start_number) == (11, 3, 12)


def test_a_taken_start_number_is_refused_and_writes_nothing(tournament):
    EntryFactory(tournament=tournament, start_number=5)
    players_before = Player.objects.count()
    with pytest.raises(DomainError, match="Startnummer 5 ist bereits vergeben"):
        register(tournament, PlayerData("Neu", "Ling"), start_number=5)
    assert Player.objects.count() == players_before
    assert tournament.entries.count() == 1


def test_a_player_of_the_directors_earlier_tournament_is_reused(tournament, director_user):
    known = PlayerFactory(first_name="Jürgen", last_name="Müller", club="Herz Dame Fulda")
    earlier = TournamentFactory(directors=[director_user])
    EntryFactory(tournament=earlier, player=known)
    data = PlayerData("Ju\u0308rgen", "MÜLLER", "herz dame fulda")
    assert register(tournament, data, director=director_user).player == known


def test_a_player_the_director_does_not_know_is_not_reused(tournament, director_user):
    """Linking would show the stored club in the entry list: a player of nobody's or of
    another director's tournament becomes a new player (duplicates are merged later)."""
    unlinked = PlayerFactory(first_name="Jürgen", last_name="Müller", club="Herz Dame Fulda")
    foreign = PlayerFactory(first_name="Anna", last_name="Schäfer", ddv_number="4711")
    EntryFactory(tournament=TournamentFactory(directors=[director(username="x")]), player=foreign)
    first = register(tournament, PlayerData("Jürgen", "Müller"), director=director_user)
    second = register(tournament, PlayerData("Anna", "Schäfer"), director=director_user)
    assert first.player != unlinked and second.player != foreign
    assert (second.player.club, second.player.ddv_number) == ("", "")
    # A member number together with its holder's name does identify the player.
    other = TournamentFactory(directors=[director_user])
    assert register(other, PlayerData("anna", "SCHÄFER", "", "4711")).player == foreign


def test_the_same_player_cannot_register_twice(tournament):
    register(tournament, PlayerData("Anna", "Schäfer", "DSC"))
    with pytest.raises(DomainError, match="bereits angemeldet"):
        register(tournament, PlayerData("anna", "schäfer", "DSC"))


def test_withdrawing_keeps_the_start_number_and_readmitting_restores_the_entry(tournament):
    entry = register(tournament, PlayerData("Anna", "Schäfer"))
    set_checked_in(entry, True)
    withdrawn = set_status(entry, EntryStatus.WITHDRAWN)
    assert withdrawn.status == EntryStatus.WITHDRAWN and not withdrawn.checked_in
    assert register(tournament, PlayerData("Bernd", "Wolf")).start_number == 2
    readmitted = set_status(entry, EntryStatus.ACTIVE)
    assert readmitted.start_number == entry.start_number == 1


def test_only_active_players_check_in(tournament):
    entry = set_status(register(tournament, PlayerData("Anna", "Schäfer")), "withdrawn")
    with pytest.raises(DomainError):
        set_checked_in(entry, True)
    entry.refresh_from_db()
    assert not entry.checked_in
