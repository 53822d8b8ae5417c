"""Saving one Spielliste row through the site: run `.venv/bin/python bench/sheet_bench.py`.

Builds a throw-away SQLite database (WAL, as the site runs), a tournament with released
tables, and posts engine-made games to the list keeper's page exactly as the phone does:
each request saves the row, runs every check of the rules engine on the whole sheet and
renders the page. Prints the median and 95th percentile per save (target: median < 50 ms),
and the time for the desk grid to save a whole 24-game sheet.
"""

import random
import statistics
import time
import uuid

import throwaway_db  # bench/throwaway_db.py: the script's directory is on sys.path

throwaway_db.setup()

from django.test import Client  # noqa: E402
from django.test.utils import setup_test_environment  # noqa: E402
from django.urls import reverse  # noqa: E402
from django.utils import timezone  # noqa: E402

from tournament.management.demo_games import play_sheet  # noqa: E402
from tournament.models import (  # noqa: E402
    Entry,
    GameKind,
    Player,
    Round,
    Seat,
    Table,
    Tournament,
)

TABLES = 10


def build() -> list[Table]:
    tournament = Tournament.objects.create(name="Bench", slug="bench", date="2026-12-05")
    round_ = Round.objects.create(
        tournament=tournament, number=1, status="released", started_at=timezone.now()
    )
    tables = []
    for number in range(1, TABLES + 1):
        table = Table.objects.create(round=round_, number=number, size=4)
        for position in range(1, 5):
            start = 4 * (number - 1) + position
            player = Player.objects.create(first_name="Spieler", last_name=f"Nr{start}")
            entry = Entry.objects.create(tournament=tournament, player=player, start_number=start)
            Seat.objects.create(round=round_, table=table, entry=entry, position=position)
        tables.append(table)
    return tables


def main() -> int:
    setup_test_environment()
    tables = build()
    client = Client()
    rng = random.Random(1)
    timings = []
    for table in tables:
        url = reverse("keeper-sheet", args=[table.token])
        client.get(url)
        for number, game in enumerate(play_sheet(table.round.tournament.profile, 4, rng), 1):
            data = {"kind": game.kind, "mode": "direct", "number": number,
                    "soloist": game.soloist or "", "client_id": str(uuid.uuid4())}  # fmt: skip
            data.update({f"p{i}": v for i, v in enumerate(game.points, start=1)})
            started = time.perf_counter()
            response = client.post(url, data)
            timings.append(time.perf_counter() - started)
            assert response.status_code == 200, response.content[:500]
    assert all(t.games.count() == 24 for t in tables)
    timings.sort()
    median = statistics.median(timings) * 1000
    p95 = timings[int(len(timings) * 0.95)] * 1000
    verdict = "ok" if median < 50 else "SLOW (target 50 ms)"
    print(f"row save (phone page, {len(timings)} saves): median {median:.1f} ms, "
          f"p95 {p95:.1f} ms  {verdict}")  # fmt: skip

    from django.contrib.auth import get_user_model

    user = get_user_model().objects.create_superuser("bench")
    client.force_login(user)
    desk = []
    for table in tables[:5]:
        url = reverse("manage:sheet-desk", args=["bench", 1, table.number])
        data = {"lines": "27"}
        for number, game in enumerate(play_sheet(table.round.tournament.profile, 4, rng), 1):
            data[f"kind-{number}"] = GameKind(game.kind).scoring.value
            data[f"solo-{number}"] = game.soloist or ""
            data.update({f"p{i}-{number}": v for i, v in enumerate(game.points, start=1)})
            data[f"version-{number}"] = table.games.get(number=number).version
        started = time.perf_counter()
        response = client.post(url, data)
        desk.append(time.perf_counter() - started)
        assert response.status_code == 302, response.content[:500]
    print(f"desk grid, whole 24-game sheet rewritten: median "
          f"{statistics.median(desk) * 1000:.1f} ms")  # fmt: skip
    return 0


if __name__ == "__main__":
    throwaway_db.run(main)
