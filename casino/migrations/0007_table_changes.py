"""A table's change of ruleset, requested by one manager and approved by another."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("casino", "0006_live_tallies"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="TableRulesetChange",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "from_game",
                    models.CharField(
                        choices=[("niuniu", "Niu Niu"), ("maubinh", "Mau Binh")],
                        max_length=16,
                        verbose_name="from game",
                    ),
                ),
                (
                    "to_game",
                    models.CharField(
                        choices=[("niuniu", "Niu Niu"), ("maubinh", "Mau Binh")],
                        max_length=16,
                        verbose_name="to game",
                    ),
                ),
                ("reason", models.TextField(verbose_name="reason")),
                (
                    "status",
                    models.CharField(
                        choices=[
                            ("pending", "Pending"),
                            ("applied", "Approved and applied"),
                            ("refused", "Refused"),
                            ("withdrawn", "Withdrawn"),
                        ],
                        default="pending",
                        max_length=16,
                        verbose_name="status",
                    ),
                ),
                ("requested_at", models.DateTimeField(verbose_name="requested at")),
                (
                    "decided_at",
                    models.DateTimeField(blank=True, null=True, verbose_name="decided at"),
                ),
                ("decision_note", models.TextField(blank=True, verbose_name="decision note")),
                (
                    "decided_by",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="decided by",
                    ),
                ),
                (
                    "from_ruleset",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="casino.ruleset",
                        verbose_name="from ruleset",
                    ),
                ),
                (
                    "requested_by",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="requested by",
                    ),
                ),
                (
                    "table",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="ruleset_changes",
                        to="casino.table",
                        verbose_name="table",
                    ),
                ),
                (
                    "to_ruleset",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="casino.ruleset",
                        verbose_name="to ruleset",
                    ),
                ),
            ],
            options={
                "verbose_name": "table ruleset change",
                "verbose_name_plural": "table ruleset changes",
                "ordering": ["-requested_at", "-id"],
                "permissions": [
                    (
                        "decide_tablerulesetchange",
                        "Can approve or refuse a table's change of ruleset",
                    )
                ],
                "constraints": [
                    models.UniqueConstraint(
                        condition=models.Q(("status", "pending")),
                        fields=("table",),
                        name="one_pending_ruleset_change_per_table",
                    ),
                    models.CheckConstraint(
                        condition=models.Q(("to_ruleset", models.F("from_ruleset")), _negated=True),
                        name="ruleset_change_changes_the_ruleset",
                    ),
                    models.CheckConstraint(
                        condition=models.Q(
                            models.Q(
                                ("decided_at__isnull", True),
                                ("decided_by__isnull", True),
                                ("status", "pending"),
                            ),
                            models.Q(
                                models.Q(("status", "pending"), _negated=True),
                                ("decided_at__isnull", False),
                                ("decided_by__isnull", False),
                            ),
                            _connector="OR",
                        ),
                        name="ruleset_change_decided_unless_pending",
                    ),
                ],
            },
        ),
    ]
