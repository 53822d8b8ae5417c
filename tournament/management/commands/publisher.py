"""python manage.py publisher: sends the public state of every tournament whose director
opted in to the results service, whenever it changes and a connection exists
(tournament/publishing). ``make run`` and ``manage.py hall`` start it beside the site; without
a service set up it only looks once a second whether one has been.

It runs at a lower priority (WORKER_NICE) and reads the keepers' tables with plain reads;
it writes only its own rows (the outbox), briefly, so a keeper's save never waits for it.
"""

import logging
import os
import signal
import time

from django.conf import settings
from django.core.management.base import BaseCommand
from django.db import OperationalError, close_old_connections

from tournament.publishing.publisher import Publisher

INTERVAL = 1.0  # seconds between two passes

logger = logging.getLogger(__name__)


class Command(BaseCommand):
    help = "Publish the opted-in tournaments to the results service; Ctrl+C stops."

    def add_arguments(self, parser):
        parser.add_argument(
            "--once", action="store_true", help="one pass (collect and send), then stop"
        )
        parser.add_argument(
            "--supervised",
            action="store_true",
            help="started by manage.py hall: stopped by the hall (SIGTERM), not by Ctrl+C",
        )

    def handle(self, *args, once: bool, supervised: bool = False, **options):
        publisher = Publisher()
        if once:
            publisher.run_once()
            return
        if settings.WORKER_NICE > 0 and hasattr(os, "nice"):  # Windows has no nice
            os.nice(settings.WORKER_NICE)
        stopping = []
        signal.signal(signal.SIGTERM, lambda *_args: stopping.append(True))
        if supervised:
            # The terminal's Ctrl+C reaches the whole process group: the hall stops us.
            signal.signal(signal.SIGINT, signal.SIG_IGN)
        parent = os.getppid()
        try:
            while not stopping:
                if supervised and os.getppid() != parent:
                    return  # the hall was killed without stopping us: nothing left behind
                started = time.monotonic()
                close_old_connections()
                try:
                    publisher.run_once()
                except OperationalError as error:
                    # SQLite's write lock held beyond its timeout (a backup, a big import):
                    # nothing half written; the next pass goes on.
                    logger.warning("results service outbox not reachable, trying again: %s", error)
                time.sleep(max(0.0, INTERVAL - (time.monotonic() - started)))
        except KeyboardInterrupt:
            pass
