"""Seat wishes, the director's side (issue 39, README "Sitzwünsche"): never-together groups
entered by start number on the players page, a player's fixed table on the entry's edit
page, team-mates apart in the settings; refusals that name the players and change nothing;
the warnings before a draw; the history; the archive (full file only) and the deletion of
personal data. The draw that reads them is tested in test_draw_wishes.py."""

import pytest
from django.urls import reverse

from tests import factories
from tests.tournament.archive.conftest import forget
from tests.tournament.test_tournaments import as_browser_sends
from tournament import archive
from tournament.domain import draw as draw_domain
from tournament.domain.personal_data import forget_personal_data
from tournament.domain.players import merge_players
from tournament.domain.wishes import add_apart_group, remove_apart_group, set_fixed_table
from tournament.errors import DomainError
from tournament.forms import TournamentForm
from tournament.models import (
    ApartGroup,
    DrawLog,
    Entry,
    EntryStatus,
    RoundStatus,
    Team,
    Tournament,
    TournamentStatus,
)
from tournament.models.audit import history_reason
from tournament.queries.personal_data import personal_data
from tournament.queries.wishes import seat_wishes

pytestmark = pytest.mark.django_db

NAMES = ["Anna Schäfer", "Bernd Schäfer", "Carla Vogt", "Dieter Wolf", "Eva Roth", "Fritz Kern"]


@pytest.fixture
def field(tournament):
    """Start numbers 1 to 8; the first six with the names above."""
    entries = []
    for number in range(1, 9):
        first, last = (NAMES[number - 1] if number <= 6 else f"Vor{number} Nach{number}").split()
        player = factories.PlayerFactory(first_name=first, last_name=last)
        entries.append(
            factories.EntryFactory(tournament=tournament, player=player, start_number=number)
        )
    return entries


def players_page(client, tournament, **headers):
    return client.get(reverse("manage:entry-list", args=[tournament.slug]), **headers)


def add_url(tournament):
    return reverse("manage:seat-wishes", args=[tournament.slug])


def edit_url(tournament, entry):
    return reverse("manage:entry-edit", args=[tournament.slug, entry.pk])


def members(group):
    return sorted(group.members.values_list("start_number", flat=True))


# --- the verbs ------------------------------------------------------------------------------


def test_a_couple_becomes_a_group_with_its_history(tournament, field, director_user):
    group = add_apart_group(tournament, [2, 1], "Ehepaar", director_user)
    assert members(group) == [1, 2] and group.note == "Ehepaar"
    created = group.history.get()
    assert (created.history_type, created.history_user) == ("+", director_user)
    assert history_reason(created) == "nie an einem Tisch: 2, 1"
    for entry in field[:2]:
        latest = entry.history.first()
        assert latest.apart_group_id == group.pk and latest.history_user == director_user


@pytest.mark.parametrize(
    ("numbers", "message"),
    [
        ([3], "mindestens zwei verschiedene Startnummern"),
        ([3, 3], "mindestens zwei verschiedene Startnummern"),
        ([3, 99], "Niemand hat die Startnummer 99."),
        ([3, 98, 99], "Niemand hat die Startnummern 98, 99."),
        ([1, 3], "Anna Schäfer (1) ist schon in einer Nie-zusammen-Gruppe"),
        ([1, 2, 3], "Anna Schäfer (1), Bernd Schäfer (2) sind schon in Nie-zusammen-Gruppen"),
    ],
)
def test_a_refused_group_names_the_players_and_writes_nothing(
    tournament, field, director_user, numbers, message
):
    add_apart_group(tournament, [1, 2], "", director_user)
    with pytest.raises(DomainError, match=message.replace("(", r"\(").replace(")", r"\)")):
        add_apart_group(tournament, numbers, "", director_user)
    assert ApartGroup.objects.count() == 1
    assert Entry.objects.filter(apart_group__isnull=False).count() == 2


def test_a_start_number_of_another_tournament_is_nobody_here(tournament, field, director_user):
    other = factories.EntryFactory(start_number=50)
    with pytest.raises(DomainError, match="Niemand hat die Startnummer 50"):
        add_apart_group(tournament, [1, 50], "", director_user)
    assert other.tournament.apart_groups.count() == 0


def test_removing_a_group_frees_its_players(tournament, field, director_user):
    group = add_apart_group(tournament, [1, 2, 3], "Familie", director_user)
    remove_apart_group(group, director_user)
    assert not ApartGroup.objects.exists()
    assert not Entry.objects.filter(apart_group__isnull=False).exists()
    gone = ApartGroup.history.filter(history_type="-").get()
    assert gone.history_user == director_user
    assert history_reason(field[2].history.first()) == "nie an einem Tisch entfernt: 1, 2, 3"
    with pytest.raises(DomainError, match="wurde schon entfernt"):
        remove_apart_group(group, director_user)
    # Free again: one of them may now join another group.
    add_apart_group(tournament, [1, 4], "", director_user)


def test_a_fixed_table_is_one_players_table(tournament, field, director_user):
    set_fixed_table(field[0], 1, director_user)
    assert Entry.objects.get(pk=field[0].pk).fixed_table == 1
    assert history_reason(field[0].history.first()) == "fester Tisch 1"
    taken = r"Tisch 1 ist schon der feste Tisch von Anna Schäfer \(1\)"
    with pytest.raises(DomainError, match=taken):
        set_fixed_table(field[1], 1, director_user)
    assert Entry.objects.get(pk=field[1].pk).fixed_table is None
    with pytest.raises(DomainError, match="von 1 bis 250"):
        set_fixed_table(field[1], 251, director_user)
    set_fixed_table(field[0], None, director_user)
    assert history_reason(field[0].history.first()) == "fester Tisch entfernt"
    set_fixed_table(field[1], 1, director_user)  # free again
    records = field[1].history.count()
    set_fixed_table(field[1], 1, director_user)  # nothing changes, nothing written
    assert field[1].history.count() == records


def test_a_withdrawn_player_holds_no_table(tournament, field, director_user):
    """The draw leaves a withdrawn player out, so their fixed table is free for another."""
    set_fixed_table(field[0], 1, director_user)
    Entry.objects.filter(pk=field[0].pk).update(status=EntryStatus.WITHDRAWN)
    set_fixed_table(field[1], 1, director_user)
    assert Entry.objects.get(pk=field[1].pk).fixed_table == 1
    # The new holder is active: nobody else gets the table.
    with pytest.raises(DomainError, match=r"feste Tisch von Bernd Schäfer \(2\)"):
        set_fixed_table(field[2], 1, director_user)
    # Re-admitted, the first holder shares the table again: the card says the draw refuses.
    Entry.objects.filter(pk=field[0].pk).update(status=EntryStatus.ACTIVE)
    [warning] = seat_wishes(tournament).warnings
    assert "1 Anna Schäfer (Tisch 1), 2 Bernd Schäfer (Tisch 1)" in warning


def test_a_player_entered_twice_keeps_the_wishes_of_the_double(tournament, field, director_user):
    """Added again as "Schafer" by mistake, and the couple entered with the double's number:
    merging the two keeps the couple and the fixed table."""
    double = factories.EntryFactory(
        tournament=tournament,
        start_number=20,
        player=factories.PlayerFactory(first_name="Anna", last_name="Schafer"),
    )
    add_apart_group(tournament, [2, 20], "Ehepaar", director_user)
    set_fixed_table(double, 2, director_user)
    merge_players(field[0].player, double.player, user=director_user, reason="zweimal")
    anna = Entry.objects.get(pk=field[0].pk)
    assert anna.fixed_table == 2
    assert members(anna.apart_group) == [1, 2]


# --- what the players page warns of --------------------------------------------------------


def refused_by_the_draw(tournament, user) -> str:
    """The draw's refusal, for the checked-in field."""
    with pytest.raises(DomainError) as refused:
        draw_domain.draw(tournament, user, seed=1, time_limit=0.2)
    return refused.value.message


def test_a_group_larger_than_the_tables_is_taken_with_a_warning(tournament, field, director_user):
    # 8 players: 2 tables. Three who never meet cannot sit at two tables.
    add_apart_group(tournament, [1, 2, 3], "", director_user)
    wishes = seat_wishes(tournament)
    assert (wishes.players, wishes.tables) == (8, 2)
    assert wishes.warnings == [
        "8 Spieler sitzen an 2 Tischen: die Auslosung würde ablehnen. Diese 3 Spieler dürfen "
        "nie an einem Tisch sitzen, aber das Feld hat nur 2 Tische: 1 Anna Schäfer, 2 Bernd "
        "Schäfer, 3 Carla Vogt. Verkleinern Sie die Gruppe oder checken Sie mehr Spieler ein."
    ]
    # Once check-in began, the checked-in players are the field; the group's absent member
    # does not count, and the card says what the draw says.
    Entry.objects.filter(start_number__in=[1, 2, 4, 5]).update(checked_in=True)
    wishes = seat_wishes(tournament)
    assert (wishes.players, wishes.tables) == (4, 1)
    refused = refused_by_the_draw(tournament, director_user)
    assert "Diese 2 Spieler" in refused and "Carla" not in refused
    assert wishes.warnings == [
        f"4 Spieler sitzen an 1 Tisch: die Auslosung würde ablehnen. {refused}"
    ]


def test_a_fixed_table_beyond_the_field_is_warned_of(tournament, field, director_user):
    set_fixed_table(field[4], 3, director_user)
    assert seat_wishes(tournament).warnings == [
        "8 Spieler sitzen an 2 Tischen: die Auslosung würde ablehnen. Das Feld hat nur 2 "
        "Tische, diese festen Tische gibt es also nicht: 5 Eva Roth (Tisch 3). Ändern Sie den "
        "festen Tisch oder checken Sie mehr Spieler ein."
    ]


def test_teams_kept_apart_warn_of_a_team_larger_than_the_tables(tournament, field):
    team = Team.objects.create(tournament=tournament, name="Nordlichter")
    Entry.objects.filter(start_number__in=[1, 2, 3]).update(team=team)
    assert seat_wishes(tournament).warnings == []  # teams may meet: nothing to warn of
    tournament.teams_apart = True
    tournament.save()
    [warning] = seat_wishes(tournament).warnings
    assert warning.startswith("8 Spieler sitzen an 2 Tischen: die Auslosung würde ablehnen. ")
    assert "Team Nordlichter" in warning and "1 Anna Schäfer, 2 Bernd Schäfer" in warning


def test_the_card_warns_of_every_refusal_of_the_draw(tournament, field, director_user):
    """Wishes that each fit but not together: fixed tables 1 and 2 leave a couple {1, 3} and
    a team {2, 3} kept apart no room. The card says what the draw says."""
    Entry.objects.update(checked_in=True)
    tournament.teams_apart = True
    tournament.save()
    team = Team.objects.create(tournament=tournament, name="Blau")
    Entry.objects.filter(start_number__in=[2, 3]).update(team=team)
    add_apart_group(tournament, [1, 3], "Paar", director_user)
    set_fixed_table(field[0], 1, director_user)
    set_fixed_table(field[1], 2, director_user)
    refused = refused_by_the_draw(tournament, director_user)
    assert "Die Nie-zusammen-Wünsche" in refused
    assert seat_wishes(tournament).warnings == [
        f"8 Spieler sitzen an 2 Tischen: die Auslosung würde ablehnen. {refused}"
    ]
    # One wish less and the draw takes the field: so does the card.
    set_fixed_table(field[1], None, director_user)
    assert seat_wishes(tournament).warnings == []
    draw_domain.draw(tournament, director_user, seed=1, time_limit=0.2)


def test_the_card_reads_in_a_fixed_number_of_queries(
    tournament, field, director_user, django_assert_num_queries
):
    add_apart_group(tournament, [1, 2], "", director_user)
    add_apart_group(tournament, [3, 4, 5], "", director_user)
    set_fixed_table(field[6], 1, director_user)
    tournament.teams_apart = True
    # counts, groups, their players, drawn rounds, the field's wishes; the refused players
    with django_assert_num_queries(6):
        wishes = seat_wishes(tournament)
    assert [members.numbers for members in wishes.groups] == ["1, 2", "3, 4, 5"]
    assert len(wishes.warnings) == 1  # three never together at two tables


# --- the players page -----------------------------------------------------------------------


def test_the_card_stands_outside_the_live_part(director_client, tournament, field):
    page = players_page(director_client, tournament).content.decode()
    assert "Sitzwünsche" in page and 'id="apart-group-form"' in page
    # The poll every few seconds never brings (and so never replaces) the card's form.
    polled = director_client.get(
        reverse("manage:entry-list", args=[tournament.slug]), HTTP_HX_REQUEST="true"
    ).content.decode()
    assert "seat-wishes" not in polled


def test_a_group_typed_on_the_players_page_is_listed(director_client, tournament, field):
    response = director_client.post(add_url(tournament), {"numbers": "1, 2", "note": "Ehepaar"})
    assert response.status_code == 302
    assert response["Location"].endswith(f"/manage/{tournament.slug}/#seat-wishes")
    page = players_page(director_client, tournament).content.decode()
    added = page.index("Nie an einem Tisch: Anna Schäfer (1), Bernd Schäfer (2).")
    assert added > page.index('id="seat-wishes"')  # in the card, where the browser lands
    group = ApartGroup.objects.get()
    assert f'id="apart-group-{group.pk}"' in page and "Ehepaar" in page
    remove = reverse("manage:seat-wish-remove", args=[tournament.slug, group.pk])
    assert f'action="{remove}"' in page
    assert director_client.post(remove).status_code == 302
    assert not ApartGroup.objects.exists()
    page = players_page(director_client, tournament).content.decode()
    assert "Nie an einem Tisch 1, 2 entfernt." in page
    director_client.post(remove)  # a second click
    assert "wurde schon entfernt" in players_page(director_client, tournament).content.decode()


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("", "Geben Sie die Startnummern ein, z. B. 12, 47."),
        ("1, zwei", "Nur Startnummern, durch Kommas getrennt"),
        ("12, ²", "Nur Startnummern, durch Kommas getrennt"),
        ("12, ①", "Nur Startnummern, durch Kommas getrennt"),
        ("١٢, 47", "Nur Startnummern, durch Kommas getrennt"),
        ("1", "mindestens zwei verschiedene Startnummern"),
        ("1; 99", "Niemand hat die Startnummer 99."),
    ],
)
def test_refused_numbers_come_back_with_the_message(
    director_client, tournament, field, typed, message
):
    response = director_client.post(add_url(tournament), {"numbers": typed, "note": "Paar"})
    assert response.status_code == 400
    page = response.content.decode()
    assert message in page
    assert f'value="{typed}"' in page if typed else 'name="numbers"' in page
    assert not ApartGroup.objects.exists()


def test_the_refusal_is_english_for_an_english_reader(director_client, tournament, field):
    director_client.cookies["django_language"] = "en"
    add_apart_group(tournament, [1, 2], "", None)
    page = director_client.post(add_url(tournament), {"numbers": "2 3"}).content.decode()
    assert "Bernd Schäfer (2) is in a never-together group already" in page
    page = players_page(director_client, tournament).content.decode()
    assert "Seat wishes" in page and "Never at one table" in page


def test_the_fixed_tables_are_listed_with_a_link_to_the_player(
    director_client, tournament, field, director_user
):
    set_fixed_table(field[2], 1, director_user)
    page = players_page(director_client, tournament).content.decode()
    assert f'href="{edit_url(tournament, field[2])}">3 Carla Vogt</a>' in page
    assert "Tisch 1" in page


def test_a_drawn_round_is_named_when_wishes_change(director_client, tournament, field):
    add_apart_group(tournament, [1, 2], "", None)
    factories.RoundFactory(tournament=tournament, number=1, status=RoundStatus.DRAWN)
    page = players_page(director_client, tournament).content.decode()
    assert "Runde 1 ist schon ausgelost: eine Änderung gilt ab der nächsten Auslosung" in page


def test_another_director_cannot_touch_the_wishes(client, tournament, field):
    group = add_apart_group(tournament, [1, 2], "", None)
    client.force_login(factories.director())
    assert client.post(add_url(tournament), {"numbers": "3, 4"}).status_code == 404
    remove = reverse("manage:seat-wish-remove", args=[tournament.slug, group.pk])
    assert client.post(remove).status_code == 404
    assert ApartGroup.objects.count() == 1


# --- the entry's edit page and the settings -------------------------------------------------


def edit_data(entry, **changes):
    player = entry.player
    data = {
        "first_name": player.first_name,
        "last_name": player.last_name,
        "club": player.club,
        "ddv_number": player.ddv_number,
        "team": "",
        "start_number": str(entry.start_number),
        "publish": "on",
    }
    return data | changes


def test_the_fixed_table_is_set_on_the_edit_page(director_client, tournament, field):
    anna = field[0]
    response = director_client.post(edit_url(tournament, anna), edit_data(anna, fixed_table="2"))
    assert response.status_code == 302
    assert Entry.objects.get(pk=anna.pk).fixed_table == 2
    page = director_client.get(edit_url(tournament, anna)).content.decode()
    assert 'name="fixed_table" value="2"' in page
    assert "fester Tisch 2" in page  # in the history


def test_a_taken_table_refuses_the_whole_correction(director_client, tournament, field):
    set_fixed_table(field[0], 2, None)
    bernd = field[1]
    data = edit_data(bernd, fixed_table="2", club="Neuer Verein")
    response = director_client.post(edit_url(tournament, bernd), data)
    assert response.status_code == 400
    assert "Tisch 2 ist schon der feste Tisch von Anna Schäfer (1)" in response.content.decode()
    bernd = Entry.objects.select_related("player").get(pk=bernd.pk)
    assert (bernd.fixed_table, bernd.player.club) == (None, "DSC Testhausen")


def test_an_emptied_table_field_frees_the_player(director_client, tournament, field):
    set_fixed_table(field[0], 2, None)
    anna = field[0]
    response = director_client.post(edit_url(tournament, anna), edit_data(anna, fixed_table=""))
    assert response.status_code == 302
    assert Entry.objects.get(pk=anna.pk).fixed_table is None


def test_team_mates_apart_is_a_setting(director_client, tournament):
    url = reverse("manage:tournament-edit", args=[tournament.slug])
    page = director_client.get(url).content.decode()
    assert 'id="field-teams_apart"' in page and "Teammitglieder in jeder Runde trennen" in page
    data = as_browser_sends(TournamentForm(instance=tournament), teams_apart="on")
    assert director_client.post(url, data).status_code == 302
    assert Tournament.objects.get(pk=tournament.pk).teams_apart


# --- the archive ----------------------------------------------------------------------------


@pytest.fixture
def wished(tournament, field, director_user):
    tournament.teams_apart = True
    tournament.save()
    add_apart_group(tournament, [1, 2], "Ehepaar", director_user)
    add_apart_group(tournament, [3, 4, 5], "", director_user)
    set_fixed_table(field[5], 1, director_user)
    return tournament


def test_the_full_file_carries_the_wishes(wished):
    doc = archive.build(wished)
    assert doc["tournament"]["teams_apart"] is True
    assert doc["apart_groups"] == [
        {"note": "Ehepaar", "members": [1, 2]},
        {"note": "", "members": [3, 4, 5]},
    ]
    assert [e["fixed_table"] for e in doc["entries"]] == [None] * 5 + [1, None, None]
    data = archive.pack(doc)
    forget(wished)
    copy = archive.restore(archive.unpack(data))
    assert copy.teams_apart
    assert [(g.note, members(g)) for g in copy.apart_groups.order_by("pk")] == [
        ("Ehepaar", [1, 2]),
        ("", [3, 4, 5]),
    ]
    assert copy.entries.get(fixed_table=1).start_number == 6
    assert archive.build(copy)["apart_groups"] == doc["apart_groups"]


def test_the_full_file_carries_what_a_draw_s_wishes_cost(wished):
    round_ = factories.RoundFactory(tournament=wished, number=1, status=RoundStatus.DRAWN)
    cost = {"groups": 3, "players": 8, "fixed": 1, "teams": 2, "repeats": 0,
            "lower_bound": 0, "spread": 0, "clubs": 0, "without": None}  # fmt: skip
    DrawLog.objects.create(round=round_, action="draw", seed=7, wish_cost=cost)
    doc = archive.build(wished)
    assert doc["rounds"][0]["draw_logs"][0]["wish_cost"] == cost
    forget(wished)
    copy = archive.restore(doc)
    assert DrawLog.objects.get(round__tournament=copy).wish_cost == cost
    doc["rounds"][0]["draw_logs"][0]["wish_cost"] = "teuer"
    forget(copy)
    with pytest.raises(archive.ArchiveError):
        archive.restore(doc)


COST = {"groups": 3, "players": 8, "fixed": 1, "teams": 2, "repeats": 0, "lower_bound": 0,
        "spread": 0, "clubs": 0, "without": {"repeats": 0, "spread": 0, "clubs": 0}}  # fmt: skip


@pytest.mark.parametrize(
    "broken",
    [
        {"groups": 1},  # the round page reads every count
        {**COST, "repeats": "3"},
        {**COST, "spread": True},
        {**COST, "clubs": -1},
        {**COST, "teams": True},  # a count of teams, not a truth value
        {key: value for key, value in COST.items() if key != "without"},
        {**COST, "without": {"repeats": 3}},
        {**COST, "without": [0, 0, 0]},
    ],
)
def test_a_broken_wish_cost_restores_nothing(wished, broken):
    round_ = factories.RoundFactory(tournament=wished, number=1, status=RoundStatus.DRAWN)
    DrawLog.objects.create(round=round_, action="draw", seed=7, wish_cost=COST)
    doc = archive.build(wished)
    doc["rounds"][0]["draw_logs"][0]["wish_cost"] = broken
    forget(wished)
    with pytest.raises(archive.ArchiveError):
        archive.restore(doc)
    assert not Tournament.objects.exists() and not DrawLog.objects.exists()


def test_the_public_file_carries_none_of_them(wished):
    wished.is_public = True
    wished.save()
    doc = archive.build(wished, profile="public")
    assert "teams_apart" not in doc["tournament"] and "apart_groups" not in doc
    assert all("fixed_table" not in entry for entry in doc["entries"])
    full = archive.build(wished)
    assert "apart_groups" not in archive.public_part(full)


def test_a_file_without_wishes_restores_without_them(wished):
    doc = archive.build(wished)
    del doc["apart_groups"]
    del doc["tournament"]["teams_apart"]
    for entry in doc["entries"]:
        del entry["fixed_table"]
    forget(wished)
    copy = archive.restore(doc)
    assert not copy.teams_apart and not copy.apart_groups.exists()
    assert not copy.entries.filter(fixed_table__isnull=False).exists()


@pytest.mark.parametrize(
    "break_it",
    [
        lambda doc: doc["apart_groups"].append({"note": "", "members": [2, 7]}),
        lambda doc: doc["apart_groups"].append({"note": "", "members": [7, 99]}),
        lambda doc: doc["apart_groups"].append({"note": "", "members": "7, 8"}),
        lambda doc: doc["apart_groups"].append({"note": "", "members": [7]}),
        lambda doc: doc["apart_groups"].append({"note": "", "members": []}),
        lambda doc: doc["apart_groups"].append({"note": "", "members": [7, 7]}),
        lambda doc: doc["apart_groups"].append({"note": "", "members": [7, "8"]}),
        lambda doc: doc["entries"][0].update(fixed_table=1),
        lambda doc: doc["entries"][0].update(fixed_table=0),
        lambda doc: doc["entries"][0].update(fixed_table="1"),
    ],
)
def test_a_broken_file_restores_nothing(wished, break_it):
    doc = archive.build(wished)
    break_it(doc)
    forget(wished)
    with pytest.raises(archive.ArchiveError):
        archive.restore(doc)
    assert not Tournament.objects.exists() and not ApartGroup.objects.exists()


# --- personal data --------------------------------------------------------------------------


def test_the_personal_data_file_names_the_wishes(wished, field):
    data = personal_data(field[0].player, Tournament.objects.all())
    assert data["tournaments"][0]["seat_wishes"] == {
        "fixed_table": None,
        "never_at_one_table": {"note": "Ehepaar", "with_start_numbers": [2]},
    }
    data = personal_data(field[5].player, Tournament.objects.all())
    assert data["tournaments"][0]["seat_wishes"] == {"fixed_table": 1, "never_at_one_table": None}


def test_deleting_personal_data_deletes_the_wishes_and_their_notes(wished):
    for number in (1, 2):
        factories.RoundFactory(tournament=wished, number=number, status=RoundStatus.CLOSED)
    wished.planned_rounds = 2
    wished.save()
    assert wished.status == TournamentStatus.FINISHED
    forget_personal_data([wished])
    assert not ApartGroup.objects.exists()
    assert not wished.entries.filter(apart_group__isnull=False).exists()
    assert not wished.entries.filter(fixed_table__isnull=False).exists()
    assert not ApartGroup.history.exclude(note="").exists()  # "Ehepaar" nowhere any more
    # Nor in the history: no fixed table or group in an entry's record, no start numbers or
    # table in a wish's history line (who the couple was).
    entries = Entry.history.filter(tournament_id=wished.pk)
    assert not entries.filter(fixed_table__isnull=False).exists()
    assert not entries.filter(apart_group__isnull=False).exists()
    for records in (entries, ApartGroup.history.filter(tournament_id=wished.pk)):
        said = {history_reason(r) for r in records.exclude(history_event="")}
        assert said == {"Sitzwunsch (mit den persönlichen Daten gelöscht)"}
        assert not records.filter(history_params__isnull=False).exists()
    # The player's own file (Art. 15) shows none of it either.
    sixth = Entry.objects.get(tournament=wished, start_number=6)
    data = personal_data(sixth.player, Tournament.objects.all())["tournaments"][0]
    assert data["seat_wishes"] == {"fixed_table": None, "never_at_one_table": None}
    history = data["entry"]["history"]
    assert history and all(line["values"]["fixed_table"] is None for line in history)
    assert all("Tisch 1" not in (line["reason"] or "") for line in history)


def test_a_withdrawn_member_is_marked_as_not_in_the_draw(director_client, tournament, field):
    director_client.post(add_url(tournament), {"numbers": "1, 2", "note": "Ehepaar"})
    card = players_page(director_client, tournament).content.decode().split('id="seat-wishes"')[1]
    assert "wird nicht ausgelost" not in card
    Entry.objects.filter(pk=field[0].pk).update(status=EntryStatus.WITHDRAWN)
    card = players_page(director_client, tournament).content.decode().split('id="seat-wishes"')[1]
    assert '1 Anna Schäfer <span class="muted">(wird nicht ausgelost)</span>' in card
    assert "2 Bernd Schäfer <span" not in card
