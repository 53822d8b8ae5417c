"""Issue 14: the debug page (DEBUG on, `make run`) shows settings and the process environment.
It must not show a password: not DATABASE_URL's, not one inside any other URL, not a login
form's. `make run` refuses to serve it beyond this computer; the hall never runs with DEBUG."""

import json
import sys

import pytest
from django.conf import settings
from django.http import HttpResponse
from django.test import Client
from django.urls import path
from django.views.decorators.debug import sensitive_post_parameters

from tests.processes import read_settings, run_python
from tournament.ops import devserver
from tournament.web.debug_guard import LocalDebugMiddleware
from tournament.web.error_reports import ReporterFilter

# The debug page quotes the source around the failing line: no secret written out near it.
DB_PASSWORD = "-".join(["geheim", "db", "pw"])
DATABASE_URL = f"postgres://kreuzdame:{DB_PASSWORD}@db.example.org:5432/kreuzdame"
# A raw "@" in a password: the part after it must not show either.
AT_PASSWORD = "@".join(["geheim", "mit", "at"])


def broken_view(request):
    raise RuntimeError("a bug")


@sensitive_post_parameters("password")
def broken_login(request):
    request.POST.get("password")
    raise RuntimeError("a bug in the login")


class OperationalError(Exception):
    pass


def get_new_connection(conn_params):
    """Like Django's PostgreSQL backend: the password is among the frame's local variables."""
    dsn = f"postgres://kreuzdame:{AT_PASSWORD}@db.example.org:5432/kreuzdame"
    conninfo = f"host=db.example.org user=kreuzdame password='{AT_PASSWORD}'"
    nested = [{"db": {"PASSWORD": AT_PASSWORD}}]
    raise OperationalError(f"connection failed ({len(dsn)}, {len(conninfo)}, {len(nested)})")


def broken_connection(request):
    get_new_connection({"database": "kreuzdame", "user": "kreuzdame", "password": DB_PASSWORD})


urlpatterns = [
    path("kaputt/", broken_view),
    path("anmelden/", broken_login),
    path("verbindung/", broken_connection),
]


@pytest.fixture
def debug_site(settings):
    settings.ROOT_URLCONF = __name__
    settings.DEBUG = True
    settings.MAIL_RELAY_URL = "smtp://mailer:geheim-mail-pw@mail.example.org:587"
    broker = "amqp://guest:" + "-".join(["geheim", "broker", "pw"]) + "@rabbit.example.org//"
    # The development server puts the whole process environment into request.META.
    return Client(raise_request_exception=False, DATABASE_URL=DATABASE_URL, BROKER=broker)


@pytest.mark.django_db
def test_the_debug_page_after_a_crash_hides_every_password(debug_site):
    response = debug_site.get("/kaputt/")
    assert response.status_code == 500
    page = response.content.decode()
    assert "RuntimeError" in page and "MAIL_RELAY_URL" in page  # still the debug page
    for secret in ("geheim-db-pw", "geheim-mail-pw", "geheim-broker-pw"):
        assert secret not in page
    # What is no secret stays readable for debugging.
    assert "mailer:********************@mail.example.org" in page
    assert "PATH_INFO" in page and "HTTP_COOKIE" in page  # the request's own entries


@pytest.mark.django_db
def test_the_debug_page_never_lists_the_environment(debug_site, settings):
    """Issue 34, finding 8: the development server copies the process environment into
    request.META, and the debug page listed it (names and values)."""
    environment = {"HOME": "/home/leitung", "KREUZDAME_ENV_PROBE": "sichtbar"}
    crash = debug_site.get("/kaputt/", **environment)
    guard = "tournament.web.debug_guard.LocalDebugMiddleware"
    settings.MIDDLEWARE = [m for m in settings.MIDDLEWARE if m != guard]
    without_guard = Client(raise_request_exception=False)  # Django's own DisallowedHost page
    foreign = without_guard.get("/kaputt/", HTTP_HOST="evil.example", **environment)
    for response, status in ((crash, 500), (foreign, 400)):
        page = response.content.decode()
        assert response.status_code == status and "Request information" in page
        for name in ("rabbit.example.org", "KREUZDAME_ENV_PROBE", "sichtbar", "/home/leitung"):
            assert name not in page


@pytest.mark.django_db
def test_the_debug_page_for_a_foreign_host_hides_every_password(debug_site, settings):
    guard = "tournament.web.debug_guard.LocalDebugMiddleware"
    settings.MIDDLEWARE = [m for m in settings.MIDDLEWARE if m != guard]  # Django's own page
    response = debug_site.get("/kaputt/", HTTP_HOST="evil.example")
    assert response.status_code == 400
    page = response.content.decode()
    assert "DisallowedHost" in page
    for secret in ("geheim-db-pw", "geheim-mail-pw", "geheim-broker-pw"):
        assert secret not in page


@pytest.mark.django_db
def test_the_debug_page_hides_the_password_of_a_login_form(debug_site):
    response = debug_site.post("/anmelden/", {"username": "leitung", "password": "geheim-login"})
    assert response.status_code == 500
    assert "geheim-login" not in response.content.decode()


@pytest.mark.django_db
def test_the_debug_page_hides_passwords_in_the_local_variables_of_the_traceback(debug_site):
    response = debug_site.get("/verbindung/")
    assert response.status_code == 500
    page = response.content.decode()
    assert "conn_params" in page and "OperationalError" in page  # still the debug page
    for secret in (DB_PASSWORD, "geheim", "mit@at", "mit&#x40;at"):
        assert secret not in page
    assert "kreuzdame:********************@db.example.org:5432" in page


def test_a_password_with_a_raw_at_sign_is_hidden_whole():
    report = ReporterFilter()
    url = f"postgres://kreuzdame:{AT_PASSWORD}@db.example.org/kreuzdame"
    assert report.cleanse_setting("BROKER", f"see {url} twice {url}") == (
        "see postgres://kreuzdame:********************@db.example.org/kreuzdame twice "
        "postgres://kreuzdame:********************@db.example.org/kreuzdame"
    )
    assert report.cleanse_setting("LINK", "https://example.org/a:b@c?x=1") == (
        "https://example.org/a:b@c?x=1"  # an "@" in the path of a URL without credentials
    )
    loop = {"loop": None}
    loop["loop"] = loop
    frame = sys._getframe()
    assert dict(report.get_traceback_frame_variables(None, frame))["loop"] == "*" * 20


# --- with DEBUG on: this computer only, however the server was started ------------------------


@pytest.mark.parametrize("address", ["127.0.0.1", "127.0.1.1", "::1", "::ffff:127.0.0.1"])
def test_with_debug_on_this_computer_gets_the_site(rf, settings, address):
    settings.DEBUG = True
    guard = LocalDebugMiddleware(lambda request: HttpResponse("the site"))
    assert guard(rf.get("/", REMOTE_ADDR=address)).content == b"the site"


@pytest.mark.parametrize("address", ["192.168.1.20", "10.0.0.2", "fe80::1", "::", "", "x"])
def test_with_debug_on_any_other_address_gets_a_plain_404(rf, settings, address):
    settings.DEBUG = True
    guard = LocalDebugMiddleware(lambda request: HttpResponse("the site"))
    response = guard(rf.get("/", REMOTE_ADDR=address, HTTP_HOST="localhost"))
    assert response.status_code == 404
    assert response["Content-Type"].startswith("text/plain")
    assert b"the site" not in response.content and len(response.content) < 200
    settings.DEBUG = False  # the test runner and its live servers: the guard stands aside
    assert guard(rf.get("/", REMOTE_ADDR=address)).content == b"the site"


@pytest.mark.django_db
def test_a_crash_with_debug_on_shows_nothing_to_the_network(debug_site, settings):
    settings.MIDDLEWARE = ["tournament.web.debug_guard.LocalDebugMiddleware", *settings.MIDDLEWARE]
    lan = Client(raise_request_exception=False, REMOTE_ADDR="192.168.1.20")
    for path_ in ("/kaputt/", "/gibt-es-nicht/"):
        response = lan.get(path_, HTTP_HOST="localhost")
        page = response.content.decode()
        assert response.status_code == 404
        assert "RuntimeError" not in page and "DATABASE_URL" not in page
        assert "urlpatterns" not in page  # not Django's technical 404 either
    assert debug_site.get("/kaputt/").status_code == 500  # this computer: the debug page


@pytest.mark.django_db
@pytest.mark.parametrize("host", ["evil.example", "evil.example:8000", "127.0.0.1.evil.example",
                                  "localhost@evil.example", ""])  # fmt: skip
def test_dns_rebinding_gets_a_plain_400_not_the_debug_page(debug_site, settings, host):
    """Issue 34, finding 8: a page the director visits points its own name at 127.0.0.1; the
    browser then asks from this computer with that name in Host, and got Django's
    DisallowedHost page with every setting."""
    settings.MIDDLEWARE = ["tournament.web.debug_guard.LocalDebugMiddleware", *settings.MIDDLEWARE]
    for path_ in ("/kaputt/", "/gibt-es-nicht/"):
        response = debug_site.get(path_, HTTP_HOST=host, REMOTE_ADDR="127.0.0.1")
        page = response.content.decode()
        assert response.status_code == 400
        assert response["Content-Type"].startswith("text/plain") and len(page) < 200
        assert "DisallowedHost" not in page and "MAIL_RELAY_URL" not in page
        assert "urlpatterns" not in page and "Traceback" not in page


@pytest.mark.django_db
def test_a_wildcard_in_allowed_hosts_does_not_open_the_debug_page(debug_site, settings):
    settings.MIDDLEWARE = ["tournament.web.debug_guard.LocalDebugMiddleware", *settings.MIDDLEWARE]
    settings.ALLOWED_HOSTS = ["*"]
    assert debug_site.get("/kaputt/", HTTP_HOST="evil.example").status_code == 400
    for own in ("localhost", "127.0.0.1:8000", "[::1]:8000"):
        assert debug_site.get("/kaputt/", HTTP_HOST=own).status_code == 500  # the debug page
    settings.ALLOWED_HOSTS = ["kreuzdame.test"]
    assert debug_site.get("/kaputt/", HTTP_HOST="kreuzdame.test").status_code == 500
    assert debug_site.get("/kaputt/", HTTP_HOST="localhost").status_code == 400


def test_the_guard_is_the_first_middleware_exactly_when_debug_is_on(tmp_path):
    guard = "tournament.web.debug_guard.LocalDebugMiddleware"
    on = json.loads(fresh_settings("MIDDLEWARE").stdout)["MIDDLEWARE"]
    assert on[0] == guard
    off = fresh_settings("MIDDLEWARE", DEBUG="0", SECRET_KEY="x" * 50, ALLOWED_HOSTS="a.example")
    assert guard not in json.loads(off.stdout)["MIDDLEWARE"]
    hall = fresh_settings("MIDDLEWARE", KREUZDAME_HALL="1", SECRET_KEY_FILE=str(tmp_path / "k"))
    assert guard not in json.loads(hall.stdout)["MIDDLEWARE"]


# --- make run: this computer only ------------------------------------------------------------


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost", "::1", "[::1]", "127.0.1.1"])
def test_the_development_server_may_listen_on_this_computer(host):
    assert devserver.refusal(host, debug=True) is None


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "192.168.1.20", "example.org"])  # noqa: S104
def test_the_development_server_with_debug_refuses_other_addresses(host):
    assert "make hall" in devserver.refusal(host, debug=True)
    assert devserver.refusal(host, debug=False) is None


def run_check(host, **env):
    return run_python("-m", "tournament.ops.devserver", host, drop=("DEBUG",), **env)


def test_make_run_checks_the_address_before_it_starts_and_says_it_is_for_this_computer():
    refused = run_check("0.0.0.0")  # noqa: S104
    assert refused.returncode == 1 and "make hall" in refused.stderr
    assert run_check("127.0.0.1").returncode == 0
    assert run_check("0.0.0.0", DEBUG="0").returncode == 0  # noqa: S104

    makefile = (settings.BASE_DIR / "Makefile").read_text()
    recipe = makefile.split("\nrun:", 1)[1].split("\n\n", 1)[0]
    steps = [line.strip().lstrip("@") for line in recipe.splitlines()[1:]]
    assert steps[0].startswith("$(BIN)/python -m tournament.ops.devserver")
    assert "for this computer only" in recipe.lower() and "make hall" in recipe
    assert steps[-1].endswith("runserver $(HOST):$(PORT)")


# --- settings: the hall, the proxy ------------------------------------------------------------


def fresh_settings(*names, **env):
    return read_settings(*names, drop=("SECRET_KEY", "DEBUG", "SITE_URL"), **env)


def test_the_hall_runs_without_debug_and_believes_no_forwarded_header(tmp_path):
    result = fresh_settings(
        "DEBUG",
        "BEHIND_TLS_PROXY",
        "DEFAULT_EXCEPTION_REPORTER_FILTER",
        KREUZDAME_HALL="1",
        DEBUG="1",
        BEHIND_TLS_PROXY="1",
        SECRET_KEY_FILE=str(tmp_path / "key"),
    )
    assert result.returncode == 0, result.stderr
    values = json.loads(result.stdout)
    assert values["DEBUG"] is False and values["BEHIND_TLS_PROXY"] is False
    assert (
        values["DEFAULT_EXCEPTION_REPORTER_FILTER"] == "tournament.web.error_reports.ReporterFilter"
    )


def test_the_number_of_trusted_proxies_comes_from_the_environment():
    values = json.loads(fresh_settings("TRUSTED_PROXIES", TRUSTED_PROXIES="2").stdout)
    assert values["TRUSTED_PROXIES"] == 2
    assert json.loads(fresh_settings("TRUSTED_PROXIES").stdout)["TRUSTED_PROXIES"] == 1
    for wrong in ("0", "zwei", "-1"):
        result = fresh_settings("TRUSTED_PROXIES", TRUSTED_PROXIES=wrong)
        assert result.returncode != 0 and "TRUSTED_PROXIES must be" in result.stderr


@pytest.mark.parametrize(
    ("address", "host", "status"),
    [("192.168.1.20", "localhost", 404), ("127.0.0.1", "vm:8738", 400)],
)
def test_with_debug_on_the_refusal_names_the_hall_server(rf, settings, address, host, status):
    """A director who opens `make run` from the hall's network learns what to start."""
    settings.DEBUG = True
    guard = LocalDebugMiddleware(lambda request: HttpResponse("the site"))
    response = guard(rf.get("/", REMOTE_ADDR=address, HTTP_HOST=host))
    assert response.status_code == status
    assert "Für die Handys im Saal die Seite mit make hall starten." in response.content.decode()
