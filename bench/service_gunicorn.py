"""gunicorn for `make loadtest-service`: the deployed configuration (deploy/gunicorn.conf.py)
and, for the report, each worker notes every page it computes (one line per computation,
``family state cpu-seconds`` in ``LOADTEST_COUNTS_DIR/<pid>.log``): the load test adds them up to
"computations per page state" over all workers."""

import os
import time
from pathlib import Path

_DEPLOYED = Path(__file__).resolve().parent.parent / "deploy" / "gunicorn.conf.py"
exec(compile(_DEPLOYED.read_text(), str(_DEPLOYED), "exec"))  # noqa: S102 - our own file


def post_worker_init(worker):
    from tournament.base import caching

    memo = caching.memo
    original = memo.get
    log = Path(os.environ["LOADTEST_COUNTS_DIR"]) / f"{os.getpid()}.log"

    def counted(family, state, compute, stale=0):
        def computing():
            started = time.thread_time()
            value = compute()
            with log.open("a") as out:
                out.write(f"{family!r}\t{state!r}\t{time.thread_time() - started:.4f}\n")
            return value

        return original(family, state, computing, stale)

    memo.get = counted
