"""The floor's models move to their own app (``casino.floor``): this app's foreign keys follow them. State only: the tables and their constraints are unchanged."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("floor", "0001_initial"),
        ("integrity", "0007_deal_order_tests"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="cardtally",
                    name="session",
                    field=models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="floor.tablesession",
                    ),
                ),
                migrations.AlterField(
                    model_name="categorytally",
                    name="session",
                    field=models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="floor.tablesession",
                    ),
                ),
            ]
        )
    ]
