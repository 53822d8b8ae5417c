"""A player who did not consent to publication in one of a club's tournaments stays one
person on the service: the series' public page there shows the hall's rows (the tester's
case: a player named in one tournament, unnamed in the other, was split into two lines,
each "noch nicht gewertet"), and no page shows the uid that links them."""

import datetime
import re

import pytest
from django.urls import reverse

from tests.factories import PlayerFactory, make_series, played_tournament
from tournament import archive
from tournament.models import Player, Tournament

from .helpers import forget_hall, publish

pytestmark = pytest.mark.django_db

_ROWS = re.compile(r'<tbody>(.*?)</tbody>|<ul class="absent-list">(.*?)</ul>', re.S)
_ROW = re.compile(r"<tr>(.*?)</tr>|<li>(.*?)</li>", re.S)
_TAG = re.compile(r"<[^>]+>")
# A player without consent is "Spieler <their id>" in a series: each database has its ids.
_PSEUDONYM = re.compile(r"\b(Spieler|Player) \d+\b")


def series_rows(client, slug: str) -> list[str]:
    """The ranked and the not yet ranked rows of a series' public page, as text."""
    response = client.get(reverse("series-public", args=[slug]))
    assert response.status_code == 200
    rows = []
    for ranked, below in _ROWS.findall(response.content.decode()):
        for tr, li in _ROW.findall(ranked or below):
            text = " ".join(_TAG.sub(" ", tr or li).split())
            rows.append(_PSEUDONYM.sub(r"\1 #", text))
    return rows


def hall_series():
    """Two public tournaments of a club in a public series (ranked from 3 rounds on), two
    rounds each: Peter O'Neill plays both, named in the first, not in the second."""
    oneill = PlayerFactory(first_name="Peter", last_name="O'Neill", club="Kreuzdame Köln")
    a, b, c, d = (PlayerFactory(first_name=x, last_name=f"Spieler {x}") for x in "ABCD")
    today = datetime.date.today()
    first, entries = played_tournament(
        today - datetime.timedelta(days=7),
        2,
        [{a: 6, b: 2, oneill: -2, c: -6}, {a: 3, oneill: -3, b: 1, c: -1}],
    )
    second, later = played_tournament(
        today, 2, [{oneill: 6, a: 2, d: -2, b: -6}, {a: 3, d: -3, oneill: 1, b: -1}]
    )
    for t, slug in ((first, "januar"), (second, "februar")):
        t.slug, t.name, t.is_public = slug, f"Kreuzdame-Cup {slug}", True
        t.save()
    later[oneill.pk].publish = False
    later[oneill.pk].save()
    series = make_series([first, second], is_public=True, min_rounds=3)
    return oneill, (first, second), series


@pytest.mark.parametrize("order", [(0, 1), (1, 0)], ids=["named-first", "unnamed-first"])
def test_an_unconsented_player_is_one_line_of_the_series_as_in_the_hall(client, koeln, order):
    oneill, tournaments, series = hall_series()
    uid = str(oneill.uid)
    hall = series_rows(client, "vm")
    assert len(hall) == 5 and sum("Spieler #" in row for row in hall) == 1
    assert not any("O'Neill" in row or "O&#x27;Neill" in row for row in hall)
    docs = [archive.build(t, profile="public") for t in tournaments]
    # The unconsented entry carries its player's uid alone.
    [hidden] = [p for p in docs[1]["players"] if p["uid"] == uid]
    assert set(hidden) == {"ref", "uid"}
    for t in tournaments:
        forget_hall(t)
    series.delete()  # the hall's own rows: not on the service

    for index in order:
        assert publish(client, koeln, docs[index], 1).status_code == 200

    assert series_rows(client, "koeln-vm") == hall
    replicas = [Tournament.objects.get(uid=doc["tournament"]["uid"]) for doc in docs]
    [person] = {r.entries.get(player__origins__uid=uid).player for r in replicas}
    # Named where a publication of theirs named them; the unnamed one renamed nobody.
    assert (person.first_name, person.last_name) == ("Peter", "O'Neill")
    standings = client.get(reverse("public-standings", args=[replicas[0].slug]))
    assert "O&#x27;Neill" in standings.content.decode()
    assert Player.objects.filter(entries__tournament__in=replicas).distinct().count() == 5
    pages = _every_page(client, replicas, person)
    assert not any(uid in page or uid.replace("-", "") in page for page in pages)
    # The tournament he did not consent in calls him by the pseudonym only, as the hall does
    # (its pages, and "Wo sitze ich?" asked for his first name).
    unnamed = _every_page(client, replicas[1:], person)[2:-4]
    assert len(unnamed) == 7 and not any("Neill" in page for page in unnamed)


def _every_page(client, replicas, person) -> list[str]:
    """Every public page of the service showing the replicas, the series and the player."""
    urls = [reverse("home"), reverse("club", args=["koeln"])]
    for replica in replicas:
        number = replica.entries.get(player=person).start_number
        urls += [
            reverse(name, kwargs={"slug": replica.slug, **kwargs})
            for name, kwargs in (
                ("tournament-public", {}),
                ("public-standings", {}),
                ("public-table-plan", {}),
                ("statistics", {}),
                ("statistics-day", {}),
                ("statistics-player", {"number": number}),
            )
        ]
        urls.append(reverse("where-do-i-sit", args=[replica.slug]) + "?q=Peter")
    urls += [
        reverse("series-public", args=["koeln-vm"]),
        reverse("series-statistics", args=["koeln-vm"]),
        reverse("series-player", args=["koeln-vm", person.pk]),
        reverse("series-player-statistics", args=["koeln-vm", person.pk]),
    ]
    pages = []
    for url in urls:
        response = client.get(url)
        # An unconsented player's statistics page in a tournament is not there (404).
        assert response.status_code in (200, 404), url
        pages.append(response.content.decode())
    return pages
