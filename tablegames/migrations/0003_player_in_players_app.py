"""A player is now ``players.Player`` (the players' app). State only: the table it refers to is
the same."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("players", "0001_initial"),
        ("tablegames", "0002_field_and_model_names_translated"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="rating",
                    name="player",
                    field=models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="players.player",
                    ),
                ),
            ],
        ),
    ]
