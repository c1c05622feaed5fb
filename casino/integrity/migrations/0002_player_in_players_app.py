"""A player is now ``players.Player`` (the players' app). State only: the table it refers to is
the same."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("integrity", "0001_initial"),
        ("players", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="categorytally",
                    name="player",
                    field=models.ForeignKey(
                        blank=True,
                        help_text="Empty: the dealer's hand, or a box without a member.",
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="players.player",
                    ),
                ),
                migrations.AlterField(
                    model_name="integrityresult",
                    name="player",
                    field=models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="players.player",
                    ),
                ),
            ],
        ),
    ]
