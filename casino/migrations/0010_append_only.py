"""A drop entered by mistake is reversed by a drop that names it (nothing is deleted), and a
round's settle key is unique within its session instead of across every venue.
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

class Migration(migrations.Migration):
    dependencies = [
        ("casino", "0009_login_records"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RemoveConstraint(
            model_name="drop",
            name="drop_amount_positive",
        ),
        migrations.AddField(
            model_name="drop",
            name="reason",
            field=models.CharField(blank=True, help_text="Why it was reversed.", max_length=255),
        ),
        migrations.AddField(
            model_name="drop",
            name="reverses",
            field=models.OneToOneField(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="reversed_by",
                to="casino.drop",
            ),
        ),
        migrations.AlterField(
            model_name="drop",
            name="amount",
            field=models.DecimalField(
                decimal_places=2,
                help_text="Positive; a reversal is the reversed drop's, negated.",
                max_digits=18,
            ),
        ),
        migrations.AddConstraint(
            model_name="drop",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    models.Q(("amount__gt", 0), ("reverses__isnull", True)),
                    models.Q(("amount__lt", 0), ("reverses__isnull", False)),
                    _connector="OR",
                ),
                name="drop_positive_or_a_reversal",
            ),
        ),
        migrations.AlterField(
            model_name="round",
            name="settle_key",
            field=models.CharField(blank=True, max_length=64, null=True),
        ),
        migrations.AddConstraint(
            model_name="round",
            constraint=models.UniqueConstraint(
                fields=("session", "settle_key"), name="round_settle_key_per_session"
            ),
        ),
    ]
