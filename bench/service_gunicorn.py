"""gunicorn for `make loadtest-service`: the deployed configuration (deploy/gunicorn.conf.py)
and, for the report, each worker notes every value it computes, one line each (family,
state, CPU seconds, shared) in ``LOADTEST_COUNTS_DIR/<pid>.log``: the load test adds them
up to "computations per page state" over all workers."""

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

    def counted(family, state, compute, stale=0, share=True):
        def computing():
            started = time.thread_time()
            value = compute()
            with log.open("a") as out:
                cpu = time.thread_time() - started
                out.write(f"{family!r}\t{state!r}\t{cpu:.4f}\t{int(share)}\n")
            return value

        return original(family, state, computing, stale, share)

    memo.get = counted
