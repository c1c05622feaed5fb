"""The ledger's models (entries, drops) and the audit trail move to their own app
(``casino.ledger``): the floor's state forgets them. State only: the tables keep their
names (``Meta.db_table``), their triggers stay, and no row changes."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("casino", "0039_reports_app"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.RemoveField(
                    model_name="drop",
                    name="counted_by",
                ),
                migrations.RemoveField(
                    model_name="drop",
                    name="drop_box",
                ),
                migrations.RemoveField(
                    model_name="drop",
                    name="reverses",
                ),
                migrations.RemoveField(
                    model_name="drop",
                    name="session",
                ),
                migrations.RemoveField(
                    model_name="ledgerentry",
                    name="drop",
                ),
                migrations.RemoveField(
                    model_name="ledgerentry",
                    name="bet",
                ),
                migrations.RemoveField(
                    model_name="ledgerentry",
                    name="box",
                ),
                migrations.RemoveField(
                    model_name="ledgerentry",
                    name="created_by",
                ),
                migrations.RemoveField(
                    model_name="ledgerentry",
                    name="player",
                ),
                migrations.RemoveField(
                    model_name="ledgerentry",
                    name="reverses",
                ),
                migrations.RemoveField(
                    model_name="ledgerentry",
                    name="round",
                ),
                migrations.RemoveField(
                    model_name="ledgerentry",
                    name="session",
                ),
                migrations.RemoveField(
                    model_name="ledgerentry",
                    name="slip",
                ),
                migrations.RemoveField(
                    model_name="ledgerentry",
                    name="venue",
                ),
                migrations.DeleteModel(
                    name="AuditEvent",
                ),
                migrations.DeleteModel(
                    name="Drop",
                ),
                migrations.DeleteModel(
                    name="LedgerEntry",
                ),
            ],
        ),
    ]
