"""DATABASE_URL read into Django's settings: several PostgreSQL hosts (a primary and its
standby) as libpq's comma lists, one host exactly as dj_database_url reads it."""

from __future__ import annotations

import dj_database_url
import pytest

from casino.kernel.database_urls import database_from_url

KEPT = {"conn_max_age": 60, "conn_health_checks": True}


def test_a_primary_and_its_standby_become_comma_lists_of_hosts_and_ports():
    settings = database_from_url(
        "postgres://casino_app:s%40cret@db1:5432,db2:5433/casino"
        "?target_session_attrs=read-write&connect_timeout=2",
        **KEPT,
    )
    assert settings == {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": "casino",
        "USER": "casino_app",
        "PASSWORD": "s@cret",
        "HOST": "db1,db2",
        "PORT": "5432,5433",
        "OPTIONS": {"target_session_attrs": "read-write", "connect_timeout": "2"},
        "CONN_MAX_AGE": 60,
        "CONN_HEALTH_CHECKS": True,
        "DISABLE_SERVER_SIDE_CURSORS": False,
    }


def test_a_host_without_its_port_keeps_its_place_in_the_list():
    settings = database_from_url("postgresql://app@db1,db2:5433/casino", **KEPT)
    assert (settings["HOST"], settings["PORT"]) == ("db1,db2", ",5433")
    assert settings["OPTIONS"] == {}


@pytest.mark.parametrize(
    "url",
    [
        "postgres://casino_app:pw@db:5432/casino?connect_timeout=3&sslmode=require",
        "postgres://postgres@127.0.0.1:5432/casino",
        "sqlite:////srv/casino/db.sqlite3",
    ],
)
def test_one_host_reads_as_dj_database_url_reads_it(url):
    assert database_from_url(url, **KEPT) == dj_database_url.parse(url, **KEPT)


def test_several_hosts_need_a_postgres_url():
    with pytest.raises(ValueError, match="postgres://"):
        database_from_url("mysql://app@db1,db2/casino", **KEPT)


def test_django_connects_with_the_lists():
    """The lists reach psycopg as libpq's host and port (what makes the failover work)."""
    from django.db.backends.postgresql.base import DatabaseWrapper

    entry = database_from_url(
        "postgres://app@db1:5432,db2:5433/casino?target_session_attrs=read-write", **KEPT
    )
    wrapper = DatabaseWrapper({**entry, "TIME_ZONE": None, "AUTOCOMMIT": True}, alias="drill")
    params = wrapper.get_connection_params()
    assert (params["host"], params["port"]) == ("db1,db2", "5432,5433")
    assert params["target_session_attrs"] == "read-write"
