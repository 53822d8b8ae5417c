"""A referee is called to a table: a Kontra player showed a card too early in P1's
Pflichtsolo, which could disadvantage the soloist (b1). The referee logs in, enters the
geringfügig penalty, sees the row +3 / 0 / 0 / -3, signs it, and the table's Spielliste and
the public standings show it."""

import pytest
from playwright.sync_api import expect

from tests.factories import TournamentFactory, referee, released_table
from tournament.models import Game, GameKind, Penalty

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_referee_enters_and_signs_a_geringfuegig_penalty_in_a_solo(live_server, page):
    tournament = TournamentFactory(
        name="Nikolausturnier", slug="nikolaus", is_public=True, standings_live=True
    )
    official = referee(username="schiri", first_name="Maria", last_name="Keller")
    official.set_password("pfeife-und-karte-7")
    official.save()
    tournament.referees.add(official)
    table = released_table(tournament)
    # Game 1: P1's Pflichtsolo, won with value 2; game 2 a normal game.
    Game.objects.create(table=table, number=1, kind=GameKind.PFLICHTSOLO, soloist_position=1,
                        p1=6, p2=-2, p3=-2, p4=-2)  # fmt: skip
    Game.objects.create(table=table, number=2, kind=GameKind.NORMAL, p1=1, p2=-1, p3=-1, p4=1)
    # Two penalties in another tournament first: this one is still "Strafe Nr. 1" here.
    elsewhere = released_table(TournamentFactory(slug="vorher"), first_start=1)
    for _ in range(2):
        Penalty.objects.create(table=elsewhere, game_number=1, category="unerheblich",
                               offender=elsewhere.seats.first().entry)  # fmt: skip
    keeper = page.context.new_page()
    keeper.goto(f"{live_server.url}/tisch/{table.token}/")
    keeper.once("dialog", lambda dialog: dialog.accept())
    keeper.get_by_label("Worum geht es? (freiwillig)").fill("Karte zu früh gezeigt")
    keeper.get_by_role("button", name="Schiedsrichter rufen").click()
    expect(keeper.locator("#referee-call")).to_contain_text("Ein Schiedsrichter ist gerufen")
    keeper.close()

    page.goto(f"{live_server.url}/login/")
    page.get_by_label("Benutzername").fill("schiri")
    page.get_by_label("Passwort").fill("pfeife-und-karte-7")
    page.get_by_role("button", name="Anmelden").click()
    page.get_by_role("link", name="Schiedsrichter", exact=True).click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Schiedsrichter-Tisch")
    expect(page.locator("#calls")).to_contain_text("Karte zu früh gezeigt")
    page.locator("#referee-table-1").get_by_role("link", name="Strafe").click()

    form = page.locator("#penalty-form")
    form.get_by_label("Spiel", exact=True).fill("1")
    form.locator("fieldset").filter(has_text="Verursacher").get_by_label("4 · 4 ").check()
    form.get_by_label("geringfügig").check()
    # The facts that do not matter for this category stay hidden.
    expect(form.get_by_label("Absagen der Gegenpartei bis dahin (k)")).to_be_hidden()
    form.get_by_label("Solo", exact=True).check()
    form.locator("fieldset").filter(has_text="Solist").get_by_label("1 · 1 ").check()
    form.get_by_label("Der Verstoß konnte dem Solisten schaden (b1)").check()
    form.get_by_label("was ist passiert").fill("Kontra zeigt Kreuz Dame vor dem zweiten Stich")
    form.get_by_role("button", name="Zeile berechnen").click()

    preview = page.locator("#preview")
    # One line per player, so the whole row fits a phone: position, player, points.
    expect(preview.locator("#preview-rows td.num")).to_have_text(["+3", "0", "0", "-3"])
    expect(preview.locator("#preview-rows tr").nth(3)).to_contain_text("Spieler4")
    assert not Penalty.objects.filter(tournament=tournament).exists()  # not before signing
    preview.get_by_role("button", name="Strafe unterschreiben").click()

    expect(page.locator("#penalty-state")).to_have_text("unterschrieben")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Strafe Nr. 1")
    penalty = Penalty.objects.get(tournament=tournament)
    assert penalty.number == 1 and Penalty.objects.count() == 3
    assert (penalty.referee, penalty.points, penalty.counts) == (official, [3, 0, 0, -3], True)
    expect(page.locator("#penalty-facts")).to_contain_text("Maria Keller")

    page.get_by_role("link", name="Spielliste").first.click()
    row = page.locator(f"#penalty-{penalty.pk}")
    expect(row.locator("td.num")).to_have_text(["3", "0", "0", "-3"])
    expect(row).to_contain_text("Strafe (MK)")
    expect(page.locator("#sheet-rows tr.finding.error")).to_have_count(0)
    totals = page.locator("#sheet-rows tfoot th.num").all_inner_texts()
    assert [int(v) for v in totals] == [6 + 1 + 3, -2 - 1, -2 - 1, -2 + 1 - 3]

    page.goto(f"{live_server.url}/t/nikolaus/stand/")
    expect(page.locator("#line-1 td.penalties")).to_have_text("3")
    expect(page.locator("#line-4 td.penalties")).to_have_text("-3")
    expect(page.locator("#line-1 td.total")).to_have_text("10")
