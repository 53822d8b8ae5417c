"""Hall mode, piece by piece: the laptop's addresses and names, the settings it makes, the
secret key that survives a restart, the director account on first start, the friendly 500
page. tests/e2e/test_hall_server.py starts the real `make hall`."""

import io
import os
import stat
import sys

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from django.urls import path, reverse

from tests.processes import run_python, settings_of
from tournament.domain.accounts import create_director, director_exists
from tournament.errors import DomainError
from tournament.management.commands import hall as hall_command
from tournament.models.audit import DIRECTOR_GROUP
from tournament.ops import hall

STRONG = "Herbst-Turnier-2026!"


def test_the_chosen_address_is_hall_address_else_the_default_route_else_loopback():
    assert hall.choose_address(["192.168.1.20", "10.0.0.5"], "") == "192.168.1.20"
    assert hall.choose_address(["192.168.1.20", "10.0.0.5"], " 10.0.0.5 ") == "10.0.0.5"
    assert hall.choose_address(["192.168.1.20"], "turnier.lan") == "turnier.lan"
    assert hall.choose_address([], "") == "127.0.0.1"


def test_the_site_answers_to_its_addresses_and_names_only():
    hosts = hall.allowed_hosts(["192.168.1.20", "10.0.0.5"], ["laptop", "laptop.local"], "x.lan")
    assert hosts == [
        "x.lan", "192.168.1.20", "10.0.0.5", "laptop", "laptop.local", "localhost", "127.0.0.1",
    ]  # fmt: skip
    assert "*" not in hosts


def test_the_lan_addresses_are_usable_by_other_devices():
    addresses = hall.lan_addresses()
    assert all(hall._usable(a) for a in addresses)
    assert not any(a.startswith(("127.", "169.254.")) for a in addresses)
    assert hall._usable("192.168.178.20") and not hall._usable("127.0.1.1")
    assert not hall._usable("fe80::1") and not hall._usable("laptop")


def test_internet_addresses_are_never_taken_for_the_hall():
    assert not hall._usable("8.8.8.8") and not hall._usable("85.13.1.2")
    assert hall._usable("172.20.10.2") and hall._usable("10.0.0.5")
    assert hall.is_internet_address("85.13.1.2") and not hall.is_internet_address("10.0.0.5")


@pytest.mark.parametrize(
    "typed", ["http://192.168.1.20", "192.168.1.20:8000", "turnier lan", "192.168.1.20/"]
)
def test_a_mistyped_hall_address_is_refused_before_a_qr_code_is_printed(typed):
    with pytest.raises(ValueError, match="HALL_ADDRESS must be an address or a host name"):
        hall.choose_address(["192.168.1.20"], typed)


def test_manage_py_names_a_wrong_setting_without_a_traceback(tmp_path):
    result = run_python(
        "manage.py",
        "check",
        KREUZDAME_HALL="1",
        HALL_ADDRESS="http://192.168.1.20",
        SECRET_KEY_FILE=str(tmp_path / "k"),
    )
    assert result.returncode == 1
    assert result.stderr.startswith("Error: HALL_ADDRESS must be an address")
    assert "Traceback" not in result.stderr


def test_the_host_names_include_the_mdns_name():
    names = hall.host_names()
    assert names and names[-1].endswith(".local")


def test_the_address_for_the_phones():
    assert hall.site_url("192.168.1.20", 8000) == "http://192.168.1.20:8000/"
    assert hall.site_url("turnier.lan", 80) == "http://turnier.lan/"


@pytest.mark.parametrize("value", ["abc", "0", "70000", "-1", "80.5"])
def test_a_bad_port_is_refused_with_a_message(value):
    with pytest.raises(ValueError, match="PORT must be a number from 1 to 65535"):
        hall.port_from(value)


def test_the_port_defaults_to_8000():
    assert hall.port_from(None) == hall.port_from(" ") == 8000
    assert hall.port_from("8080") == 8080


def test_the_secret_key_is_made_once_and_kept(tmp_path):
    key_file = tmp_path / "local" / "secret"
    first = hall.secret_key(key_file)
    assert len(first) >= 50 and hall.secret_key(key_file) == first
    if os.name == "posix":
        assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    if os.name == "posix":
        key_file.chmod(0o644)  # e.g. copied from another laptop
        assert hall.secret_key(key_file) == first
        assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    key_file.write_text("short")  # damaged: a new key instead of a weak one
    assert hall.secret_key(key_file) not in ("short", first)


def hall_settings(tmp_path, **env) -> dict:
    """The settings as `manage.py hall` makes them, read in a fresh interpreter."""
    names = ["DEBUG", "ALLOWED_HOSTS", "SITE_URL", "SECRET_KEY", "SESSION_COOKIE_SECURE"]
    names += ["CSRF_COOKIE_SECURE", "SECURE_SSL_REDIRECT", "SECURE_HSTS_SECONDS", "HALL_MODE"]
    return settings_of(
        *names,
        drop=("SECRET_KEY", "DEBUG", "SITE_URL"),
        **{"KREUZDAME_HALL": "1", "SECRET_KEY_FILE": str(tmp_path / "key"), **env},
    )


def test_hall_settings_serve_plain_http_on_the_lan_with_debug_off(tmp_path):
    values = hall_settings(tmp_path, HALL_ADDRESS="turnierhalle.lan", PORT="8123")
    assert values["HALL_MODE"] is True and values["DEBUG"] is False
    assert values["SITE_URL"] == "http://turnierhalle.lan:8123/"
    assert "turnierhalle.lan" in values["ALLOWED_HOSTS"] and "*" not in values["ALLOWED_HOSTS"]
    assert {"localhost", "127.0.0.1"} <= set(values["ALLOWED_HOSTS"])
    # No certificate in a hall: no redirect to https, no HSTS, cookies also over http.
    assert values["SECURE_SSL_REDIRECT"] is False and values["SECURE_HSTS_SECONDS"] == 0
    assert values["SESSION_COOKIE_SECURE"] is False and values["CSRF_COOKIE_SECURE"] is False
    # The key comes from the local file and is the same after a restart.
    assert values["SECRET_KEY"] == (tmp_path / "key").read_text().strip()
    assert hall_settings(tmp_path)["SECRET_KEY"] == values["SECRET_KEY"]


def test_debug_stays_off_in_the_hall_even_if_asked(tmp_path):
    assert hall_settings(tmp_path, DEBUG="1")["DEBUG"] is False


def test_manage_py_recognises_the_hall_command():
    """`manage.py hall` switches the settings itself (a bad option stops it before the
    database or the network is touched)."""
    result = run_python(
        "manage.py", "hall", "--threads", "0", drop=("KREUZDAME_HALL",), SECRET_KEY="k" * 60
    )
    assert result.returncode == 1
    assert "--threads must be between 1 and 200." in result.stderr


def test_the_hall_command_refuses_to_run_without_hall_settings():
    with pytest.raises(CommandError, match="python manage.py hall"):
        call_command("hall")


# --- the director account on first start ------------------------------------------------


@pytest.mark.django_db
def test_without_a_terminal_the_hall_says_how_to_create_a_director():
    out = io.StringIO()
    command = hall_command.Command(stdout=out)
    command._director(can_ask=False)
    assert "python manage.py createdirector" in out.getvalue()
    assert not director_exists()


@pytest.mark.django_db
def test_in_a_terminal_the_hall_asks_for_a_director(monkeypatch):
    answers = iter(["", "1234", "1234", STRONG, STRONG])
    monkeypatch.setattr("builtins.input", lambda prompt: "")
    monkeypatch.setattr(hall_command.getpass, "getpass", lambda prompt: next(answers))
    next(answers)  # the user name prompt takes the default "leitung"
    out = io.StringIO()
    hall_command.Command(stdout=out)._director(can_ask=True)
    user = get_user_model().objects.get(username="leitung")
    assert user.groups.filter(name=DIRECTOR_GROUP).exists() and user.check_password(STRONG)
    # The weak password was refused with the validators' reasons (never echoed), then asked
    # again.
    assert "Dieses Passwort ist zu kurz" in out.getvalue() and "1234" not in out.getvalue()


@pytest.mark.django_db
def test_the_question_is_skipped_when_a_director_exists(monkeypatch):
    create_director("leitung", STRONG)
    monkeypatch.setattr("builtins.input", lambda prompt: pytest.fail("asked"))
    out = io.StringIO()
    hall_command.Command(stdout=out)._director(can_ask=True)
    assert out.getvalue() == ""


@pytest.mark.django_db
def test_createdirector_makes_a_director_from_the_command_line(monkeypatch):
    monkeypatch.setenv("KREUZDAME_DIRECTOR_PASSWORD", STRONG)
    out = io.StringIO()
    call_command("createdirector", "--username", "anna", "--noinput", stdout=out)
    user = get_user_model().objects.get(username="anna")
    assert user.groups.filter(name=DIRECTOR_GROUP).exists()
    assert out.getvalue() == "Zugang anna für die Turnierleitung angelegt.\n"


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("username", "password", "message"),
    [
        ("anna", "1234", "Dieses Passwort ist zu kurz"),
        ("anna", "", "braucht --username und das Passwort"),
        ("", STRONG, "braucht --username und das Passwort"),
        ("an na", STRONG, "gültigen Benutzernamen"),
    ],
)
def test_createdirector_refuses_bad_input_and_creates_nothing(
    monkeypatch, username, password, message
):
    monkeypatch.setenv("KREUZDAME_DIRECTOR_PASSWORD", password)
    with pytest.raises(CommandError, match=message):
        call_command("createdirector", "--username", username, "--noinput")
    assert not get_user_model().objects.exists()


@pytest.mark.django_db
def test_a_taken_user_name_is_refused():
    create_director("anna", STRONG)
    with pytest.raises(DomainError, match="vergeben"):
        create_director("Anna", STRONG)


# --- the error pages ----------------------------------------------------------------------


@pytest.mark.django_db
def test_a_phone_using_another_name_learns_the_address_that_works(client, settings, caplog):
    settings.SITE_URL = "http://192.168.1.20:8000/"
    response = client.get("/tisch/abc/", HTTP_HOST="laptop.fritz.box:8000")
    assert response.status_code == 400
    page = response.content.decode()
    assert 'href="http://192.168.1.20:8000/"' in page and "HALL_ADDRESS" in page
    record = next(r for r in caplog.records if r.name == "django.security.DisallowedHost")
    assert "laptop.fritz.box" in record.getMessage()


# --- the friendly 500 page --------------------------------------------------------------


def broken_view(request):
    raise RuntimeError("a bug")


urlpatterns = [path("kaputt/", broken_view)]


@pytest.mark.django_db
def test_an_error_shows_the_friendly_500_page(settings):
    settings.ROOT_URLCONF = __name__
    settings.DEBUG = False
    client = Client(raise_request_exception=False)
    response = client.get("/kaputt/")
    assert response.status_code == 500
    page = response.content.decode()
    assert "Etwas ist schiefgegangen" in page and "Traceback" not in page and "a bug" not in page


# --- a laptop without the Pango library (Windows, macOS) ------------------------------------

WITHOUT_WEASYPRINT = """
import sys
sys.modules["weasyprint"] = None  # as on a laptop where WeasyPrint cannot load Pango
import django, os
os.environ["DJANGO_SETTINGS_MODULE"] = "tournament.settings"
django.setup()
from django.core.management import call_command
call_command("check")
from django.test import Client
from django.test.utils import setup_test_environment
setup_test_environment()
print(Client().get("/rechner/").status_code)
"""


def test_the_site_starts_without_the_pdf_engine():
    """`manage.py hall` runs the checks, which load every view: none may need WeasyPrint."""
    result = run_python("-c", WITHOUT_WEASYPRINT)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1] == "200"


@pytest.mark.django_db
def test_without_the_pdf_engine_the_print_pack_says_what_is_missing(
    director_client, tournament, monkeypatch
):
    from tests.factories import released_table

    released_table(tournament)
    monkeypatch.setitem(sys.modules, "weasyprint", None)
    monkeypatch.delitem(sys.modules, "tournament.exports.pdf", raising=False)
    url = reverse("manage:print-pack", args=[tournament.slug, 1])
    response = director_client.get(url)
    assert response.status_code == 200 and "Pango" in response.content.decode()
    # The standings are drawn with ReportLab: they need no Pango.
    export = reverse("manage:standings-export", args=[tournament.slug, "standings", "pdf"])
    response = director_client.get(export, follow=True)
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"


def test_without_the_dejavu_fonts_the_standings_pdf_says_what_is_missing(
    director_client, tournament, monkeypatch
):
    from tests.factories import released_table
    from tournament.exports import drawn

    released_table(tournament)
    monkeypatch.setattr(drawn, "FONT_DIRS", ())
    monkeypatch.setattr(drawn, "_faces", {})
    export = reverse("manage:standings-export", args=[tournament.slug, "standings", "pdf"])
    response = director_client.get(export, follow=True)
    assert response.status_code == 200
    assert "DejaVu-Schriften fehlen" in response.content.decode()
