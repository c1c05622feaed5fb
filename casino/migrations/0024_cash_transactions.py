"""Buy-ins and cash-outs, the venues' cash thresholds and the cash alerts, kept for good.

On PostgreSQL a DELETE or TRUNCATE of any of them is refused (a transaction is voided, a
threshold version superseded by a newer one, an alert stays). SQLite has no such triggers.
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

TABLES = ("casino_cashtransaction", "casino_cashthresholds", "casino_cashalert")

CREATE = """
CREATE OR REPLACE FUNCTION casino_cash_kept() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'cash transactions, thresholds and alerts are never deleted'
        USING ERRCODE = 'integrity_constraint_violation';
END;
$$ LANGUAGE plpgsql;
""" + "".join(
    f"""
CREATE TRIGGER {table}_kept BEFORE DELETE ON {table}
    FOR EACH ROW EXECUTE FUNCTION casino_cash_kept();
CREATE TRIGGER {table}_no_truncate BEFORE TRUNCATE ON {table}
    FOR EACH STATEMENT EXECUTE FUNCTION casino_refuse_truncate();
"""
    for table in TABLES
)

DROP = (
    "".join(
        f"""
DROP TRIGGER IF EXISTS {table}_no_truncate ON {table};
DROP TRIGGER IF EXISTS {table}_kept ON {table};
"""
        for table in TABLES
    )
    + "DROP FUNCTION IF EXISTS casino_cash_kept();"
)


def create(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(CREATE, params=None)


def drop(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(DROP, params=None)


class Migration(migrations.Migration):
    dependencies = [
        ("casino", "0023_tally_local_hour"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="CashTransaction",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "kind",
                    models.CharField(
                        choices=[("buy_in", "Buy-in"), ("cash_out", "Cash-out")],
                        max_length=16,
                        verbose_name="kind",
                    ),
                ),
                (
                    "instrument",
                    models.CharField(
                        choices=[
                            ("cash", "Cash"),
                            ("chips", "Chips"),
                            ("marker", "Marker"),
                            ("other", "Other"),
                        ],
                        max_length=16,
                        verbose_name="instrument",
                    ),
                ),
                (
                    "amount",
                    models.DecimalField(decimal_places=2, max_digits=18, verbose_name="amount"),
                ),
                ("gaming_date", models.DateField(verbose_name="gaming date")),
                ("recorded_at", models.DateTimeField(verbose_name="recorded at")),
                (
                    "voided_at",
                    models.DateTimeField(blank=True, null=True, verbose_name="voided at"),
                ),
                ("void_reason", models.TextField(blank=True, verbose_name="reason for the void")),
                ("key", models.CharField(blank=True, editable=False, max_length=64)),
                (
                    "player",
                    models.ForeignKey(
                        blank=True,
                        help_text="Empty: a player nobody knows (counted for the table only).",
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="cash_transactions",
                        to="casino.player",
                        verbose_name="player",
                    ),
                ),
                (
                    "recorded_by",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="recorded by",
                    ),
                ),
                (
                    "session",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="cash_transactions",
                        to="casino.tablesession",
                        verbose_name="session",
                    ),
                ),
                (
                    "table",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="cash_transactions",
                        to="casino.table",
                        verbose_name="table",
                    ),
                ),
                (
                    "venue",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="cash_transactions",
                        to="casino.venue",
                        verbose_name="venue",
                    ),
                ),
                (
                    "voided_by",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="voided by",
                    ),
                ),
            ],
            options={
                "verbose_name": "buy-in or cash-out",
                "verbose_name_plural": "buy-ins and cash-outs",
                "ordering": ["-recorded_at", "-id"],
            },
        ),
        migrations.CreateModel(
            name="CashAlert",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("gaming_date", models.DateField(verbose_name="gaming date")),
                (
                    "direction",
                    models.CharField(
                        choices=[("buy_in", "Buy-in"), ("cash_out", "Cash-out")],
                        max_length=16,
                        verbose_name="direction",
                    ),
                ),
                (
                    "total",
                    models.DecimalField(
                        decimal_places=2, max_digits=18, verbose_name="day's total when raised"
                    ),
                ),
                (
                    "threshold",
                    models.DecimalField(
                        decimal_places=2, max_digits=18, verbose_name="reporting threshold"
                    ),
                ),
                ("raised_at", models.DateTimeField(verbose_name="raised at")),
                (
                    "player",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="cash_alerts",
                        to="casino.player",
                        verbose_name="player",
                    ),
                ),
                (
                    "venue",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="cash_alerts",
                        to="casino.venue",
                        verbose_name="venue",
                    ),
                ),
                (
                    "transaction",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="alerts",
                        to="casino.cashtransaction",
                        verbose_name="transaction that reached it",
                    ),
                ),
            ],
            options={
                "verbose_name": "cash alert",
                "verbose_name_plural": "cash alerts",
                "ordering": ["-raised_at", "-id"],
            },
        ),
        migrations.CreateModel(
            name="CashThresholds",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "logging_threshold",
                    models.DecimalField(
                        decimal_places=2,
                        help_text="A player's cash in (or out) of a gaming day at or above it is logged.",
                        max_digits=18,
                        verbose_name="logging threshold",
                    ),
                ),
                (
                    "reporting_threshold",
                    models.DecimalField(
                        decimal_places=2,
                        help_text="A player's cash in (or out) of a gaming day at or above it raises an alert to the cage and the managers, and is a report candidate.",
                        max_digits=18,
                        verbose_name="reporting threshold",
                    ),
                ),
                (
                    "status",
                    models.CharField(
                        choices=[("proposed", "Proposed"), ("approved", "Approved")],
                        default="proposed",
                        max_length=16,
                        verbose_name="status",
                    ),
                ),
                ("proposed_at", models.DateTimeField(verbose_name="proposed at")),
                (
                    "approved_at",
                    models.DateTimeField(blank=True, null=True, verbose_name="approved at"),
                ),
                (
                    "approved_by",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="approved by",
                    ),
                ),
                (
                    "proposed_by",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="proposed by",
                    ),
                ),
                (
                    "venue",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="cash_thresholds",
                        to="casino.venue",
                        verbose_name="venue",
                    ),
                ),
            ],
            options={
                "verbose_name": "cash thresholds",
                "verbose_name_plural": "cash thresholds",
                "ordering": ["venue", "-proposed_at", "-id"],
                "constraints": [
                    models.CheckConstraint(
                        condition=models.Q(
                            ("logging_threshold__gt", 0),
                            ("reporting_threshold__gte", models.F("logging_threshold")),
                        ),
                        name="cash_thresholds_ordered",
                    ),
                    models.CheckConstraint(
                        condition=models.Q(
                            ("status", "proposed"),
                            models.Q(
                                ("approved_at__isnull", False), ("approved_by__isnull", False)
                            ),
                            _connector="OR",
                        ),
                        name="cash_thresholds_approved_signed",
                    ),
                ],
            },
        ),
        migrations.AddIndex(
            model_name="cashtransaction",
            index=models.Index(
                fields=["venue", "gaming_date", "player"], name="casino_cash_venue_i_bf307a_idx"
            ),
        ),
        migrations.AddIndex(
            model_name="cashtransaction",
            index=models.Index(
                fields=["player", "-recorded_at"], name="casino_cash_player__e1115e_idx"
            ),
        ),
        migrations.AddIndex(
            model_name="cashtransaction",
            index=models.Index(
                fields=["session", "-recorded_at"], name="casino_cash_session_affc1f_idx"
            ),
        ),
        migrations.AddConstraint(
            model_name="cashtransaction",
            constraint=models.CheckConstraint(
                condition=models.Q(("amount__gt", 0)), name="cash_amount_positive"
            ),
        ),
        migrations.AddConstraint(
            model_name="cashtransaction",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("voided_at__isnull", True),
                    models.Q(
                        ("voided_by__isnull", False), models.Q(("void_reason", ""), _negated=True)
                    ),
                    _connector="OR",
                ),
                name="cash_void_signed",
            ),
        ),
        migrations.AddConstraint(
            model_name="cashtransaction",
            constraint=models.UniqueConstraint(
                condition=models.Q(("key", ""), _negated=True),
                fields=("venue", "key"),
                name="cash_key_once",
            ),
        ),
        migrations.AddConstraint(
            model_name="cashalert",
            constraint=models.UniqueConstraint(
                fields=("venue", "player", "gaming_date", "direction"), name="cash_alert_once"
            ),
        ),
        migrations.RunPython(create, drop),
    ]
