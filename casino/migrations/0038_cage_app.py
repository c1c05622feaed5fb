"""The cage's models (cash transactions, cash thresholds, cash alerts, fill and credit slips)
move to their own app (``casino.cage``): the ledger's entry now refers to ``cage.Slip``, the
floor's state forgets them, and their content types (so their permissions) move with them.
State only, apart from the content types' app label: the tables keep their names
(``Meta.db_table``)."""

import django.db.models.deletion
from django.db import migrations, models


MOVED = ["cashtransaction", "cashthresholds", "cashalert", "slip"]


def move_content_types(apps, schema_editor):
    """The moved models' content types (and so every permission granted on them) follow
    them to the new app label."""
    content_type = apps.get_model("contenttypes", "ContentType")
    content_type.objects.filter(app_label="casino", model__in=MOVED).update(app_label="cage")


def move_content_types_back(apps, schema_editor):
    content_type = apps.get_model("contenttypes", "ContentType")
    content_type.objects.filter(app_label="cage", model__in=MOVED).update(app_label="casino")


class Migration(migrations.Migration):
    dependencies = [
        ("contenttypes", "0002_remove_content_type_name"),
        ("cage", "0001_initial"),
        ("casino", "0037_players_app"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.RemoveField(
                    model_name="cashthresholds",
                    name="approved_by",
                ),
                migrations.RemoveField(
                    model_name="cashthresholds",
                    name="proposed_by",
                ),
                migrations.RemoveField(
                    model_name="cashthresholds",
                    name="venue",
                ),
                migrations.RemoveField(
                    model_name="cashtransaction",
                    name="player",
                ),
                migrations.RemoveField(
                    model_name="cashtransaction",
                    name="recorded_by",
                ),
                migrations.RemoveField(
                    model_name="cashtransaction",
                    name="session",
                ),
                migrations.RemoveField(
                    model_name="cashtransaction",
                    name="table",
                ),
                migrations.RemoveField(
                    model_name="cashtransaction",
                    name="venue",
                ),
                migrations.RemoveField(
                    model_name="cashtransaction",
                    name="voided_by",
                ),
                migrations.RemoveField(
                    model_name="slip",
                    name="dealer_confirmed_by",
                ),
                migrations.RemoveField(
                    model_name="slip",
                    name="issued_by",
                ),
                migrations.RemoveField(
                    model_name="slip",
                    name="received_by",
                ),
                migrations.RemoveField(
                    model_name="slip",
                    name="requested_by",
                ),
                migrations.RemoveField(
                    model_name="slip",
                    name="session",
                ),
                migrations.RemoveField(
                    model_name="slip",
                    name="supervisor_confirmed_by",
                ),
                migrations.RemoveField(
                    model_name="slip",
                    name="venue",
                ),
                migrations.RemoveField(
                    model_name="slip",
                    name="verified_by",
                ),
                migrations.RemoveField(
                    model_name="slip",
                    name="voided_by",
                ),
                migrations.AlterField(
                    model_name="ledgerentry",
                    name="slip",
                    field=models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="ledger",
                        to="cage.slip",
                        verbose_name="slip",
                    ),
                ),
                migrations.DeleteModel(
                    name="CashAlert",
                ),
                migrations.DeleteModel(
                    name="CashThresholds",
                ),
                migrations.DeleteModel(
                    name="CashTransaction",
                ),
                migrations.DeleteModel(
                    name="Slip",
                ),
            ],
        ),
        migrations.RunPython(move_content_types, move_content_types_back),
    ]
