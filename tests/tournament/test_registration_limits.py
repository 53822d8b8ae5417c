"""Issue 34, limits and what the site sends: the attacks of the security probe against online
registration, each replayed against the pages. Finding 2 (a flood of junk registrations fills
the places), 5 (names with line feeds make the site a mail relay; one "send my link again"
sent 68 mails), 6 (a known address answers slower than an unknown one: the mail was sent in
the request) and 11c (table and personal links in the logs)."""

import logging
import re

import pytest
from django.core import mail
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.factories import TournamentFactory, open_for_registration
from tests.tournament.test_registrations_page import edit
from tournament.domain import registrations
from tournament.errors import DomainError
from tournament.models import Registration
from tournament.queries import registrations as registrations_queries
from tournament.web.error_reports import ReporterFilter
from tournament.web.log import WithoutPersonalLinks

pytestmark = pytest.mark.django_db

FLOOD = 68  # the probe's junk registrations


@pytest.fixture
def open_tournament(tournament):
    """Herbstturnier: public, online registration open, ten places."""
    return open_for_registration(tournament, 10)


@pytest.fixture(autouse=True)
def limits(settings):
    """The shipped defaults, written out: the tests show what they hold against."""
    settings.REGISTRATION_PER_ADDRESS = 10
    settings.REGISTRATION_WINDOW = 600
    settings.REGISTRATIONS_PER_MINUTE = 20
    settings.REGISTRATIONS_PER_HOUR = 200
    settings.REGISTRATIONS_PER_EMAIL_HOUR = 5
    settings.REGISTRATIONS_PER_EMAIL = 2
    settings.MAILS_PER_ADDRESS = 10
    return settings


@pytest.fixture
def en(client):
    client.cookies["django_language"] = "en"
    return client


def form_data(number: int, email: str | None = None, **extra) -> dict:
    data = {
        "first_name": f"Junk{number}",
        "last_name": "Flood",
        "club": "",
        "ddv_number": "",
        "email": email or f"junk{number}@example.org",
        "team_name": "",
        "language": "en",
        "consent": "on",
        "website": "",
    }
    data.update(extra)
    return data


def post_form(client, data, **meta):
    return client.post(reverse("registration-form", args=["herbst"]), data, **meta)


# --- finding 2: flooding -------------------------------------------------------------------


def test_a_flood_with_one_e_mail_address_from_the_halls_wi_fi_fills_no_places(en, open_tournament):
    """The probe: 68 registrations from 7 addresses of the hall's Wi-Fi, one e-mail address."""
    answers = [
        post_form(en, form_data(n, email="flood@example.org"), REMOTE_ADDR=f"10.0.0.{n % 7 + 1}")
        for n in range(FLOOD)
    ]
    assert Registration.objects.count() == 2  # REGISTRATIONS_PER_EMAIL
    refused = answers[2]
    assert refused.status_code == 400
    assert "already used for 2 registrations" in refused.content.decode()
    # Another address of the same family still gets in.
    assert post_form(en, form_data(99), REMOTE_ADDR="10.0.0.99").status_code == 302


def test_refused_registrations_do_not_use_up_the_tournaments_or_an_addresss_share(
    en, open_tournament
):
    """A reviewer's find: the same (refused) name sent from many networks used up the
    tournament's limit for an hour, and five refused tries blocked a victim's address."""
    post_form(en, form_data(0, email="real@example.org"), REMOTE_ADDR="10.0.0.1")
    refused = [
        post_form(en, form_data(0, email="victim@example.org"), REMOTE_ADDR=f"10.0.{n}.2")
        for n in range(30)  # "Junk0 Flood" again: the same name, refused every time
    ]
    assert {answer.status_code for answer in refused} == {400}
    assert "already registered" in refused[0].content.decode()
    # Neither the tournament (20 a minute) nor the victim's address (5 an hour) is used up.
    assert (
        post_form(en, form_data(1, email="victim@example.org"), REMOTE_ADDR="10.1.0.1").status_code
        == 302
    )
    assert Registration.objects.count() == 2


def test_the_e_mail_limit_counts_every_spelling_of_the_address(en, open_tournament):
    for n, spelling in enumerate(["Flood@Example.org", "flood@example.org ", "FLOOD@example.ORG"]):
        post_form(en, form_data(n, email=spelling), REMOTE_ADDR=f"10.0.0.{n + 1}")
    assert Registration.objects.count() == 2


def test_a_flood_from_ever_new_addresses_and_e_mails_is_held_per_tournament(en, open_tournament):
    answers = [post_form(en, form_data(n), REMOTE_ADDR=f"10.0.{n}.1") for n in range(FLOOD)]
    assert Registration.objects.count() == 20  # REGISTRATIONS_PER_MINUTE
    refused = answers[20]
    assert refused.status_code == 429
    assert int(refused["Retry-After"]) > 0
    assert "Very many registrations are arriving for this tournament" in refused.content.decode()
    # Another tournament is not held up by this one's flood.
    TournamentFactory(slug="winter", is_public=True, registration_open=True)
    other = en.post(
        reverse("registration-form", args=["winter"]), form_data(100), REMOTE_ADDR="10.9.9.9"
    )
    assert other.status_code == 302


def test_one_e_mail_address_registers_a_few_times_an_hour_across_tournaments(en, settings):
    for n in range(7):
        TournamentFactory(slug=f"t{n}", is_public=True, registration_open=True)
    answers = [
        en.post(
            reverse("registration-form", args=[f"t{n}"]),
            form_data(n, email="same@example.org"),
            REMOTE_ADDR=f"10.1.{n}.1",
        )
        for n in range(7)
    ]
    assert [a.status_code for a in answers] == [302] * 5 + [429] * 2
    assert "Too many registrations with this e-mail address" in answers[5].content.decode()


def test_one_ipv6_network_counts_as_one_address_behind_the_proxy(en, open_tournament, settings):
    """Behind the documented reverse proxy every IPv6 address counted alone: one /64 (2^64
    addresses, any home or server has one) was unlimited."""
    settings.BEHIND_TLS_PROXY, settings.TRUSTED_PROXIES = True, 1
    settings.REGISTRATIONS_PER_MINUTE = 1000
    answers = [
        post_form(en, form_data(n), HTTP_X_FORWARDED_FOR=f"2001:db8:1:2::{n + 1:x}")
        for n in range(15)
    ]
    assert [a.status_code for a in answers] == [302] * 10 + [429] * 5
    assert Registration.objects.count() == 10  # REGISTRATION_PER_ADDRESS
    refused = answers[10].content.decode()  # the form again, as typed, with the reason
    assert "Very many registrations came from your network" in refused
    assert 'value="Junk10"' in refused and 'value="junk10@example.org"' in refused
    # The next /64 is another network.
    neighbour = post_form(en, form_data(20), HTTP_X_FORWARDED_FOR="2001:db8:1:3::1")
    assert neighbour.status_code == 302


def test_the_director_pauses_registration_and_the_form_says_so(
    en, director_client, open_tournament
):
    director_client.cookies["django_language"] = "en"
    settings_page = director_client.get(
        reverse("manage:tournament-edit", args=[open_tournament.slug])
    ).content.decode()
    assert 'name="registration_paused"' in settings_page
    assert edit(director_client, open_tournament, registration_paused="on").status_code == 302
    open_tournament.refresh_from_db()
    assert open_tournament.registration_paused
    director_client.logout()  # the same test client as ``en``: its cookies are gone
    en.cookies["django_language"] = "en"

    page = en.get(reverse("registration-form", args=["herbst"])).content.decode()
    assert 'data-phase="paused"' in page
    assert "Registration is paused for the moment" in page
    assert "signup-form" not in page
    refused = post_form(en, form_data(1))
    assert refused.status_code == 400
    assert "Registration for this tournament is paused" in refused.content.decode()
    assert not Registration.objects.exists()
    public = en.get(reverse("tournament-public", args=["herbst"])).content.decode()
    assert "Registration is paused for the moment" in public

    open_tournament.registration_paused = False
    open_tournament.save()
    assert post_form(en, form_data(1)).status_code == 302


def test_a_paused_tournament_takes_nothing_through_the_domain_either(open_tournament):
    open_tournament.registration_paused = True
    open_tournament.save()
    assert registrations_queries.phase(open_tournament) == registrations_queries.PAUSED
    with pytest.raises(DomainError):
        registrations.submit(
            open_tournament, registrations.Details("A", "B", email="a@example.org"), consent="ok"
        )
    assert not Registration.objects.exists()


# --- finding 5: mail as a relay ------------------------------------------------------------

RELAY = [
    "Max\nBitte überweisen Sie 50 EUR an",  # a line feed: a line of the attacker's own
    "Max\r\nBcc: victim@example.org",
    "Tab\tim Namen",
    "Bidi \u202eesrever\u202c Ende",  # a bidi override
    "Null\u200bbreit",  # a zero-width space
    "Zeile\u2028trenner",  # the line separator
    "C1\x85Steuerzeichen",  # NEL, a C1 control
    "Byte\ufefforder",
]


@pytest.mark.parametrize("name", RELAY)
@pytest.mark.parametrize("field", ["first_name", "last_name", "club", "team_name"])
def test_control_characters_are_refused_at_the_public_form(en, open_tournament, field, name):
    response = post_form(en, form_data(1, **{field: name}))
    assert response.status_code == 400
    assert "Please leave out line breaks, tabs and invisible control characters" in (
        response.content.decode()
    )
    assert not Registration.objects.exists()
    assert mail.outbox == []


def test_the_change_form_of_the_personal_link_refuses_them_too(en, open_tournament):
    token = post_form(en, form_data(1))["Location"].split("/")[2]
    url = reverse("registration-edit", args=[token])
    response = en.post(url, {**form_data(1), "last_name": "Flood\nEvil"})
    assert response.status_code == 400
    assert Registration.objects.get().last_name == "Flood"


def _forms_with_text():
    """Every form that takes a name, club, title or reason, with one of its text fields."""
    from tournament.forms import entries, penalties, players, registrations, sheets

    return [
        (entries.EntryForm, {}, ["first_name", "last_name", "club", "team"]),
        (registrations.ResendForm, {}, ["email"]),
        (sheets.GameEntryForm, {"sheet": None}, ["reason"]),
        (sheets.DeleteRowForm, {}, ["reason"]),
        (sheets.ExtraTimeForm, {}, ["reason"]),
        (sheets.ReasonForm, {}, ["reason"]),
        (sheets.SheetFileForm, {}, ["reason"]),
        (penalties.RefereeCallForm, {}, ["note"]),
        (penalties.RefereeAccountForm, {}, ["first_name", "last_name"]),
        (players.MergeForm, {"players": None}, ["reason"]),
    ]


def test_every_form_that_takes_names_or_reasons_refuses_control_characters():
    from django.core.exceptions import ValidationError

    for form_class, kwargs, names in _forms_with_text():
        try:
            form = form_class(**kwargs)
        except (AttributeError, TypeError):  # needs a real sheet or players: the class's
            form = form_class.__new__(form_class)
            form.fields = form_class.base_fields
        for name in names:
            for text in ("a\nb", "a\tb", "a\u202eb"):
                with pytest.raises(ValidationError):
                    form.fields[name].clean(text)


def test_text_areas_keep_their_line_breaks_but_refuse_other_controls():
    from django.core.exceptions import ValidationError

    from tournament.forms.penalties import RevokeForm

    field = RevokeForm().fields["reason"]
    assert field.clean("erste Zeile\r\nzweite Zeile") == "erste Zeile\nzweite Zeile"
    with pytest.raises(ValidationError):
        field.clean("Bidi \u202eesrever")


@pytest.fixture
def sent(django_capture_on_commit_callbacks):
    """Run a request and what it queued on commit (the immediate task backend of the tests
    sends the queued mails at once, as the worker would)."""

    def run(call, *args, **kwargs):
        with django_capture_on_commit_callbacks(execute=True):
            return call(*args, **kwargs)

    return run


def _register_many(tournament, email: str, count: int, settings) -> None:
    settings.REGISTRATIONS_PER_EMAIL = count
    tournament.registration_capacity = count
    tournament.save()
    for n in range(count):
        details = registrations.Details(f"Spieler{n}", "Flood", email=email, language="en")
        registrations.submit(tournament, details, consent="ok")


def test_send_my_link_again_sends_one_mail_with_every_link(en, sent, open_tournament, settings):
    """The probe: one "send my link again" sent 68 mails to the address."""
    _register_many(open_tournament, "victim@example.org", FLOOD, settings)
    response = sent(en.post, reverse("registration-resend"), {"email": "victim@example.org"})
    assert response.status_code == 200
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["victim@example.org"]
    tokens = set(Registration.objects.values_list("token", flat=True))
    assert set(re.findall(r"/anmeldung/([A-Za-z0-9_-]+)/", message.body)) == tokens


def test_mails_to_one_address_are_capped_per_hour(en, sent, open_tournament, settings):
    settings.MAILS_PER_ADDRESS = 3
    settings.REGISTRATION_PER_ADDRESS = 100
    _register_many(open_tournament, "victim@example.org", 1, settings)
    for _n in range(5):
        sent(en.post, reverse("registration-resend"), {"email": "Victim@example.org"})
    assert len(mail.outbox) == 3
    # Another address has its own share.
    _register_many(
        TournamentFactory(slug="w", registration_open=True), "b@example.org", 1, settings
    )
    sent(en.post, reverse("registration-resend"), {"email": "b@example.org"})
    assert len(mail.outbox) == 4


# --- finding 6: the same answer time for known and unknown addresses ------------------------


def _shape(queries) -> list[str]:
    """The statements without their values: what the request did, not with which data."""
    savepoint = re.compile(r'"s\d+_x\d+"')
    return [re.sub(r"'[^']*'|\b\d+\b", "?", savepoint.sub("?", q["sql"])) for q in queries]


def test_send_my_link_again_does_the_same_work_for_known_and_unknown_addresses(
    en, django_capture_on_commit_callbacks, open_tournament, database_queue, settings
):
    from django_tasks_db.models import DBTaskResult

    _register_many(open_tournament, "known@example.org", 2, settings)
    url = reverse("registration-resend")
    shapes, pages = [], []
    for address, network in (("known@example.org", "10.0.0.1"), ("nobody@example.org", "10.0.0.2")):
        with (
            CaptureQueriesContext(connection) as queries,
            django_capture_on_commit_callbacks(execute=True),
        ):
            response = en.post(url, {"email": address}, REMOTE_ADDR=network)
        assert response.status_code == 200
        shapes.append(_shape(queries.captured_queries))
        csrf = re.compile(r'value="[^"]+"|"X-CSRFToken": "[^"]+"')
        pages.append(csrf.sub("", response.content.decode()))  # a new token each time
        assert mail.outbox == []  # nothing is sent in the request
    assert shapes[0] == shapes[1]
    assert pages[0] == pages[1]
    assert not any("tournament_registration" in sql for sql in shapes[0])  # not looked up
    queued = DBTaskResult.objects.filter(queue_name="mail")
    assert (
        sorted(queued.values_list("task_path", flat=True))
        == ["tournament.tasks.mail.send_links"] * 2
    )

    database_queue()
    assert [m.to for m in mail.outbox] == [["known@example.org"]]


def test_the_registration_mail_is_sent_by_the_worker_after_the_answer(
    en, django_capture_on_commit_callbacks, open_tournament, database_queue
):
    with django_capture_on_commit_callbacks(execute=True):
        response = post_form(en, form_data(1))
    assert response.status_code == 302
    assert mail.outbox == []
    from django_tasks_db.models import DBTaskResult

    token = Registration.objects.get().token
    queued = DBTaskResult.objects.get(queue_name="mail")
    assert token not in str(queued.args_kwargs)  # the queue holds no secret link
    database_queue()
    assert [m.to for m in mail.outbox] == [["junk1@example.org"]]
    assert f"/anmeldung/{token}/" in mail.outbox[0].body


# --- finding 11c: secret links in the logs -------------------------------------------------

TABLE_TOKEN = "Tb7_x-QzK1m0Yq2n3P4r5S6t7U8v9W0a"
PERSONAL_TOKEN = "AbC_dEf-0123456789abcdefGHIJKLmn"


def _logged(message, *args) -> str:
    record = logging.LogRecord("django.request", logging.WARNING, __file__, 1, message, args, None)
    WithoutPersonalLinks().filter(record)
    return record.getMessage()


@pytest.mark.parametrize(
    "path, masked",
    [
        (f"/tisch/{TABLE_TOKEN}/abgeben/", "/tisch/…/abgeben/"),
        (f"/tisch/{TABLE_TOKEN}/", "/tisch/…/"),
        (f"/leinwand/{TABLE_TOKEN}/daten/", "/leinwand/…/daten/"),
        (f"/anmeldung/{PERSONAL_TOKEN}/aendern/", "/anmeldung/…/aendern/"),
        (f"/anmeldung/{PERSONAL_TOKEN}?x=1", "/anmeldung/…?x=1"),
        ("/anmeldung/link/", "/anmeldung/link/"),
        ("/t/herbst/anmeldung/", "/t/herbst/anmeldung/"),
    ],
)
def test_secret_links_are_masked_in_the_logs(path, masked):
    assert _logged("%s: %s", "Not Found", path) == f"Not Found: {masked}"
    request_line = _logged('"GET %s HTTP/1.1" 404 1234', path)
    assert request_line == f'"GET {masked} HTTP/1.1" 404 1234'


def test_a_wrong_table_link_logged_by_django_shows_no_token(client, caplog, tournament):
    from django.conf import settings

    handlers = settings.LOGGING["handlers"]
    assert all("without_personal_links" in handler["filters"] for handler in handlers.values())
    with caplog.at_level(logging.WARNING, logger="django.request"):
        client.get(f"/tisch/{TABLE_TOKEN}/")
    records = [r for r in caplog.records if r.name == "django.request"]
    assert records
    for record in records:
        WithoutPersonalLinks().filter(record)
        assert TABLE_TOKEN not in record.getMessage()


def test_the_traceback_of_an_error_is_masked_too():
    try:
        raise ValueError(f"while serving /tisch/{TABLE_TOKEN}/")
    except ValueError:
        import sys

        record = logging.LogRecord(
            "waitress", logging.ERROR, __file__, 1, "Exception while serving", (), sys.exc_info()
        )
    WithoutPersonalLinks().filter(record)
    formatted = logging.Formatter().format(record)
    assert TABLE_TOKEN not in formatted
    assert "/tisch/…/" in formatted


def test_error_reports_mask_the_links_in_the_request(rf):
    request = rf.get(
        f"/tisch/{TABLE_TOKEN}/abgeben/",
        HTTP_REFERER=f"http://hall.local/anmeldung/{PERSONAL_TOKEN}/",
    )
    meta = ReporterFilter().get_safe_request_meta(request)
    assert TABLE_TOKEN not in meta["PATH_INFO"]
    assert PERSONAL_TOKEN not in meta["HTTP_REFERER"]
    assert meta["HTTP_REFERER"] == "http://hall.local/anmeldung/…/"


def test_changing_to_an_address_that_has_its_share_is_refused(en, open_tournament):
    for n in range(2):
        post_form(en, form_data(n, email="shared@example.org"), REMOTE_ADDR=f"10.0.0.{n + 1}")
    token = post_form(en, form_data(3))["Location"].split("/")[2]
    url = reverse("registration-edit", args=[token])
    response = en.post(url, {**form_data(3), "email": "Shared@example.org"})
    assert response.status_code == 400
    assert "already used for 2 registrations" in response.content.decode()
    assert Registration.objects.get(token=token).email == "junk3@example.org"
