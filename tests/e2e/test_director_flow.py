"""A director in Chromium: log in, create a tournament, import players, check one in."""

import pytest

from tests.factories import director, released_table
from tournament.models import Entry, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PLAYERS_CSV = (
    "Vorname;Nachname;Verein\r\n"
    "Jürgen;Müller;Doko-Freunde Kassel\r\n"
    "Anna;Schäfer;Herz Dame Fulda\r\n"
    "Ayşe;Yılmaz;Die Füchse Köln\r\n"
).encode()


def test_director_logs_in_creates_a_tournament_imports_and_checks_in(live_server, page):
    user = director(username="leiterin")
    user.set_password("sicheres-passwort-1")
    user.save()

    page.goto(live_server.url + "/login/")
    page.get_by_label("Benutzername").fill("leiterin")
    page.get_by_label("Passwort").fill("sicheres-passwort-1")
    page.get_by_role("button", name="Anmelden").click()
    page.get_by_role("heading", name="Meine Turniere").wait_for()

    page.get_by_role("link", name="Neues Turnier").click()
    page.get_by_label("Name", exact=True).fill("Adventsturnier")
    page.get_by_label("Kurzname (URL)").fill("advent")
    page.get_by_label("Datum").fill("2026-12-19")
    page.get_by_label("Ort").fill("Vereinsheim")
    page.get_by_label("Regelwerk", exact=True).select_option("ddv")
    page.get_by_role("button", name="Speichern").click()
    page.get_by_text("Turnier „Adventsturnier“ angelegt.").wait_for()

    page.get_by_role("link", name="Import").click()
    page.get_by_label("Spielerliste (CSV oder XLSX)").set_input_files(
        files=[{"name": "spieler.csv", "mimeType": "text/csv", "buffer": PLAYERS_CSV}]
    )
    page.get_by_role("button", name="Vorschau anzeigen").click()
    page.get_by_text("3 neue Spieler").wait_for()
    assert Entry.objects.count() == 0
    page.get_by_role("button", name="3 Spieler anmelden").click()
    page.get_by_text("3 Spieler angemeldet.").wait_for()

    row = page.locator("tr", has_text="Schäfer, Anna")
    row.get_by_role("button", name="Einchecken").click()
    row.get_by_role("button", name="anwesend").wait_for()

    tournament = Tournament.objects.get(slug="advent")
    checked = tournament.entries.get(player__last_name="Schäfer")
    assert checked.checked_in and checked.start_number == 2
    assert tournament.entries.filter(checked_in=True).count() == 1


def login_cookies(url, user):
    """The session cookie of ``user``, logged in without the login form."""
    from django.conf import settings
    from django.test import Client

    client = Client()
    client.force_login(user)
    session = client.cookies[settings.SESSION_COOKIE_NAME].value
    return [{"name": settings.SESSION_COOKIE_NAME, "value": session, "url": url}]


def test_the_tournament_form_fills_the_short_name_and_shows_custom_parameters(live_server, page):
    user = director(username="leitung")
    page.context.add_cookies(login_cookies(live_server.url, user))
    page.goto(live_server.url + "/manage/new/")
    custom = page.locator("#custom-profile")
    assert custom.is_hidden()  # DDV is chosen: no parameters to see

    page.get_by_label("Name", exact=True).fill("Herbstturnier Köln 2026")
    short_name = page.get_by_label("Kurzname (URL)")
    assert short_name.input_value() == "herbstturnier-koeln-2026"
    page.get_by_label("Datum").fill("2026-11-21")

    page.get_by_label("Regelwerk", exact=True).select_option("custom")
    custom.wait_for(state="visible")
    games = page.get_by_label("Spiele je Runde am Vierertisch")
    assert games.input_value() == "24"
    games.fill("20")
    # Another base: the fields follow it, except the one the director changed.
    page.get_by_label("eigenes Regelwerk auf Basis von").select_option("eppstein-2001")
    assert page.get_by_label("Spiele je Runde am Fünfertisch").input_value() == "20"
    assert games.input_value() == "20"
    assert page.get_by_label("Wertung").input_value() == "plus-points"
    page.get_by_role("button", name="Speichern").click()
    page.get_by_text("Turnier „Herbstturnier Köln 2026“ angelegt.").wait_for()

    tournament = Tournament.objects.get()
    assert tournament.slug == "herbstturnier-koeln-2026"
    assert tournament.custom_base == "eppstein-2001"
    assert tournament.custom_overrides == {"games_per_round_4": 20}

    # A name typed after the short name was edited by hand leaves the short name alone.
    page.goto(live_server.url + "/manage/new/")
    page.get_by_label("Kurzname (URL)").fill("herbst")
    page.get_by_label("Name", exact=True).fill("Herbstturnier Köln 2027")
    assert page.get_by_label("Kurzname (URL)").input_value() == "herbst"


def test_my_tournaments_fit_a_phone_and_show_the_status(live_server, browser):
    user = director(username="leitung")
    tournament = Tournament.objects.create(
        name="Großer Herbstpreis des Doppelkopfvereins Köln-Nippes 2026",
        slug="herbstpreis",
        date="2026-11-21",
        planned_rounds=2,
    )
    tournament.directors.add(user)
    released_table(tournament)
    context = browser.new_context(locale="de-DE", viewport={"width": 390, "height": 844})
    context.add_cookies(login_cookies(live_server.url, user))
    page = context.new_page()
    page.goto(live_server.url + "/manage/")
    row = page.locator("#tournament-list tbody tr")
    assert "läuft" in row.inner_text()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    context.close()
