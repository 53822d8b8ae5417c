"""python manage.py worker: makes the heavy documents (print pack, PDFs, Excel files) from
the queue in the database, beside the web server (``make run`` and ``manage.py hall`` start
it). It runs at a lower priority (WORKER_NICE), so that a render never starves the keepers'
saves of the CPU; several workers may run at once."""

import os

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Make the queued documents (PDF, Excel) in the background; Ctrl+C stops."

    def add_arguments(self, parser):
        parser.add_argument(
            "--batch", action="store_true", help="make what is queued, then stop (scripts)"
        )

    def handle(self, *args, batch: bool, **options):
        if settings.WORKER_NICE > 0 and hasattr(os, "nice"):  # Windows has no nice
            os.nice(settings.WORKER_NICE)
        # The queue's finished entries of earlier days are of no use: removed at each start.
        call_command("prune_db_task_results", min_age_days=1, failed_min_age_days=7, verbosity=0)
        call_command(
            "db_worker",
            queue_name="documents",
            interval=1,
            batch=batch,
            reload=False,
            verbosity=options.get("verbosity", 1),
        )
