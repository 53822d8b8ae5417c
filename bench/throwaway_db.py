"""A throw-away SQLite database (WAL, as the site runs) for the benchmarks that drive Django.

Call :func:`setup` before importing models, then :func:`run` with the benchmark's ``main``:
it migrates, runs, removes the database and exits with ``main``'s code.
"""

import os
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WORK = tempfile.mkdtemp(prefix="kreuzdame-bench-")


def setup() -> None:
    sys.path.insert(0, str(ROOT))
    os.environ["DATABASE_URL"] = f"sqlite:///{WORK}/bench.sqlite3"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")
    # The documents a bench downloads are made in the request (no worker runs), into the
    # throw-away folder; bench/documents_bench.py uses the queue itself.
    os.environ.setdefault("TASKS_IMMEDIATE", "1")
    os.environ.setdefault("DOCUMENTS_DIR", f"{WORK}/documents")
    import django

    django.setup()


def run(main) -> None:
    from django.core.management import call_command

    try:
        call_command("migrate", verbosity=0)
        code = main()
    finally:
        shutil.rmtree(WORK, ignore_errors=True)
    sys.exit(code)
