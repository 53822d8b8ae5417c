"""The director's side of online registration: the settings in the tournament form, the
registrations page (approve, decline, cancel, move on the waiting list, delete personal data)
and `manage.py forgetregistrations`."""

import datetime
import io
from decimal import Decimal

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse

from tests.factories import TournamentFactory, director, open_for_registration
from tests.tournament.test_tournaments import as_browser_sends
from tournament.domain import registrations
from tournament.forms.tournaments import TournamentForm
from tournament.models import (
    EntryStatus,
    Registration,
    RegistrationState,
    Round,
    RoundStatus,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def hall(tournament):
    """The tournament with online registration on: two places."""
    return open_for_registration(tournament, 2)


@pytest.fixture
def english(director_client):
    director_client.cookies["django_language"] = "en"
    return director_client


def sign(tournament, last, first="Anna"):
    details = registrations.Details(
        first, last, club="DSC Test", email=f"{last.lower()}@example.org"
    )
    return registrations.submit(tournament, details, consent="ok")


def act(client, registration, action):
    url = reverse(
        "manage:registration-action", args=[registration.tournament.slug, registration.pk, action]
    )
    return client.post(url, follow=True)


def state(registration):
    registration.refresh_from_db()
    return registration.state


def waiting_names(tournament):
    return [r.last_name for r in registrations.waiting_list(tournament)]


def sent(mailoutbox):
    return [(message.to[0], message.subject) for message in mailoutbox]


def finish(tournament):
    """All planned rounds closed: the tournament is finished."""
    tournament.planned_rounds = 1
    tournament.save()
    Round.objects.create(tournament=tournament, number=1, status=RoundStatus.CLOSED)


# --- the page -------------------------------------------------------------------------------


def test_the_page_shows_state_places_and_every_section(english, hall):
    albers, brandt, conrad = sign(hall, "Albers"), sign(hall, "Brandt"), sign(hall, "Conrad")
    response = english.get(reverse("manage:registration-list", args=[hall.slug]))
    assert response.status_code == 200
    page = response.content.decode()
    assert 'data-phase="open"' in page
    assert "Online registration is open." in page
    assert '<dd id="places-taken">2 / 2</dd>' in page
    assert '<dd id="waiting-count">1</dd>' in page
    # The copyable address of the public form.
    assert 'value="http://testserver/t/herbst/anmeldung/"' in page
    confirmed = response.context["confirmed"]
    assert [r.pk for r in confirmed] == [albers.pk, brandt.pk]
    assert [r.pk for r in response.context["waiting"]] == [conrad.pk]
    # The director sees the e-mail addresses and start numbers.
    assert "albers@example.org" in page and "conrad@example.org" in page
    assert f'id="registration-{conrad.pk}" data-state="waiting" data-position="1"' in page
    assert f'id="cancel-{albers.pk}"' in page
    assert (
        "Registrations"
        in english.get(reverse("manage:entry-list", args=[hall.slug])).content.decode()
    )


def test_with_registration_off_the_page_says_how_to_switch_it_on(english, tournament):
    page = english.get(reverse("manage:registration-list", args=[tournament.slug])).content
    assert b"Online registration is off." in page
    assert b"Switch it on in the settings" in page
    assert b"registration-form-url" not in page


def test_another_director_gets_404_and_changes_nothing(client, hall):
    sign(hall, "Albers"), sign(hall, "Brandt")
    waiting = sign(hall, "Conrad")
    client.force_login(director())
    assert client.get(reverse("manage:registration-list", args=[hall.slug])).status_code == 404
    for action in ("approve", "cancel", "up"):
        url = reverse("manage:registration-action", args=[hall.slug, waiting.pk, action])
        assert client.post(url).status_code == 404
    url = reverse("manage:registration-forget", args=[hall.slug])
    assert client.post(url, {"confirm": "on"}).status_code == 404
    assert state(waiting) == RegistrationState.WAITING


def test_a_registration_of_another_tournament_is_not_found_here(director_client, hall):
    other = TournamentFactory(registration_open=True, registration_capacity=5)
    stranger = sign(other, "Fremd")
    url = reverse("manage:registration-action", args=[hall.slug, stranger.pk, "cancel"])
    assert director_client.post(url).status_code == 404
    assert state(stranger) == RegistrationState.CONFIRMED


def test_actions_are_post_only(director_client, hall):
    registration = sign(hall, "Albers")
    url = reverse("manage:registration-action", args=[hall.slug, registration.pk, "cancel"])
    assert director_client.get(url).status_code == 405
    assert state(registration) == RegistrationState.CONFIRMED


# --- approve, decline, cancel, move ----------------------------------------------------------


def test_approval_mode_approve_gives_the_place_and_mails_the_player(
    english, hall, mailoutbox, django_capture_on_commit_callbacks
):
    hall.registration_approval = True
    hall.save()
    pending = sign(hall, "Albers")
    assert pending.state == RegistrationState.PENDING
    page = english.get(reverse("manage:registration-list", args=[hall.slug])).content.decode()
    assert f'id="approve-{pending.pk}"' in page and f'id="decline-{pending.pk}"' in page
    # The tab counts who waits for approval.
    assert 'title="awaiting approval">1</span>' in page
    with django_capture_on_commit_callbacks(execute=True):
        response = act(english, pending, "approve")
    assert "Anna Albers has a place now." in response.content.decode()
    pending.refresh_from_db()
    assert pending.state == RegistrationState.CONFIRMED
    assert pending.entry.start_number == 1
    assert sent(mailoutbox) == [("albers@example.org", f"Anmeldung bestätigt: {hall.name}")]
    # The personal link in the mail opens the player's page.
    assert f"/anmeldung/{pending.token}/" in mailoutbox[0].body


def test_declining_gives_the_place_to_the_first_on_the_waiting_list(
    english, hall, mailoutbox, django_capture_on_commit_callbacks
):
    hall.registration_approval = True
    hall.registration_capacity = 1
    hall.save()
    albers, brandt = sign(hall, "Albers"), sign(hall, "Brandt")
    assert (albers.state, brandt.state) == (RegistrationState.PENDING, RegistrationState.WAITING)
    with django_capture_on_commit_callbacks(execute=True):
        response = act(english, albers, "decline")
    page = response.content.decode()
    assert "The registration of Anna Albers is declined." in page
    assert "Moved up from the waiting list: Anna Brandt." in page
    assert state(albers) == RegistrationState.DECLINED
    assert state(brandt) == RegistrationState.PENDING  # approval mode: it waits for the director
    assert sent(mailoutbox) == [
        ("albers@example.org", f"Ihre Anmeldung für {hall.name} wurde abgelehnt"),
        ("brandt@example.org", f"Von der Warteliste nachgerückt: {hall.name}"),
    ]
    assert f'id="registration-{albers.pk}" data-state="declined"' in page


def test_the_director_cancels_a_place_and_the_waiting_list_moves_up(
    english, hall, mailoutbox, django_capture_on_commit_callbacks
):
    albers, _brandt, conrad = sign(hall, "Albers"), sign(hall, "Brandt"), sign(hall, "Conrad")
    with django_capture_on_commit_callbacks(execute=True):
        response = act(english, albers, "cancel")
    assert "The registration of Anna Albers is cancelled." in response.content.decode()
    albers.refresh_from_db()
    conrad.refresh_from_db()
    assert albers.state == RegistrationState.CANCELLED
    assert albers.entry.status == EntryStatus.WITHDRAWN  # the start number stays reserved
    assert conrad.state == RegistrationState.CONFIRMED
    assert conrad.entry.start_number == 3
    assert sent(mailoutbox) == [
        ("albers@example.org", f"Anmeldung storniert: {hall.name}"),
        ("conrad@example.org", f"Ein Platz für Sie bei {hall.name}"),
    ]


def test_moving_on_the_waiting_list_and_giving_a_place_now(english, hall, mailoutbox):
    sign(hall, "Albers"), sign(hall, "Brandt")
    conrad, dietz, ernst = sign(hall, "Conrad"), sign(hall, "Dietz"), sign(hall, "Ernst")
    assert waiting_names(hall) == ["Conrad", "Dietz", "Ernst"]
    response = act(english, conrad, "down")
    assert "Anna Conrad moved down the waiting list." in response.content.decode()
    assert waiting_names(hall) == ["Dietz", "Conrad", "Ernst"]
    act(english, ernst, "up")
    assert waiting_names(hall) == ["Dietz", "Ernst", "Conrad"]
    # Moving the first up changes nothing.
    act(english, dietz, "up")
    assert waiting_names(hall) == ["Dietz", "Ernst", "Conrad"]
    page = english.get(reverse("manage:registration-list", args=[hall.slug])).content.decode()
    assert 'data-state="waiting" data-position="2"' in page
    assert f'id="up-{dietz.pk}"' not in page and f'id="down-{dietz.pk}"' in page
    # "Give a place now": beyond the places, the director decides.
    response = act(english, ernst, "approve")
    assert "Anna Ernst has a place now." in response.content.decode()
    assert state(ernst) == RegistrationState.CONFIRMED
    assert waiting_names(hall) == ["Dietz", "Conrad"]
    assert hall.entries.filter(status=EntryStatus.ACTIVE).count() == 3


def test_a_refused_action_says_why_and_changes_nothing(english, hall):
    albers = sign(hall, "Albers")
    response = act(english, albers, "decline")  # not awaiting approval
    assert "Only registrations awaiting approval can be declined." in response.content.decode()
    assert state(albers) == RegistrationState.CONFIRMED
    act(english, albers, "cancel")
    response = act(english, albers, "cancel")
    assert "This registration is already cancelled." in response.content.decode()


def test_after_the_first_draw_cancelling_is_left_to_the_players_page(english, hall):
    albers = sign(hall, "Albers")
    Round.objects.create(tournament=hall, number=1, status=RoundStatus.DRAWN)
    page = english.get(reverse("manage:registration-list", args=[hall.slug])).content.decode()
    assert f'id="cancel-{albers.pk}"' not in page
    assert "withdraw a player on the players page" in page
    response = act(english, albers, "cancel")
    assert response.status_code == 200
    assert state(albers) == RegistrationState.CONFIRMED


def test_withdrawing_on_the_players_page_moves_the_waiting_list_up(
    director_client, hall, mailoutbox, django_capture_on_commit_callbacks
):
    albers, _brandt, conrad = sign(hall, "Albers"), sign(hall, "Brandt"), sign(hall, "Conrad")
    url = reverse("manage:entry-status", args=[hall.slug, albers.entry.pk, "withdraw"])
    with django_capture_on_commit_callbacks(execute=True):
        assert director_client.post(url).status_code == 302
    assert state(conrad) == RegistrationState.CONFIRMED
    assert sent(mailoutbox) == [("conrad@example.org", f"Ein Platz für Sie bei {hall.name}")]


# --- settings in the tournament form --------------------------------------------------------


def edit(client, tournament, **changes):
    tournament.refresh_from_db()
    data = as_browser_sends(TournamentForm(instance=tournament), **changes)
    return client.post(reverse("manage:tournament-edit", args=[tournament.slug]), data)


def test_the_form_groups_the_registration_settings(english, tournament):
    page = english.get(reverse("manage:tournament-edit", args=[tournament.slug])).content.decode()
    assert "<legend>Online registration and check-in</legend>" in page
    for name in ("registration_open", "registration_capacity", "registration_approval",
                 "registration_consent", "entry_fee", "checkin_open"):  # fmt: skip
        assert f'name="{name}"' in page
    assert 'type="datetime-local" name="registration_opens_at"' in page


def test_registration_needs_places_and_a_public_tournament(english, tournament):
    response = edit(english, tournament, registration_open="on", registration_capacity="")
    assert response.status_code == 200
    page = response.content.decode()
    assert "Online registration needs the number of places" in page
    assert "make the tournament public as well" in page
    tournament.refresh_from_db()
    assert not tournament.registration_open
    response = edit(english, tournament, registration_open="on", registration_capacity="40",
                    is_public="on")  # fmt: skip
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.registration_open and tournament.registration_capacity == 40


def test_closing_must_come_after_opening_and_times_are_local(english, hall):
    response = edit(
        english,
        hall,
        registration_opens_at="2026-11-10T18:00",
        registration_closes_at="2026-11-10T17:00",
    )
    assert "Registration must close after it opens" in response.content.decode()
    hall.refresh_from_db()
    assert hall.registration_closes_at is None
    response = edit(
        english,
        hall,
        registration_opens_at="2026-11-01T18:00",
        registration_closes_at="2026-11-30T12:00",
    )
    assert response.status_code == 302
    hall.refresh_from_db()
    # Typed in the hall's time zone (Europe/Berlin, winter time: UTC+1).
    assert hall.registration_opens_at == datetime.datetime(2026, 11, 1, 17, 0, tzinfo=datetime.UTC)
    page = english.get(reverse("manage:tournament-edit", args=[hall.slug])).content.decode()
    assert 'value="2026-11-01T18:00"' in page


def test_the_fee_takes_a_decimal_comma_in_german_and_is_never_negative(director_client, hall):
    response = edit(director_client, hall, entry_fee="12,50")  # German: the default language
    assert response.status_code == 302
    hall.refresh_from_db()
    assert hall.entry_fee == Decimal("12.50")
    page = director_client.get(reverse("manage:tournament-edit", args=[hall.slug])).content
    assert b'value="12,50"' in page
    director_client.cookies["django_language"] = "en"
    response = edit(director_client, hall, entry_fee="-5")
    assert "The entry fee cannot be negative." in response.content.decode()
    hall.refresh_from_db()
    assert hall.entry_fee == Decimal("12.50")
    assert edit(director_client, hall, entry_fee="").status_code == 302
    hall.refresh_from_db()
    assert hall.entry_fee == 0


def test_raising_the_capacity_moves_the_waiting_list_up(
    english, hall, mailoutbox, django_capture_on_commit_callbacks
):
    sign(hall, "Albers"), sign(hall, "Brandt")
    conrad, dietz, ernst = sign(hall, "Conrad"), sign(hall, "Dietz"), sign(hall, "Ernst")
    with django_capture_on_commit_callbacks(execute=True):
        response = edit(english, hall, registration_capacity="4")
    assert response.status_code == 302
    assert [state(conrad), state(dietz), state(ernst)] == [
        RegistrationState.CONFIRMED,
        RegistrationState.CONFIRMED,
        RegistrationState.WAITING,
    ]
    assert sent(mailoutbox) == [
        ("conrad@example.org", f"Ein Platz für Sie bei {hall.name}"),
        ("dietz@example.org", f"Ein Platz für Sie bei {hall.name}"),
    ]
    page = english.get(response.url).content.decode()
    assert "Moved up from the waiting list: Anna Conrad, Anna Dietz." in page


# --- deleting personal data -----------------------------------------------------------------


def test_personal_data_is_deleted_only_after_the_tournament(english, client, hall):
    albers, _brandt, conrad = sign(hall, "Albers"), sign(hall, "Brandt"), sign(hall, "Conrad")
    token = albers.token
    url = reverse("manage:registration-forget", args=[hall.slug])
    list_url = reverse("manage:registration-list", args=[hall.slug])
    assert b"forget-form" not in english.get(list_url).content
    response = english.post(url, {"confirm": "on"}, follow=True)
    assert "once the tournament is finished" in response.content.decode()
    albers.refresh_from_db()
    assert albers.email == "albers@example.org" and albers.token == token

    finish(hall)
    page = english.get(list_url).content.decode()
    assert 'id="forget-form"' in page
    assert "Names, start numbers and results stay." in page
    # Without the tick: a clear message, nothing deleted.
    response = english.post(url, {})
    assert response.status_code == 400
    assert "Tick the box to confirm the deletion." in response.content.decode()
    assert Registration.objects.filter(email="").count() == 0

    response = english.post(url, {"confirm": "on"}, follow=True)
    page = response.content.decode()
    assert "personal links of 3 registrations are deleted" in page
    assert 'id="personal-data-deleted"' in page
    for registration in (albers, conrad):
        registration.refresh_from_db()
        assert registration.email == "" and registration.token is None
        assert registration.last_name in page  # the names stay
    assert albers.entry.player.last_name == "Albers"
    assert hall.entries.count() == 2
    assert client.get(reverse("registration-personal", args=[token])).status_code == 404


def run(*args):
    out = io.StringIO()
    call_command("forgetregistrations", *args, stdout=out)
    return out.getvalue()


def test_the_command_clears_named_finished_tournaments_and_refuses_others(hall):
    sign(hall, "Albers"), sign(hall, "Brandt")
    with pytest.raises(CommandError, match="Not finished: herbst"):
        run("herbst")
    with pytest.raises(CommandError, match="No tournament with the short name 'nirgends'"):
        run("nirgends")
    with pytest.raises(CommandError, match="short names, or give --finished-before"):
        run()
    assert not Registration.objects.filter(email="").exists()
    finish(hall)
    assert "herbst: would clear 2 registration(s)" in run("herbst", "--dry-run")
    assert not Registration.objects.filter(email="").exists()
    assert "herbst: cleared 2 registration(s)" in run("herbst")
    assert set(Registration.objects.values_list("email", "token")) == {("", None)}
    assert "herbst: cleared 0 registration(s)" in run("herbst")


def test_the_command_clears_every_finished_tournament_before_a_date(hall):
    sign(hall, "Albers")
    later = TournamentFactory(slug="winter", date=datetime.date(2027, 1, 9),
                              registration_open=True, registration_capacity=5)  # fmt: skip
    sign(later, "Brandt")
    running = TournamentFactory(slug="fruehling", date=datetime.date(2026, 3, 1),
                                registration_open=True, registration_capacity=5)  # fmt: skip
    sign(running, "Conrad")
    finish(hall)  # 5 Dec 2026
    finish(later)
    with pytest.raises(CommandError, match="YYYY-MM-DD"):
        run("--finished-before", "5.12.2026")
    output = run("--finished-before", "2027-01-01")
    assert "herbst: cleared 1 registration(s)" in output
    assert "winter" not in output and "fruehling" not in output  # later / not finished
    emails = dict(Registration.objects.values_list("last_name", "email"))
    assert emails == {"Albers": "", "Brandt": "brandt@example.org", "Conrad": "conrad@example.org"}
    assert "No finished tournament" in run("--finished-before", "2020-01-01")


def test_the_registrations_page_moves_nothing_on_get(english, hall):
    sign(hall, "Albers"), sign(hall, "Brandt"), sign(hall, "Conrad")
    hall.registration_capacity = 3
    hall.save()
    english.get(reverse("manage:registration-list", args=[hall.slug]))
    assert waiting_names(hall) == ["Conrad"]  # only the settings form fills the new place


@pytest.mark.parametrize(
    ("backend", "warned"),
    [
        ("django.core.mail.backends.console.EmailBackend", True),
        ("django.core.mail.backends.smtp.EmailBackend", False),
    ],
)
def test_the_director_is_told_when_no_mail_server_sends_the_links(
    hall, english, settings, backend, warned
):
    """Without EMAIL_HOST the personal links are only printed in the server's terminal: the
    registrations page and the settings say so, in the director's language."""
    settings.EMAIL_BACKEND = backend
    pages = [
        reverse("manage:registration-list", args=[hall.slug]),
        reverse("manage:tournament-edit", args=[hall.slug]),
    ]
    for url in pages:
        page = english.get(url).content.decode()
        assert ('id="mail-not-sent"' in page) is warned
        assert ("only printed in the server's terminal" in page) is warned


def test_the_settings_show_the_standard_consent_line_in_the_empty_field(hall, director_client):
    page = director_client.get(reverse("manage:tournament-edit", args=[hall.slug]))
    field = page.content.decode().split('name="registration_consent"')[1].split(">")[0]
    assert 'placeholder="Ich bin einverstanden, dass meine Angaben' in field
