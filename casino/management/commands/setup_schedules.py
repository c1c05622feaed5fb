"""Install the Celery beat schedules the reports and the health checks need (idempotent)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from casino.compliance.tasks import patterns_schedule_install
from casino.ops.heartbeats import beat_schedule_install
from casino.reports.schedules import schedules_install


class Command(BaseCommand):
    help = (
        "Install the beat schedules of the shift report sweep (every 5 minutes), of beat's "
        "heartbeat (every 30 seconds) and of the compliance's search of the cash log for "
        "patterns (every hour)."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        installed = (schedules_install(), beat_schedule_install(), patterns_schedule_install())
        for task, created in installed:
            state = "installed" if created else "already there"
            self.stdout.write(f"{task.name}: {state}, {task.interval}, enabled={task.enabled}")
