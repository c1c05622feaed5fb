"""A kept connection's health check (``casino/kernel/postgresql/base.py``): no statement
while the connection sits idle and the server has said nothing; the connection closed as
soon as the server has closed it (its backend terminated, as a restart or a failover does),
and the next statement on a new connection."""

from __future__ import annotations

import time

import pytest
from django.conf import settings
from django.db import connection, connections
from django.db.backends.postgresql import base as django_base

pytestmark = pytest.mark.django_db


@pytest.fixture
def kept():
    """A second connection to the test database, kept with health checks, as a web
    process keeps one between requests."""
    wrapper = connections["default"].copy()
    wrapper.health_check_enabled = True
    wrapper.ensure_connection()
    yield wrapper
    wrapper.close()


@pytest.fixture
def selects_1(monkeypatch):
    """How many times Django's own check (SELECT 1) ran."""
    ran = []
    original = django_base.DatabaseWrapper.is_usable

    def counted(self):
        ran.append(self)
        return original(self)

    monkeypatch.setattr(django_base.DatabaseWrapper, "is_usable", counted)
    return ran


def checked(wrapper) -> None:
    """What Django does at a request's first statement on a kept connection."""
    wrapper.health_check_done = False
    wrapper.close_if_health_check_failed()


def test_every_postgresql_database_is_on_the_backend():
    engines = {entry["ENGINE"] for entry in settings.DATABASES.values()}
    assert engines == {"casino.kernel.postgresql"}
    assert connection.vendor == "postgresql"


def test_an_idle_connection_is_kept_without_a_statement(kept, selects_1):
    pid = kept.connection.info.backend_pid
    checked(kept)
    assert kept.connection is not None and kept.connection.info.backend_pid == pid
    assert selects_1 == []
    with kept.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        assert cursor.fetchone()[0] == pid


def test_a_terminated_backend_is_found_and_the_next_statement_reconnects(kept, selects_1):
    pid = kept.connection.info.backend_pid
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_terminate_backend(%s)", [pid])
        assert cursor.fetchone()[0] is True
    deadline = time.monotonic() + 5
    while kept.is_usable() and time.monotonic() < deadline:
        time.sleep(0.02)  # the server's goodbye is on its way
    checked(kept)
    assert kept.connection is None  # closed by the check, not by a failed request
    assert selects_1  # the socket had the goodbye: Django's check decided
    with kept.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        assert cursor.fetchone()[0] != pid


def test_a_connection_in_a_transaction_is_checked_by_a_statement(kept, selects_1):
    kept.set_autocommit(False)
    with kept.cursor() as cursor:
        cursor.execute("SELECT 1")
    assert kept.is_usable() is True
    assert selects_1 == [kept]
    kept.rollback()
    kept.set_autocommit(True)
