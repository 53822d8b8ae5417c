"""python manage.py worker: makes the heavy documents (print pack, PDFs, Excel files) and
sends the mails to registered players, from the queue in the database, beside the web server
(``make run`` and ``manage.py hall`` start it). It runs at a lower priority (WORKER_NICE), so
that a render never starves the keepers' saves of the CPU; several workers may run at once.

The queue's own worker claims a task inside an exclusive transaction, which on SQLite takes
the database's write lock; asked every second it would make a keeper's save wait for a poll
now and then. So this loop looks with a plain read (no lock, WAL) whether anything is queued
and hands over to the queue's worker only then, which makes what is queued and returns.
"""

import logging
import os
import signal
import socket
import time

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand
from django.db import OperationalError, close_old_connections
from django_tasks_db.management.commands.db_worker import Worker
from django_tasks_db.models import DBTaskResult

# The documents, and the mails to registered players (tournament/tasks/mail.py).
QUEUES = ["documents", "mail"]
INTERVAL = 1.0  # seconds between two looks at the queue

logger = logging.getLogger(__name__)


def _queued() -> bool:
    close_old_connections()
    ready = DBTaskResult.objects.ready().filter(backend_name="default", queue_name__in=QUEUES)
    return ready.exists()


class Command(BaseCommand):
    help = "Make the queued documents (PDF, Excel) and send the queued mails; Ctrl+C stops."

    def add_arguments(self, parser):
        parser.add_argument(
            "--batch", action="store_true", help="make what is queued, then stop (scripts)"
        )
        parser.add_argument(
            "--supervised",
            action="store_true",
            help="started by manage.py hall: Ctrl+C in its terminal is for the hall, which "
            "then stops the worker (SIGTERM) after the file in hand",
        )

    def handle(self, *args, batch: bool, supervised: bool = False, **options):
        if settings.WORKER_NICE > 0 and hasattr(os, "nice"):  # Windows has no nice
            os.nice(settings.WORKER_NICE)
        # The queue's finished entries of earlier days are of no use: removed at each start.
        call_command("prune_db_task_results", min_age_days=1, failed_min_age_days=7, verbosity=0)
        worker = Worker(
            queue_names=QUEUES,
            interval=0,
            batch=True,  # make what is queued, then come back to this loop
            backend_name="default",
            startup_delay=False,
            max_tasks=None,
            worker_id=f"{socket.gethostname()}-{os.getpid()}"[:64],
            excluded_queue_names=[],
        )
        worker.configure_signals()  # Ctrl+C / SIGTERM: the render in hand is finished first
        parent = os.getppid()
        if supervised:
            # The terminal's Ctrl+C reaches the whole process group; the hall's SIGTERM that
            # follows would count as a second signal and end a render half made.
            signal.signal(signal.SIGINT, signal.SIG_IGN)
        while worker.running:
            if supervised and os.getppid() != parent:
                return  # the hall was killed without stopping it: no worker left behind
            try:
                if _queued():
                    worker.run()
                    continue
            except OperationalError as error:
                # SQLite's write lock held beyond its timeout (a long import confirm, a
                # backup): the claim did not happen, the task stays queued. Try again
                # shortly instead of ending the worker.
                logger.warning("document queue not reachable, trying again: %s", error)
                close_old_connections()
                time.sleep(INTERVAL)
                continue
            if batch:
                return
            time.sleep(INTERVAL)
