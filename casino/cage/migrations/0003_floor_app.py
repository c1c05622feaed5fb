"""The floor's models move to their own app (``casino.floor``): this app's foreign keys follow them. State only: the tables and their constraints are unchanged."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("cage", "0002_venues_app"),
        ("floor", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="cashtransaction",
                    name="session",
                    field=models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="cash_transactions",
                        to="floor.tablesession",
                        verbose_name="session",
                    ),
                ),
                migrations.AlterField(
                    model_name="slip",
                    name="session",
                    field=models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="slips",
                        to="floor.tablesession",
                        verbose_name="session",
                    ),
                ),
            ]
        )
    ]
