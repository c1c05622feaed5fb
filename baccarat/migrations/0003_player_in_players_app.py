"""A player is now ``players.Player`` (the players' app). State only: the table it refers to is
the same."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("baccarat", "0002_field_and_model_names_translated"),
        ("players", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="commissioncollection",
                    name="player",
                    field=models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="players.player",
                        verbose_name="player",
                    ),
                ),
            ],
        ),
    ]
