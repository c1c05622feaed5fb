"""The reports' Celery tasks; each takes ids and calls one service.

Every task is idempotent before it is ``acks_late``: a shift has one report per kind,
rebuilt in place, and a report already done (or being built by another worker) is left
alone, so a message delivered twice does no harm. ``reject_on_worker_lost`` puts a
message back when a worker process is killed under a task; a whole worker that dies
leaves its message unacknowledged, and Redis delivers it again after the broker's
visibility timeout (``CELERY_VISIBILITY_TIMEOUT``). The sweep is the last resort for a
build whose message was lost. Passing errors (the database or broker going away) are
retried with exponential backoff and jitter; anything else marks the report failed.

Each keeps the name it was first published under (``casino.tasks.…``): messages already
queued and the beat's schedule rows name a task by it.
"""

from __future__ import annotations

from celery import shared_task

from casino.kernel.tasks import MAX_RETRIES, PASSING, backoff
from casino.reports import services
from casino.reports.models import ShiftReport


@shared_task(
    name="casino.tasks.shift_report_build_task",
    bind=True,
    acks_late=True,
    reject_on_worker_lost=True,
    soft_time_limit=services.SOFT_TIME_LIMIT,
    time_limit=services.TIME_LIMIT,
    max_retries=MAX_RETRIES,
)
def shift_report_build_task(self, report_id: int) -> str:
    """Build a shift report's figures and files (``services.report_build``)."""
    try:
        report = services.report_build(report_id=report_id)
    except ShiftReport.DoesNotExist:
        return "gone"
    except PASSING as error:
        services.report_retry_wait(report_id=report_id, error=f"{type(error).__name__}: {error}")
        raise self.retry(exc=error, countdown=backoff(self.request.retries)) from error
    return report.status


@shared_task(
    name="casino.tasks.shift_report_email_task",
    bind=True,
    acks_late=True,
    soft_time_limit=60,
    time_limit=90,
    max_retries=MAX_RETRIES,
)
def shift_report_email_task(self, report_id: int) -> int:
    """E-mail a finished report to the venue's managers, once (``services.report_email``)."""
    try:
        return services.report_email(report_id=report_id)
    except ShiftReport.DoesNotExist:
        return 0
    except (*PASSING, OSError) as error:
        raise self.retry(exc=error, countdown=backoff(self.request.retries)) from error


@shared_task(
    name="casino.tasks.shift_reports_sweep_task", acks_late=True, soft_time_limit=60, time_limit=90
)
def shift_reports_sweep_task() -> dict[str, int]:
    """Every 5 minutes (beat): report ended shifts, send lost builds again."""
    return services.reports_sweep()
