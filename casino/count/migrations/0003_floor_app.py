"""The floor's models move to their own app (``casino.floor``): this app's foreign keys follow them. State only: the tables and their constraints are unchanged."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("count", "0002_venues_app"),
        ("floor", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="dropboxsession",
                    name="session",
                    field=models.OneToOneField(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="drop_box_link",
                        to="floor.tablesession",
                    ),
                ),
            ]
        )
    ]
