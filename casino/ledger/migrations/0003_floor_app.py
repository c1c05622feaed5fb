"""The floor's models move to their own app (``casino.floor``): this app's foreign keys follow them. State only: the tables and their constraints are unchanged."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("floor", "0001_initial"),
        ("ledger", "0002_venues_app"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="drop",
                    name="session",
                    field=models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="drops",
                        to="floor.tablesession",
                    ),
                ),
                migrations.AlterField(
                    model_name="ledgerentry",
                    name="bet",
                    field=models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="floor.bet",
                        verbose_name="bet",
                    ),
                ),
                migrations.AlterField(
                    model_name="ledgerentry",
                    name="box",
                    field=models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="floor.box",
                        verbose_name="box",
                    ),
                ),
                migrations.AlterField(
                    model_name="ledgerentry",
                    name="round",
                    field=models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="ledger",
                        to="floor.round",
                        verbose_name="round",
                    ),
                ),
                migrations.AlterField(
                    model_name="ledgerentry",
                    name="session",
                    field=models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="ledger",
                        to="floor.tablesession",
                        verbose_name="session",
                    ),
                ),
            ]
        )
    ]
