"""A director in Chromium: log in, create a tournament, import players, check one in."""

import pytest

from tests.factories import director
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
