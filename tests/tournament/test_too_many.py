"""One answer for every rate limit that refuses a whole request: the page 429.html in the
site's look and the reader's language, the wait in words and in Retry-After, never cached.
(The forms that were filled in, the site's login, a tablet's pairing, a player's code and a
registration, show the form again with their message instead.)"""

import re

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import make_series
from tests.tournament.test_login_limit import admin_attempt, administrator, lock_account
from tournament.views.keeper import TOKEN_FAILURES

pytestmark = pytest.mark.django_db


def assert_the_page(response, heading: str, wait: str) -> None:
    assert response.status_code == 429
    assert response["Content-Type"].startswith("text/html")
    assert "no-store" in response["Cache-Control"]
    seconds = int(response["Retry-After"])
    assert seconds > 0
    page = response.content.decode()
    assert 'id="too-many"' in page and "<nav" in page  # the site's look
    assert f"<h1>{heading}</h1>" in page
    assert re.search(wait, page), page


def test_guessed_table_links(client):
    for _ in range(TOKEN_FAILURES):
        assert client.get("/tisch/geraten/").status_code == 404
    refused = client.get("/tisch/geraten/")
    assert_the_page(refused, "Zu viele Versuche", r"Bitte warten Sie \d+ Minuten? und")
    assert "Von Ihrer Verbindung kamen zu viele Anfragen." in refused.content.decode()


def test_guessed_table_links_in_english(client):
    client.cookies["django_language"] = "en"
    for _ in range(TOKEN_FAILURES):
        client.get("/tisch/geraten/")
    refused = client.get("/tisch/geraten/")
    assert_the_page(refused, "Too many attempts", r"Please wait \d+ minutes? and try again.")


def test_guessed_passwords_at_the_admin_login():
    administrator()
    lock_account("admin")
    refused = admin_attempt("admin", "richtiges-passwort-9")
    assert_the_page(
        refused, "Zu viele fehlgeschlagene Anmeldungen", r"Bitte warten Sie \d Minuten? und"
    )
    # The account's limit fired, not the connection's: the page does not blame the network.
    text = refused.content.decode()
    assert "Für diesen Benutzernamen oder von hier aus" in text
    assert "Von Ihrer Verbindung" not in text


def test_too_many_downloads(settings, tournament):
    settings.DOWNLOADS_PER_ADDRESS = 0
    tournament.is_public = True
    tournament.save()
    series = make_series([tournament], is_public=True)
    refused = Client().get(reverse("series-export", args=[series.slug, "pdf"]))
    assert_the_page(refused, "Zu viele Downloads", r"Bitte warten Sie \d+ (Sekunden?|Minuten?) und")
    assert "in kurzer Zeit viele Dateien angefordert" in refused.content.decode()


def test_guessed_registration_links(settings, client):
    settings.REGISTRATION_LINK_FAILURES = 1
    assert client.get(reverse("registration-personal", args=["geraten"])).status_code == 404
    refused = client.get(reverse("registration-personal", args=["geraten"]))
    assert_the_page(refused, "Zu viele Versuche", r"Bitte warten Sie \d+ Minuten? und")
