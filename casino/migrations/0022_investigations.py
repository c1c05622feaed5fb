"""Fluctuation investigations and their notes, kept for good.

On PostgreSQL: a DELETE of an investigation is refused (its steps are updates of its own
row, each audited); a note is append-only (UPDATE and DELETE refused); neither table is
truncated, except by ``manage.py flush`` (casino_refuse_truncate, migration 0010).
SQLite (the quick start) has no such triggers.
"""


import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


CREATE = """
CREATE OR REPLACE FUNCTION casino_investigation_kept() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'fluctuation investigations are never deleted'
        USING ERRCODE = 'integrity_constraint_violation';
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER casino_investigation_kept
    BEFORE DELETE ON casino_fluctuationinvestigation
    FOR EACH ROW EXECUTE FUNCTION casino_investigation_kept();

CREATE OR REPLACE FUNCTION casino_investigation_note_append_only() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'investigation notes are append-only: they are never changed or deleted'
        USING ERRCODE = 'integrity_constraint_violation';
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER casino_investigation_note_append_only
    BEFORE UPDATE OR DELETE ON casino_investigationnote
    FOR EACH ROW EXECUTE FUNCTION casino_investigation_note_append_only();

CREATE TRIGGER casino_investigation_no_truncate
    BEFORE TRUNCATE ON casino_fluctuationinvestigation
    FOR EACH STATEMENT EXECUTE FUNCTION casino_refuse_truncate();

CREATE TRIGGER casino_investigation_note_no_truncate
    BEFORE TRUNCATE ON casino_investigationnote
    FOR EACH STATEMENT EXECUTE FUNCTION casino_refuse_truncate();
"""

DROP = """
DROP TRIGGER IF EXISTS casino_investigation_note_no_truncate ON casino_investigationnote;
DROP TRIGGER IF EXISTS casino_investigation_no_truncate ON casino_fluctuationinvestigation;
DROP TRIGGER IF EXISTS casino_investigation_note_append_only ON casino_investigationnote;
DROP FUNCTION IF EXISTS casino_investigation_note_append_only();
DROP TRIGGER IF EXISTS casino_investigation_kept ON casino_fluctuationinvestigation;
DROP FUNCTION IF EXISTS casino_investigation_kept();
"""


def create(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(CREATE, params=None)


def drop(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(DROP, params=None)


class Migration(migrations.Migration):
    dependencies = [
        ("casino", "0021_venue_staff_roles_help"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="FluctuationInvestigation",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "handle",
                    models.DecimalField(decimal_places=2, max_digits=18, verbose_name="handle"),
                ),
                (
                    "house_win",
                    models.DecimalField(decimal_places=2, max_digits=18, verbose_name="house win"),
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
                    models.DateTimeField(blank=True, null=True, verbose_name="signed off at"),
                ),
                (
                    "closed_at",
                    models.DateTimeField(blank=True, null=True, verbose_name="closed at"),
                ),
                (
                    "flag_cleared_at",
                    models.DateTimeField(blank=True, null=True, verbose_name="flag cleared at"),
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
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="investigations",
                        to="casino.shiftreport",
                        verbose_name="report",
                    ),
                ),
                (
                    "shift",
                    models.ForeignKey(
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
            ],
            options={
                "verbose_name": "fluctuation investigation",
                "verbose_name_plural": "fluctuation investigations",
                "ordering": ["-opened_at", "-id"],
            },
        ),
        migrations.CreateModel(
            name="InvestigationNote",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
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
                        to="casino.fluctuationinvestigation",
                        verbose_name="investigation",
                    ),
                ),
            ],
            options={
                "verbose_name": "investigation note",
                "verbose_name_plural": "investigation notes",
                "ordering": ["investigation", "written_at", "id"],
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
                    models.Q(("findings_at__isnull", False), ("findings_by__isnull", False)),
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
                    models.Q(("signed_off_at__isnull", False), ("signed_off_by__isnull", False)),
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
        migrations.AddConstraint(
            model_name="investigationnote",
            constraint=models.UniqueConstraint(
                condition=models.Q(("key", ""), _negated=True),
                fields=("investigation", "key"),
                name="investigation_note_key",
            ),
        ),
        migrations.RunPython(create, drop),
    ]
