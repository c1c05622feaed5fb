"""A shift report is now ``reports.ShiftReport`` (the reports' app). State only: the table it
refers to is the same."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("integrity", "0002_player_in_players_app"),
        ("reports", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="fluctuationinvestigation",
                    name="report",
                    field=models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="investigations",
                        to="reports.shiftreport",
                        verbose_name="report",
                    ),
                ),
            ],
        ),
    ]
