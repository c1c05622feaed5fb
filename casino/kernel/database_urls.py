"""A database URL as Django's settings of one database, several PostgreSQL hosts included.

``dj_database_url`` reads a URL with one host. A primary and its standby are named in one
URL, ``postgres://casino_app@db1:5432,db2:5432/casino?target_session_attrs=read-write``,
so that after a failover the app finds the new primary by itself (docs/OPERATIONS.md
"Failover"): libpq tries the hosts in turn and keeps the first that takes writes. Such a
URL is read by libpq's own parser (``psycopg.conninfo``) into comma lists of hosts and ports,
which libpq accepts as they are; every other URL goes through ``dj_database_url`` as before.

Imported by ``casino/settings.py``: nothing of Django's apps here.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

import dj_database_url

#: The schemes libpq itself reads (a URL of several hosts must be one of them).
LIBPQ_SCHEMES = ("postgres", "postgresql")


def database_from_url(url: str, *, conn_max_age: int, conn_health_checks: bool) -> dict[str, Any]:
    """Django's ``DATABASES`` entry for ``url``: HOST ``"db1,db2"`` and PORT
    ``"5432,5432"`` for several hosts, the query's options (``target_session_attrs``,
    ``connect_timeout``...) in OPTIONS."""
    parts = urlsplit(url)
    if "," not in parts.netloc:
        return dj_database_url.parse(
            url, conn_max_age=conn_max_age, conn_health_checks=conn_health_checks
        )
    if parts.scheme not in LIBPQ_SCHEMES:
        raise ValueError(f"several hosts need a postgres:// URL, not {parts.scheme}://")
    from psycopg.conninfo import conninfo_to_dict

    options = conninfo_to_dict(url)
    return {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": options.pop("dbname", ""),
        "USER": options.pop("user", ""),
        "PASSWORD": options.pop("password", ""),
        "HOST": options.pop("host", ""),
        "PORT": options.pop("port", ""),
        "OPTIONS": options,
        "CONN_MAX_AGE": conn_max_age,
        "CONN_HEALTH_CHECKS": conn_health_checks,
        "DISABLE_SERVER_SIDE_CURSORS": False,
    }
