"""The printed documents of a big round: run `.venv/bin/python bench/print_bench.py`.

Builds a throw-away SQLite database with one released round of 100 tables (400 players)
and times each document whole (queries, QR codes, template and WeasyPrint): the print pack
(target: 8 s of CPU, issue 33) and the player cards of the 400 players. Prints per document
the wall time, the CPU seconds of this process (WeasyPrint runs in it: the figure that does
not depend on what else the machine is doing), the pages, queries and size.
"""

import io
import time

import throwaway_db  # bench/throwaway_db.py: the script's directory is on sys.path

throwaway_db.setup()

from django.db import connection  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402
from django.utils import timezone  # noqa: E402
from pypdf import PdfReader  # noqa: E402

from tournament.exports.cards import player_cards_pdf  # noqa: E402
from tournament.exports.printpack import print_pack  # noqa: E402
from tournament.models import Entry, Player, Round, Seat, Sheet, Table, Tournament  # noqa: E402

TABLES = 100
PACK_CPU_SECONDS = 8
FIRST = ["Anna", "Bernd", "Claudia", "Dieter", "Elke", "Frank", "Gisela", "Heinz", "Ilse", "Jürgen"]
LAST = ["Müller", "Schmidt", "Schneider", "Fischer", "Weber", "Meyer", "Wagner", "Becker"]


def build() -> Round:
    tournament = Tournament.objects.create(
        name="Deutsche Doppelkopf-Meisterschaft", slug="bench", date="2026-12-05",
        venue="Stadthalle Testhausen",
    )  # fmt: skip
    round_ = Round.objects.create(
        tournament=tournament, number=3, status="released", started_at=timezone.now()
    )
    players = Player.objects.bulk_create(
        Player(first_name=FIRST[n % len(FIRST)], last_name=f"{LAST[n % len(LAST)]}-{n:03d}",
               name_key=f"bench {n}", club="DSC Testhausen")
        for n in range(TABLES * 4)
    )  # fmt: skip
    entries = Entry.objects.bulk_create(
        Entry(tournament=tournament, player=player, start_number=n)
        for n, player in enumerate(players, start=1)
    )
    tables = Table.objects.bulk_create(
        Table(round=round_, number=number, size=4) for number in range(1, TABLES + 1)
    )
    Sheet.objects.bulk_create(Sheet(table=table) for table in tables)
    Seat.objects.bulk_create(
        Seat(round=round_, table=tables[n // 4], entry=entry, position=n % 4 + 1)
        for n, entry in enumerate(entries)
    )
    return round_


def measure(label: str, make, target_cpu: float | None = None) -> None:
    """Make one document and print its figures."""
    with CaptureQueriesContext(connection) as queries:
        started, cpu = time.perf_counter(), time.process_time()
        pdf = make()
        seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
    pages = len(PdfReader(io.BytesIO(pdf)).pages)
    verdict = ""
    if target_cpu is not None:
        verdict = "  ok" if cpu <= target_cpu else f"  SLOW (target {target_cpu} s of CPU)"
    print(f"{label}: CPU {cpu:.1f} s ({seconds:.1f} s wall), {pages} pages, "
          f"{len(queries)} queries, {len(pdf) / 1e6:.2f} MB{verdict}")  # fmt: skip


def main() -> int:
    round_ = build()
    empty = Tournament.objects.create(name="Warm-up", slug="warm-up", date="2026-12-06")
    player_cards_pdf(empty)  # a server process has its fonts loaded already
    measure(f"print pack, {TABLES} tables",
            lambda: print_pack(round_, "https://kreuzdame.example/"), PACK_CPU_SECONDS)  # fmt: skip
    measure(f"player cards, {TABLES * 4} players", lambda: player_cards_pdf(round_.tournament))
    return 0


if __name__ == "__main__":
    throwaway_db.run(main)
