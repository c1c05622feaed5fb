"""The ledger's balance check reads each posted owner's entries by its index.

The trigger (``casino/migrations/0003_ledger_triggers.py``) summed the entries of every
round, slip and drop an INSERT posted to with ``WHERE round_id IN (SELECT ... FROM
inserted)``. The statement's table of inserted rows has no statistics, and PostgreSQL
planned that as a hash join over a scan of the whole ledger: every settlement read every
entry of the database, so a Confirm cost more with every round dealt before it (the
floor's load run: 41 million entries read by 7,100 scans for 2,400 rounds, the round
index used 37 times; docs/BENCHMARKS.md "Every round a round dealt"). Each owner is now
summed in a LATERAL subquery of its own, an aggregate the planner cannot flatten into a
join: one indexed look-up per owner, whatever the ledger holds. What is refused is the
same: the first owner whose entries do not sum to zero, in the same words; so going back
leaves this check in place.
"""

from django.db import migrations

#: The owners a ledger entry may post to: each entry names one (its column ``<owner>_id``).
OWNERS = ("round", "slip", "drop")


def _summed(owner: str) -> str:
    """The owners of ``owner``'s kind the statement posted to, each with its entries' sum
    read by its own index."""
    return (
        f"SELECT '{owner}' AS owner, o.id, s.total "  # noqa: S608 (the owners' names, not input)
        f"FROM (SELECT DISTINCT {owner}_id AS id FROM inserted WHERE {owner}_id IS NOT NULL) o "
        "CROSS JOIN LATERAL ("
        f"SELECT SUM(e.amount) AS total FROM casino_ledgerentry e WHERE e.{owner}_id = o.id"
        ") s"
    )


UNION = "\n        UNION ALL\n        "

CHECK = f"""
CREATE OR REPLACE FUNCTION casino_ledger_balanced() RETURNS trigger AS $$
DECLARE
    bad record;
BEGIN
    -- Each owner the statement posted to, its entries summed by its own index: a LATERAL
    -- aggregate an owner at a time, never a scan of the ledger.
    SELECT owner, id, total INTO bad FROM (
        {UNION.join(_summed(owner) for owner in OWNERS)}
    ) AS sums
    WHERE total <> 0
    LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION 'the ledger entries of % % sum to %, not zero',
            bad.owner, bad.id, bad.total
            USING ERRCODE = 'check_violation';
    END IF;
    RETURN NULL;
END;
$$ LANGUAGE plpgsql;
"""  # noqa: S608 (the owners' names, not input)


def forward(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":  # SQLite has no such trigger
        schema_editor.execute(CHECK, params=None)


class Migration(migrations.Migration):
    dependencies = [("ledger", "0004_audit_app")]

    # Back: the check stays as it is, refusing what 0003's refused (its plan is the change).
    operations = [migrations.RunPython(forward, migrations.RunPython.noop)]
