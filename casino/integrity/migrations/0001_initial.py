"""Integrity's models, as they stood in the ``casino`` app: created in the state only, on the
tables they already have; their content types (so their permissions) follow them."""

import django.db.models.deletion
import django.db.models.functions.comparison
from django.conf import settings
from django.db import migrations, models


MOVED_MODELS = [
    "categorytally",
    "cardtally",
    "integrityrun",
    "integrityresult",
    "fluctuationinvestigation",
    "investigationnote",
]


def move_content_types(apps, schema_editor):
    """The moved models' content types (and so every permission granted on them) follow
    them to the new app label."""
    content_type = apps.get_model("contenttypes", "ContentType")
    content_type.objects.filter(app_label="casino", model__in=MOVED_MODELS).update(
        app_label="integrity"
    )


def move_content_types_back(apps, schema_editor):
    content_type = apps.get_model("contenttypes", "ContentType")
    content_type.objects.filter(app_label="integrity", model__in=MOVED_MODELS).update(
        app_label="casino"
    )


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("contenttypes", "0002_remove_content_type_name"),
        ("casino", "0033_integrity_app"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="IntegrityResult",
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
                            "scope",
                            models.CharField(
                                choices=[
                                    ("table", "Table"),
                                    ("dealer", "Dealer"),
                                    ("player", "Player"),
                                    ("pit", "Pit"),
                                ],
                                max_length=8,
                            ),
                        ),
                        ("label", models.CharField(max_length=120)),
                        ("position", models.PositiveSmallIntegerField(blank=True, null=True)),
                        ("game", models.CharField(max_length=16)),
                        (
                            "test",
                            models.CharField(
                                choices=[
                                    ("dealer_hand", "Dealer's hand categories"),
                                    ("box_hand", "Boxes' hand categories"),
                                    ("box_outcome", "Boxes' wins against the dealer"),
                                    ("instant_win", "Instant wins held"),
                                    ("scoop_balance", "Scoops by the cards, given against taken"),
                                    ("round_result", "Round results against the shoe's odds"),
                                    ("cards", "Cards dealt"),
                                    ("net_result", "Net result against its expectation"),
                                ],
                                max_length=32,
                            ),
                        ),
                        ("method", models.CharField(blank=True, max_length=32)),
                        (
                            "n",
                            models.PositiveIntegerField(
                                help_text="Observations (hands, boxes, rounds, cards)."
                            ),
                        ),
                        ("rounds", models.PositiveIntegerField(default=0)),
                        ("cells", models.JSONField(default=list)),
                        ("statistic", models.FloatField(blank=True, null=True)),
                        (
                            "p_value",
                            models.FloatField(
                                blank=True, help_text="Empty: not enough data.", null=True
                            ),
                        ),
                        ("q_value", models.FloatField(blank=True, null=True)),
                        ("alert", models.BooleanField(default=False)),
                        ("note", models.CharField(blank=True, max_length=200)),
                        ("evidence", models.JSONField(default=dict)),
                        (
                            "dealer",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        (
                            "pit",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="+",
                                to="casino.pit",
                            ),
                        ),
                        (
                            "player",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="+",
                                to="casino.player",
                            ),
                        ),
                        (
                            "table",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="+",
                                to="casino.table",
                            ),
                        ),
                        (
                            "venue",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="+",
                                to="casino.venue",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "casino_integrityresult",
                        "ordering": ["run", "-alert", "q_value", "id"],
                    },
                ),
                migrations.CreateModel(
                    name="FluctuationInvestigation",
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
                            "handle",
                            models.DecimalField(
                                decimal_places=2, max_digits=18, verbose_name="handle"
                            ),
                        ),
                        (
                            "house_win",
                            models.DecimalField(
                                decimal_places=2, max_digits=18, verbose_name="house win"
                            ),
                        ),
                        (
                            "theoretical_win",
                            models.DecimalField(
                                blank=True,
                                decimal_places=2,
                                max_digits=18,
                                null=True,
                                verbose_name="theoretical win",
                            ),
                        ),
                        (
                            "hold_pct",
                            models.DecimalField(
                                blank=True,
                                decimal_places=2,
                                max_digits=12,
                                null=True,
                                verbose_name="hold %",
                            ),
                        ),
                        (
                            "range_low_pct",
                            models.DecimalField(
                                blank=True,
                                decimal_places=2,
                                max_digits=12,
                                null=True,
                                verbose_name="range low %",
                            ),
                        ),
                        (
                            "range_high_pct",
                            models.DecimalField(
                                blank=True,
                                decimal_places=2,
                                max_digits=12,
                                null=True,
                                verbose_name="range high %",
                            ),
                        ),
                        (
                            "figures",
                            models.JSONField(
                                blank=True, default=dict, editable=False, verbose_name="figures"
                            ),
                        ),
                        ("opened_at", models.DateTimeField(verbose_name="opened at")),
                        ("due_at", models.DateTimeField(verbose_name="due at")),
                        (
                            "status",
                            models.CharField(
                                choices=[
                                    ("open", "Open"),
                                    ("findings", "Findings written"),
                                    ("signed_off", "Signed off"),
                                    ("closed", "Closed"),
                                ],
                                default="open",
                                max_length=16,
                                verbose_name="status",
                            ),
                        ),
                        ("findings", models.TextField(blank=True, verbose_name="findings")),
                        (
                            "findings_at",
                            models.DateTimeField(blank=True, null=True, verbose_name="findings at"),
                        ),
                        (
                            "outcome",
                            models.CharField(
                                blank=True,
                                choices=[
                                    ("variance", "Statistical variance"),
                                    ("procedure", "Procedural error"),
                                    ("dealer", "Dealer error"),
                                    ("collusion", "Suspected collusion, referred to surveillance"),
                                    ("equipment", "Card or equipment fault"),
                                    ("other", "Other"),
                                ],
                                max_length=16,
                                verbose_name="outcome",
                            ),
                        ),
                        (
                            "signed_off_at",
                            models.DateTimeField(
                                blank=True, null=True, verbose_name="signed off at"
                            ),
                        ),
                        (
                            "closed_at",
                            models.DateTimeField(blank=True, null=True, verbose_name="closed at"),
                        ),
                        (
                            "flag_cleared_at",
                            models.DateTimeField(
                                blank=True, null=True, verbose_name="flag cleared at"
                            ),
                        ),
                        (
                            "assigned_to",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="investigations_assigned",
                                to=settings.AUTH_USER_MODEL,
                                verbose_name="assigned to",
                            ),
                        ),
                        (
                            "closed_by",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                                verbose_name="closed by",
                            ),
                        ),
                        (
                            "findings_by",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                                verbose_name="findings by",
                            ),
                        ),
                        (
                            "report",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="investigations",
                                to="casino.shiftreport",
                                verbose_name="report",
                            ),
                        ),
                        (
                            "shift",
                            models.ForeignKey(
                                blank=True,
                                help_text="Empty: an integrity alert over a period.",
                                null=True,
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="investigations",
                                to="casino.shift",
                                verbose_name="shift",
                            ),
                        ),
                        (
                            "signed_off_by",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                                verbose_name="signed off by",
                            ),
                        ),
                        (
                            "table",
                            models.ForeignKey(
                                blank=True,
                                help_text="Empty: the shift's total.",
                                null=True,
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="investigations",
                                to="casino.table",
                                verbose_name="table",
                            ),
                        ),
                        (
                            "venue",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="investigations",
                                to="casino.venue",
                                verbose_name="venue",
                            ),
                        ),
                        (
                            "integrity_result",
                            models.OneToOneField(
                                blank=True,
                                help_text="The integrity test that opened it (empty: a report's flag).",
                                null=True,
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="investigation",
                                to="integrity.integrityresult",
                                verbose_name="integrity alert",
                            ),
                        ),
                    ],
                    options={
                        "verbose_name": "fluctuation investigation",
                        "verbose_name_plural": "fluctuation investigations",
                        "db_table": "casino_fluctuationinvestigation",
                        "ordering": ["-opened_at", "-id"],
                    },
                ),
                migrations.CreateModel(
                    name="IntegrityRun",
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
                        ("date_from", models.DateField()),
                        ("date_to", models.DateField()),
                        (
                            "status",
                            models.CharField(
                                choices=[
                                    ("pending", "Waiting for a worker"),
                                    ("running", "Running"),
                                    ("done", "Done"),
                                    ("failed", "Failed"),
                                ],
                                default="pending",
                                max_length=16,
                            ),
                        ),
                        ("requested_at", models.DateTimeField()),
                        ("finished_at", models.DateTimeField(blank=True, null=True)),
                        (
                            "fdr",
                            models.FloatField(
                                default=0.05, help_text="The false discovery rate controlled."
                            ),
                        ),
                        ("tests", models.PositiveIntegerField(default=0)),
                        ("alerts", models.PositiveIntegerField(default=0)),
                        ("seconds", models.FloatField(blank=True, null=True)),
                        ("error", models.TextField(blank=True)),
                        (
                            "requested_by",
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
                                related_name="integrity_runs",
                                to="casino.venue",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "casino_integrityrun",
                        "ordering": ["venue__code", "-date_to", "-id"],
                    },
                ),
                migrations.AddField(
                    model_name="integrityresult",
                    name="run",
                    field=models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="results",
                        to="integrity.integrityrun",
                    ),
                ),
                migrations.CreateModel(
                    name="InvestigationNote",
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
                        ("written_at", models.DateTimeField(verbose_name="written at")),
                        ("text", models.TextField(verbose_name="text")),
                        ("key", models.CharField(blank=True, editable=False, max_length=64)),
                        (
                            "author",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                                verbose_name="author",
                            ),
                        ),
                        (
                            "investigation",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="notes",
                                to="integrity.fluctuationinvestigation",
                                verbose_name="investigation",
                            ),
                        ),
                    ],
                    options={
                        "verbose_name": "investigation note",
                        "verbose_name_plural": "investigation notes",
                        "db_table": "casino_investigationnote",
                        "ordering": ["investigation", "written_at", "id"],
                    },
                ),
                migrations.CreateModel(
                    name="CardTally",
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
                        ("game", models.CharField(max_length=16)),
                        ("rank", models.CharField(max_length=1)),
                        ("suit", models.CharField(max_length=1)),
                        ("count", models.IntegerField()),
                        (
                            "dealer",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        (
                            "session",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="+",
                                to="casino.tablesession",
                            ),
                        ),
                        (
                            "shift",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="+",
                                to="casino.shift",
                            ),
                        ),
                        (
                            "table",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="+",
                                to="casino.table",
                            ),
                        ),
                        (
                            "venue",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="+",
                                to="casino.venue",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "casino_cardtally",
                        "ordering": ["session", "rank", "suit"],
                        "indexes": [
                            models.Index(
                                fields=["venue", "gaming_date"],
                                name="casino_card_venue_i_449d52_idx",
                            ),
                            models.Index(fields=["shift"], name="casino_card_shift_i_87ba84_idx"),
                        ],
                        "constraints": [
                            models.UniqueConstraint(
                                fields=("session", "dealer", "gaming_date", "game", "rank", "suit"),
                                name="card_tally_key",
                            )
                        ],
                    },
                ),
                migrations.CreateModel(
                    name="CategoryTally",
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
                        ("game", models.CharField(max_length=16)),
                        ("ruleset_version_id", models.PositiveBigIntegerField()),
                        ("subject", models.CharField(max_length=32)),
                        ("category", models.CharField(max_length=32)),
                        (
                            "count",
                            models.IntegerField(help_text="0 once every round counted was voided."),
                        ),
                        (
                            "dealer",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        (
                            "player",
                            models.ForeignKey(
                                blank=True,
                                help_text="Empty: the dealer's hand, or a box without a member.",
                                null=True,
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="+",
                                to="casino.player",
                            ),
                        ),
                        (
                            "session",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="+",
                                to="casino.tablesession",
                            ),
                        ),
                        (
                            "shift",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="+",
                                to="casino.shift",
                            ),
                        ),
                        (
                            "table",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="+",
                                to="casino.table",
                            ),
                        ),
                        (
                            "venue",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="+",
                                to="casino.venue",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "casino_categorytally",
                        "ordering": ["session", "subject", "category"],
                        "indexes": [
                            models.Index(
                                fields=["venue", "gaming_date"],
                                name="casino_cate_venue_i_6d1b23_idx",
                            ),
                            models.Index(fields=["shift"], name="casino_cate_shift_i_80820e_idx"),
                        ],
                        "constraints": [
                            models.UniqueConstraint(
                                models.F("session"),
                                models.F("dealer"),
                                models.F("gaming_date"),
                                django.db.models.functions.comparison.Coalesce(
                                    models.F("player"), models.Value(0)
                                ),
                                models.F("game"),
                                models.F("ruleset_version_id"),
                                models.F("subject"),
                                models.F("category"),
                                name="category_tally_key",
                            )
                        ],
                    },
                ),
                migrations.AddIndex(
                    model_name="fluctuationinvestigation",
                    index=models.Index(
                        fields=["venue", "status", "due_at"], name="casino_fluc_venue_i_f0b276_idx"
                    ),
                ),
                migrations.AddIndex(
                    model_name="fluctuationinvestigation",
                    index=models.Index(
                        fields=["assigned_to", "status"], name="casino_fluc_assigne_8668b5_idx"
                    ),
                ),
                migrations.AddConstraint(
                    model_name="fluctuationinvestigation",
                    constraint=models.UniqueConstraint(
                        condition=models.Q(("table__isnull", False)),
                        fields=("report", "table"),
                        name="investigation_per_report_table",
                    ),
                ),
                migrations.AddConstraint(
                    model_name="fluctuationinvestigation",
                    constraint=models.UniqueConstraint(
                        condition=models.Q(("table__isnull", True)),
                        fields=("report",),
                        name="investigation_per_report_total",
                    ),
                ),
                migrations.AddConstraint(
                    model_name="fluctuationinvestigation",
                    constraint=models.CheckConstraint(
                        condition=models.Q(
                            ("status", "open"),
                            models.Q(
                                ("findings_at__isnull", False), ("findings_by__isnull", False)
                            ),
                            _connector="OR",
                        ),
                        name="investigation_findings_signed",
                    ),
                ),
                migrations.AddConstraint(
                    model_name="fluctuationinvestigation",
                    constraint=models.CheckConstraint(
                        condition=models.Q(
                            ("status__in", ["open", "findings"]),
                            models.Q(
                                ("signed_off_at__isnull", False), ("signed_off_by__isnull", False)
                            ),
                            _connector="OR",
                        ),
                        name="investigation_signed_off",
                    ),
                ),
                migrations.AddConstraint(
                    model_name="fluctuationinvestigation",
                    constraint=models.CheckConstraint(
                        condition=models.Q(
                            models.Q(("status", "closed"), _negated=True),
                            models.Q(
                                ("closed_at__isnull", False),
                                ("closed_by__isnull", False),
                                models.Q(("outcome", ""), _negated=True),
                            ),
                            _connector="OR",
                        ),
                        name="investigation_closed_with_outcome",
                    ),
                ),
                migrations.AddIndex(
                    model_name="integrityrun",
                    index=models.Index(
                        fields=["venue", "date_to"], name="casino_inte_venue_i_5ca3d2_idx"
                    ),
                ),
                migrations.AddIndex(
                    model_name="integrityresult",
                    index=models.Index(
                        fields=["run", "alert"], name="casino_inte_run_id_d14cb5_idx"
                    ),
                ),
                migrations.AddConstraint(
                    model_name="investigationnote",
                    constraint=models.UniqueConstraint(
                        condition=models.Q(("key", ""), _negated=True),
                        fields=("investigation", "key"),
                        name="investigation_note_key",
                    ),
                ),
            ],
        ),
        migrations.RunPython(move_content_types, move_content_types_back),
    ]
