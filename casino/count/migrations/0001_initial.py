"""The count's models, as they stood in the ``casino`` app (migrations up to
``casino.0030``): created in the state only, on the tables they already have."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("casino", "0031_count_app_fields"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="DropBox",
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
                        ("gaming_date", models.DateField()),
                        ("number", models.PositiveSmallIntegerField()),
                        (
                            "per_session",
                            models.BooleanField(
                                default=False,
                                help_text="A box of one session (the venue drops at each close).",
                            ),
                        ),
                        (
                            "status",
                            models.CharField(
                                choices=[
                                    ("in_use", "In use"),
                                    ("removed", "Removed"),
                                    ("counted", "Counted"),
                                ],
                                default="in_use",
                                max_length=16,
                            ),
                        ),
                        ("created_at", models.DateTimeField()),
                        ("counted_at", models.DateTimeField(blank=True, null=True)),
                        (
                            "total",
                            models.DecimalField(
                                blank=True,
                                decimal_places=2,
                                help_text="What the count posted.",
                                max_digits=18,
                                null=True,
                            ),
                        ),
                        (
                            "table",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="drop_boxes",
                                to="casino.table",
                            ),
                        ),
                        (
                            "venue",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="drop_boxes",
                                to="casino.venue",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "casino_dropbox",
                        "ordering": ["venue", "gaming_date", "table__code", "number"],
                    },
                ),
                migrations.CreateModel(
                    name="BoxCount",
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
                            "ordinal",
                            models.PositiveSmallIntegerField(
                                help_text="1: the first count, 2: the second."
                            ),
                        ),
                        ("counted_at", models.DateTimeField()),
                        ("notes", models.JSONField(blank=True, default=dict)),
                        ("chips", models.JSONField(blank=True, default=dict)),
                        ("others", models.JSONField(blank=True, default=list)),
                        ("total", models.DecimalField(decimal_places=2, max_digits=18)),
                        (
                            "difference",
                            models.DecimalField(
                                blank=True, decimal_places=2, max_digits=18, null=True
                            ),
                        ),
                        ("reason", models.CharField(blank=True, max_length=1000)),
                        (
                            "counted_by",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        (
                            "box",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="counts",
                                to="count.dropbox",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "casino_boxcount",
                        "ordering": ["box", "ordinal"],
                    },
                ),
                migrations.CreateModel(
                    name="DropBoxSession",
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
                            "box",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="box_sessions",
                                to="count.dropbox",
                            ),
                        ),
                        (
                            "session",
                            models.OneToOneField(
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="drop_box_link",
                                to="casino.tablesession",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "casino_dropboxsession",
                    },
                ),
                migrations.CreateModel(
                    name="CountDay",
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
                        ("gaming_date", models.DateField()),
                        (
                            "status",
                            models.CharField(
                                choices=[("open", "Open"), ("closed", "Closed")],
                                default="open",
                                max_length=8,
                            ),
                        ),
                        ("closed_at", models.DateTimeField(blank=True, null=True)),
                        (
                            "closed_by",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        (
                            "venue",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="count_days",
                                to="casino.venue",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "casino_countday",
                        "ordering": ["venue", "-gaming_date"],
                        "constraints": [
                            models.UniqueConstraint(
                                fields=("venue", "gaming_date"), name="count_day_once"
                            )
                        ],
                    },
                ),
                migrations.AddConstraint(
                    model_name="dropbox",
                    constraint=models.UniqueConstraint(
                        fields=("table", "gaming_date", "number"), name="drop_box_number"
                    ),
                ),
                migrations.AddConstraint(
                    model_name="boxcount",
                    constraint=models.UniqueConstraint(
                        fields=("box", "ordinal"), name="box_count_once"
                    ),
                ),
                migrations.AddConstraint(
                    model_name="boxcount",
                    constraint=models.CheckConstraint(
                        condition=models.Q(("ordinal__in", [1, 2])),
                        name="box_count_first_or_second",
                    ),
                ),
                migrations.AddConstraint(
                    model_name="boxcount",
                    constraint=models.CheckConstraint(
                        condition=models.Q(("total__gte", 0)), name="box_count_not_negative"
                    ),
                ),
            ],
        ),
    ]
