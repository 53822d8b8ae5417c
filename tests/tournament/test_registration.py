import io

import pytest
from django.core.management import CommandError, call_command

from tests.factories import (
    EntryFactory,
    PlayerFactory,
    RoundFactory,
    TournamentFactory,
    UserFactory,
    director,
    released_table,
)
from tournament.domain.entries import (
    check_in_all,
    check_in_number,
    edit_entry,
    register,
    set_checked_in,
    set_status,
)
from tournament.domain.players import merge_players
from tournament.errors import DomainError
from tournament.models import Entry, EntryStatus, Player, Seat, Table
from tournament.models.audit import history_reason
from tournament.queries.players import PlayerData

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
    with pytest.raises(DomainError, match="bereits mit Startnummer 1 angemeldet"):
        register(tournament, PlayerData("anna", "schäfer", "DSC"))


def test_withdrawing_keeps_the_start_number_and_readmitting_restores_the_entry(tournament):
    entry = register(tournament, PlayerData("Anna", "Schäfer"))
    set_checked_in(entry, True, None)
    withdrawn = set_status(entry, EntryStatus.WITHDRAWN, None)
    assert withdrawn.status == EntryStatus.WITHDRAWN and not withdrawn.checked_in
    assert register(tournament, PlayerData("Bernd", "Wolf")).start_number == 2
    readmitted = set_status(entry, EntryStatus.ACTIVE, None)
    assert readmitted.start_number == entry.start_number == 1


def test_only_active_players_check_in(tournament):
    entry = set_status(register(tournament, PlayerData("Anna", "Schäfer")), "withdrawn", None)
    with pytest.raises(DomainError):
        set_checked_in(entry, True, None)
    entry.refresh_from_db()
    assert not entry.checked_in


# --- correcting an entry (issue 15, point 5) -----------------------------------------------


def _data(entry, **changes):
    player = entry.player
    values = {
        "first_name": player.first_name,
        "last_name": player.last_name,
        "club": player.club,
        "ddv_number": player.ddv_number,
    }
    values.update(changes)
    return PlayerData(**values)


def test_a_typo_in_the_name_is_corrected_on_the_player_with_history(tournament, director_user):
    entry = register(tournament, PlayerData("Ana", "Schäffer", "DSC"), director=director_user)
    edited = edit_entry(
        entry,
        _data(entry, first_name="Anna", last_name="Schäfer", club="DSC Fulda", ddv_number="77"),
        team_name="Nordlichter",
        start_number=entry.start_number,
        user=director_user,
        reason="Tippfehler",
    )
    player = Player.objects.get(pk=entry.player_id)
    assert (player.full_name, player.club, player.ddv_number) == ("Anna Schäfer", "DSC Fulda", "77")
    assert edited.team.name == "Nordlichter"
    last = player.history.first()
    assert (last.history_user, history_reason(last)) == (director_user, "Tippfehler")
    assert last.first_name == "Anna" and player.history.count() == 2
    assert entry.history.first().history_user == director_user
    # Adding the corrected person again is refused as already registered.
    with pytest.raises(DomainError, match="bereits mit Startnummer 1 angemeldet"):
        register(tournament, PlayerData("Anna", "Schaefer", "DSC Fulda"), director=director_user)


def test_a_ddv_number_of_another_player_is_refused_and_nothing_changes(tournament, director_user):
    PlayerFactory(first_name="Bernd", last_name="Wolf", ddv_number="4711")
    entry = register(tournament, PlayerData("Anna", "Schäfer"), director=director_user)
    with pytest.raises(DomainError, match="4711 gehört einem anderen Spieler"):
        edit_entry(
            entry,
            _data(entry, last_name="Schaefer", ddv_number="4711"),
            team_name="",
            start_number=entry.start_number,
            user=director_user,
        )
    player = Player.objects.get(pk=entry.player_id)
    assert (player.last_name, player.ddv_number, player.history.count()) == ("Schäfer", "", 1)


def test_the_start_number_changes_only_before_the_first_draw(tournament, director_user):
    first = register(tournament, PlayerData("Anna", "Schäfer"))
    second = register(tournament, PlayerData("Bernd", "Wolf"))
    with pytest.raises(DomainError, match="Startnummer 1 ist bereits vergeben"):
        edit_entry(second, _data(second), team_name="", start_number=1, user=director_user)
    moved = edit_entry(second, _data(second), team_name="", start_number=17, user=director_user)
    assert moved.start_number == 17
    RoundFactory(tournament=tournament)
    with pytest.raises(DomainError, match="erste Runde ist ausgelost"):
        edit_entry(first, _data(first), team_name="", start_number=5, user=director_user)
    first.refresh_from_db()
    assert first.start_number == 1
    # Everything else can still be corrected.
    edit_entry(first, _data(first, club="Neu"), team_name="", start_number=1, user=director_user)
    assert Player.objects.get(pk=first.player_id).club == "Neu"


def test_a_player_of_another_directors_tournament_keeps_their_data(tournament, director_user):
    """The player database is shared: what another tournament shows is not this director's
    to change. Team and start number of their own entry are."""
    entry = register(tournament, PlayerData("Anna", "Schäfer"), director=director_user)
    EntryFactory(
        tournament=TournamentFactory(directors=[director(username="x")]), player=entry.player
    )
    with pytest.raises(DomainError, match="Administrator"):
        edit_entry(entry, _data(entry, club="X"), team_name="", start_number=1, user=director_user)
    assert Player.objects.get(pk=entry.player_id).club == ""
    edited = edit_entry(entry, _data(entry), team_name="T", start_number=3, user=director_user)
    assert (edited.team.name, edited.start_number) == ("T", 3)
    admin = UserFactory(is_superuser=True)
    edit_entry(entry, _data(entry, club="X"), team_name="T", start_number=3, user=admin)
    assert Player.objects.get(pk=entry.player_id).club == "X"


# --- bulk check-in (issue 15, point 6) -------------------------------------------------------


def test_all_present_checks_in_every_active_player_with_history(tournament, director_user):
    entries = [register(tournament, PlayerData("A", f"Spieler{n}")) for n in range(5)]
    set_checked_in(entries[0], True, None)
    set_status(entries[1], EntryStatus.WITHDRAWN, None)
    assert check_in_all(tournament, user=director_user) == 3
    states = dict(tournament.entries.values_list("pk", "checked_in"))
    assert states == {entries[0].pk: True, entries[1].pk: False} | {e.pk: True for e in entries[2:]}
    record = Entry.objects.get(pk=entries[4].pk).history.first()
    assert (record.history_user, history_reason(record)) == (director_user, "alle anwesend")
    assert check_in_all(tournament, user=director_user) == 0
    # A wrong check-in is undone one by one, as before.
    assert not set_checked_in(entries[2], False, None).checked_in


def test_check_in_by_number_refuses_unknown_withdrawn_and_twice(tournament, director_user):
    anna = register(tournament, PlayerData("Anna", "Schäfer"))
    bernd = set_status(
        register(tournament, PlayerData("Bernd", "Wolf")), EntryStatus.WITHDRAWN, None
    )
    assert check_in_number(tournament, 1, user=director_user).pk == anna.pk
    with pytest.raises(DomainError, match=r"Anna Schäfer \(1\) ist bereits eingecheckt"):
        check_in_number(tournament, 1, user=director_user)
    with pytest.raises(DomainError, match=r"Bernd Wolf \(2\) ist zurückgezogen"):
        check_in_number(tournament, bernd.start_number, user=director_user)
    with pytest.raises(DomainError, match="Startnummer 99 hat niemand"):
        check_in_number(tournament, 99, user=director_user)
    assert list(tournament.entries.filter(checked_in=True)) == [anna]


# --- merging duplicates (issue 15, point 7) --------------------------------------------------


def test_merging_moves_the_entries_deletes_the_duplicate_and_records_it(director_user):
    earlier = TournamentFactory(directors=[director_user])
    later = TournamentFactory(directors=[director_user])
    keep = PlayerFactory(first_name="Anna", last_name="Schäfer", club="")
    drop = PlayerFactory(first_name="Anna", last_name="Schaefer", club="DSC", ddv_number="12")
    EntryFactory(tournament=earlier, player=keep)
    moved = EntryFactory(tournament=later, player=drop)
    merged = merge_players(keep, drop, user=director_user, reason="dieselbe Person")
    assert not Player.objects.filter(pk=drop.pk).exists()
    assert Entry.objects.get(pk=moved.pk).player == merged == keep
    assert (merged.club, merged.ddv_number) == ("DSC", "12")  # what the kept one lacked
    gone = Player.history.filter(id=drop.pk).first()
    assert gone.history_type == "-" and gone.history_user == director_user
    assert "dieselbe Person" in history_reason(gone)
    assert f"{drop.pk}" in history_reason(moved.history.first())


def test_a_person_added_twice_to_one_tournament_is_merged_until_both_have_played(
    tournament, director_user
):
    """Added again as "Schafer" by mistake: merging removes the second entry while it never
    sat at a table; once both played, their results stay apart."""
    keep, drop = PlayerFactory(last_name="Schäfer"), PlayerFactory(last_name="Schafer")
    kept = EntryFactory(tournament=tournament, player=keep)
    double = EntryFactory(tournament=tournament, player=drop)
    merge_players(keep, drop, user=director_user, reason="zweimal angemeldet")
    assert list(tournament.entries.all()) == [kept]
    assert not Player.objects.filter(pk=drop.pk).exists()
    record = Entry.history.filter(id=double.pk).first()
    assert record.history_type == "-" and "zweimal angemeldet" in history_reason(record)

    again = PlayerFactory(last_name="Schafer")
    seated = EntryFactory(tournament=tournament, player=again)
    round_ = released_table(tournament, first_start=100).round
    table = Table.objects.create(round=round_, number=2, size=4)
    Seat.objects.create(round=round_, table=table, entry=seated, position=1)
    with pytest.raises(DomainError, match="beide in „Herbstturnier“ gespielt"):
        merge_players(keep, again, user=director_user, reason="x")
    assert Player.objects.filter(pk=again.pk).exists() and seated in tournament.entries.all()


def test_merging_players_of_another_directors_tournament_needs_an_administrator(
    tournament, director_user
):
    keep, drop = PlayerFactory(last_name="Schäfer"), PlayerFactory(last_name="Schaefer")
    EntryFactory(tournament=tournament, player=keep)
    foreign = TournamentFactory(directors=[director(username="x")])
    EntryFactory(tournament=foreign, player=drop)
    with pytest.raises(DomainError, match="Administrator"):
        merge_players(keep, drop, user=director_user, reason="x")
    # Staff status only opens the admin site: it is not the administrator's right.
    director_user.is_staff = True
    director_user.save()
    with pytest.raises(DomainError, match="Administrator"):
        merge_players(keep, drop, user=director_user, reason="x")
    assert Player.objects.filter(pk=drop.pk).exists()
    merge_players(keep, drop, user=UserFactory(is_superuser=True), reason="x")
    assert not Player.objects.filter(pk=drop.pk).exists()


def test_merging_two_different_ddv_numbers_or_without_reason_is_refused(director_user, tournament):
    keep = PlayerFactory(last_name="Schäfer", ddv_number="1")
    drop = PlayerFactory(last_name="Schaefer", ddv_number="2")
    EntryFactory(tournament=tournament, player=keep)
    EntryFactory(tournament=TournamentFactory(directors=[director_user]), player=drop)
    with pytest.raises(DomainError, match="verschiedene DDV-Mitgliedsnummern"):
        merge_players(keep, drop, user=director_user, reason="x")
    with pytest.raises(DomainError, match="warum"):
        merge_players(keep, drop, user=director_user, reason="  ")
    assert Player.objects.count() == 2


def test_the_mergeplayers_command_lists_and_merges_duplicates(tournament):
    keep = PlayerFactory(first_name="Jürgen", last_name="Müller", club="")
    drop = PlayerFactory(first_name="Juergen", last_name="Mueller", club="Kassel")
    EntryFactory(tournament=tournament, player=drop)
    out = io.StringIO()
    call_command("mergeplayers", "--list", stdout=out)
    assert f"#{keep.pk} Jürgen Müller = #{drop.pk} Juergen Mueller (Kassel)" in out.getvalue()
    with pytest.raises(CommandError, match="warum"):
        call_command("mergeplayers", str(keep.pk), str(drop.pk))
    call_command("mergeplayers", str(keep.pk), str(drop.pk), reason="Tippfehler", stdout=out)
    assert tournament.entries.get().player == keep
    assert Player.objects.get().club == "Kassel"
    gone = Player.history.filter(id=drop.pk, history_type="-").get()
    assert gone.history_user is None and "Tippfehler" in history_reason(gone)


def test_saving_an_unchanged_entry_writes_no_history(tournament, director_user):
    entry = register(tournament, PlayerData("Anna", "Schäfer"), team_name="T")
    before = (entry.history.count(), entry.player.history.count())
    edit_entry(entry, _data(entry), team_name="T", start_number=1, user=director_user)
    assert (entry.history.count(), entry.player.history.count()) == before


def test_a_correction_cannot_make_an_entry_the_namesake_of_another(tournament, director_user):
    """Adding "Juergen Mueller" next to Jürgen Müller is refused; renaming an entry into him
    must be too (merging is the way for one person registered twice)."""
    register(tournament, PlayerData("Jürgen", "Müller"), start_number=1)
    other = register(tournament, PlayerData("Petra", "Kessler"), start_number=2)
    with pytest.raises(DomainError, match="bereits mit Startnummer 1 angemeldet"):
        edit_entry(
            other,
            PlayerData("Juergen", "Mueller"),
            team_name="",
            start_number=2,
            user=director_user,
        )
    assert Player.objects.get(pk=other.player_id).last_name == "Kessler"
