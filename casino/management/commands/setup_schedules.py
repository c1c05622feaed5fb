"""Install the Celery beat schedules the reports need (idempotent)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from casino.reports.schedules import schedules_install


class Command(BaseCommand):
    help = "Install the beat schedule of the shift report sweep (every 5 minutes)."

    def handle(self, *args: Any, **options: Any) -> None:
        task, created = schedules_install()
        state = "installed" if created else "already there"
        self.stdout.write(f"{task.name}: {state}, {task.interval}, enabled={task.enabled}")
