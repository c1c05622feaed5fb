"""Give the app's database role what it needs, and nothing that would let it undo the
database's own guards. Run by the tables' owner after ``migrate``; safe to run again.

Two roles (docs/OPERATIONS.md, "Database roles"):
- the **owner** (``MIGRATION_DATABASE_URL``) owns the tables: it runs ``migrate``, which
  creates them and their triggers, and this command;
- the **app** (``DATABASE_URL`` of gunicorn and Celery) owns nothing: SELECT, INSERT,
  UPDATE, DELETE on the tables (the ledger, the audit trail and the cage's book, front money
  and markers: SELECT and INSERT only),
  USAGE on the sequences. A role that does not own a table cannot ``ALTER TABLE ...
  DISABLE TRIGGER`` nor TRUNCATE it, so the ledger's and the audit trail's triggers hold
  against the application itself.

``ALTER DEFAULT PRIVILEGES`` grants the same on the tables later migrations create, so a
deploy's ``migrate`` never leaves the app without a new table; running this again after
each migrate (as the deploy does) costs nothing.

    DATABASE_URL=$MIGRATION_DATABASE_URL manage.py db_roles --app-role casino_app
    (with CASINO_APP_DB_PASSWORD set to give the role a password, or to change it)
"""

from __future__ import annotations

import os
from typing import Any

from django.core.management.base import BaseCommand, CommandError
from django.db import DatabaseError, connection, transaction

#: Written only by appending: the app role may read and insert, never change or remove.
APPEND_ONLY_TABLES = (
    "casino_ledgerentry",
    "casino_auditevent",
    # The cage's money: its book, front money and markers (each with its own triggers too).
    "cage_cagemovement",
    "cage_cageline",
    "cage_frontmoney",
    "cage_marker",
    "cage_markerpayment",
    "cage_markerterms",
)
PASSWORD_VARIABLE = "CASINO_APP_DB_PASSWORD"  # noqa: S105 (the variable's name)


class Command(BaseCommand):
    help = (
        "Create (if missing) the app's database role and grant it the tables' rows, never "
        "their ownership. Run as the tables' owner after migrate; idempotent."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument(
            "--app-role", required=True, help="the role gunicorn and Celery connect as"
        )
        parser.add_argument("--schema", default="public")

    def handle(self, *args: Any, **options: Any) -> None:
        if connection.vendor != "postgresql":
            raise CommandError("database roles are for PostgreSQL; this database is not")
        app, schema = options["app_role"], options["schema"]
        password = os.environ.get(PASSWORD_VARIABLE) or None
        with transaction.atomic(), connection.cursor() as cursor:
            owner = self._owner(cursor)
            quote = connection.ops.quote_name
            # An existing role is checked before anything is changed (its password too).
            self._refuse_unsafe(cursor, app, owner, schema)
            self._ensure_role(cursor, app, password)
            database = quote(connection.settings_dict["NAME"])
            statements = [
                f"GRANT CONNECT ON DATABASE {database} TO {quote(app)}",
                f"GRANT USAGE ON SCHEMA {quote(schema)} TO {quote(app)}",
                f"GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA {quote(schema)} "
                f"TO {quote(app)}",
                f"REVOKE TRUNCATE, REFERENCES, TRIGGER ON ALL TABLES IN SCHEMA {quote(schema)} "
                f"FROM {quote(app)}",
                f"REVOKE UPDATE, DELETE ON {', '.join(APPEND_ONLY_TABLES)} FROM {quote(app)}",
                f"GRANT USAGE ON ALL SEQUENCES IN SCHEMA {quote(schema)} TO {quote(app)}",
                f"ALTER DEFAULT PRIVILEGES FOR ROLE {quote(owner)} IN SCHEMA {quote(schema)} "
                f"GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO {quote(app)}",
                f"ALTER DEFAULT PRIVILEGES FOR ROLE {quote(owner)} IN SCHEMA {quote(schema)} "
                f"GRANT USAGE ON SEQUENCES TO {quote(app)}",
            ]
            for statement in statements:
                try:
                    with transaction.atomic():
                        cursor.execute(statement)
                except DatabaseError as error:
                    raise CommandError(
                        f"{statement}: {error}; the tables' owner should own the database and "
                        "its schema (docs/OPERATIONS.md, Database roles)"
                    ) from None
        self.stdout.write(
            f"role {app}: rows of every table in {schema} (the ledger and the audit trail: "
            f"read and append only), its sequences, and the tables {owner} creates later; "
            "it owns nothing"
        )

    def _owner(self, cursor: Any) -> str:
        """The tables' owner, which must be who runs this (or a role it is a member of)."""
        cursor.execute(
            "SELECT pg_get_userbyid(relowner), pg_has_role(current_user, relowner, 'USAGE') "
            "FROM pg_class WHERE relname = 'casino_ledgerentry' AND relkind = 'r'"
        )
        row = cursor.fetchone()
        if row is None:
            raise CommandError("there are no tables yet: run manage.py migrate first")
        owner, is_owner = row
        if not is_owner:
            raise CommandError(
                f"the tables belong to {owner}: run this with its connection "
                "(DATABASE_URL=$MIGRATION_DATABASE_URL)"
            )
        return owner

    def _ensure_role(self, cursor: Any, app: str, password: str | None) -> None:
        quote = connection.ops.quote_name
        cursor.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", [app])
        exists = cursor.fetchone() is not None
        try:
            with transaction.atomic():
                if not exists:
                    # NOINHERIT: even if someone grants it another role later, it does not
                    # act with that role's rights without SET ROLE.
                    cursor.execute(
                        f"CREATE ROLE {quote(app)} LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE "
                        "NOINHERIT NOBYPASSRLS"
                    )
                if password:
                    # A utility statement takes no bound parameters: the password is
                    # quoted into it here, whatever the connection's binding.
                    cursor.execute(
                        connection.ops.compose_sql(
                            f"ALTER ROLE {quote(app)} PASSWORD %s", [password]
                        )
                    )
        except DatabaseError as error:
            raise CommandError(
                f"could not create role {app} or set its password ({error}); have a superuser "
                f"run: CREATE ROLE {app} LOGIN PASSWORD '...'; then run this again"
            ) from None

    def _refuse_unsafe(self, cursor: Any, app: str, owner: str, schema: str) -> None:
        """A role that owns a table, or may act as its owner, could disable its triggers."""
        cursor.execute(
            "SELECT rolsuper OR rolbypassrls, pg_has_role(%s, %s, 'MEMBER') "
            "FROM pg_roles WHERE rolname = %s",
            [app, owner, app],
        )
        row = cursor.fetchone()
        if row is None:
            return  # made below, owning nothing
        superuser, member = row
        if superuser or member or app == owner:
            raise CommandError(
                f"{app} is a superuser, the owner, or a member of {owner}: it could disable the "
                "ledger's triggers. Give the app a role of its own."
            )
        cursor.execute(
            "SELECT tablename FROM pg_tables WHERE schemaname = %s AND tableowner = %s "
            "ORDER BY tablename",
            [schema, app],
        )
        owned = [name for (name,) in cursor.fetchall()]
        if owned:
            raise CommandError(
                f"{app} owns {', '.join(owned)}: give them to {owner} first "
                f"(ALTER TABLE ... OWNER TO {owner}, or REASSIGN OWNED BY {app} TO {owner})"
            )
