"""A venue's gaming day start and shift plan, and the gaming days made (``GamingDay``).

The gaming days the floor played before are made from their "day" shifts (06:00 to 06:00,
one per gaming date), so that the days made next follow on from them.
"""

import datetime
import django.db.models.deletion
from django.db import migrations, models
from django.db.models import Max, Min


def days_of_the_day_shifts(apps, schema_editor):
    Shift = apps.get_model("casino", "Shift")
    GamingDay = apps.get_model("casino", "GamingDay")
    days = (
        Shift.objects.filter(name="day")
        .values("venue_id", "gaming_date")
        .annotate(starts_at=Min("starts_at"), ends_at=Max("ends_at"))
        .order_by("venue_id", "gaming_date")
    )
    GamingDay.objects.bulk_create(
        GamingDay(
            venue_id=day["venue_id"],
            gaming_date=day["gaming_date"],
            starts_at=day["starts_at"],
            ends_at=day["ends_at"],
            shift_plan=[{"name": "day", "starts": "06:00"}],
        )
        for day in days
    )


class Migration(migrations.Migration):
    dependencies = [
        ("casino", "0017_count"),
    ]

    operations = [
        migrations.AddField(
            model_name="venue",
            name="gaming_day_starts",
            field=models.TimeField(
                default=datetime.time(6, 0),
                help_text="The time of day, in the venue's time zone, when its gaming day starts; it changes only while all of its tables are closed.",
                verbose_name="gaming day starts",
            ),
        ),
        migrations.AddField(
            model_name="venue",
            name="shift_plan",
            field=models.JSONField(
                blank=True,
                default=list,
                help_text='The gaming day\'s shifts in order, each a name and the time it starts; the first starts when the gaming day starts, each ends when the next starts. None: one shift named "day" for the whole gaming day.',
                verbose_name="shifts",
            ),
        ),
        migrations.CreateModel(
            name="GamingDay",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("gaming_date", models.DateField()),
                ("starts_at", models.DateTimeField()),
                ("ends_at", models.DateTimeField()),
                (
                    "shift_plan",
                    models.JSONField(
                        default=list,
                        help_text="The shifts of the day: a name and the time it starts.",
                    ),
                ),
                (
                    "venue",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="gaming_days",
                        to="casino.venue",
                    ),
                ),
            ],
            options={
                "ordering": ["venue__code", "-starts_at"],
                "constraints": [
                    models.UniqueConstraint(
                        fields=("venue", "gaming_date"), name="gaming_day_unique"
                    ),
                    models.CheckConstraint(
                        condition=models.Q(("ends_at__gt", models.F("starts_at"))),
                        name="gaming_day_ends_after_start",
                    ),
                ],
            },
        ),
        migrations.RunPython(days_of_the_day_shifts, migrations.RunPython.noop),
    ]
