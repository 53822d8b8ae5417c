"""Issue 20, the players' side: the public registration form, the personal link (see, change,
cancel, "I am here", print), "send my link again", and the protection of a public write
(rate limits, the honeypot, field caps). Pages are read in English (the language cookie);
mails are read from Django's test outbox once the transaction's on-commit callbacks ran."""

import datetime
import re

import pytest
from django.core import mail
from django.urls import reverse
from django.utils import timezone, translation

from tests.factories import (
    EntryFactory,
    PlayerFactory,
    RoundFactory,
    TournamentFactory,
    open_for_registration,
)
from tournament.domain import registrations
from tournament.models import Entry, Registration, RegistrationState
from tournament.models.audit import history_reason

pytestmark = pytest.mark.django_db


@pytest.fixture
def open_tournament(tournament):
    """Herbstturnier: public, online registration open, two places."""
    return open_for_registration(tournament, 2)


@pytest.fixture(autouse=True)
def limits(settings):
    settings.REGISTRATION_PER_ADDRESS = 50
    settings.REGISTRATION_LINK_FAILURES = 20
    settings.REGISTRATION_WINDOW = 600
    return settings


@pytest.fixture
def en(client):
    client.cookies["django_language"] = "en"
    return client


@pytest.fixture
def send(django_capture_on_commit_callbacks):
    """Run a request and the mails it sends on commit."""

    def run(call, *args, **kwargs):
        with django_capture_on_commit_callbacks(execute=True):
            return call(*args, **kwargs)

    return run


def form_data(first="Anna", last="Schäfer", **extra):
    data = {
        "first_name": first,
        "last_name": last,
        "club": "Herz Dame Fulda",
        "ddv_number": "",
        "email": f"{first.lower()}@example.org",
        "team_name": "",
        "language": "en",
        "consent": "on",
        "website": "",
    }
    data.update(extra)
    return data


def register(client, send, first="Anna", last="Schäfer", slug="herbst", **extra):
    url = reverse("registration-form", args=[slug])
    return send(client.post, url, form_data(first, last, **extra))


def token_of(response) -> str:
    assert response.status_code == 302, response.content.decode()[:2000]
    match = re.fullmatch(r"/anmeldung/([^/]+)/", response["Location"])
    assert match, response["Location"]
    return match[1]


def personal(client, token, page="registration-personal"):
    return client.get(reverse(page, args=[token]))


def text(response) -> str:
    """The page's visible words, one space between them."""
    html = response.content.decode()
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def mails_to(address):
    return [m for m in mail.outbox if m.to == [address]]


# --- registering ----------------------------------------------------------------------------


def test_registering_fills_the_places_then_the_waiting_list_with_positions(
    en, send, open_tournament
):
    page = en.get(reverse("registration-form", args=["herbst"]))
    assert page.status_code == 200
    assert "Registration is open: 2 places are free." in text(page)

    anna = register(en, send, "Anna", "Schäfer")
    page = en.get(anna["Location"])
    assert "Thank you for registering." in text(page)
    assert "Your place is confirmed." in text(page)
    assert re.search(r'id="start-number">1<', page.content.decode())

    register(en, send, "Bernd", "Wolf")
    carla = token_of(register(en, send, "Carla", "Vogt"))
    dieter = token_of(register(en, send, "Dieter", "Klein"))

    states = dict(Registration.objects.values_list("first_name", "state"))
    assert states == {
        "Anna": "confirmed",
        "Bernd": "confirmed",
        "Carla": "waiting",
        "Dieter": "waiting",
    }
    assert open_tournament.entries.count() == 2  # the waiting ones have no entry
    assert "You are on the waiting list: position 1 of 2." in text(personal(en, carla))
    assert "You are on the waiting list: position 2 of 2." in text(personal(en, dieter))

    # Every player got one e-mail with their own link; the waiting ones learn their position.
    assert len(mail.outbox) == 4
    (to_carla,) = mails_to("carla@example.org")
    assert to_carla.subject == "Your registration for Herbstturnier"
    assert "you are on the waiting list, position 1" in to_carla.body
    assert f"http://testserver/anmeldung/{carla}/" in to_carla.body
    (to_anna,) = mails_to("anna@example.org")
    assert "is confirmed. Your start number is 1." in to_anna.body

    # The form and the public page now say that new registrations go on the waiting list.
    full = "All places are taken: new registrations go on the waiting list."
    assert full in text(en.get(reverse("registration-form", args=["herbst"])))
    public = en.get(reverse("tournament-public", args=["herbst"]))
    assert full in text(public)
    # Nobody's e-mail address on a public page; waiting players are not listed.
    assert "@example.org" not in public.content.decode()
    assert "Carla" not in text(public)


def test_after_the_first_draw_the_waiting_list_is_told_that_no_place_came_free(
    en, send, open_tournament
):
    """A tester's find: the waiting list still promised a place after the draw."""
    from tests.factories import RoundFactory

    register(en, send, "Anna", "Schäfer")
    register(en, send, "Bernd", "Wolf")
    carla = token_of(register(en, send, "Carla", "Vogt"))
    assert "If a place comes free, you move up" in text(personal(en, carla))
    RoundFactory(tournament=open_tournament, number=1)
    page = text(personal(en, carla))
    assert "no place came free for you on the waiting list" in page
    assert "position 1" not in page and "If a place comes free" not in page


def test_a_cancellation_moves_the_first_on_the_waiting_list_up_and_tells_them(
    en, send, open_tournament
):
    anna = token_of(register(en, send, "Anna", "Schäfer"))
    register(en, send, "Bernd", "Wolf")
    carla = token_of(register(en, send, "Carla", "Vogt"))
    dieter = token_of(register(en, send, "Dieter", "Klein"))
    mail.outbox.clear()

    # Without ticking the confirmation nothing happens.
    refused = send(en.post, reverse("registration-cancel", args=[anna]), {})
    assert refused.status_code == 400
    assert "Please tick the box to confirm the cancellation." in text(refused)
    assert Registration.objects.get(token=anna).state == RegistrationState.CONFIRMED
    assert mail.outbox == []

    done = send(en.post, reverse("registration-cancel", args=[anna]), {"confirm": "on"})
    assert done.status_code == 302
    assert "Your registration is cancelled." in text(personal(en, anna))

    moved = Registration.objects.get(token=carla)
    assert moved.state == RegistrationState.CONFIRMED
    assert moved.entry is not None and moved.entry.status == "active"
    assert "Your place is confirmed." in text(personal(en, carla))
    assert "position 1 of 1" in text(personal(en, dieter))

    (to_carla,) = mails_to("carla@example.org")
    assert to_carla.subject == "A place for you at Herbstturnier"
    assert "you have moved up from the waiting list" in to_carla.body
    (to_anna,) = mails_to("anna@example.org")
    assert to_anna.subject == "Registration cancelled: Herbstturnier"
    assert mails_to("dieter@example.org") == []

    # A cancelled registration offers neither change, cancel nor a QR code any more, but a
    # way back while registration is open.
    page = personal(en, anna).content.decode()
    assert 'id="cancel-registration"' not in page
    assert 'id="change-details"' not in page
    assert 'id="print-link"' not in page
    assert 'id="register-again"' in page
    assert "personal link" not in to_anna.body  # a link that can do nothing more


def test_in_approval_mode_a_registration_waits_for_the_director(
    en, send, open_tournament, director_user
):
    open_tournament.registration_approval = True
    open_tournament.save()
    token = token_of(register(en, send))
    registration = Registration.objects.get(token=token)
    assert registration.state == RegistrationState.PENDING
    assert registration.entry is None
    page = personal(en, token)
    assert "Your registration is awaiting the tournament director's approval." in text(page)
    (first,) = mail.outbox
    assert "The tournament director confirms it by hand" in first.body

    send(registrations.approve, registration, director_user)
    page = personal(en, token)
    assert "Your place is confirmed." in text(page)


def test_registration_language_chooses_the_language_of_the_mails(client, send, open_tournament):
    register(client, send, "Emma", "Stone", language="en")
    register(client, send, "Jürgen", "Kässmann", language="de", email="juergen@example.org")
    (english,) = mails_to("emma@example.org")
    assert english.subject == "Your registration for Herbstturnier"
    assert english.body.startswith("Hello Emma Stone,")
    (german,) = mails_to("juergen@example.org")
    assert "Herbstturnier" in german.subject
    assert Registration.objects.get(first_name="Jürgen").language == "de"


def test_the_form_offers_the_page_language_and_the_consent_text(en, open_tournament):
    page = en.get(reverse("registration-form", args=["herbst"])).content.decode()
    assert re.search(r'<option value="en" selected lang="en">English</option>', page)
    assert "I agree that my details are stored for this tournament" in page
    # Publication is a tick of its own, not ticked (README, "Datenschutz / privacy").
    assert re.search(r'<input type="checkbox" name="publish" id="id_publish"\s*>', page)
    open_tournament.registration_consent = "Ich bin einverstanden (Vereinsregel 7)."
    open_tournament.save()
    page = en.get(reverse("registration-form", args=["herbst"])).content.decode()
    assert "Ich bin einverstanden (Vereinsregel 7)." in page
    assert "I agree that my details" not in page


def test_the_consent_is_required_and_kept_as_shown(en, send, open_tournament):
    response = register(en, send, consent="")
    assert response.status_code == 400
    assert "Please tick the consent" in text(response)
    assert not Registration.objects.exists()
    register(en, send)
    assert Registration.objects.get().consent.startswith("I agree that my details are stored")


def test_the_same_name_twice_is_refused_with_a_message(en, send, open_tournament):
    register(en, send, "Anna", "Schäfer")
    again = register(en, send, "anna", "Schaefer", email="other@example.org")
    assert again.status_code == 400
    assert "is already registered for this tournament" in text(again)
    assert Registration.objects.count() == 1


# --- the public pages link to the form ------------------------------------------------------


def test_the_public_page_and_the_start_page_link_to_the_form(en, send, open_tournament):
    public = en.get(reverse("tournament-public", args=["herbst"]))
    assert 'id="register-link"' in public.content.decode()
    assert "Registration is open: 2 places are free." in text(public)
    home = en.get(reverse("home")).content.decode()
    assert reverse("registration-form", args=["herbst"]) in home

    open_tournament.registration_open = False
    open_tournament.save()
    assert (
        'id="registration-box"'
        not in en.get(reverse("tournament-public", args=["herbst"])).content.decode()
    )
    assert (
        reverse("registration-form", args=["herbst"])
        not in en.get(reverse("home")).content.decode()
    )


def test_registration_not_yet_open_says_when_and_takes_nothing(en, send, open_tournament):
    opens = timezone.now() + datetime.timedelta(days=3)
    open_tournament.registration_opens_at = opens
    open_tournament.save()
    page = en.get(reverse("registration-form", args=["herbst"]))
    assert page.status_code == 200
    assert "Registration opens on" in text(page)
    assert 'id="signup-form"' not in page.content.decode()
    assert "Registration opens on" in text(en.get(reverse("tournament-public", args=["herbst"])))

    response = register(en, send)
    assert response.status_code == 400
    assert "Registration for this tournament is not open." in text(response)
    assert not Registration.objects.exists()
    assert mail.outbox == []


def test_registration_closed_takes_nothing(en, send, open_tournament):
    open_tournament.registration_closes_at = timezone.now() - datetime.timedelta(hours=1)
    open_tournament.save()
    page = en.get(reverse("registration-form", args=["herbst"]))
    assert 'data-phase="closed"' in page.content.decode()
    assert "Registration for this tournament is closed." in text(page)
    assert register(en, send).status_code == 400
    assert not Registration.objects.exists()


@pytest.mark.parametrize("change", [{"registration_open": False}, {"is_public": False}])
def test_no_form_without_registration_or_for_a_private_tournament(
    en, send, open_tournament, change
):
    for field, value in change.items():
        setattr(open_tournament, field, value)
    open_tournament.save()
    page = en.get(reverse("registration-form", args=["herbst"]))
    assert page.status_code == 404
    assert "This tournament has no online registration here." in text(page)
    assert register(en, send).status_code == 404
    assert not Registration.objects.exists()
    assert en.get(reverse("registration-form", args=["unknown"])).status_code == 404


# --- abuse: honeypot, rate limit, caps ------------------------------------------------------


def test_the_honeypot_refuses_a_bot_and_writes_nothing(en, send, open_tournament):
    page = en.get(reverse("registration-form", args=["herbst"])).content.decode()
    # People never see the field: off-screen, hidden from screen readers, not in the tab order.
    trap = re.search(r'<div class="hp" aria-hidden="true">(.*?)</div>', page, re.S)[1]
    assert 'name="website"' in trap and 'tabindex="-1"' in trap
    assert 'autocomplete="off"' in trap and 'type="text"' in trap

    response = register(en, send, website="http://spam.example")
    assert response.status_code == 400
    assert "The form could not be processed." in text(response)
    assert "bot" not in text(response).lower()
    assert not Registration.objects.exists()
    assert not Entry.objects.exists()
    assert mail.outbox == []


def test_registrations_are_limited_per_address(en, send, open_tournament, settings):
    settings.REGISTRATION_PER_ADDRESS = 2
    open_tournament.registration_capacity = None
    open_tournament.save()
    # Typos do not count: a form sent back with errors.
    assert register(en, send, "Anna", "Eins", email="no-address").status_code == 400
    assert register(en, send, "Anna", "Eins", consent="").status_code == 400
    assert register(en, send, "Anna", "Eins").status_code == 302
    assert register(en, send, "Bernd", "Zwei").status_code == 302
    limited = register(en, send, "Carla", "Drei")
    assert limited.status_code == 429
    assert limited["Content-Type"].startswith("text/html")
    assert int(limited["Retry-After"]) > 0
    assert "Very many registrations came from your network just now" in text(limited)
    assert 'value="Carla"' in limited.content.decode()  # nothing typed is lost
    assert Registration.objects.count() == 2
    # Another address is not affected.
    other = send(
        en.post,
        reverse("registration-form", args=["herbst"]),
        form_data("Dora", "Vier"),
        REMOTE_ADDR="10.0.0.9",
    )
    assert other.status_code == 302
    assert Registration.objects.count() == 3


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("first_name", "A" * 101),
        ("last_name", "B" * 101),
        ("club", "C" * 151),
        ("ddv_number", "1" * 21),
        ("team_name", "T" * 151),
        ("email", "x" * 250 + "@example.org"),
        ("last_name", "Schäfer\x00"),
        ("club", "Klub\x1b[31m"),
        ("email", "not an address"),
        ("language", "fr"),
    ],
)
def test_overlong_or_odd_fields_are_refused_and_nothing_written(
    en, send, open_tournament, field, value
):
    response = register(en, send, **{field: value})
    assert response.status_code == 400
    assert 'class="error"' in response.content.decode()
    assert not Registration.objects.exists()
    assert not Entry.objects.exists()
    assert mail.outbox == []


def test_the_form_fields_carry_the_length_caps(en, open_tournament):
    page = en.get(reverse("registration-form", args=["herbst"])).content.decode()
    for name, cap in [("first_name", 100), ("last_name", 100), ("club", 150),
                      ("ddv_number", 20), ("team_name", 150), ("email", 254)]:  # fmt: skip
        tag = re.search(rf'<input[^>]*name="{name}"[^>]*>', page)[0]
        assert f'maxlength="{cap}"' in tag


# --- the personal link ----------------------------------------------------------------------


def test_a_personal_link_shows_only_its_own_registration(en, send, open_tournament):
    anna = token_of(register(en, send, "Anna", "Schäfer"))
    bernd = token_of(register(en, send, "Bernd", "Wolf"))
    page = personal(en, anna)
    assert page.status_code == 200
    body = page.content.decode()
    assert "Anna Schäfer" in body and "anna@example.org" in body
    assert "Bernd" not in body and "bernd@example.org" not in body
    assert "private" in page["Cache-Control"] and "no-store" in page["Cache-Control"]
    # The link never leaves the site in a Referer header.
    assert page["Referrer-Policy"] == "same-origin"
    for name in ("registration-edit", "registration-print"):
        other = personal(en, anna, name)
        assert other.status_code == 200
        assert "no-store" in other["Cache-Control"]
        assert "bernd" not in other.content.decode().lower()

    # Changing and cancelling through Anna's link touch Anna's registration only.
    send(en.post, reverse("registration-cancel", args=[anna]), {"confirm": "on"})
    assert Registration.objects.get(token=anna).state == RegistrationState.CANCELLED
    assert Registration.objects.get(token=bernd).state == RegistrationState.CONFIRMED


def test_an_unknown_link_gets_a_friendly_page_and_counts_towards_a_limit(
    en, send, open_tournament, settings
):
    settings.REGISTRATION_LINK_FAILURES = 3
    token = token_of(register(en, send))
    for guess in ("abc", "x" * 32 + "\x00", "y" * 200):
        page = en.get(reverse("registration-personal", args=[guess]))
        assert page.status_code == 404
        assert "This link is not valid (any more)." in text(page)
        assert reverse("registration-resend") in page.content.decode()
        assert "no-store" in page["Cache-Control"]
    # Over the limit: further guesses from this address wait ...
    limited = en.get(reverse("registration-personal", args=["zzz"]))
    assert limited.status_code == 429
    assert "There were too many requests from your connection." in text(limited)
    # ... but a valid link always works: the other phones of a hall share the address.
    assert en.get(reverse("registration-personal", args=[token])).status_code == 200
    assert en.get(reverse("registration-print", args=[token])).status_code == 200


def test_a_link_whose_personal_data_was_deleted_is_not_valid(en, send, open_tournament):
    token = token_of(register(en, send))
    Registration.objects.update(token=None, email="")
    page = personal(en, token)
    assert page.status_code == 404
    assert "This link is not valid (any more)." in text(page)


def test_the_personal_page_speaks_the_registrations_language(client, send, open_tournament):
    """Without a choice on the language switcher the page speaks the language the player
    registered in."""
    token = token_of(register(client, send, language="en"))
    page = client.get(reverse("registration-personal", args=[token]), HTTP_ACCEPT_LANGUAGE="de")
    assert '<html lang="en">' in page.content.decode()
    assert "Your place is confirmed." in text(page)


def test_changing_ones_details(en, send, open_tournament):
    token = token_of(register(en, send, "Anna", "Schäfer", team_name=""))
    form = personal(en, token, "registration-edit")
    assert form.status_code == 200
    assert 'value="anna@example.org"' in form.content.decode()
    data = form_data(
        "Anna", "Schäfer-Lüdenscheidt", club="Kreuz As Kassel", email="neu@example.org",
        team_name="Die Füchse",
    )  # fmt: skip
    done = send(en.post, reverse("registration-edit", args=[token]), data)
    assert done.status_code == 302
    page = personal(en, token)
    assert "Your details are saved." in text(page)
    # The link goes to the new address at once: a typo in it shows now, not on the day.
    assert "We have sent your personal link to neu@example.org." in text(page)
    (to_new,) = mails_to("neu@example.org")
    assert to_new.subject == "Your personal link for Herbstturnier" and token in to_new.body
    registration = Registration.objects.get(token=token)
    assert (registration.last_name, registration.club, registration.email) == (
        "Schäfer-Lüdenscheidt",
        "Kreuz As Kassel",
        "neu@example.org",
    )
    player = registration.entry.player
    assert (player.last_name, player.club) == ("Schäfer-Lüdenscheidt", "Kreuz As Kassel")
    assert registration.entry.team.name == "Die Füchse"

    too_long = send(en.post, reverse("registration-edit", args=[token]), form_data(club="C" * 151))
    assert too_long.status_code == 400
    assert Registration.objects.get(token=token).club == "Kreuz As Kassel"


def test_a_name_in_other_results_is_locked_on_the_link(en, send, open_tournament, director_user):
    token = token_of(register(en, send, "Anna", "Schäfer"))
    player = Registration.objects.get(token=token).entry.player
    EntryFactory(tournament=TournamentFactory(directors=[director_user]), player=player)

    form = personal(en, token, "registration-edit").content.decode()
    assert 'id="name-locked"' in form
    assert re.search(r'<input[^>]*name="last_name"[^>]*disabled', form)
    data = form_data("Anna", "Anders", email="anna@new.example")
    assert send(en.post, reverse("registration-edit", args=[token]), data).status_code == 302
    registration = Registration.objects.get(token=token)
    assert registration.last_name == "Schäfer"  # locked: unchanged
    assert registration.email == "anna@new.example"


def test_check_in_by_link_only_once_check_in_is_open(en, send, open_tournament):
    open_tournament.registration_capacity = 1
    open_tournament.save()
    token = token_of(register(en, send, "Anna", "Schäfer"))
    waiting = token_of(register(en, send, "Bernd", "Wolf"))
    checkin = reverse("registration-checkin", args=[token])

    assert 'id="i-am-here"' not in personal(en, token).content.decode()
    refused = en.post(checkin)
    assert refused.status_code == 400
    assert "Check-in on this link is not open." in text(refused)
    assert not Registration.objects.get(token=token).entry.checked_in

    open_tournament.checkin_open = True
    open_tournament.save()
    page = personal(en, token).content.decode()
    assert re.search(r'<button[^>]*id="i-am-here"[^>]*>I am here</button>', page)
    assert 'id="i-am-here"' not in personal(en, waiting).content.decode()
    assert en.post(reverse("registration-checkin", args=[waiting])).status_code == 400

    assert en.post(checkin).status_code == 302
    entry = Registration.objects.get(token=token).entry
    assert entry.checked_in
    local = timezone.localtime(entry.checked_in_at).strftime("%H:%M")
    page = personal(en, token)
    assert f"You are checked in at {local}." in text(page)
    assert 'id="i-am-here"' not in page.content.decode()


def test_the_print_page_has_the_link_as_qr_code(en, send, open_tournament):
    token = token_of(register(en, send))
    page = personal(en, token, "registration-print")
    body = page.content.decode()
    assert page.status_code == 200
    assert "<svg" in body and 'class="qr"' in body
    assert f"http://testserver/anmeldung/{token}/" in text(page)
    assert "Anna Schäfer" in body and "Herbstturnier" in body
    assert "no-store" in page["Cache-Control"]


def test_cancel_is_refused_once_the_tournament_has_begun(en, send, open_tournament):
    token = token_of(register(en, send))
    RoundFactory(tournament=open_tournament, number=1)
    assert 'id="cancel-registration"' not in personal(en, token).content.decode()
    refused = send(en.post, reverse("registration-cancel", args=[token]), {"confirm": "on"})
    assert refused.status_code == 400
    assert "The tournament has begun" in text(refused)
    assert Registration.objects.get(token=token).state == RegistrationState.CONFIRMED


# --- send my link again ---------------------------------------------------------------------


def test_send_my_link_again_reveals_nothing(en, send, open_tournament):
    token = token_of(register(en, send, "Anna", "Schäfer"))
    mail.outbox.clear()
    url = reverse("registration-resend")
    assert en.get(url).status_code == 200

    known = send(en.post, url, {"email": "ANNA@example.org", "website": ""})
    unknown = send(en.post, url, {"email": "nobody@example.org", "website": ""})
    assert known.status_code == unknown.status_code == 200
    said = "If the address is registered for a tournament that is not over yet"
    assert said in text(known) and said in text(unknown)
    # The same page, apart from the CSRF tokens.
    strip = lambda r: re.sub(r"[A-Za-z0-9]{64}", "", r.content.decode())  # noqa: E731
    assert strip(known) == strip(unknown)

    (sent,) = mail.outbox
    assert sent.to == ["anna@example.org"]
    assert sent.subject == "Your personal link for Herbstturnier"
    assert f"http://testserver/anmeldung/{token}/" in sent.body


def test_send_my_link_again_is_limited_and_refuses_bots(en, send, open_tournament, settings):
    settings.REGISTRATION_PER_ADDRESS = 2
    url = reverse("registration-resend")
    assert send(en.post, url, {"email": "a@example.org"}).status_code == 200
    assert send(en.post, url, {"email": "a@example.org", "website": "x"}).status_code == 400
    assert send(en.post, url, {"email": "a@example.org"}).status_code == 429
    assert mail.outbox == []


def test_no_link_for_a_finished_tournament(en, send, open_tournament):
    """A finished tournament's registration keeps its link until the data are deleted, but
    "send my link again" is for tournaments still to come."""
    register(en, send, "Anna", "Schäfer")
    open_tournament.planned_rounds = 1
    open_tournament.save()
    RoundFactory(tournament=open_tournament, number=1, status="closed")
    mail.outbox.clear()
    send(en.post, reverse("registration-resend"), {"email": "anna@example.org"})
    assert mail.outbox == []


def test_players_of_other_tournaments_are_never_shown(en, send, open_tournament):
    """A player already in the database is recognised without showing their data: the form
    page and the personal page show only what the player typed."""
    known = PlayerFactory(
        first_name="Anna", last_name="Schäfer", club="Geheimclub", ddv_number="4711"
    )
    EntryFactory(tournament=TournamentFactory(), player=known)
    token = token_of(register(en, send, "Anna", "Schäfer", club="Herz Dame Fulda"))
    assert "Geheimclub" not in personal(en, token).content.decode()
    assert "4711" not in personal(en, token).content.decode()


def test_the_personal_page_says_when_the_director_withdrew_the_player(en, send, open_tournament):
    token = token_of(register(en, send))
    entry = Registration.objects.get(token=token).entry
    entry.status = "withdrawn"
    entry.save()
    page = text(personal(en, token))
    assert "The tournament director has withdrawn you from this tournament." in page
    assert "Your place is confirmed." not in page


# --- the publication consent (README, "Datenschutz / privacy") -----------------------------


def test_a_registration_without_the_publish_tick_is_a_pseudonym_in_public(
    en, send, open_tournament
):
    token_of(register(en, send, "Anna", "Schäfer"))
    token_of(register(en, send, "Bernd", "Offen", publish="on"))
    assert dict(Entry.objects.values_list("player__first_name", "publish")) == {
        "Anna": False,
        "Bernd": True,
    }
    page = text(en.get(reverse("tournament-public", args=["herbst"])))
    assert "Bernd Offen" in page and "Herz Dame Fulda" in page  # Bernd's club
    assert "Schäfer" not in page and "Player 1" in page


def test_the_player_withdraws_and_gives_the_consent_on_the_personal_link(en, send, open_tournament):
    token = token_of(register(en, send, "Anna", "Schäfer", publish="on"))
    public = reverse("tournament-public", args=["herbst"])
    assert "Schäfer" in text(en.get(public))
    edit = reverse("registration-edit", args=[token])
    assert send(en.post, edit, form_data()).status_code == 302  # the tick taken away
    entry = Entry.objects.get()
    assert not entry.publish and not Registration.objects.get().publish
    assert "Schäfer" not in text(en.get(public))
    assert entry.history.first().history_event == "consent-withdrawn"  # read in any language
    with translation.override("en"):
        assert history_reason(entry.history.first()) == "consent to publication withdrawn"
    assert "show “Player” and your start number only" in text(personal(en, token))
    assert send(en.post, edit, form_data(publish="on")).status_code == 302
    assert "Schäfer" in text(en.get(public))


def test_a_consent_on_the_waiting_list_follows_the_player_to_their_place(en, send, open_tournament):
    for first in ("Anna", "Bernd"):
        token_of(register(en, send, first, "Platz"))
    token_of(register(en, send, "Carla", "Wartend", publish="on"))
    assert Registration.objects.get(first_name="Carla").state == RegistrationState.WAITING
    open_tournament.registration_capacity = 3
    open_tournament.save()
    registrations.after_places_changed(open_tournament, user=None)
    assert Entry.objects.get(player__first_name="Carla").publish
