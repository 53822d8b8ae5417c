"""A game keeps its facts (who was Re, announcements, Absagen) when the keeper takes its row
from the Spielwert-Rechner, only while the row is what they give; the statistics count
Re/Kontra over those games and say over how many."""

import html
import json
import re
import uuid

import pytest
from django.urls import reverse

from tests.factories import released_table
from tests.scoring.test_statistics_facts import FACTS, ROWS
from tournament.models import Game, GameKind, RoundStatus
from tournament.sheets import verbs

pytestmark = pytest.mark.django_db

# Normal game at a 4-table: Re 1 and 3 said "Re" and won with 151 eyes (Kontra under 90):
# 1 + under 90 + "Re" 2 = 4 (TSR 7.2.2).
CALCULATOR = {"table_size": "4", "dealer": "1", "kind": "normal", "re": ["1", "3"],
              "re_eyes": "151", "announced_re": "on"}  # fmt: skip
STORED = {
    "table_size": 4, "dealer": 1, "kind": "normal", "re": [1, 3], "re_eyes": 151,
    "re_no_trick": False, "kontra_no_trick": False, "announced": ["re"],
    "absage": {"re": None, "kontra": None}, "sonderpunkte": {"re": 0, "kontra": 0},
}  # fmt: skip
POINTS = (4, -4, 4, -4)


@pytest.fixture
def table(tournament):
    return released_table(tournament)


def keeper(table, name="keeper-sheet"):
    return reverse(name, args=[table.token])


def taken(client, table) -> dict:
    """What the calculator's "use this row" sends (its hidden fields, the plain link)."""
    headers = {"HX-Request": "true", "HX-Target": "calculator-result"}
    result = client.get(keeper(table, "keeper-calculator"), CALCULATOR, headers=headers)
    hidden = r'<input type="hidden" name="([^"]+)" value="([^"]*)"'
    fields = re.findall(hidden, result.content.decode())
    return {name: html.unescape(value) for name, value in fields}


def game_form(page) -> str:
    return page.content.decode().split('id="game-form"')[1].split("</form>")[0]


def post(number, points=POINTS, facts=None, **extra):
    data = {"kind": "normal", "mode": "direct", "number": str(number), "soloist": ""}
    data.update({f"p{i}": str(v) for i, v in enumerate(points, start=1)})
    data.update(client_id=str(uuid.uuid4()), **extra)
    if facts is not None:
        data["facts"] = facts if isinstance(facts, str) else json.dumps(facts)
    return data


def test_the_row_taken_from_the_calculator_is_saved_with_its_facts(client, table):
    query = taken(client, table)
    assert json.loads(query["facts"]) == STORED
    # Without JavaScript the link opens the game form with the row and the facts in it.
    form = game_form(client.get(keeper(table), query))
    assert 'name="facts"' in form and "&quot;re_eyes&quot;:151" in form
    response = client.post(keeper(table), post(1, facts=query["facts"]))
    assert response.status_code == 200
    game = table.games.get()
    assert tuple(game.points) == POINTS and game.facts == STORED
    assert game.history.first().facts == STORED  # the row's history keeps them too


def test_a_row_changed_before_saving_drops_the_facts_instead_of_contradicting_them(client, table):
    response = client.post(keeper(table), post(1, points=(5, -5, 5, -5), facts=STORED))
    assert response.status_code == 200
    game = table.games.get()
    assert tuple(game.points) == (5, -5, 5, -5) and game.facts is None
    # Other winners with the same value: the facts' Re party would contradict it.
    client.post(keeper(table), post(2, points=(4, 4, -4, -4), facts=STORED))
    assert table.games.get(number=2).facts is None


def test_a_game_corrected_by_typing_other_points_loses_its_facts(client, table):
    client.post(keeper(table), post(1, facts=STORED))
    game = table.games.get()
    assert game.facts == STORED
    # The same row sent again without facts (e.g. a kind fixed by hand) keeps them ...
    client.post(keeper(table), post(1, version=str(game.version), reason="x"))
    game.refresh_from_db()
    assert game.facts == STORED and game.version == 1
    # ... other points typed in lose them: the facts no longer give the row.
    client.post(keeper(table), post(1, points=(2, -2, 2, -2), version="1", reason="typo"))
    game.refresh_from_db()
    assert tuple(game.points) == (2, -2, 2, -2) and game.facts is None and game.version == 2


def test_the_desk_grid_keeps_the_facts_of_unchanged_rows_only(table):
    actor = verbs.Actor(label="desk", privileged=True)
    verbs.save_row(table, actor, verbs.RowInput("normal", None, POINTS, STORED), number=1)
    verbs.save_row(table, actor, verbs.RowInput("normal", None, POINTS, STORED), number=2)
    rows = [verbs.RowInput("normal", None, POINTS), verbs.RowInput("normal", None, (1, -1, 1, -1))]
    verbs.replace_rows(table, actor, rows, {1: 1, 2: 1})
    first, second = table.games.order_by("number")
    assert first.facts == STORED and second.facts is None


@pytest.mark.parametrize(
    ("facts", "why"),
    [
        ("{not json", "nicht lesbar"),
        ("[1, 2]", "nicht lesbar"),
        ({**STORED, "trumps": "kreuz"}, "trumps"),  # unknown field
        ({**STORED, "re_eyes": 1}, "239"),  # no deal gives Re 1 card point (Kontra 239)
        ({**STORED, "table_size": 5, "dealer": 2}, "nicht lesbar"),  # another table size
        ("x" * 1001, "nicht lesbar"),
    ],
)
def test_bad_facts_are_refused_with_a_message_and_change_nothing(client, table, facts, why):
    client.post(keeper(table), post(1, facts=STORED))
    before = list(Game.objects.values())
    new = client.post(keeper(table), post(2, facts=facts))
    change = client.post(keeper(table), post(1, points=(1, -1, 1, -1), facts=facts, version="1"))
    for response in (new, change):
        assert response.status_code == 422
        text = response.content.decode()
        assert "Nichts wurde gespeichert" in text and why in text
        assert 'id="form-errors"' in text
    assert list(Game.objects.values()) == before


def test_the_statistics_count_re_and_kontra_over_the_games_with_facts(tournament, director_client):
    """The known sheet of tests/scoring/test_statistics_facts.py, stored: 5 of its 7 games
    carry facts. A stored game whose facts do not give its row is not counted."""
    tournament.is_public = True
    tournament.save()
    table = released_table(tournament)
    for number, kind, soloist, points in ROWS:
        Game.objects.create(
            table=table, number=number, kind=GameKind.of(kind).value, soloist_position=soloist,
            facts=FACTS.get(number), **{f"p{i}": v for i, v in enumerate(points, start=1)},
        )  # fmt: skip
    Game.objects.filter(table=table, number=3).update(facts=FACTS[1])  # not its row: ignored
    table.round.status = RoundStatus.CLOSED
    table.round.save()
    tournament.refresh_from_db()
    event = director_client.get(reverse("manage:statistics", args=["herbst"])).content.decode()
    assert "aus 5 von 7 Spielen mit erfasstem Spielverlauf" in event
    re_row = event.split('id="facts-re"')[1].split("</tr>")[0]
    # 4 games (1, 2, 6, 7); Re won 1 and 7, lost 2; nobody won 6
    assert re.findall(r"<summary>(\d+)</summary>", re_row) == ["4", "2", "1"]
    assert "67 %" in re_row
    anna = director_client.get(reverse("manage:statistics-player", args=["herbst", 1]))
    page = anna.content.decode()
    assert "aus 5 von 7 Spielen mit erfasstem Spielverlauf" in page
    kontra = page.split('id="facts-kontra"')[1].split("</tr>")[0]
    assert "Runde 1, Tisch 1, Spiel 2" in kontra and "Runde 1, Tisch 1, Spiel 7" in kontra
    assert "50 %" in kontra
    absage = page.split('id="facts-absage-90"')[1].split("</tr>")[0]
    assert "Absage keine 90" in absage and "Runde 1, Tisch 1, Spiel 6" in absage


def test_a_row_changed_in_the_admin_drops_facts_that_no_longer_fit(client, table):
    from tests.factories import UserFactory

    client.force_login(UserFactory(username="admin", is_staff=True, is_superuser=True))
    cells = dict(zip(("p1", "p2", "p3", "p4"), POINTS, strict=True))
    game = Game.objects.create(table=table, number=1, kind="normal", facts=STORED, **cells)
    url = reverse("admin:tournament_game_change", args=[game.pk])
    page = client.get(url)
    assert page.status_code == 200 and 'name="facts"' not in page.content.decode()  # read only
    data = {"table": table.pk, "number": 1, "kind": "normal", "soloist_position": "",
            "p1": 4, "p2": -4, "p3": 4, "p4": -4, "p5": "", "version": 1}  # fmt: skip
    assert client.post(url, data).status_code == 302
    game.refresh_from_db()
    assert game.facts == STORED  # the same row: the facts still fit
    assert client.post(url, {**data, "p1": 3, "p3": 5}).status_code == 302
    game.refresh_from_db()
    assert game.points == [3, -4, 5, -4] and game.facts is None


def test_at_a_five_table_the_facts_must_name_the_dealer_who_sat_out(client, tournament):
    # Game 1: position 1 deals and sits out; game 2: position 2 (TSR 3.3.1).
    table = released_table(tournament, size=5)
    base = {"table_size": 5, "kind": "normal", "re_eyes": 151}
    right = {**base, "dealer": 1, "re": [2, 4]}
    client.post(keeper(table), post(1, points=(0, 2, -2, 2, -2), facts=right))
    assert table.games.get(number=1).facts["dealer"] == 1
    wrong = {**base, "dealer": 3, "re": [1, 2]}  # gives its own row, but 3 did not sit out
    client.post(keeper(table), post(2, points=(2, 2, 0, -2, -2), facts=wrong))
    assert tuple(table.games.get(number=2).points) == (2, 2, 0, -2, -2)
    assert table.games.get(number=2).facts is None
