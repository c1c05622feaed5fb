"""The compliance's jobs on the worker: the nightly search of the cash log for laundering
patterns (``casino.compliance.detection``), every venue's gaming day just ended."""

from __future__ import annotations

from celery import shared_task
from django.db import transaction
from django_celery_beat.models import IntervalSchedule, PeriodicTask

from casino.compliance.detection import patterns_detect_ended


@shared_task(
    name="casino.tasks.compliance_patterns_task",
    acks_late=True,
    soft_time_limit=600,
    time_limit=660,
)
def compliance_patterns_task() -> dict[str, int]:
    """Each venue's gaming day just ended, searched; the cases opened per venue code."""
    return {venue.code: len(cases) for venue, cases in patterns_detect_ended()}


PATTERNS_NAME = "compliance: search each venue's cash log of the day just ended for patterns"
PATTERNS_TASK = "casino.tasks.compliance_patterns_task"
#: Hourly: a venue's gaming day ends at its own hour; a finding opens its case once.
PATTERNS_HOURS = 1


@transaction.atomic
def patterns_schedule_install() -> tuple[PeriodicTask, bool]:
    """The search every hour in django-celery-beat's tables; an existing entry keeps its
    interval and switch (a manager may pause it in the admin)."""
    every, _created = IntervalSchedule.objects.get_or_create(
        every=PATTERNS_HOURS, period=IntervalSchedule.HOURS
    )
    return PeriodicTask.objects.get_or_create(
        name=PATTERNS_NAME, defaults={"task": PATTERNS_TASK, "interval": every, "enabled": True}
    )
