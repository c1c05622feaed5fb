"""On PostgreSQL the database itself keeps the ledger honest.

- Entries are append-only: UPDATE and DELETE are refused (a correction is a reversing entry).
- Each round's, slip's and drop's entries sum to zero, checked at commit (a deferred
  constraint trigger), so a half-written or unbalanced posting can never be committed.
SQLite (the quick start) has no such triggers; the services post balanced sets either way.
"""

from django.db import migrations

CREATE = """
CREATE OR REPLACE FUNCTION casino_ledger_append_only() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'ledger entries are append-only: post a reversing entry instead'
        USING ERRCODE = 'integrity_constraint_violation';
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER casino_ledger_append_only
    BEFORE UPDATE OR DELETE ON casino_ledgerentry
    FOR EACH ROW EXECUTE FUNCTION casino_ledger_append_only();

CREATE OR REPLACE FUNCTION casino_ledger_balanced() RETURNS trigger AS $$
DECLARE
    total numeric;
    what text;
BEGIN
    IF NEW.round_id IS NOT NULL THEN
        SELECT COALESCE(SUM(amount), 0) INTO total FROM casino_ledgerentry
            WHERE round_id = NEW.round_id;
        what := 'round ' || NEW.round_id;
    ELSIF NEW.slip_id IS NOT NULL THEN
        SELECT COALESCE(SUM(amount), 0) INTO total FROM casino_ledgerentry
            WHERE slip_id = NEW.slip_id;
        what := 'slip ' || NEW.slip_id;
    ELSE
        SELECT COALESCE(SUM(amount), 0) INTO total FROM casino_ledgerentry
            WHERE drop_id = NEW.drop_id;
        what := 'drop ' || NEW.drop_id;
    END IF;
    IF total <> 0 THEN
        RAISE EXCEPTION 'the ledger entries of % sum to %, not zero', what, total
            USING ERRCODE = 'check_violation';
    END IF;
    RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE CONSTRAINT TRIGGER casino_ledger_balanced
    AFTER INSERT ON casino_ledgerentry
    DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION casino_ledger_balanced();
"""

DROP = """
DROP TRIGGER IF EXISTS casino_ledger_balanced ON casino_ledgerentry;
DROP FUNCTION IF EXISTS casino_ledger_balanced();
DROP TRIGGER IF EXISTS casino_ledger_append_only ON casino_ledgerentry;
DROP FUNCTION IF EXISTS casino_ledger_append_only();
"""


def create(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(CREATE, params=None)


def drop(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(DROP, params=None)


class Migration(migrations.Migration):
    dependencies = [("casino", "0002_floor")]

    operations = [migrations.RunPython(create, drop)]
