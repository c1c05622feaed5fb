"""A ruleset's model moves to its own app (``casino.rulesets``): this app's foreign key follows it. State only: the table and its constraint are unchanged."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("rulesets", "0001_initial"),
        ("venues", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="table",
                    name="ruleset",
                    field=models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="tables",
                        to="rulesets.ruleset",
                        verbose_name="ruleset",
                    ),
                ),
                migrations.AlterField(
                    model_name="tablerulesetchange",
                    name="from_ruleset",
                    field=models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="rulesets.ruleset",
                        verbose_name="from ruleset",
                    ),
                ),
                migrations.AlterField(
                    model_name="tablerulesetchange",
                    name="to_ruleset",
                    field=models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="rulesets.ruleset",
                        verbose_name="to ruleset",
                    ),
                ),
            ]
        )
    ]
