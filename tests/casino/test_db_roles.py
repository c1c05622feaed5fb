"""The app's database role owns nothing, so it cannot switch the ledger's guards off.

``manage.py db_roles`` creates the role in the test database (a name of this run's own:
roles are the whole server's) and grants it rows; connected as it, ALTER TABLE ... DISABLE
TRIGGER and TRUNCATE are refused, an audit event cannot be deleted, and a balanced entry
is inserted (an unbalanced one is still refused by the trigger). Transactional: the grants
must be committed for the role's own connection to see them.
"""

from __future__ import annotations

import uuid
from decimal import Decimal as D

import psycopg
import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from casino.floor.services.sessions import drop_record, session_open
from casino.ledger.models import Drop, LedgerEntry

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def app_role(monkeypatch):
    """A fresh app role made by ``db_roles``; dropped (with its grants) afterwards."""
    name = f"casino_app_test_{uuid.uuid4().hex[:10]}"
    password = uuid.uuid4().hex
    monkeypatch.setenv("CASINO_APP_DB_PASSWORD", password)
    try:
        call_command("db_roles", app_role=name)
        yield name, password
    finally:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", [name])
            if cursor.fetchone():
                cursor.execute(f'DROP OWNED BY "{name}"')
                cursor.execute(f'DROP ROLE "{name}"')


def connect_as(role: str, password: str) -> psycopg.Connection:
    settings = connection.settings_dict
    return psycopg.connect(
        host=settings["HOST"] or "127.0.0.1",
        port=settings["PORT"] or 5432,
        dbname=settings["NAME"],
        user=role,
        password=password,
        autocommit=True,
    )


def refused(conn: psycopg.Connection, sql: str, *params) -> str:
    with pytest.raises(psycopg.Error) as error:
        conn.execute(sql, params or None)
    return str(error.value)


def test_the_app_role_cannot_disable_a_trigger_or_truncate_but_can_append(floor, app_role):
    # given a session with a drop, committed
    session = session_open(
        table=floor.table,
        counted_by=floor.dealer,
        confirmed_by=floor.supervisor,
        opening_chips={"100000": 5},
    )
    drop_record(session=session, user=floor.supervisor, amount=D("1000"))
    role, password = app_role
    with connect_as(role, password) as app:
        # then it owns nothing, so it cannot switch a trigger off or empty a table
        for trigger in ("casino_ledger_balanced", "casino_ledger_append_only"):
            assert "must be owner" in refused(
                app, f"ALTER TABLE casino_ledgerentry DISABLE TRIGGER {trigger}"
            )
        assert "must be owner" in refused(
            app, "ALTER TABLE casino_auditevent DISABLE TRIGGER casino_audit_append_only"
        )
        for table in ("casino_ledgerentry", "casino_auditevent", "casino_drop"):
            app.execute("SET casino.allow_truncate = 'on'")  # saying so is not enough
            assert "permission denied" in refused(app, f"TRUNCATE {table} CASCADE")
        # the append-only tables: read and append, never change or delete
        assert "permission denied" in refused(app, "DELETE FROM casino_auditevent")
        assert "permission denied" in refused(app, "UPDATE casino_ledgerentry SET amount = 1")
        for table in ("cage_cageline", "cage_frontmoney", "cage_marker", "cage_markerpayment"):
            assert "permission denied" in refused(app, f"DELETE FROM {table}")  # noqa: S608
        assert "permission denied" in refused(app, "UPDATE cage_frontmoney SET amount = 1")
        assert app.execute("SELECT count(*) FROM casino_auditevent").fetchone()[0] >= 2
        # and it inserts a balanced entry, as the services do (a drop and its two lines)
        with app.transaction():
            drop_id = app.execute(
                "INSERT INTO casino_drop (session_id, amount, counted_by_id, counted_at, reason)"
                " VALUES (%s, 500, %s, now(), '') RETURNING id",
                [session.pk, floor.supervisor.pk],
            ).fetchone()[0]
            app.execute(
                "INSERT INTO casino_ledgerentry"
                " (venue_id, session_id, drop_id, account, kind, amount, created_at)"
                " VALUES (%s, %s, %s, 'drop', 'drop', 500, now()),"
                " (%s, %s, %s, 'player', 'drop', -500, now())",
                [floor.venue.pk, session.pk, drop_id] * 2,
            )
        # while an unbalanced one is still refused by the trigger
        assert "sum to" in refused(
            app,
            "INSERT INTO casino_ledgerentry"
            " (venue_id, session_id, drop_id, account, kind, amount, created_at)"
            " VALUES (%s, %s, %s, 'drop', 'drop', 1, now())",
            floor.venue.pk,
            session.pk,
            drop_id,
        )
    assert LedgerEntry.objects.filter(drop_id=drop_id).count() == 2
    assert Drop.objects.filter(session=session).count() == 2


def test_db_roles_is_idempotent_and_covers_tables_made_later(app_role):
    role, password = app_role
    # run again (each deploy does): nothing changes, nothing fails
    call_command("db_roles", app_role=role)
    # a table a later migration creates, as the owner, is the app's to use at once
    with connection.cursor() as cursor:
        cursor.execute("CREATE TABLE casino_later (id bigserial PRIMARY KEY, note text)")
    try:
        with connect_as(role, password) as app:
            app.execute("INSERT INTO casino_later (note) VALUES ('new')")
            assert app.execute("SELECT note FROM casino_later").fetchone() == ("new",)
            assert "must be owner" in refused(app, "ALTER TABLE casino_later ADD COLUMN x int")
    finally:
        with connection.cursor() as cursor:
            cursor.execute("DROP TABLE casino_later")


def test_db_roles_refuses_a_role_that_could_act_as_the_owner(app_role):
    owner = connection.settings_dict["USER"] or "postgres"
    with pytest.raises(CommandError, match="could disable the ledger's triggers"):
        call_command("db_roles", app_role=owner)
    # a role that was handed a table is refused until the table is given back
    role, _password = app_role
    with connection.cursor() as cursor:
        cursor.execute("CREATE TABLE casino_handed (id int)")
        cursor.execute(f'ALTER TABLE casino_handed OWNER TO "{role}"')
    try:
        with pytest.raises(CommandError, match=f"{role} owns casino_handed: give them to"):
            call_command("db_roles", app_role=role)
    finally:
        with connection.cursor() as cursor:
            cursor.execute("DROP TABLE casino_handed")
    call_command("db_roles", app_role=role)
    # a grant the owner cannot make is named, not a traceback
    with pytest.raises(CommandError, match='schema "elsewhere" does not exist'):
        call_command("db_roles", app_role=role, schema="elsewhere")
