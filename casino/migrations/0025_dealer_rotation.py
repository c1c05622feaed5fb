"""Dealer rotation: a session's dealers in spells, and each round's dealer.

Every session gets one spell, its dealer's, from its opening to its close; every round
gets its session's dealer. The tallies' key takes the dealer, since a session's hour can
now hold two dealers' rounds (the tallies' dealer was already the session's).
"""

import django.db.models.deletion
import django.db.models.functions.comparison
from django.conf import settings
from django.db import migrations, models


def spells_and_round_dealers(apps, schema_editor):
    TableSession = apps.get_model("casino", "TableSession")
    DealerSpell = apps.get_model("casino", "DealerSpell")
    Round = apps.get_model("casino", "Round")
    sessions = TableSession.objects.order_by("pk").values_list(
        "pk", "dealer_id", "opened_by_id", "opened_at", "closed_at"
    )
    batch = []
    for pk, dealer_id, opened_by_id, opened_at, closed_at in sessions.iterator(chunk_size=2000):
        batch.append(
            DealerSpell(
                session_id=pk,
                dealer_id=dealer_id,
                recorded_by_id=opened_by_id,
                started_at=opened_at,
                ended_at=closed_at,
                ended_reason="end" if closed_at else "",
            )
        )
        if len(batch) == 2000:
            DealerSpell.objects.bulk_create(batch)
            batch = []
    DealerSpell.objects.bulk_create(batch)
    Round.objects.update(
        dealer_id=models.Subquery(
            TableSession.objects.filter(pk=models.OuterRef("session_id")).values("dealer_id")[:1]
        )
    )
    if schema_editor.connection.vendor == "postgresql":
        # The deferred foreign key checks of the rows just written run now, so the
        # column can be altered in the same transaction.
        schema_editor.execute("SET CONSTRAINTS ALL IMMEDIATE")


class Migration(migrations.Migration):
    dependencies = [
        ("casino", "0024_cash_transactions"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="DealerSpell",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("started_at", models.DateTimeField()),
                ("ended_at", models.DateTimeField(blank=True, null=True)),
                (
                    "ended_reason",
                    models.CharField(
                        blank=True,
                        choices=[
                            ("break", "Break"),
                            ("relief", "Relieved to another table"),
                            ("end", "Table closed"),
                        ],
                        max_length=16,
                    ),
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
                    "recorded_by",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "relieved_by",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "session",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="spells",
                        to="casino.tablesession",
                    ),
                ),
            ],
            options={
                "ordering": ["session", "started_at", "pk"],
                "indexes": [
                    models.Index(
                        fields=["dealer", "ended_at"], name="casino_deal_dealer__3d1b72_idx"
                    )
                ],
                "constraints": [
                    models.UniqueConstraint(
                        condition=models.Q(("ended_at__isnull", True)),
                        fields=("session",),
                        name="one_dealer_on_duty_per_session",
                    ),
                    models.CheckConstraint(
                        condition=models.Q(
                            ("ended_at__isnull", True),
                            ("ended_at__gte", models.F("started_at")),
                            _connector="OR",
                        ),
                        name="dealer_spell_ends_after_start",
                    ),
                ],
            },
        ),
        migrations.AddField(
            model_name="round",
            name="dealer",
            field=models.ForeignKey(
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="+",
                to=settings.AUTH_USER_MODEL,
            ),
        ),
        migrations.RunPython(spells_and_round_dealers, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="round",
            name="dealer",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.PROTECT,
                related_name="+",
                to=settings.AUTH_USER_MODEL,
            ),
        ),
        migrations.RemoveConstraint(
            model_name="bettally",
            name="bet_tally_key",
        ),
        migrations.AddConstraint(
            model_name="bettally",
            constraint=models.UniqueConstraint(
                models.F("session"),
                models.F("dealer"),
                models.F("hour"),
                django.db.models.functions.comparison.Coalesce(models.F("player"), models.Value(0)),
                models.F("game"),
                models.F("ruleset_version_id"),
                models.F("bet_type"),
                name="bet_tally_key",
            ),
        ),
    ]
