"""The ledger and the audit trail are append-only in PostgreSQL itself.

Migration 0003 refuses UPDATE and DELETE of ledger entries; 0010 does the same for audit
events and refuses TRUNCATE of both, unless the tables' owner says so for its transaction
(``SET LOCAL casino.allow_truncate = 'on'``), which only ``manage.py flush`` does: the
transactional tests below are emptied by it between tests, so it must still work.
"""

from __future__ import annotations

from decimal import Decimal as D

import pytest
from django.core.management import call_command
from django.db import DatabaseError, connection, transaction

from casino.audit.models import AuditEvent
from casino.audit.services import audit_record
from casino.floor.services.sessions import drop_record, session_open
from casino.ledger.models import LedgerEntry

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(floor):
    session = session_open(
        table=floor.table,
        counted_by=floor.dealer,
        confirmed_by=floor.supervisor,
        opening_chips={"100000": 5},
    )
    drop_record(session=session, user=floor.supervisor, amount=D("1000"))
    return AuditEvent.objects.filter(action="drop.record").get()


def refused(sql: str, params=None) -> str:
    """Run ``sql`` in a savepoint; the database's refusal (the test fails if it ran)."""
    with pytest.raises(DatabaseError) as error, transaction.atomic(), connection.cursor() as c:
        # The test's rows have deferred foreign key checks pending, and PostgreSQL refuses
        # to truncate a table with pending trigger events before the trigger is reached.
        c.execute("SET CONSTRAINTS ALL IMMEDIATE")
        c.execute(sql, params)
    return str(error.value)


def test_an_audit_event_is_never_changed_or_deleted(event):
    assert "append-only" in refused(
        "UPDATE casino_auditevent SET summary = 'nothing happened' WHERE id = %s", [event.pk]
    )
    assert "append-only" in refused("DELETE FROM casino_auditevent WHERE id = %s", [event.pk])
    with pytest.raises(DatabaseError), transaction.atomic():
        AuditEvent.objects.filter(pk=event.pk).delete()
    event.refresh_from_db()
    assert event.summary == "drop 1000"


@pytest.mark.parametrize("table", ["casino_auditevent", "casino_ledgerentry"])
def test_neither_table_is_truncated(event, table):
    assert f"{table} is append-only: it is never truncated" in refused(f"TRUNCATE {table} CASCADE")
    assert AuditEvent.objects.exists() and LedgerEntry.objects.exists()
    # the tables' owner (this connection) saying so for its transaction goes through (rolled
    # back here); a role that owns no table cannot: tests/casino/test_db_roles.py
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        cursor.execute("SET LOCAL casino.allow_truncate = 'on'")
        cursor.execute(f"TRUNCATE {table} CASCADE")
        assert not AuditEvent.objects.exists() or not LedgerEntry.objects.exists()
        transaction.set_rollback(True)
    assert AuditEvent.objects.exists() and LedgerEntry.objects.exists()
    # and the setting went with the rollback
    assert "append-only" in refused(f"TRUNCATE {table} CASCADE")


@pytest.mark.django_db(transaction=True)
def test_flush_empties_the_append_only_tables_and_only_it(floor):
    # given entries and events committed for real (no test transaction around them)
    session = session_open(
        table=floor.table,
        counted_by=floor.dealer,
        confirmed_by=floor.supervisor,
        opening_chips={"100000": 5},
    )
    drop_record(session=session, user=floor.supervisor, amount=D("1000"))
    with connection.cursor() as cursor, pytest.raises(DatabaseError, match="append-only"):
        cursor.execute("TRUNCATE casino_ledgerentry, casino_auditevent CASCADE")
    assert LedgerEntry.objects.count() == 2
    # when the database is flushed (as pytest-django does after each transactional test)
    call_command("flush", verbosity=0, interactive=False)
    # then it is empty, and audit_record still works
    assert not LedgerEntry.objects.exists() and not AuditEvent.objects.exists()
    audit_record(user=None, action="test.after_flush", obj=floor.venue)
    assert AuditEvent.objects.count() == 1
