"""gunicorn for the results service (docs/service.md): `gunicorn -c deploy/gunicorn.conf.py
tournament.wsgi`, behind Caddy or nginx on the same machine.

Every value can be changed from the environment (the systemd unit's env file) without
editing this file: WEB_WORKERS, WEB_THREADS, WEB_BIND."""

import multiprocessing
import os

# Loopback only: the reverse proxy is the one way in (it terminates TLS).
bind = os.environ.get("WEB_BIND", "127.0.0.1:8000")

# Processes use both cores; threads let a process answer readers while one of its requests
# waits for the database. The public pages are computed once per state for all processes
# (CACHE_BACKEND=database or REDIS_URL), so more processes cost memory, not computations.
workers = int(os.environ.get("WEB_WORKERS", multiprocessing.cpu_count() + 1))
worker_class = "gthread"
threads = int(os.environ.get("WEB_THREADS", 4))

# A publish of a big tournament is the longest request (receive and restore its archive).
timeout = 60
graceful_timeout = 20
keepalive = 5

# A worker is replaced after this many requests (spread, so never all at once): whatever
# memory a long day's requests left behind goes back to the system.
max_requests = 5000
max_requests_jitter = 500

# No access log: table links (/tisch/...), the projector's link and personal links are
# secrets, and an access log writes every address as asked (README, "A big event").
accesslog = None
errorlog = "-"
loglevel = "warning"

# X-Forwarded-* only from the proxy on this machine.
forwarded_allow_ips = "127.0.0.1,::1"
