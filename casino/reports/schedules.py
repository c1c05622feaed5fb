"""The beat schedule of the reports, kept in django-celery-beat's tables.

Migration 0005 installs it; ``manage.py setup_schedules`` installs it again (idempotent)
if someone deleted it. A manager can pause it or change its interval in the admin.
"""

from __future__ import annotations

from django.db import transaction
from django_celery_beat.models import IntervalSchedule, PeriodicTask

SWEEP_NAME = "shift reports: report ended shifts, resend lost builds"
SWEEP_TASK = "casino.tasks.shift_reports_sweep_task"
SWEEP_MINUTES = 5


@transaction.atomic
def schedules_install() -> tuple[PeriodicTask, bool]:
    """The sweep every 5 minutes; an existing entry keeps its interval and switch."""
    every, _created = IntervalSchedule.objects.get_or_create(
        every=SWEEP_MINUTES, period=IntervalSchedule.MINUTES
    )
    return PeriodicTask.objects.get_or_create(
        name=SWEEP_NAME, defaults={"task": SWEEP_TASK, "interval": every, "enabled": True}
    )
