"""Venues' models move to their own app (``casino.venues``): the floor's models now refer to
them there, the floor's state forgets them, and their content types (so their permissions)
move with them. State only, apart from the content types' app label: the tables keep their
names (``Meta.db_table``)."""

import django.db.models.deletion
from django.db import migrations, models


MOVED = [
    "venue",
    "table",
    "tablelimit",
    "shift",
    "gamingday",
    "pit",
    "tablelimitchange",
    "tablerulesetchange",
    "dealerspell",
]


def move_content_types(apps, schema_editor):
    """The moved models' content types (and so every permission granted on them) follow
    them to the new app label."""
    content_type = apps.get_model("contenttypes", "ContentType")
    content_type.objects.filter(app_label="casino", model__in=MOVED).update(app_label="venues")


def move_content_types_back(apps, schema_editor):
    content_type = apps.get_model("contenttypes", "ContentType")
    content_type.objects.filter(app_label="venues", model__in=MOVED).update(app_label="casino")


class Migration(migrations.Migration):
    dependencies = [
        ("contenttypes", "0002_remove_content_type_name"),
        ("cage", "0002_venues_app"),
        ("casino", "0041_venues_app_fields"),
        ("count", "0002_venues_app"),
        ("integrity", "0004_venues_app"),
        ("ledger", "0002_venues_app"),
        ("players", "0002_venues_app"),
        ("reports", "0002_venues_app"),
        ("staff", "0003_venues_app"),
        ("venues", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="tablesession",
                    name="shift",
                    field=models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="sessions",
                        to="venues.shift",
                        verbose_name="shift",
                    ),
                ),
                migrations.AlterField(
                    model_name="seattally",
                    name="shift",
                    field=models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="venues.shift",
                    ),
                ),
                migrations.AlterField(
                    model_name="bettally",
                    name="shift",
                    field=models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="venues.shift",
                    ),
                ),
                migrations.RemoveField(
                    model_name="table",
                    name="ruleset",
                ),
                migrations.RemoveField(
                    model_name="table",
                    name="venue",
                ),
                migrations.AlterField(
                    model_name="tablesession",
                    name="table",
                    field=models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="sessions",
                        to="venues.table",
                        verbose_name="table",
                    ),
                ),
                migrations.RemoveField(
                    model_name="tablelimitchange",
                    name="table",
                ),
                migrations.AlterField(
                    model_name="bettally",
                    name="table",
                    field=models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="venues.table",
                    ),
                ),
                migrations.RemoveField(
                    model_name="tablelimit",
                    name="table",
                ),
                migrations.RemoveField(
                    model_name="tablerulesetchange",
                    name="table",
                ),
                migrations.RemoveField(
                    model_name="tablelimitchange",
                    name="requested_by",
                ),
                migrations.RemoveField(
                    model_name="tablerulesetchange",
                    name="decided_by",
                ),
                migrations.RemoveField(
                    model_name="tablerulesetchange",
                    name="from_ruleset",
                ),
                migrations.RemoveField(
                    model_name="tablerulesetchange",
                    name="requested_by",
                ),
                migrations.RemoveField(
                    model_name="tablerulesetchange",
                    name="to_ruleset",
                ),
                migrations.RemoveField(
                    model_name="venue",
                    name="staff",
                ),
                migrations.AlterField(
                    model_name="ruleset",
                    name="venue",
                    field=models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="rulesets",
                        to="venues.venue",
                        verbose_name="venue",
                    ),
                ),
                migrations.AlterField(
                    model_name="bettally",
                    name="venue",
                    field=models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="venues.venue",
                    ),
                ),
                migrations.DeleteModel(
                    name="DealerSpell",
                ),
                migrations.DeleteModel(
                    name="GamingDay",
                ),
                migrations.DeleteModel(
                    name="Pit",
                ),
                migrations.DeleteModel(
                    name="Shift",
                ),
                migrations.DeleteModel(
                    name="TableLimit",
                ),
                migrations.DeleteModel(
                    name="Table",
                ),
                migrations.DeleteModel(
                    name="TableLimitChange",
                ),
                migrations.DeleteModel(
                    name="TableRulesetChange",
                ),
                migrations.DeleteModel(
                    name="Venue",
                ),
            ],
        ),
        migrations.RunPython(move_content_types, move_content_types_back),
    ]
