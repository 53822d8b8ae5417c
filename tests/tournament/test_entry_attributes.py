"""What the prize categories ask of a player (issue 38): year of birth, sex, guest, newcomer.
Typed in by the office or given on the online registration (carried to the entry), seen by
the office only, never on a public page, and gone with the personal data."""

import json

import pytest
from django.urls import reverse

from tests.factories import (
    EntryFactory,
    PlayerFactory,
    RoundFactory,
    director,
    open_for_registration,
    released_table,
)
from tournament.archive import build
from tournament.domain import registrations
from tournament.domain.personal_data import forget_personal_data
from tournament.errors import DomainError
from tournament.models import Entry, Registration, RegistrationState, Tournament

pytestmark = pytest.mark.django_db

# A year no page of a fresh test tournament shows otherwise.
YEAR = 1913


def add_form(**extra):
    data = {"first_name": "Anna", "last_name": "Albers", "club": "Pik 7", "start_number": ""}
    return data | extra


def test_the_office_types_them_in_and_sees_them_compactly_on_the_players_page(
    director_client, tournament
):
    url = reverse("manage:entry-add", args=[tournament.slug])
    post = add_form(birth_year=str(YEAR), sex="f", guest="on", newcomer="on")
    assert director_client.post(url, post).status_code == 302
    entry = Entry.objects.get(tournament=tournament)
    assert (entry.birth_year, entry.sex, entry.guest, entry.newcomer) == (YEAR, "f", True, True)
    page = director_client.get(reverse("manage:entry-list", args=[tournament.slug]))
    assert f"{YEAR} · weiblich · Gast · Neuling" in page.content.decode()


def test_the_edit_form_shows_and_changes_them(director_client, tournament):
    entry = EntryFactory(tournament=tournament, birth_year=1960, sex="m")
    url = reverse("manage:entry-edit", args=[tournament.slug, entry.pk])
    form = director_client.get(url).content.decode()
    assert 'name="birth_year" value="1960"' in form
    player = entry.player
    post = {
        "first_name": player.first_name,
        "last_name": player.last_name,
        "club": player.club,
        "ddv_number": player.ddv_number,
        "start_number": entry.start_number,
        "birth_year": str(YEAR),
        "sex": "d",
        "guest": "on",
    }
    assert director_client.post(url, post).status_code == 302
    entry.refresh_from_db()
    assert (entry.birth_year, entry.sex, entry.guest, entry.newcomer) == (YEAR, "d", True, False)
    # The history keeps none of them (personal data), but says who changed the entry.
    record = entry.history.first()
    assert not any(hasattr(record, name) for name in ("birth_year", "sex", "guest", "newcomer"))
    assert record.history_user.username == "leiterin"


def test_a_year_out_of_range_is_refused_and_nothing_is_written(director_client, tournament):
    url = reverse("manage:entry-add", args=[tournament.slug])
    response = director_client.post(url, add_form(birth_year="1800"))
    assert response.status_code == 400
    assert "größer oder gleich 1900" in response.content.decode()
    assert not Entry.objects.exists()


def edit_post(entry, **extra):
    player = entry.player
    return {
        "first_name": player.first_name,
        "last_name": player.last_name,
        "club": player.club,
        "ddv_number": player.ddv_number,
        "start_number": entry.start_number,
    } | extra


def test_a_year_after_the_tournaments_is_refused_and_nothing_is_written(
    director_client, tournament
):
    year = tournament.date.year
    add = reverse("manage:entry-add", args=[tournament.slug])
    response = director_client.post(add, add_form(birth_year=str(year + 1)))
    assert response.status_code == 400
    assert f"zwischen 1900 und {year}" in response.content.decode()
    assert not Entry.objects.exists()
    entry = EntryFactory(tournament=tournament, birth_year=1960, publish=False)
    club = entry.player.club
    edit = reverse("manage:entry-edit", args=[tournament.slug, entry.pk])
    records = entry.history.count()
    post = edit_post(entry, birth_year=str(year + 5), club="Neu", publish="on")
    response = director_client.post(edit, post)
    assert response.status_code == 400
    assert f"zwischen 1900 und {year}" in response.content.decode()
    entry.refresh_from_db()
    entry.player.refresh_from_db()
    assert (entry.birth_year, entry.player.club, entry.publish) == (1960, club, False)
    assert entry.history.count() == records
    assert director_client.post(edit, edit_post(entry, birth_year=str(year))).status_code == 302


def test_the_edit_is_one_history_record_with_consent_and_attributes(director_client, tournament):
    entry = EntryFactory(tournament=tournament, birth_year=1960, publish=False)
    registration = Registration.objects.create(
        tournament=tournament,
        first_name="A",
        last_name="B",
        email="ab@example.org",
        entry=entry,
        position=1,
        state=RegistrationState.CONFIRMED,
    )
    edit = reverse("manage:entry-edit", args=[tournament.slug, entry.pk])
    records = entry.history.count()
    post = edit_post(entry, birth_year="1961", publish="on", guest="on", reason="Am Tisch")
    assert director_client.post(edit, post).status_code == 302
    entry.refresh_from_db()
    registration.refresh_from_db()
    assert (entry.birth_year, entry.guest, entry.publish, registration.publish) == (
        1961,
        True,
        True,
        True,
    )
    assert entry.history.count() == records + 1
    assert entry.history.first().history_change_reason == "Am Tisch"


@pytest.fixture
def hall(tournament):
    return open_for_registration(tournament, 2)


def sign(tournament, last, **kw):
    details = registrations.Details("Anna", last, email=f"{last.lower()}@example.org", **kw)
    return registrations.submit(tournament, details, consent="ok")


def test_the_registration_form_asks_and_says_why(client, hall):
    page = client.get(reverse("registration-form", args=[hall.slug])).content.decode()
    assert 'name="birth_year"' in page and 'name="sex"' in page
    assert "nur für Preiskategorien" in page and "nicht öffentlich" in page


def test_a_registration_carries_year_and_sex_to_its_entry(client, hall):
    post = {
        "first_name": "Anna",
        "last_name": "Albers",
        "club": "",
        "ddv_number": "",
        "email": "anna@example.org",
        "team_name": "",
        "language": "de",
        "birth_year": str(YEAR),
        "sex": "f",
        "consent": "on",
        "website": "",
    }
    response = client.post(reverse("registration-form", args=[hall.slug]), post)
    assert response.status_code == 302
    registration = Registration.objects.get()
    assert registration.state == RegistrationState.CONFIRMED
    assert (registration.birth_year, registration.sex) == (YEAR, "f")
    assert (registration.entry.birth_year, registration.entry.sex) == (YEAR, "f")


def test_approved_and_moved_up_registrations_carry_them_too(hall):
    Tournament.objects.filter(pk=hall.pk).update(registration_approval=True)
    hall.refresh_from_db()
    pending = sign(hall, "Albers", birth_year=1950, sex="f")
    assert pending.entry is None
    approved = registrations.approve(pending, director())
    assert (approved.entry.birth_year, approved.entry.sex) == (1950, "f")
    Tournament.objects.filter(pk=hall.pk).update(registration_approval=False)
    hall.refresh_from_db()
    sign(hall, "Brandt")
    waiting = sign(hall, "Conrad", birth_year=1990, sex="m")
    assert waiting.state == RegistrationState.WAITING
    Tournament.objects.filter(pk=hall.pk).update(registration_capacity=3)
    registrations.after_places_changed(hall, user=None)
    waiting.refresh_from_db()
    assert (waiting.entry.birth_year, waiting.entry.sex) == (1990, "m")


def test_a_registration_born_after_the_tournaments_year_is_refused(client, hall):
    year = hall.date.year
    post = {
        "first_name": "Anna",
        "last_name": "Albers",
        "club": "",
        "ddv_number": "",
        "email": "anna@example.org",
        "team_name": "",
        "language": "de",
        "birth_year": str(year + 1),
        "consent": "on",
        "website": "",
    }
    response = client.post(reverse("registration-form", args=[hall.slug]), post)
    assert response.status_code == 400
    assert f"zwischen 1900 und {year}" in response.content.decode()
    assert not Registration.objects.exists()
    registration = sign(hall, "Albers", birth_year=1950)
    later = registrations.Details("Anna", "Albers", email="albers@example.org", birth_year=year + 4)
    with pytest.raises(DomainError, match=str(year)):
        registrations.change_details(registration, later)
    registration.refresh_from_db()
    assert (registration.birth_year, registration.entry.birth_year) == (1950, 1950)


def test_a_later_year_stored_before_the_check_never_blocks_the_approval(hall):
    Tournament.objects.filter(pk=hall.pk).update(registration_approval=True)
    hall.refresh_from_db()
    pending = sign(hall, "Albers", sex="f")
    Registration.objects.filter(pk=pending.pk).update(birth_year=hall.date.year + 3)
    pending.refresh_from_db()
    approved = registrations.approve(pending, director())
    assert (approved.entry.birth_year, approved.entry.sex) == (None, "f")


def test_the_player_changes_them_on_the_personal_link(hall):
    registration = sign(hall, "Albers", birth_year=1950)
    details = registrations.Details(
        "Anna", "Albers", email="albers@example.org", birth_year=1951, sex="f"
    )
    registrations.change_details(registration, details)
    registration.refresh_from_db()
    assert (registration.birth_year, registration.sex) == (1951, "f")
    assert (registration.entry.birth_year, registration.entry.sex) == (1951, "f")


def test_forgetting_the_personal_data_clears_year_and_sex(hall):
    registration = sign(hall, "Albers", birth_year=YEAR, sex="f")
    typed = EntryFactory(tournament=hall, birth_year=1960, sex="m", guest=True)
    Tournament.objects.filter(pk=hall.pk).update(planned_rounds=1)
    RoundFactory(tournament=hall, number=1, status="closed")
    hall.refresh_from_db()
    before = hall.version
    forget_personal_data([hall], user=director())
    registration.refresh_from_db()
    typed.refresh_from_db()
    assert (registration.birth_year, registration.sex) == (None, "")
    assert (registration.entry.birth_year, registration.entry.sex) == (None, "")
    assert (typed.birth_year, typed.sex, typed.guest) == (None, "", True)
    assert Tournament.objects.get(pk=hall.pk).version > before  # the prize list follows


def test_the_personal_data_file_lists_them(director_client, tournament):
    entry = EntryFactory(tournament=tournament, birth_year=YEAR, sex="f", newcomer=True)
    url = reverse("manage:player-data", args=[tournament.slug, entry.pk])
    data = json.loads(director_client.get(url).content)
    own = data["tournaments"][0]["entry"]
    assert (own["birth_year"], own["sex"], own["newcomer"]) == (YEAR, "f", True)


@pytest.mark.parametrize(
    "page",
    ["tournament-public", "public-standings", "public-table-plan", "statistics", "where-do-i-sit"],
)
def test_the_public_pages_never_show_them(client, tournament, page):
    Tournament.objects.filter(pk=tournament.pk).update(is_public=True)
    table = released_table(tournament)
    for seat in table.seats.all():
        Entry.objects.filter(pk=seat.entry_id).update(birth_year=YEAR, sex="f", publish=True)
    EntryFactory(tournament=tournament, player=PlayerFactory(), birth_year=YEAR, sex="f")
    response = client.get(reverse(page, args=[tournament.slug]))
    assert response.status_code == 200
    text = response.content.decode()
    assert str(YEAR) not in text and "weiblich" not in text


def test_the_projector_data_never_show_them(client, tournament):
    Tournament.objects.filter(pk=tournament.pk).update(is_public=True)
    table = released_table(tournament)
    Entry.objects.filter(seats__table=table).update(birth_year=YEAR, sex="f", publish=True)
    data = client.get(reverse("public-projector-data", args=[tournament.slug]))
    assert data.status_code == 200 and str(YEAR) not in data.content.decode()


def test_the_public_archive_for_the_results_service_never_holds_them(tournament):
    table = released_table(tournament)
    Entry.objects.filter(seats__table=table).update(birth_year=YEAR, sex="f", publish=True)
    document = json.dumps(build(tournament, profile="public"), default=str)
    assert str(YEAR) not in document and '"sex"' not in document


def test_the_registrations_page_shows_them_to_the_office(director_client, hall):
    sign(hall, "Albers", birth_year=YEAR, sex="f")
    page = director_client.get(reverse("manage:registration-list", args=[hall.slug]))
    assert f"geb. {YEAR}" in page.content.decode() and "weiblich" in page.content.decode()
