"""On PostgreSQL the database itself keeps the ledger honest.

- Entries are append-only: UPDATE and DELETE are refused (a correction is a reversing entry).
- Each round's, slip's and drop's entries sum to zero after every INSERT statement: the
  services post a balanced set in one statement, so an unbalanced posting is refused at
  once and never committed.
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
    bad record;
BEGIN
    -- One indexed look-up per kind of owner; an OR of the three would scan the ledger.
    SELECT owner, id, total INTO bad FROM (
        SELECT 'round' AS owner, e.round_id AS id, SUM(e.amount) AS total
            FROM casino_ledgerentry e
            WHERE e.round_id IN (SELECT DISTINCT round_id FROM inserted)
            GROUP BY e.round_id HAVING SUM(e.amount) <> 0
        UNION ALL
        SELECT 'slip', e.slip_id, SUM(e.amount)
            FROM casino_ledgerentry e
            WHERE e.slip_id IN (SELECT DISTINCT slip_id FROM inserted)
            GROUP BY e.slip_id HAVING SUM(e.amount) <> 0
        UNION ALL
        SELECT 'drop', e.drop_id, SUM(e.amount)
            FROM casino_ledgerentry e
            WHERE e.drop_id IN (SELECT DISTINCT drop_id FROM inserted)
            GROUP BY e.drop_id HAVING SUM(e.amount) <> 0
    ) AS unbalanced
    LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION 'the ledger entries of % % sum to %, not zero',
            bad.owner, bad.id, bad.total
            USING ERRCODE = 'check_violation';
    END IF;
    RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER casino_ledger_balanced
    AFTER INSERT ON casino_ledgerentry
    REFERENCING NEW TABLE AS inserted
    FOR EACH STATEMENT EXECUTE FUNCTION casino_ledger_balanced();
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
