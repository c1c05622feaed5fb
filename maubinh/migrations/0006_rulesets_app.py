"""A ruleset's model moves to its own app (``casino.rulesets``): this app's foreign key follows it. State only: the table and its constraint are unchanged."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("maubinh", "0005_field_and_model_names_translated"),
        ("rulesets", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="maubinhrulesetversion",
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
