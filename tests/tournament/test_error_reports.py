"""Issue 14: the debug page (DEBUG on, `make run`) shows settings and the process environment.
It must not show a password: not DATABASE_URL's, not one inside any other URL, not a login
form's. `make run` refuses to serve it beyond this computer; the hall never runs with DEBUG."""

import json
import os
import subprocess
import sys

import pytest
from django.conf import settings
from django.test import Client
from django.urls import path
from django.views.decorators.debug import sensitive_post_parameters

from tournament import devserver

# The debug page quotes the source around the failing line: no secret written out near it.
DB_PASSWORD = "-".join(["geheim", "db", "pw"])
DATABASE_URL = f"postgres://kreuzdame:{DB_PASSWORD}@db.example.org:5432/kreuzdame"


def broken_view(request):
    raise RuntimeError("a bug")


@sensitive_post_parameters("password")
def broken_login(request):
    request.POST.get("password")
    raise RuntimeError("a bug in the login")


urlpatterns = [path("kaputt/", broken_view), path("anmelden/", broken_login)]


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
    assert "RuntimeError" in page and "DATABASE_URL" in page  # still the debug page
    for secret in ("geheim-db-pw", "geheim-mail-pw", "geheim-broker-pw"):
        assert secret not in page
    # What is no secret stays readable for debugging.
    assert "mailer:********************@mail.example.org" in page
    assert "guest:********************@rabbit.example.org" in page


@pytest.mark.django_db
def test_the_debug_page_for_a_foreign_host_hides_every_password(debug_site):
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


# --- make run: this computer only ------------------------------------------------------------


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost", "::1", "[::1]", "127.0.1.1"])
def test_the_development_server_may_listen_on_this_computer(host):
    assert devserver.refusal(host, debug=True) is None


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "192.168.1.20", "example.org"])  # noqa: S104
def test_the_development_server_with_debug_refuses_other_addresses(host):
    assert "make hall" in devserver.refusal(host, debug=True)
    assert devserver.refusal(host, debug=False) is None


def run_check(host, **env):
    environment = {k: v for k, v in os.environ.items() if k != "DEBUG"}
    environment.update(env)
    return subprocess.run(  # noqa: S603
        [sys.executable, "-m", "tournament.devserver", host],
        cwd=settings.BASE_DIR,
        env=environment,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_make_run_checks_the_address_before_it_starts_and_says_it_is_for_this_computer():
    refused = run_check("0.0.0.0")  # noqa: S104
    assert refused.returncode == 1 and "make hall" in refused.stderr
    assert run_check("127.0.0.1").returncode == 0
    assert run_check("0.0.0.0", DEBUG="0").returncode == 0  # noqa: S104

    makefile = (settings.BASE_DIR / "Makefile").read_text()
    recipe = makefile.split("\nrun:", 1)[1].split("\n\n", 1)[0]
    steps = [line.strip().lstrip("@") for line in recipe.splitlines()[1:]]
    assert steps[0].startswith("$(BIN)/python -m tournament.devserver")
    assert "for this computer only" in recipe.lower() and "make hall" in recipe
    assert steps[-1].endswith("runserver $(HOST):$(PORT)")


# --- settings: the hall, the proxy ------------------------------------------------------------


def fresh_settings(*names, **env):
    skip = {"DATABASE_URL", "DJANGO_ALLOW_ASYNC_UNSAFE", "SECRET_KEY", "DEBUG", "SITE_URL"}
    environment = {k: v for k, v in os.environ.items() if k not in skip}
    environment.update(DJANGO_SETTINGS_MODULE="tournament.settings", **env)
    code = (
        "import json\nfrom django.conf import settings as s\n"
        f"print(json.dumps({{n: getattr(s, n, None) for n in {list(names)!r}}}))\n"
    )
    return subprocess.run(  # noqa: S603
        [sys.executable, "-c", code],
        cwd=settings.BASE_DIR,
        env=environment,
        capture_output=True,
        text=True,
        timeout=60,
    )


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
    assert values["DEFAULT_EXCEPTION_REPORTER_FILTER"] == "tournament.error_reports.ReporterFilter"


def test_the_number_of_trusted_proxies_comes_from_the_environment():
    values = json.loads(fresh_settings("TRUSTED_PROXIES", TRUSTED_PROXIES="2").stdout)
    assert values["TRUSTED_PROXIES"] == 2
    assert json.loads(fresh_settings("TRUSTED_PROXIES").stdout)["TRUSTED_PROXIES"] == 1
    for wrong in ("0", "zwei", "-1"):
        result = fresh_settings("TRUSTED_PROXIES", TRUSTED_PROXIES=wrong)
        assert result.returncode != 0 and "TRUSTED_PROXIES must be" in result.stderr
