"""The audit trail becomes append-only in the database like the ledger; both refuse TRUNCATE.

On PostgreSQL:
- UPDATE and DELETE of audit events are refused (the ledger's entries already are, 0003);
- TRUNCATE of either table is refused, except when the tables' owner says so for its own
  transaction with ``SET LOCAL casino.allow_truncate = 'on'``: that is ``manage.py flush``
  (``casino/management/commands/flush.py``), which empties the whole database on purpose
  (the test suite between transactional tests, a development reset). The app's own
  database role owns no table (docs/OPERATIONS.md, "Database roles"), so it can neither
  take that way nor disable a trigger.
SQLite (the quick start) has no such triggers.

Also: a drop entered by mistake is reversed by a drop that names it (nothing is deleted),
and a round's settle key is unique within its session instead of across every venue.
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

CREATE = """
CREATE OR REPLACE FUNCTION casino_audit_append_only() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'audit events are append-only: they are never changed or deleted'
        USING ERRCODE = 'integrity_constraint_violation';
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER casino_audit_append_only
    BEFORE UPDATE OR DELETE ON casino_auditevent
    FOR EACH ROW EXECUTE FUNCTION casino_audit_append_only();

CREATE OR REPLACE FUNCTION casino_refuse_truncate() RETURNS trigger AS $$
BEGIN
    -- Only the tables' owner (or a role it is granted to), having said so for this
    -- transaction, empties them: manage.py flush.
    IF current_setting('casino.allow_truncate', true) = 'on'
        AND pg_has_role(
            current_user, (SELECT relowner FROM pg_class WHERE oid = TG_RELID), 'USAGE'
        )
    THEN
        RETURN NULL;
    END IF;
    RAISE EXCEPTION '% is append-only: it is never truncated', TG_TABLE_NAME
        USING ERRCODE = 'integrity_constraint_violation';
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER casino_ledger_no_truncate
    BEFORE TRUNCATE ON casino_ledgerentry
    FOR EACH STATEMENT EXECUTE FUNCTION casino_refuse_truncate();

CREATE TRIGGER casino_audit_no_truncate
    BEFORE TRUNCATE ON casino_auditevent
    FOR EACH STATEMENT EXECUTE FUNCTION casino_refuse_truncate();
"""

DROP = """
DROP TRIGGER IF EXISTS casino_audit_no_truncate ON casino_auditevent;
DROP TRIGGER IF EXISTS casino_ledger_no_truncate ON casino_ledgerentry;
DROP FUNCTION IF EXISTS casino_refuse_truncate();
DROP TRIGGER IF EXISTS casino_audit_append_only ON casino_auditevent;
DROP FUNCTION IF EXISTS casino_audit_append_only();
"""


def create(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(CREATE, params=None)


def drop(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(DROP, params=None)


class Migration(migrations.Migration):
    dependencies = [
        ("casino", "0009_login_records"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RunPython(create, drop),
        migrations.RemoveConstraint(
            model_name="drop",
            name="drop_amount_positive",
        ),
        migrations.AddField(
            model_name="drop",
            name="reason",
            field=models.CharField(blank=True, help_text="Why it was reversed.", max_length=255),
        ),
        migrations.AddField(
            model_name="drop",
            name="reverses",
            field=models.OneToOneField(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="reversed_by",
                to="casino.drop",
            ),
        ),
        migrations.AlterField(
            model_name="drop",
            name="amount",
            field=models.DecimalField(
                decimal_places=2,
                help_text="Positive; a reversal is the reversed drop's, negated.",
                max_digits=18,
            ),
        ),
        migrations.AddConstraint(
            model_name="drop",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    models.Q(("amount__gt", 0), ("reverses__isnull", True)),
                    models.Q(("amount__lt", 0), ("reverses__isnull", False)),
                    _connector="OR",
                ),
                name="drop_positive_or_a_reversal",
            ),
        ),
        migrations.AlterField(
            model_name="round",
            name="settle_key",
            field=models.CharField(blank=True, max_length=64, null=True),
        ),
        migrations.AddConstraint(
            model_name="round",
            constraint=models.UniqueConstraint(
                fields=("session", "settle_key"), name="round_settle_key_per_session"
            ),
        ),
    ]
