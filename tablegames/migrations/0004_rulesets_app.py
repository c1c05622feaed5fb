"""A ruleset's model moves to its own app (``casino.rulesets``): this app's foreign key follows it. State only: the table and its constraint are unchanged."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("rulesets", "0001_initial"),
        ("tablegames", "0003_player_in_players_app"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="tablegamerulesetversion",
                    name="ruleset",
                    field=models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="%(app_label)s_versions",
                        to="rulesets.ruleset",
                        verbose_name="ruleset",
                    ),
                ),
            ]
        )
    ]
