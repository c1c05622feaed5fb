"""Install the Celery beat schedules the reports and the health checks need (idempotent)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from casino.ops.heartbeats import beat_schedule_install
from casino.reports.schedules import schedules_install


class Command(BaseCommand):
    help = (
        "Install the beat schedules of the shift report sweep (every 5 minutes) and of beat's "
        "heartbeat (every 30 seconds)."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        for task, created in (schedules_install(), beat_schedule_install()):
            state = "installed" if created else "already there"
            self.stdout.write(f"{task.name}: {state}, {task.interval}, enabled={task.enabled}")
