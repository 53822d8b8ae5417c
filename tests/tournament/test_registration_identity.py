"""Issue 34, who a registrant is: the attacks of the security probe on the public form, each
as a test. What anybody types into the form lives on the registration and binds nothing in
the shared player database until a director accepts it."""

import re

import pytest
from django.urls import reverse

from tests.factories import (
    EntryFactory,
    PlayerFactory,
    RoundFactory,
    TournamentFactory,
    director,
    open_for_registration,
)
from tournament.domain import registrations
from tournament.domain.entries import edit_entry, register, set_status
from tournament.domain.player_import import apply_import, parse_player_file
from tournament.errors import DomainError
from tournament.models import EntryStatus, Player, Registration, RegistrationState
from tournament.models.audit import history_reason
from tournament.queries import registrations as registrations_queries
from tournament.queries.players import PlayerData

pytestmark = pytest.mark.django_db

REAL = {"first": "Erika", "last": "Echt", "ddv": "4711"}


@pytest.fixture(autouse=True)
def limits(settings):
    settings.REGISTRATION_PER_ADDRESS = 50
    settings.REGISTRATION_WINDOW = 600


@pytest.fixture
def hall(tournament):
    return open_for_registration(tournament, 10)


def post_form(client, tournament, first, last, *, club="", ddv="", email=None):
    data = {
        "first_name": first,
        "last_name": last,
        "club": club,
        "ddv_number": ddv,
        "team_name": "",
        "email": email or f"{last.lower()}@example.org",
        "language": "de",
        "consent": "on",
        "publish": "on",  # named on the public pages (publication consent)
    }
    response = client.post(reverse("registration-form", args=[tournament.slug]), data)
    assert response.status_code == 302, response.content.decode()[:3000]
    token = re.fullmatch(r"/anmeldung/([^/]+)/", response["Location"])[1]
    return Registration.objects.get(token=token)


def csv(*rows):
    lines = ["Vorname;Nachname;Verein;DDV-Nr."] + [";".join(row) for row in rows]
    return "\n".join(lines).encode()


# --- finding 1: DDV-number squatting --------------------------------------------------------


def test_a_squatter_with_a_real_members_number_blocks_nobody(client, hall):
    squatter = post_form(client, hall, "Max", "Squatter", ddv=REAL["ddv"])
    assert squatter.state == RegistrationState.CONFIRMED
    assert squatter.ddv_number == REAL["ddv"]  # kept on the registration, for the director
    assert not Player.objects.filter(ddv_number=REAL["ddv"]).exists()
    registrations.cancel(squatter)

    # The real holder registers for another tournament ...
    elsewhere = open_for_registration(TournamentFactory(directors=[director()]), 10)
    real = post_form(client, elsewhere, REAL["first"], REAL["last"], ddv=REAL["ddv"])
    assert real.state == RegistrationState.CONFIRMED
    # ... a director types her in ...
    typed = register(
        TournamentFactory(),
        PlayerData(REAL["first"], REAL["last"], "Kreuz As", REAL["ddv"]),
    )
    assert typed.player.ddv_number == REAL["ddv"]
    # ... and another director's import of that member goes through whole.
    boss = director()
    imported = TournamentFactory(directors=[boss])
    preview = parse_player_file(
        imported,
        "a.csv",
        csv((REAL["first"], REAL["last"], "Kreuz As", REAL["ddv"])),
        director=boss,
    )
    assert preview.errors == [] and preview.ok
    assert apply_import(imported, preview.rows, director=boss) == 1
    assert imported.entries.get().player == typed.player


def test_a_declined_squatter_leaves_nothing_behind(hall, director_user):
    hall.registration_approval = True
    hall.save()
    squatter = registrations.submit(
        hall,
        registrations.Details("Max", "Squatter", ddv_number=REAL["ddv"], email="m@example.org"),
        consent="ok",
    )
    registrations.decline(squatter, director_user)
    entry = register(TournamentFactory(), PlayerData(REAL["first"], REAL["last"], "", REAL["ddv"]))
    assert Player.objects.get(ddv_number=REAL["ddv"]) == entry.player


def test_the_director_accepts_the_number_or_is_told_it_is_somebody_elses(
    client, director_client, hall, director_user
):
    holder = PlayerFactory(first_name=REAL["first"], last_name=REAL["last"], ddv_number="4711")
    EntryFactory(player=holder)  # another director's tournament
    squatter = post_form(client, hall, "Max", "Squatter", ddv="4711")
    real = post_form(client, hall, REAL["first"], REAL["last"], ddv="4711")
    page = director_client.get(reverse("manage:registration-list", args=[hall.slug]))
    assert f'id="accept-{squatter.pk}"' in page.content.decode()

    def accept(registration):
        url = reverse("manage:registration-action", args=[hall.slug, registration.pk, "accept"])
        response = director_client.post(url, follow=True)
        return [str(m) for m in response.context["messages"]]

    (refused,) = accept(squatter)
    assert "4711" in refused and REAL["last"] not in refused  # the holder is not named
    squatter.refresh_from_db()
    assert squatter.entry.player.unverified and squatter.entry.player.ddv_number == ""
    accept(real)
    real.refresh_from_db()
    assert real.entry.player == holder
    page = director_client.get(reverse("manage:registration-list", args=[hall.slug]))
    assert f'id="accept-{real.pk}"' not in page.content.decode()


# --- finding 3: the public form and private data -------------------------------------------


def test_a_typed_name_is_never_linked_to_a_private_tournaments_player(client, hall, director_user):
    private = TournamentFactory(directors=[director_user], is_public=False)
    secret = PlayerFactory(first_name="Gerda", last_name="Geheim", club="Geheimclub Nord")
    EntryFactory(tournament=private, player=secret)
    registration = post_form(client, hall, "Gerda", "Geheim")
    assert registration.entry.player != secret
    public = client.get(reverse("tournament-public", args=[hall.slug])).content.decode()
    assert "Gerda" in public and "Geheimclub" not in public
    mine = client.get(reverse("registration-personal", args=[registration.token]))
    assert "Geheimclub" not in mine.content.decode()


def test_registering_in_a_real_players_name_shows_only_what_was_typed(client, hall):
    real = PlayerFactory(
        first_name=REAL["first"], last_name=REAL["last"], club="Kreuz As Kiel", ddv_number="4711"
    )
    EntryFactory(player=real)
    impostor = post_form(client, hall, REAL["first"], REAL["last"], club="Pik Sieben", ddv="4711")
    assert impostor.entry.player != real
    public = client.get(reverse("tournament-public", args=[hall.slug])).content.decode()
    assert "Pik Sieben" in public and "Kreuz As Kiel" not in public
    edit = client.get(reverse("registration-edit", args=[impostor.token])).content.decode()
    assert "Kreuz As Kiel" not in edit
    real.refresh_from_db()
    assert (real.club, real.ddv_number) == ("Kreuz As Kiel", "4711")  # untouched


# --- finding 11a: a disqualified player stays out ------------------------------------------


@pytest.mark.parametrize(
    "again",
    [
        {"first": "Anna", "last": "Albers", "club": "Kreuz Bube Bonn"},  # another club
        {"first": "ANNA", "last": "ALBERS", "club": ""},  # another spelling, no club
        {"first": "Anne", "last": "Alb", "ddv": "777"},  # another name, her member number
        {"first": "A.", "last": "Bers", "email": "anna@example.org"},  # her e-mail address
    ],
)
def test_a_disqualified_player_does_not_get_back_in(client, hall, director_user, again):
    anna = post_form(
        client, hall, "Anna", "Albers", club="Herz Dame Fulda", ddv="777", email="anna@example.org"
    )
    set_status(anna.entry, EntryStatus.DISQUALIFIED, director_user, "TSR 6.1")
    data = {
        "first_name": again["first"],
        "last_name": again["last"],
        "club": again.get("club", ""),
        "ddv_number": again.get("ddv", ""),
        "team_name": "",
        "email": again.get("email", "neu@example.org"),
        "language": "en",
        "consent": "on",
    }
    client.cookies["django_language"] = "en"
    response = client.post(reverse("registration-form", args=[hall.slug]), data)
    assert response.status_code == 400
    assert "please ask the tournament director" in response.content.decode()
    assert hall.registrations.count() == 1
    assert hall.entries.filter(status=EntryStatus.ACTIVE).count() == 0


# --- finding 11e: name and club locked once the first round is drawn ------------------------


def test_after_the_draw_only_the_director_renames_and_it_is_in_the_history(
    client, hall, director_user
):
    anna = post_form(client, hall, "Anna", "Albers", club="Herz Dame")
    RoundFactory(tournament=hall, number=1)
    with pytest.raises(DomainError):
        registrations.change_details(
            anna,
            registrations.Details("Gräfin", "Albers", club="Herz Dame", email="anna@example.org"),
        )
    edit_url = reverse("registration-edit", args=[anna.token])
    form = client.get(edit_url).content.decode()
    assert 'id="name-locked"' in form
    data = {
        "first_name": "Gräfin",
        "last_name": "Zahl",
        "club": "Anderer Club",
        "ddv_number": "",
        "team_name": "",
        "email": "albers@example.org",
        "language": "de",
    }
    client.post(edit_url, data)
    anna.refresh_from_db()
    player = anna.entry.player
    assert (player.first_name, player.last_name, player.club) == ("Anna", "Albers", "Herz Dame")
    assert (anna.first_name, anna.club) == ("Anna", "Herz Dame")

    edit_entry(
        anna.entry,
        PlayerData("Anna", "Albers-Zahl", "Herz Dame"),
        team_name="",
        start_number=anna.entry.start_number,
        user=director_user,
        reason="Doppelname",
    )
    player.refresh_from_db()
    assert player.last_name == "Albers-Zahl"
    record = player.history.first()
    assert (record.last_name, record.history_user, history_reason(record)) == (
        "Albers-Zahl",
        director_user,
        "Doppelname",
    )


def test_after_the_draw_the_team_is_the_directors_too(client, hall):
    """A team counts in the team standings: a player's link moved "Spätes Team" into them
    in the middle of the day (found by a tester after issue 34's name lock)."""
    anna = post_form(client, hall, "Anna", "Albers")
    registrations.change_details(
        anna, registrations.Details("Anna", "Albers", email="albers@example.org", team_name="Kreuz")
    )  # before the draw: her own choice
    RoundFactory(tournament=hall, number=1)
    with pytest.raises(DomainError):
        registrations.change_details(
            anna,
            registrations.Details("Anna", "Albers", email="albers@example.org", team_name="Spät"),
        )
    edit_url = reverse("registration-edit", args=[anna.token])
    page = client.get(edit_url).content.decode()
    assert "Ihr Team kann jetzt nur noch die Turnierleitung ändern" in page
    assert re.search(r'<input[^>]*name="team_name"[^>]*disabled', page)
    data = {
        "first_name": "Anna",
        "last_name": "Albers",
        "team_name": "Spätes Team",
        "email": "albers@example.org",
        "language": "de",
    }
    client.post(edit_url, data)
    anna.refresh_from_db()
    assert anna.team_name == "Kreuz" and anna.entry.team.name == "Kreuz"


def test_before_the_draw_an_unaccepted_player_still_corrects_a_typo(client, hall):
    anna = post_form(client, hall, "Anna", "Albres")
    registrations.change_details(
        anna, registrations.Details("Anna", "Albers", email="anna@example.org")
    )
    anna.refresh_from_db()
    assert anna.entry.player.last_name == "Albers"


def test_the_import_reports_an_online_registration_as_already_registered(hall, director_user):
    anna = registrations.submit(
        hall,
        registrations.Details("Anna", "Albers", ddv_number="777", email="a@example.org"),
        consent="",
    )
    PlayerFactory(first_name="Anna", last_name="Albers", ddv_number="777")  # elsewhere
    preview = parse_player_file(
        hall, "a.csv", csv(("Anna", "Albers", "", "777")), director=director_user
    )
    assert [r.already_registered for r in preview.rows] == [True]
    assert preview.rows[0].player_id == anna.entry.player_id


def test_a_directors_correction_accepts_a_player_and_the_players_own_does_not(hall, director_user):
    anna = registrations.submit(
        hall, registrations.Details("Anna", "Albres", email="a@example.org"), consent=""
    )
    registrations.change_details(
        anna, registrations.Details("Anna", "Albers", email="a@example.org")
    )
    player = Player.objects.get(pk=anna.entry.player_id)
    assert player.unverified  # the player's own change is still only what they typed
    entry = anna.entry
    data = PlayerData("Anna", "Albers", "Herz Dame", "777")
    edit_entry(entry, data, team_name="", start_number=entry.start_number, user=director_user)
    player.refresh_from_db()
    assert not player.unverified and player.ddv_number == "777"
    assert not registrations_queries.needs_acceptance(Registration.objects.get(pk=anna.pk))


def test_accepting_gives_a_directors_own_player_the_typed_number(hall, director_user):
    regular = PlayerFactory(first_name="Bernd", last_name="Wolf", club="Herz Dame")
    EntryFactory(tournament=TournamentFactory(directors=[director_user]), player=regular)
    bernd = registrations.submit(
        hall,
        registrations.Details("Bernd", "Wolf", ddv_number="31", email="b@example.org"),
        consent="",
    )
    assert registrations.accept_identity(bernd, director_user) == regular
    regular.refresh_from_db()
    assert regular.ddv_number == "31"
    record = regular.history.first()
    assert (record.history_user, history_reason(record)) == (
        director_user,
        "Angaben von der Turnierleitung übernommen",
    )


def test_a_disqualified_player_does_not_get_back_in_by_changing_somebody_elses_details(
    hall, director_user
):
    anna = registrations.submit(
        hall, registrations.Details("Anna", "Albers", email="a@example.org"), consent=""
    )
    set_status(anna.entry, EntryStatus.DISQUALIFIED, director_user)
    friend = registrations.submit(
        hall, registrations.Details("Bea", "Brandt", email="b@example.org"), consent=""
    )
    with pytest.raises(DomainError):
        registrations.change_details(
            friend, registrations.Details("Anna", "Albers", email="b@example.org")
        )
    with pytest.raises(DomainError):
        registrations.change_details(
            friend, registrations.Details("Bea", "Brandt", email="A@example.org")
        )
    friend.refresh_from_db()
    assert (friend.last_name, friend.email) == ("Brandt", "b@example.org")
    # The disqualified player's own link still changes what is left to change.
    registrations.change_details(
        anna, registrations.Details("Anna", "Albers", email="neu@example.org")
    )


# --- a person entered at the desk who registers online too ---------------------------------


def test_the_registrations_page_points_out_a_player_entered_twice(client, director_client, hall):
    """A tester's find: Klaus Weiß, start number 3 at the desk, registered online too under
    another spelling with his DDV number, and nothing on the registrations page said so."""
    desk = EntryFactory(
        tournament=hall,
        start_number=3,
        player=PlayerFactory(first_name="Klaus", last_name="Weiß", ddv_number="4711"),
    )
    online = post_form(client, hall, "Klaus-Peter", "Weiss", ddv="4711", email="kp@example.org")
    page = director_client.get(reverse("manage:registration-list", args=[hall.slug]))
    html = page.content.decode()
    hint = html.split(f'id="double-{online.pk}"')[1].split("</p>")[0]
    assert "Nr. 3 Klaus Weiß" in hint
    merge = reverse("manage:player-merge", args=[hall.slug])
    assert f"{merge}?keep={desk.player_id}&amp;drop={online.entry.player_id}" in hint


def test_no_double_is_pointed_out_for_somebody_else(client, director_client, hall):
    EntryFactory(tournament=hall, player=PlayerFactory(first_name="Klaus", last_name="Weiß"))
    online = post_form(client, hall, "Karla", "Weiß", ddv="815", email="karla@example.org")
    html = director_client.get(reverse("manage:registration-list", args=[hall.slug]))
    assert f'id="double-{online.pk}"' not in html.content.decode()
    assert f'id="unaccepted-{online.pk}"' in html.content.decode()
