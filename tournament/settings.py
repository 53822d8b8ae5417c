"""Kreuzdame settings: one file, configured from the environment.

The defaults are for development (``make run``): DEBUG on, a local SQLite database. A
production deployment sets ``DEBUG=0``, ``SECRET_KEY``, ``ALLOWED_HOSTS`` and usually
``DATABASE_URL``; the security settings then switch on by themselves.
"""

import os
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

from tournament.ops import hall

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    """A yes/no setting: unset or empty gives the default; anything not clearly yes or no
    stops the start, so that a typo such as DEBUG=flase does not silently mean False."""
    value = os.environ.get(name, "").strip().lower()
    if not value:
        return default
    if value in {"1", "true", "yes", "on"}:
        return True
    if value in {"0", "false", "no", "off"}:
        return False
    raise ImproperlyConfigured(
        f"{name}={os.environ[name]!r} is neither yes nor no: use 1/0, true/false, yes/no or on/off."
    )


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


# Hall mode (`python manage.py hall`, which sets KREUZDAME_HALL; see manage.py): the director's
# laptop serves the phones on the hall's network over plain http — production settings
# otherwise, but no domain, no certificate, a key kept in a local file.
HALL_MODE = env_bool("KREUZDAME_HALL", False)

DEBUG = False if HALL_MODE else env_bool("DEBUG", True)
# The debug page hides more than Django's default: passwords inside URLs (DATABASE_URL in the
# environment), and the password of a login form even with DEBUG on.
DEFAULT_EXCEPTION_REPORTER_FILTER = "tournament.web.error_reports.ReporterFilter"

# Where hall mode keeps the secret key it generates on first start (git-ignored).
SECRET_KEY_FILE = Path(os.environ.get("SECRET_KEY_FILE") or BASE_DIR / ".secret_key")
_DEV_SECRET_KEY = "dev-only-insecure-key-never-use-in-production"  # noqa: S105
SECRET_KEY = os.environ.get("SECRET_KEY") or (
    hall.secret_key(SECRET_KEY_FILE) if HALL_MODE else _DEV_SECRET_KEY
)
if not DEBUG and SECRET_KEY == _DEV_SECRET_KEY:
    raise ImproperlyConfigured("SECRET_KEY must be set in the environment when DEBUG is off.")

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "127.0.0.1,localhost" if DEBUG else "")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

# The address the phones use, e.g. http://192.168.178.20:8000/ : every QR code and printed or
# shown link is built from it (tournament/base/site_url.py). Unset: the request's own host.
SITE_URL = os.environ.get("SITE_URL", "").strip()

if HALL_MODE:
    HALL_ADDRESSES = hall.lan_addresses()
    try:
        HALL_PORT = hall.port_from(os.environ.get("PORT"))
        # HALL_ADDRESS picks the address when the laptop has several (Wi-Fi and a cable).
        HALL_ADDRESS = hall.choose_address(HALL_ADDRESSES, os.environ.get("HALL_ADDRESS", ""))
    except ValueError as exc:
        raise ImproperlyConfigured(str(exc)) from None
    ALLOWED_HOSTS = [
        *hall.allowed_hosts(HALL_ADDRESSES, hall.host_names(), HALL_ADDRESS),
        *ALLOWED_HOSTS,
    ]
    SITE_URL = SITE_URL or hall.site_url(HALL_ADDRESS, HALL_PORT)

if SITE_URL and not SITE_URL.startswith(("http://", "https://")):
    raise ImproperlyConfigured(
        "SITE_URL must start with http:// or https://, e.g. http://192.168.1.20:8000/"
    )

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_filters",
    "django_htmx",
    "django_tables2",
    "simple_history",
    "django_tasks",
    "django_tasks_db",
    "tournament",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # Anonymous page requests share a few places; keepers and logged-in users always pass.
    "tournament.web.gate.Gate",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
]
if DEBUG:
    # The debug page shows every setting and the environment: with DEBUG on, the site answers
    # this computer only, however it was started (tournament/web/debug_guard.py).
    MIDDLEWARE.insert(0, "tournament.web.debug_guard.LocalDebugMiddleware")

ROOT_URLCONF = "tournament.urls"
WSGI_APPLICATION = "tournament.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "tournament.permissions.roles",
            ],
        },
    },
]

# SQLite by default, tuned for many list keepers saving at once: WAL lets readers run beside
# the writer, IMMEDIATE takes the write lock at BEGIN (no deadlock-prone lock upgrades), the
# busy timeout makes writers queue instead of failing, synchronous=FULL survives power loss.
SQLITE_OPTIONS = {
    # SQLITE_TRANSACTION_MODE=DEFERRED only for `make stress`, to show what it breaks.
    "transaction_mode": os.environ.get("SQLITE_TRANSACTION_MODE", "IMMEDIATE"),
    "timeout": 20,
    "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL;",
}

if os.environ.get("DATABASE_URL"):
    DATABASES = {
        "default": dj_database_url.parse(
            os.environ["DATABASE_URL"], conn_max_age=60, conn_health_checks=True
        )
    }
    if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
        DATABASES["default"]["OPTIONS"] = dict(SQLITE_OPTIONS)
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": str(BASE_DIR / "db.sqlite3"),
            "OPTIONS": dict(SQLITE_OPTIONS),
            # A file, not memory, so the tests run with the same journal and locking as the site.
            "TEST": {"NAME": str(BASE_DIR / "test_db.sqlite3")},
        }
    }

# History reasons carry the actor and a free-text reason: no 100-character limit.
SIMPLE_HISTORY_HISTORY_CHANGE_REASON_USE_TEXT_FIELD = True

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "manage:tournament-list"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "de"
LANGUAGES = [("de", _("German")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "tournament" / "locale"]
# English dates as "23 Nov 2026, 15:19" (German: Django's own "23.11.2026 15:19").
FORMAT_MODULE_PATH = ["tournament.formats"]
USE_I18N = True
TIME_ZONE = "Europe/Berlin"
USE_TZ = True

STATIC_URL = "static/"
# Where `collectstatic` puts the files WhiteNoise serves (a server: e.g. /var/lib/kreuzdame/static).
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT") or BASE_DIR / "staticfiles")
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "tournament.web.static_storage.ModuleManifestStorage"
    },
}

# Uploads (player lists) are read in memory and never stored; keep them small.
IMPORT_MAX_BYTES = 2 * 1024 * 1024
DATA_UPLOAD_MAX_MEMORY_SIZE = IMPORT_MAX_BYTES + 512 * 1024
FILE_UPLOAD_MAX_MEMORY_SIZE = IMPORT_MAX_BYTES + 512 * 1024

DJANGO_TABLES2_TEMPLATE = "tournament/partials/table.html"  # semantic.html, headers capitalised
# Every form label starts with a capital letter (tournament/wording/form_labels.py).
FORM_RENDERER = "tournament.wording.form_labels.FormRenderer"

# Public pages are computed once per version of their data (tournament/base/caching.py). While
# keepers save games every second, the public standings and the projector are computed again
# at most this often (seconds): an older page is served for that long. 0: always current.
STANDINGS_CACHE_SECONDS = int(os.environ.get("STANDINGS_CACHE_SECONDS", 2))
# The public series pages likewise (a series counts closed rounds only).
SERIES_CACHE_SECONDS = int(os.environ.get("SERIES_CACHE_SECONDS", 60))
# The bound of that memory in the server process: this many pages (object x language) and
# this many bytes of rendered text; the least recently used go first.
# The gate for anonymous requests (tournament/web/gate.py): this many run at once, this many more
# wait up to PUBLIC_HOLD seconds for a place, the rest get "busy" (429) at once.
PUBLIC_CONCURRENCY = int(os.environ.get("PUBLIC_CONCURRENCY", 2))
PUBLIC_QUEUE = int(os.environ.get("PUBLIC_QUEUE", 16))
PUBLIC_HOLD = float(os.environ.get("PUBLIC_HOLD", 2))
# An admitted anonymous request waits up to this long (seconds) while keepers' saves run; a
# turned-away one is answered after this pause (at most 8 at a time).
KEEPER_FIRST = float(os.environ.get("KEEPER_FIRST", 0.1))
PUBLIC_REFUSE_DELAY = float(os.environ.get("PUBLIC_REFUSE_DELAY", 0.25))
# Families of computed values. More is not better: every kept value is walked by Python's
# garbage collector, and with 4,096 the hostile load test's saves went from p95 189 to 572 ms.
CACHE_MAX_ENTRIES = int(os.environ.get("CACHE_MAX_ENTRIES", 512))
CACHE_MAX_BYTES = int(os.environ.get("CACHE_MAX_BYTES", 64 * 1024 * 1024))

# The results service runs several server processes (docs/service.md). They share one cache,
# so that a page is computed once per state for all of them (tournament/base/caching.py) and
# what else the site keeps in the cache (the players page's rows) holds across them:
# CACHE_BACKEND=database is Django's database cache (its table made by `manage.py
# createcachetable`), REDIS_URL (or CACHE_BACKEND=redis with it) Redis, which needs
# `pip install redis`. Unset: each process keeps its own, as the hall's one process does;
# hall mode never shares.
CACHE_BACKEND = os.environ.get("CACHE_BACKEND", "").strip().lower()
REDIS_URL = os.environ.get("REDIS_URL", "").strip()
if CACHE_BACKEND not in {"", "local", "database", "redis"}:
    raise ImproperlyConfigured(
        f"CACHE_BACKEND={CACHE_BACKEND!r} is unknown: use database, redis or local."
    )
if CACHE_BACKEND == "redis" and not REDIS_URL:
    raise ImproperlyConfigured("CACHE_BACKEND=redis needs REDIS_URL, e.g. redis://127.0.0.1:6379/1")
if HALL_MODE:
    CACHE_BACKEND = "local"
elif not CACHE_BACKEND:
    CACHE_BACKEND = "redis" if REDIS_URL else "local"
SHARED_CACHE = CACHE_BACKEND != "local"
# A process computing a page holds the others off for at most this long (seconds).
SHARED_CACHE_LOCK_SECONDS = int(os.environ.get("SHARED_CACHE_LOCK_SECONDS", 60))
if CACHE_BACKEND == "database":
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.db.DatabaseCache",
            "LOCATION": "kreuzdame_cache",
            # Pages of 50 tournaments in two languages and their tables' sheets fit easily.
            "OPTIONS": {"MAX_ENTRIES": int(os.environ.get("SHARED_CACHE_MAX_ENTRIES", 20000))},
        }
    }
elif CACHE_BACKEND == "redis":
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
        }
    }

# E-mail (online registration): printed to the console unless EMAIL_HOST names an SMTP server,
# so that `make run` needs no mail server. EMAIL_PORT, EMAIL_HOST_USER, EMAIL_HOST_PASSWORD,
# EMAIL_USE_TLS / EMAIL_USE_SSL as Django's settings of the same names.
EMAIL_HOST = os.environ.get("EMAIL_HOST", "").strip()
if EMAIL_HOST:
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_PORT = int(os.environ.get("EMAIL_PORT", 587))
    EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
    EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
    EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", not env_bool("EMAIL_USE_SSL", False))
    EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL", False)
    EMAIL_TIMEOUT = 20
else:
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Kreuzdame <turnier@localhost>")

# The public registration form: at most this many registrations per address (IPv4 address,
# IPv6 /64) and window (seconds). A club hall shares one address, so not too few.
REGISTRATION_PER_ADDRESS = int(os.environ.get("REGISTRATION_PER_ADDRESS", 10))
REGISTRATION_WINDOW = int(os.environ.get("REGISTRATION_WINDOW", 600))
# Unknown personal links per address and window before the address is made to wait.
REGISTRATION_LINK_FAILURES = int(os.environ.get("REGISTRATION_LINK_FAILURES", 20))
# Against floods that change address (a hall's Wi-Fi, an IPv6 network): registrations per
# tournament and minute / hour, and per e-mail address and hour (site-wide); open
# registrations with one e-mail address per tournament (a couple may share one).
REGISTRATIONS_PER_MINUTE = int(os.environ.get("REGISTRATIONS_PER_MINUTE", 20))
REGISTRATIONS_PER_HOUR = int(os.environ.get("REGISTRATIONS_PER_HOUR", 200))
REGISTRATIONS_PER_EMAIL_HOUR = int(os.environ.get("REGISTRATIONS_PER_EMAIL_HOUR", 5))
REGISTRATIONS_PER_EMAIL = int(os.environ.get("REGISTRATIONS_PER_EMAIL", 2))
# Messages to one e-mail address per hour, whatever asks for them (tournament/tasks/mail.py).
MAILS_PER_ADDRESS = int(os.environ.get("MAILS_PER_ADDRESS", 10))

# `manage.py backup` writes here; closing a round writes a backup too.
BACKUP_DIR = Path(os.environ.get("BACKUP_DIR") or BASE_DIR / "backups")
BACKUP_ON_ROUND_CLOSE = env_bool("BACKUP_ON_ROUND_CLOSE", True)

# Heavy documents (print pack, PDFs, Excel files) are made by a worker process from a queue in
# the database (django-tasks with its database backend: no other service, SQLite and
# PostgreSQL alike); `make run` and `manage.py hall` start it. TASKS_IMMEDIATE=1 makes them in
# the request instead (tests, benches).
TASKS_IMMEDIATE = env_bool("TASKS_IMMEDIATE", False)
TASKS = {
    "default": {
        "BACKEND": "django_tasks.backends.immediate.ImmediateBackend"
        if TASKS_IMMEDIATE
        else "django_tasks_db.DatabaseBackend",
        "QUEUES": ["documents", "mail"],
    }
}
# Where the documents are kept: private (served by the site after its access check, never
# as static files).
DOCUMENTS_DIR = Path(os.environ.get("DOCUMENTS_DIR") or BASE_DIR / "documents")
# Downloads of documents per address (IPv4 address, IPv6 /64) and window (seconds) for
# visitors who are not logged in.
DOWNLOADS_PER_ADDRESS = int(os.environ.get("DOWNLOADS_PER_ADDRESS", 20))
DOWNLOAD_WINDOW = int(os.environ.get("DOWNLOAD_WINDOW", 60))
# Start the print pack of a round as soon as it is drawn, so that it is ready when asked for.
PRINT_PACK_ON_DRAW = env_bool("PRINT_PACK_ON_DRAW", True)
# The worker's niceness (os.nice): renders yield the CPU to the web server's saves.
WORKER_NICE = int(os.environ.get("WORKER_NICE", 10))
# Publishing to the results service (tournament/publishing; README "Ergebnisse im Internet
# veröffentlichen"): set both to override what a director entered on the page "Results
# service". The key is a secret (kd1.<id>.<secret>).
RESULTS_SERVICE_URL = os.environ.get("RESULTS_SERVICE_URL", "").strip()
RESULTS_SERVICE_KEY = os.environ.get("RESULTS_SERVICE_KEY", "").strip()
# The publisher builds a tournament's public state at most once per this many seconds.
PUBLISH_MIN_INTERVAL = float(os.environ.get("PUBLISH_MIN_INTERVAL", 5))
# Seconds a request to the results service may take before it counts as no connection.
PUBLISH_TIMEOUT = float(os.environ.get("PUBLISH_TIMEOUT", 20))
# The longest pause between two failed attempts (seconds; they double from 2 up to it).
PUBLISH_LONGEST_PAUSE = float(os.environ.get("PUBLISH_LONGEST_PAUSE", 5 * 60))

SESSION_COOKIE_HTTPONLY = True
CSRF_COOKIE_HTTPONLY = False  # htmx reads the token from the page, not the cookie
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"

# Behind a reverse proxy that terminates TLS: trust its X-Forwarded-Proto, and take the client's
# address (login limits) from X-Forwarded-For, the entry the outermost of TRUSTED_PROXIES proxies
# appended. Never in the hall, where the phones reach the laptop directly and could forge both.
BEHIND_TLS_PROXY = env_bool("BEHIND_TLS_PROXY", False) and not HALL_MODE
_proxies = os.environ.get("TRUSTED_PROXIES", "").strip() or "1"
if not (_proxies.isascii() and _proxies.isdigit()) or int(_proxies) < 1:
    raise ImproperlyConfigured("TRUSTED_PROXIES must be the number of proxies: 1 or more.")
TRUSTED_PROXIES = int(_proxies)

# On the internet: HTTPS only. In the hall (a private network without a certificate) plain
# http must work, or no phone could keep a session or a CSRF cookie.
if HALL_MODE:
    # Browsers ignore this header on plain http and complain about it on every page.
    SECURE_CROSS_ORIGIN_OPENER_POLICY = None
if not DEBUG and not HALL_MODE:
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", 31536000))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
    SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    if BEHIND_TLS_PROXY:
        SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {
        "without_traceback": {"()": "tournament.web.log.WithoutTraceback"},
        "without_personal_links": {"()": "tournament.web.log.WithoutPersonalLinks"},
    },
    "formatters": {
        "django.server": {
            "()": "django.utils.log.ServerFormatter",
            "format": "[{server_time}] {message}",
            "style": "{",
        }
    },
    "handlers": {
        "console": {"class": "logging.StreamHandler", "filters": ["without_personal_links"]},
        "one_line": {
            "class": "logging.StreamHandler",
            "filters": ["without_traceback", "without_personal_links"],
        },
        # Django's own request line of the development server, with the links masked.
        "django.server": {
            "class": "logging.StreamHandler",
            "formatter": "django.server",
            "filters": ["without_personal_links"],
        },
    },
    "loggers": {
        # Django's messages once (its default handler would print them again, unmasked).
        "django": {
            "handlers": ["console"],
            "level": "INFO" if DEBUG else os.environ.get("LOG_LEVEL", "WARNING"),
            "propagate": False,
        },
        "django.server": {"handlers": ["django.server"], "level": "INFO", "propagate": False},
        # A wrong host name is the visitor's mistake, not a bug: one line, no traceback.
        "django.security.DisallowedHost": {"handlers": ["one_line"], "propagate": False},
    },
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
}

# The results service (tournament/service): the largest publication it reads (bytes; a
# tournament's public archive is far smaller), how many it restores at once per server process,
# and how long (seconds) one waits for a place before it is told to try again (429).
SERVICE_MAX_ARCHIVE_BYTES = int(os.environ.get("SERVICE_MAX_ARCHIVE_BYTES", 16 * 1024 * 1024))
SERVICE_PUBLISH_CONCURRENCY = int(os.environ.get("SERVICE_PUBLISH_CONCURRENCY", 2))
SERVICE_PUBLISH_HOLD = float(os.environ.get("SERVICE_PUBLISH_HOLD", 10))
