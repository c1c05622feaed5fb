"""Settings, read from the environment.

Unset ``DATABASE_URL`` means SQLite beside the code; unset ``CELERY_BROKER_URL`` means Celery
runs tasks eagerly in-process. Both are the quick start; production sets them.
"""

import os
from datetime import timedelta
from pathlib import Path

from casino.kernel.database_urls import database_from_url

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool = False) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DEBUG = env_bool("DEBUG", default=False)
SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG and not env_bool("ALLOW_INSECURE_SECRET_KEY"):
        from django.core.exceptions import ImproperlyConfigured

        raise ImproperlyConfigured(
            "SECRET_KEY is not set. Set it in the environment, or set DEBUG=1 for local work."
        )
    SECRET_KEY = "insecure-local-development-key-do-not-use-in-production"

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]" if DEBUG else "")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "rest_framework",
    "knox",
    "drf_spectacular",
    "drf_spectacular_sidecar",  # Swagger UI's files, served from STATIC_ROOT, not a CDN
    "django_htmx",
    "template_partials",
    "django_celery_beat",
    "csp",
    # The second factor: TOTP devices and recovery codes (casino/staff/second_factor.py).
    "django_otp",
    "django_otp.plugins.otp_totp",
    "django_otp.plugins.otp_static",
    "casino",
    "casino.audit",
    "casino.venues",
    "casino.rulesets",
    "casino.floor",
    "casino.staff",
    "casino.players",
    "casino.cage",
    "casino.reports",
    "casino.ledger",
    "casino.count",
    "casino.integrity",
    "casino.ops",
    "casino.group",
    "casino.compliance",
    "niuniu",
    "maubinh",
    "baccarat",
    "tablegames",
]

MIDDLEWARE = [
    # First: every line of a request carries its id, and every request has an access line.
    "casino.kernel.logs.RequestLogMiddleware",
    "django.middleware.security.SecurityMiddleware",
    # Every request counted and timed for /metrics (casino/ops/middleware.py), the 503s of a
    # lost database included; not the redirects to HTTPS.
    "casino.ops.middleware.RequestMetricsMiddleware",
    # Content-Security-Policy on every answer (CONTENT_SECURITY_POLICY below): django-csp's,
    # the settings' header built once a process (casino/kernel/csp.py).
    "casino.kernel.csp.CSPMiddleware",
    # A lost database answers 503 + Retry-After (retry), not a 500 page (a bug); outside
    # the session middleware so a failure reading the session is answered too.
    "casino.api.unavailable.DatabaseUnavailableMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # The second factor: which device verified the session, then the gate for those whose
    # roles need one (casino/staff/middleware.py).
    "django_otp.middleware.OTPMiddleware",
    "casino.staff.middleware.SecondFactorMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # A locked console refuses its login's every request; a PIN's login is the console's only.
    "casino.floor.console.terminal.TerminalMiddleware",
]

ROOT_URLCONF = "casino.urls"
WSGI_APPLICATION = "casino.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# A URL may name several PostgreSQL hosts, a primary and its standby, with
# target_session_attrs=read-write: after a failover the app reconnects to whichever takes
# writes (casino/kernel/database_urls.py, docs/OPERATIONS.md "Failover").
DATABASES = {
    "default": database_from_url(
        os.environ.get("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
        conn_max_age=int(os.environ.get("CONN_MAX_AGE", "60")),
        # A persistent connection that died while idle (a database restart) is replaced
        # before a request uses it, so no request fails once the database is back.
        conn_health_checks=env_bool("CONN_HEALTH_CHECKS", default=True),
    )
}
# PgBouncer in transaction mode (docs/OPERATIONS.md "PgBouncer"): a connection's statements
# may each reach another server connection, so nothing may live on one between
# transactions: no statement prepared by name (Debian's PgBouncer 1.18 does not carry them;
# 1.21 does with max_prepared_statements, then set DB_PREPARED_STATEMENTS=1 too) and no
# cursor held open across commits (Django's .iterator() outside a transaction).
DB_BEHIND_PGBOUNCER = env_bool("DB_BEHIND_PGBOUNCER")
DATABASES["default"]["DISABLE_SERVER_SIDE_CURSORS"] = DB_BEHIND_PGBOUNCER
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql" and env_bool(
    "DB_PREPARED_STATEMENTS", default=not DB_BEHIND_PGBOUNCER
):
    # Parameters bound by the server, and a statement run five times on a connection
    # prepared: PostgreSQL then skips parsing and planning it, which is most of its work
    # for a round (docs/BENCHMARKS.md). Off behind PgBouncer unless it carries them (above).
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        server_side_binding=True, prepare_threshold=5
    )
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # SQLite (``make run``) has no row locks: two transactions that read, then write (two
    # Confirms of one round) fail with "database is locked" instead of waiting. IMMEDIATE
    # takes the write lock at BEGIN, so the second waits and then finds the round settled.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {"transaction_mode": "IMMEDIATE", "timeout": 20}
    )
# A streaming replica for report reads (casino/kernel/replicas.py, docs/OPERATIONS.md): reports and
# the dashboard read from it, every write goes to the primary. In tests the alias mirrors
# the primary (Django's test mirror), so the routing is exercised on one database.
if os.environ.get("REPLICA_DATABASE_URL"):
    DATABASES["replica"] = database_from_url(
        os.environ["REPLICA_DATABASE_URL"],
        conn_max_age=int(os.environ.get("CONN_MAX_AGE", "60")),
        conn_health_checks=env_bool("CONN_HEALTH_CHECKS", default=True),
    )
    DATABASES["replica"]["TEST"] = {"MIRROR": "default"}
    DATABASES["replica"]["DISABLE_SERVER_SIDE_CURSORS"] = DB_BEHIND_PGBOUNCER
    if DATABASES["replica"]["ENGINE"] == "django.db.backends.postgresql":
        # A replica that is down costs a request this long before it reads from the primary.
        DATABASES["replica"].setdefault("OPTIONS", {}).setdefault(
            "connect_timeout", int(os.environ.get("REPLICA_CONNECT_TIMEOUT", "3"))
        )
# Django's backend, but a kept connection is checked by asking its socket whether the
# server closed it, not by a SELECT 1 on every request (casino/kernel/postgresql/base.py).
for _database in DATABASES.values():
    if _database["ENGINE"] == "django.db.backends.postgresql":
        _database["ENGINE"] = "casino.kernel.postgresql"
DATABASE_ROUTERS = ["casino.kernel.replicas.ReplicaRouter"]
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("vi", "Tiếng Việt"), ("ko", "한국어"), ("pt", "Português")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG or env_bool("TESTING")
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}
MEDIA_ROOT = BASE_DIR / "media"
MEDIA_URL = "media/"

LOGIN_URL = "/accounts/login/"
# The name authenticator apps show beside the second factor's codes.
OTP_TOTP_ISSUER = os.environ.get("OTP_TOTP_ISSUER", "Casino back office")
# Wrong codes are counted by the login lockout with wrong passwords (one count, one rule:
# casino/staff/throttling.py), not by a second throttle of django-otp's per device.
OTP_TOTP_THROTTLE_FACTOR = 0
OTP_STATIC_THROTTLE_FACTOR = 0
LOGIN_REDIRECT_URL = "/console/"
# A login lasts its venue's Venue.session_hours (casino/signals.py); this is the length of
# a session that no login set. The console locks after CONSOLE_IDLE_MINUTES idle, in the
# page and on the server (casino/floor/console/terminal.py).
SESSION_COOKIE_AGE = 12 * 3600
CONSOLE_IDLE_MINUTES = float(os.environ.get("CONSOLE_IDLE_MINUTES", "5"))
# A fluctuation investigation is due this many days after the report that flagged it opens
# it (casino/integrity/investigations.py); past it, the dashboard lists it as overdue.
INVESTIGATION_DAYS = int(os.environ.get("INVESTIGATION_DAYS", "7"))
# The group's secret for a member's group key (casino.players.names.group_key): the same at
# every site of a group, so that one identity document gives one key at all of them; empty:
# no group keys (docs/OPERATIONS.md "A group of sites").
GROUP_PSEUDONYM_KEY = os.environ.get("GROUP_PSEUDONYM_KEY", "")
# The floor view (casino/floor/console/floor.py) flags an open table with no round for
# FLOOR_IDLE_MINUTES and a fill or credit waiting for the cage for FLOOR_SLIP_WAIT_MINUTES.
FLOOR_IDLE_MINUTES = float(os.environ.get("FLOOR_IDLE_MINUTES", "10"))
FLOOR_SLIP_WAIT_MINUTES = float(os.environ.get("FLOOR_SLIP_WAIT_MINUTES", "15"))
# A change of a table's limits takes effect no sooner than this many minutes after it is
# scheduled (casino/floor/services/limits.py), so players at the table can be told.
LIMIT_NOTICE_MINUTES = int(os.environ.get("LIMIT_NOTICE_MINUTES", "30"))

REST_FRAMEWORK = {
    # Token first: a request with neither answers 401 with "WWW-Authenticate: Token".
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "casino.api.authentication.ApiTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    # casino/api/throttles.py: counted atomically in the shared cache (CACHE_URL). Writes
    # (POST, PATCH, PUT, DELETE) per user: a dealer at full speed deals and settles a
    # round every few seconds, 2 writes, well inside 120 a minute. Logins per address.
    "DEFAULT_THROTTLE_CLASSES": ["casino.api.throttles.WriteRateThrottle"],
    "DEFAULT_THROTTLE_RATES": {
        "write": os.environ.get("API_WRITE_RATE", "120/minute"),
        "login": os.environ.get("API_LOGIN_RATE", "30/minute"),
    },
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "COERCE_DECIMAL_TO_STRING": True,
    # Every error as {"error": code, "detail": message, "field": name}.
    "EXCEPTION_HANDLER": "casino.api.errors.exception_handler",
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Casino back office API",
    "DESCRIPTION": "Tables, sessions, rounds, settlement and the ledger of the installed card "
    "games.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # Swagger UI from the app's own static files (drf-spectacular-sidecar), not a CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
}

# API tokens (django-rest-knox, casino/api/auth.py): one per device, only a SHA-512 hash
# of the key stored, expiring API_TOKEN_HOURS after the login (a shift and then some).
KNOX_TOKEN_MODEL = "staff.ApiToken"
# knox's own token model is swapped out; its migrations would still create its table (its
# first one predates swapping), an unused table that blocks flushing auth_user.
MIGRATION_MODULES = {"knox": None}
REST_KNOX = {
    "TOKEN_TTL": timedelta(hours=float(os.environ.get("API_TOKEN_HOURS", "12"))),
    "AUTH_HEADER_PREFIX": "Token",
}

CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL", "")
CELERY_RESULT_BACKEND = os.environ.get("CELERY_RESULT_BACKEND") or None
CELERY_TASK_ALWAYS_EAGER = not CELERY_BROKER_URL
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TIMEZONE = TIME_ZONE
CELERY_BEAT_SCHEDULER = "django_celery_beat.schedulers:DatabaseScheduler"
# An unacknowledged message (its worker died mid-task) is delivered again after this many
# seconds; longer than the longest task and any retry countdown (the report build: 300 s).
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": int(os.environ.get("CELERY_VISIBILITY_TIMEOUT", "3600"))
}

EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
EMAIL_FILE_PATH = os.environ.get("EMAIL_FILE_PATH", str(BASE_DIR / "var" / "mail"))

# Production (DEBUG off, not the test suite) is HTTPS-only by default; each setting can be
# turned off from the environment, e.g. behind a proxy that already redirects.
PRODUCTION = not DEBUG and not env_bool("TESTING")
SESSION_COOKIE_SECURE = env_bool("SECURE_COOKIES", default=PRODUCTION)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", default=PRODUCTION)
SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "31536000" if PRODUCTION else "0"))
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=PRODUCTION)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", default=PRODUCTION)
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"
SECURE_REFERRER_POLICY = "same-origin"

# Health, readiness, metrics and the Content-Security-Policy (casino/ops/, docs/OPERATIONS.md
# "Health, readiness and metrics"). The probes answer over plain HTTP on the app's own port.
SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^readyz$", r"^metrics$"]
# /readyz fails past these: the report replica's lag, and the age of the Celery worker's and
# beat's heartbeats (casino/ops/heartbeats.py).
REPLICA_LAG_LIMIT_SECONDS = float(os.environ.get("REPLICA_LAG_LIMIT_SECONDS", "30"))
HEARTBEAT_STALE_SECONDS = float(os.environ.get("HEARTBEAT_STALE_SECONDS", "120"))
# Who may read /metrics (addresses or networks, as the lockout reads a client's address);
# every other address gets a 404.
METRICS_ALLOWED_ADDRESSES = env_list("METRICS_ALLOWED_ADDRESSES", "127.0.0.1,::1")
# No inline script or style element anywhere (the admin, Swagger UI and the console included):
# scripts and styles are static files. A style attribute is allowed: the round screens size
# their grids by one (style="--bets: 3"), and it runs nothing.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "style-src-attr": ["'unsafe-inline'"],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
}

# Logs (casino/kernel/logs.py): one JSON object a line on stderr (LOG_FORMAT=json, the default),
# each with its request's (or task's) id, user and venue; LOG_FORMAT=text for a terminal.
LOG_FORMAT = os.environ.get("LOG_FORMAT", "json")
if LOG_FORMAT not in ("json", "text"):
    from django.core.exceptions import ImproperlyConfigured

    raise ImproperlyConfigured(f"LOG_FORMAT is {LOG_FORMAT!r}: set it to json or text")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"context": {"()": "casino.kernel.logs.ContextFilter"}},
    "formatters": {
        "json": {"()": "casino.kernel.logs.JsonFormatter"},
        "text": {"()": "casino.kernel.logs.TextFormatter"},
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "formatter": LOG_FORMAT,
            "filters": ["context"],
        }
    },
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "loggers": {
        # Failed logins and lockouts (casino/staff/throttling.py), 403 answers and requests for
        # another venue's rows, one line each, whatever LOG_LEVEL.
        "casino.security": {"level": "INFO"},
        # Django's lines once, in the same format (not also through its own handler).
        "django": {"handlers": ["console"], "level": "INFO", "propagate": False},
        # Its "Not Found"/"Forbidden" warnings: the access line says as much.
        "django.request": {"level": "ERROR"},
    },
}
# Celery's workers log through the same handler (JSON) rather than their own format.
CELERY_WORKER_HIJACK_ROOT_LOGGER = False

if env_bool("TESTING"):
    # Tests create many users; a fast hasher keeps the suite quick. Never in production.
    PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

# Login lockout (casino/staff/throttling.py): every attempt is counted before its password is
# checked, atomically in the cache; past LOGIN_FAILURE_LIMIT attempts of one username from
# one address, or LOGIN_ADDRESS_FAILURE_LIMIT from one address whatever the usernames
# (a successful login does not count), the password is not checked for
# LOGIN_LOCKOUT_MINUTES. The counts must be shared by every web process: CACHE_URL (Redis),
# which `check --deploy` requires. LOGIN_CLIENT_IP_HEADER (e.g. HTTP_X_REAL_IP) only behind
# a proxy that sets that header.
AUTHENTICATION_BACKENDS = ["casino.staff.throttling.LockoutBackend"]
LOGIN_FAILURE_LIMIT = int(os.environ.get("LOGIN_FAILURE_LIMIT", "5"))
LOGIN_ADDRESS_FAILURE_LIMIT = int(os.environ.get("LOGIN_ADDRESS_FAILURE_LIMIT", "30"))
LOGIN_LOCKOUT_MINUTES = int(os.environ.get("LOGIN_LOCKOUT_MINUTES", "15"))
LOGIN_CLIENT_IP_HEADER = os.environ.get("LOGIN_CLIENT_IP_HEADER", "")
if os.environ.get("CACHE_URL"):
    CACHES = {
        "default": {
            "BACKEND": "casino.kernel.redis_cache.RedisCache",  # Django's, one client a pool
            "LOCATION": os.environ["CACHE_URL"],
            # Several installations (or test runs) may share one Redis database.
            "KEY_PREFIX": os.environ.get("CACHE_KEY_PREFIX", ""),
        }
    }
    # A login's session is read from the shared cache and written to both (Django's
    # cached_db): every request of a console reads it, few change it. The database keeps
    # it, so a restarted Redis signs nobody out. Only Django's session API touches it.
    SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"
