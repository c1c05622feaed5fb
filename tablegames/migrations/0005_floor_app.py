"""The floor's models move to their own app (``casino.floor``): this app's foreign keys follow them. State only: the tables and their constraints are unchanged."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("floor", "0001_initial"),
        ("tablegames", "0004_rulesets_app"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="rating",
                    name="session",
                    field=models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="tablegames_ratings",
                        to="floor.tablesession",
                    ),
                ),
            ]
        )
    ]
