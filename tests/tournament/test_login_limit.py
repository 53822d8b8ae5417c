"""Failed logins are limited in the database: the limit holds for every server process, the
limited request gets 429 with Retry-After, and a real user is back in after a few minutes."""

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import director
from tournament.models import RateBucket
from tournament.views.auth import PER_ACCOUNT, PER_ADDRESS, WINDOW

pytestmark = pytest.mark.django_db


def attempt(username, password, address="192.0.2.10"):
    # A new client each time: no cookie or session carries the count, only the database.
    return Client(REMOTE_ADDR=address).post(
        reverse("login"), {"username": username, "password": password}
    )


def test_guessing_a_password_is_stopped_and_the_real_user_gets_back_in():
    user = director(username="leitung")
    user.set_password("richtiges-passwort-9")
    user.save()
    for _ in range(PER_ACCOUNT):
        assert attempt("leitung", "falsch").status_code == 200
    limited = attempt("LEITUNG", "richtiges-passwort-9", address="198.51.100.7")
    assert limited.status_code == 429
    assert 0 < int(limited["Retry-After"]) <= WINDOW
    assert "Zu viele fehlgeschlagene Anmeldungen" in limited.content.decode()
    assert "_auth_user_id" not in limited.client.session

    # Later (the window has passed) the right password works again.
    RateBucket.objects.update(
        window_start=RateBucket.objects.first().window_start - timedelta(seconds=WINDOW)
    )
    ok = attempt("leitung", "richtiges-passwort-9")
    assert ok.status_code == 302 and ok.url == reverse("manage:tournament-list")


def test_one_address_trying_many_accounts_is_stopped_too():
    for number in range(PER_ADDRESS):
        assert attempt(f"user{number}", "falsch").status_code == 200
    assert attempt("someone-else", "falsch").status_code == 429
    assert attempt("someone-else", "falsch", address="203.0.113.5").status_code == 200


def test_successful_logins_do_not_count():
    user = director(username="leitung")
    user.set_password("richtiges-passwort-9")
    user.save()
    for _ in range(PER_ACCOUNT + 2):
        assert attempt("leitung", "richtiges-passwort-9").status_code == 302
    assert not RateBucket.objects.exists()
