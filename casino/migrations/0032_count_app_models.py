"""The count's models move to their own app (``casino.count``): the floor's state forgets
them, the drop's box now refers to ``count.DropBox``, and their content types (so their
permissions) move with them. State only, apart from the content types' app label."""

import django.db.models.deletion
from django.db import migrations, models


COUNT_MODELS = ["dropbox", "dropboxsession", "boxcount", "countday"]


def move_content_types(apps, schema_editor):
    """The moved models' content types (and so every permission granted on them) follow
    them to the new app label."""
    content_type = apps.get_model("contenttypes", "ContentType")
    content_type.objects.filter(app_label="casino", model__in=COUNT_MODELS).update(
        app_label="count"
    )


def move_content_types_back(apps, schema_editor):
    content_type = apps.get_model("contenttypes", "ContentType")
    content_type.objects.filter(app_label="count", model__in=COUNT_MODELS).update(
        app_label="casino"
    )


class Migration(migrations.Migration):
    dependencies = [
        ("casino", "0031_count_app_fields"),
        ("count", "0001_initial"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="drop",
                    name="drop_box",
                    field=models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="drops",
                        to="count.dropbox",
                    ),
                ),
                migrations.RemoveField(
                    model_name="dropboxsession",
                    name="box",
                ),
                migrations.RemoveField(
                    model_name="dropboxsession",
                    name="session",
                ),
                migrations.DeleteModel(
                    name="BoxCount",
                ),
                migrations.DeleteModel(
                    name="CountDay",
                ),
                migrations.DeleteModel(
                    name="DropBox",
                ),
                migrations.DeleteModel(
                    name="DropBoxSession",
                ),
            ],
        ),
        migrations.RunPython(move_content_types, move_content_types_back),
    ]
