"""Rulesets move to their own app (``casino.rulesets``): the rounds now refer to them there,
the floor's state forgets them, and their content type (so its permissions) moves with them.
State only, apart from the content type's app label: the table keeps its name
(``Meta.db_table``)."""

import django.db.models.deletion
from django.db import migrations, models

MOVED = ["ruleset"]


def move_content_types(apps, schema_editor):
    """The moved model's content type (and so every permission granted on it) follows it
    to the new app label."""
    content_type = apps.get_model("contenttypes", "ContentType")
    content_type.objects.filter(app_label="casino", model__in=MOVED).update(app_label="rulesets")


def move_content_types_back(apps, schema_editor):
    content_type = apps.get_model("contenttypes", "ContentType")
    content_type.objects.filter(app_label="rulesets", model__in=MOVED).update(app_label="casino")


class Migration(migrations.Migration):
    dependencies = [
        ("contenttypes", "0002_remove_content_type_name"),
        ("baccarat", "0004_rulesets_app"),
        ("casino", "0042_venues_app"),
        ("maubinh", "0006_rulesets_app"),
        ("niuniu", "0008_rulesets_app"),
        ("rulesets", "0001_initial"),
        ("tablegames", "0004_rulesets_app"),
        ("venues", "0002_rulesets_app"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="round",
                    name="ruleset",
                    field=models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="rulesets.ruleset",
                        verbose_name="ruleset",
                    ),
                ),
                migrations.RemoveField(model_name="ruleset", name="venue"),
                migrations.DeleteModel(name="Ruleset"),
            ]
        ),
        migrations.RunPython(move_content_types, move_content_types_back),
    ]
