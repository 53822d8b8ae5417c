"""A director draws a round, reads the report, swaps two players and releases it; a player
finds their seat on the public page."""

import pytest

from tests.factories import EntryFactory, PlayerFactory, director
from tournament.models import Seat, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_draw_report_swap_release_and_public_lookup(live_server, page):
    user = director(username="leiterin")
    user.set_password("sicheres-passwort-1")
    user.save()
    tournament = Tournament.objects.create(
        name="Nikolausturnier", slug="nikolaus", date="2026-12-06", is_public=True
    )
    tournament.directors.add(user)
    for number in range(1, 14):
        EntryFactory(
            tournament=tournament,
            start_number=number,
            checked_in=True,
            player=PlayerFactory(first_name="Spieler", last_name=f"Nummer{number}"),
        )

    page.goto(live_server.url + "/login/")
    page.get_by_label("Benutzername").fill("leiterin")
    page.get_by_label("Passwort").fill("sicheres-passwort-1")
    page.get_by_role("button", name="Anmelden").click()
    page.goto(live_server.url + "/manage/nikolaus/rounds/")
    page.get_by_role("button", name="Nächste Runde auslosen").click()
    page.get_by_role("status").filter(has_text="Runde 1 ausgelost").wait_for()
    assert page.locator(".table-card").count() == 3
    assert page.locator("#repeat-pairs").inner_text() == "0"

    first = Seat.objects.get(entry__start_number=1)
    second = Seat.objects.exclude(table=first.table).first()
    page.get_by_label("Startnummer", exact=True).fill("1")
    page.get_by_label("mit Startnummer").fill(str(second.entry.start_number))
    page.get_by_role("button", name="Tauschen").click()
    page.get_by_text("Plätze getauscht").wait_for()
    moved = Seat.objects.get(entry__start_number=1)
    assert (moved.table_id, moved.position) == (second.table_id, second.position)
    page.locator("#quality-report").wait_for()

    page.get_by_role("button", name="Runde 1 freigeben").click()
    page.get_by_role("status").filter(has_text="Runde 1 freigegeben").wait_for()

    page.goto(live_server.url + "/t/nikolaus/wo-sitze-ich/")
    page.get_by_label("Name oder Startnummer").fill("1")
    page.get_by_role("button", name="Finden").click()
    result = page.locator("section.card", has_text="Spieler Nummer1")
    result.wait_for()
    cells = result.locator("tbody td").all_inner_texts()
    assert cells == ["1", str(moved.table.number), str(moved.position)]
