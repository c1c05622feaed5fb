"""Times as a venue reads them: its zone, its local date, an instant written for people,
and the start of the local hour a report buckets an instant in.

The database stores instants (UTC); every screen, summary and report shows them in the
venue's time zone (``Venue.timezone``, an IANA name) and says which zone that is.
"""

from __future__ import annotations

import zoneinfo
from datetime import UTC, date, datetime, timedelta, tzinfo
from functools import lru_cache
from typing import Any

from django.db import connection
from django.db.models import DateTimeField, Func
from django.utils import timezone


@lru_cache(maxsize=256)
def zone(name: str) -> zoneinfo.ZoneInfo:
    """The time zone of an IANA name (``Asia/Kolkata``); UTC for an empty name."""
    return zoneinfo.ZoneInfo(name or "UTC")


def venue_zone(venue: Any) -> zoneinfo.ZoneInfo:
    """The venue's time zone (UTC for no venue: a preset, a system record)."""
    return zone(getattr(venue, "timezone", "") or "UTC")


def zone_name(tz: tzinfo) -> str:
    """The name people read for a zone: its IANA key (``Asia/Seoul``)."""
    return getattr(tz, "key", None) or str(tz)


def venue_today(venue: Any) -> date:
    """The date on the venue's clocks now (not the server's, not UTC's)."""
    return timezone.localdate(timezone=venue_zone(venue))


def local_time(value: datetime | None, tz: tzinfo, *, labelled: bool = True) -> str:
    """An instant as the zone's clocks show it, to the minute, with the zone's name:
    ``2026-12-02 13:05 (Asia/Seoul)``; empty for no time."""
    if value is None:
        return ""
    if timezone.is_naive(value):
        value = value.replace(tzinfo=UTC)
    shown = f"{value.astimezone(tz):%Y-%m-%d %H:%M}"
    return f"{shown} ({zone_name(tz)})" if labelled else shown


def venue_time(value: datetime | None, venue: Any, *, labelled: bool = True) -> str:
    """An instant in the venue's time zone, as :func:`local_time` writes it."""
    return local_time(value, venue_zone(venue), labelled=labelled)


def local_hour(value: datetime, tz: tzinfo) -> datetime:
    """The start of the local hour ``value`` falls in, as an aware instant (UTC).

    The minutes and seconds the zone's clock shows are taken off the instant itself, so
    a zone half an hour off UTC (Asia/Kolkata) has hours starting at :30 UTC, and the
    hour repeated when the clocks go back stays two hours (no local time is read back).
    """
    if timezone.is_naive(value):
        value = value.replace(tzinfo=UTC)
    local = value.astimezone(tz)
    into = timedelta(minutes=local.minute, seconds=local.second, microseconds=local.microsecond)
    return (value - into).astimezone(UTC)


class LocalHour(Func):
    """The database's :func:`local_hour`: ``LocalHour(instant, zone_name)``, the zone an
    expression (a venue's ``timezone`` column, or a ``Value``) so one statement buckets
    rounds of venues in different zones, each in its own.

    PostgreSQL: the instant less the minutes into the hour its zone's clock shows. SQLite
    (development only) calls the same Python function, registered on each connection.
    """

    output_field = DateTimeField()
    arity = 2

    def as_sql(self, compiler: Any, connection: Any, **extra: Any) -> tuple[str, list[Any]]:
        instant, tz = (compiler.compile(expression) for expression in self.get_source_expressions())
        local = f"({instant[0]} AT TIME ZONE {tz[0]})"
        sql = f"({instant[0]} - ({local} - DATE_TRUNC('hour', {local})))"
        # Parameters in the order their placeholders appear in ``sql``.
        return sql, [*instant[1], *instant[1], *tz[1], *instant[1], *tz[1]]

    def as_sqlite(self, compiler: Any, connection: Any, **extra: Any) -> tuple[str, list[Any]]:
        instant, tz = (compiler.compile(expression) for expression in self.get_source_expressions())
        return f"casino_local_hour({instant[0]}, {tz[0]})", [*instant[1], *tz[1]]


def database_knows_zone(name: str) -> bool:
    """Whether the database can read instants in the zone ``name`` (PostgreSQL has its own
    copy of the time zone data, which may be older than Python's)."""
    if connection.vendor != "postgresql":
        return True  # SQLite calls Python's zoneinfo
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1 FROM pg_timezone_names WHERE name = %s", [name])
        return cursor.fetchone() is not None


def sqlite_local_hour(value: str | None, name: str | None) -> str | None:
    """:func:`local_hour` for SQLite, which keeps instants as UTC text."""
    if value is None:
        return None
    instant = datetime.fromisoformat(value).replace(tzinfo=UTC)
    return local_hour(instant, zone(name or "UTC")).replace(tzinfo=None).isoformat(" ")


def register_sqlite(sender: Any, connection: Any, **kwargs: Any) -> None:
    """Give a new SQLite connection ``casino_local_hour`` (``connection_created``)."""
    if connection.vendor == "sqlite":
        connection.connection.create_function(
            "casino_local_hour", 2, sqlite_local_hour, deterministic=True
        )
