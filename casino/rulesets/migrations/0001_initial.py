"""Rulesets as they stood in the ``casino`` app (migrations up to ``casino.0042``): created in the state only, on the table they already have."""

import casino.venues.models.venues
import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("casino", "0042_venues_app"),
        ("venues", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="Ruleset",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        (
                            "game",
                            models.CharField(
                                choices=casino.venues.models.venues.game_choices,
                                max_length=16,
                                verbose_name="game",
                            ),
                        ),
                        ("code", models.SlugField(max_length=40, verbose_name="code")),
                        ("name", models.CharField(max_length=120, verbose_name="name")),
                        (
                            "venue",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="rulesets",
                                to="venues.venue",
                                verbose_name="venue",
                            ),
                        ),
                    ],
                    options={
                        "verbose_name": "ruleset",
                        "verbose_name_plural": "rulesets",
                        "db_table": "casino_ruleset",
                        "ordering": ["venue__code", "game", "code"],
                        "constraints": [
                            models.UniqueConstraint(
                                fields=("venue", "game", "code"),
                                name="ruleset_unique_code_per_venue",
                            ),
                            models.UniqueConstraint(
                                condition=models.Q(("venue__isnull", True)),
                                fields=("game", "code"),
                                name="ruleset_unique_preset_code",
                            ),
                        ],
                    },
                ),
            ]
        )
    ]
