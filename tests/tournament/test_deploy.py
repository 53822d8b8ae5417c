"""The results service's deployment (docs/service.md): the documented environment passes
`check --deploy`, and the hall keeps its plain-http settings whatever the environment says."""

import secrets
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command

from tests.processes import run_python, settings_of

DEPLOY = Path(settings.BASE_DIR) / "deploy"


def documented_env() -> dict[str, str]:
    """deploy/kreuzdame.env as systemd reads it, with a real secret key in the placeholder's
    place (as the docs tell the administrator to make one)."""
    env = {}
    for line in (DEPLOY / "kreuzdame.env").read_text().splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            name, _, value = line.partition("=")
            env[name.strip()] = value.strip()
    assert env["SECRET_KEY"].startswith("replace-with")  # never a real key in the repository
    env["SECRET_KEY"] = secrets.token_urlsafe(50)
    return env


def test_the_documented_service_environment_passes_the_deploy_check():
    result = run_python(
        "manage.py", "check", "--deploy", "--fail-level", "WARNING", **documented_env()
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_behind_the_proxy_the_service_is_https_only_with_a_shared_cache():
    values = settings_of(
        "SECURE_PROXY_SSL_HEADER", "SECURE_SSL_REDIRECT", "SECURE_HSTS_SECONDS",
        "SESSION_COOKIE_SECURE", "CSRF_COOKIE_SECURE", "CSRF_TRUSTED_ORIGINS", "SHARED_CACHE",
        "CACHES", "DEBUG",
        **documented_env(),
    )  # fmt: skip
    assert values["DEBUG"] is False
    assert values["SECURE_PROXY_SSL_HEADER"] == ["HTTP_X_FORWARDED_PROTO", "https"]
    assert values["SECURE_SSL_REDIRECT"] is True and values["SECURE_HSTS_SECONDS"] >= 31536000
    assert values["SESSION_COOKIE_SECURE"] is True and values["CSRF_COOKIE_SECURE"] is True
    assert values["CSRF_TRUSTED_ORIGINS"] == ["https://ergebnisse.example.org"]
    assert values["SHARED_CACHE"] is True
    assert values["CACHES"]["default"]["LOCATION"] == "kreuzdame_cache"


def test_the_hall_stays_plain_http_even_with_the_services_environment(tmp_path):
    env = {**documented_env(), "KREUZDAME_HALL": "1", "SECRET_KEY_FILE": str(tmp_path / "k")}
    del env["SECRET_KEY"], env["SITE_URL"]
    values = settings_of(
        "SECURE_PROXY_SSL_HEADER", "SECURE_SSL_REDIRECT", "SECURE_HSTS_SECONDS",
        "SESSION_COOKIE_SECURE", "CSRF_COOKIE_SECURE", "BEHIND_TLS_PROXY", "SHARED_CACHE",
        "SITE_URL",
        drop=("SECRET_KEY", "SITE_URL"), **env,
    )  # fmt: skip
    assert values["BEHIND_TLS_PROXY"] is False and values["SECURE_PROXY_SSL_HEADER"] is None
    assert values["SECURE_SSL_REDIRECT"] is False and values["SECURE_HSTS_SECONDS"] == 0
    assert values["SESSION_COOKIE_SECURE"] is False and values["CSRF_COOKIE_SECURE"] is False
    assert values["SHARED_CACHE"] is False
    assert values["SITE_URL"].startswith("http://")


def test_the_example_gunicorn_configuration_loads():
    result = run_python(
        "-m", "gunicorn", "--check-config", "-c", str(DEPLOY / "gunicorn.conf.py"),
        "tournament.wsgi", **documented_env(),
    )  # fmt: skip
    assert result.returncode == 0, result.stderr


@pytest.mark.django_db
def test_clearcache_forgets_what_the_processes_computed(settings, capsys):
    from django.core.cache import caches

    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    caches["default"].set("memo:page", ("state", 0.0, "<table>"))
    call_command("clearcache")
    assert caches["default"].get("memo:page") is None
    assert "Cache emptied." in capsys.readouterr().out
