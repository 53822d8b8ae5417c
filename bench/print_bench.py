"""The print pack of a big round: run `.venv/bin/python bench/print_bench.py`.

Builds a throw-away SQLite database with one released round of 100 tables (400 players)
and times the whole print pack: queries, QR codes, template and WeasyPrint. Prints the
time and the page count (target: under 20 s).
"""

import io
import time

import throwaway_db  # bench/throwaway_db.py: the script's directory is on sys.path

throwaway_db.setup()

from django.db import connection  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402
from django.utils import timezone  # noqa: E402
from pypdf import PdfReader  # noqa: E402

from tournament.exports.printpack import print_pack  # noqa: E402
from tournament.models import Entry, Player, Round, Seat, Sheet, Table, Tournament  # noqa: E402

TABLES = 100
TARGET_SECONDS = 20
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


def main() -> int:
    round_ = build()
    with CaptureQueriesContext(connection) as queries:
        started, cpu = time.perf_counter(), time.process_time()
        pdf = print_pack(round_, "https://kreuzdame.example/")
        seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
    pages = len(PdfReader(io.BytesIO(pdf)).pages)
    verdict = "ok" if seconds < TARGET_SECONDS else f"SLOW (target {TARGET_SECONDS} s)"
    print(f"print pack, {TABLES} tables: {seconds:.1f} s (CPU {cpu:.1f} s), {pages} pages, "
          f"{len(queries)} queries, {len(pdf) / 1e6:.1f} MB  {verdict}")  # fmt: skip
    return 0


if __name__ == "__main__":
    throwaway_db.run(main)
