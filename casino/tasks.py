"""Celery tasks of the floor app; each takes ids and calls one service.

Every task is idempotent before it is ``acks_late``: a shift has one report per kind,
rebuilt in place, and a report already done (or being built by another worker) is left
alone, so a message delivered twice does no harm. ``reject_on_worker_lost`` puts a
message back when a worker process is killed under a task; a whole worker that dies
leaves its message unacknowledged, and Redis delivers it again after the broker's
visibility timeout (``CELERY_VISIBILITY_TIMEOUT``). The sweep is the last resort for a
build whose message was lost. Passing errors (the database or broker going away) are
retried with exponential backoff and jitter; anything else marks the report failed.
"""

from __future__ import annotations

from celery import shared_task
from celery.utils.time import get_exponential_backoff_interval
from django.db import InterfaceError, OperationalError

from casino.reports import services
from casino.reports.models import ShiftReport

#: Errors that pass: the build is tried again later.
PASSING = (OperationalError, InterfaceError, ConnectionError, TimeoutError)
MAX_RETRIES = 5


def _backoff(retries: int) -> int:
    # 10 s, 20 s, 40 s ... at most 10 minutes (well inside the broker's visibility timeout).
    return get_exponential_backoff_interval(
        factor=10, retries=retries, maximum=600, full_jitter=True
    )


@shared_task(
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
        raise self.retry(exc=error, countdown=_backoff(self.request.retries)) from error
    return report.status


@shared_task(
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
        raise self.retry(exc=error, countdown=_backoff(self.request.retries)) from error


@shared_task(acks_late=True, soft_time_limit=60, time_limit=90)
def shift_reports_sweep_task() -> dict[str, int]:
    """Every 5 minutes (beat): report ended shifts, send lost builds again."""
    return services.reports_sweep()


@shared_task(
    bind=True, acks_late=True, soft_time_limit=600, time_limit=660, max_retries=MAX_RETRIES
)
def integrity_run_task(
    self, run_id: int | None = None, venue_id: int | None = None, gaming_date: str | None = None
) -> str:
    """Run the integrity tests: a run asked for (``run_id``), or a venue's gaming day
    (``venue_id`` and ``gaming_date``, ISO) once it closed (casino.integrity.runs)."""
    from datetime import date

    from casino.integrity import runs
    from casino.integrity.models import IntegrityRun
    from casino.venues.models import Venue

    try:
        if run_id is not None:
            run = IntegrityRun.objects.select_related("venue").get(pk=run_id)
            if run.status == IntegrityRun.Status.DONE:
                return "done"
            run = runs.integrity_run(
                venue=run.venue, date_from=run.date_from, date_to=run.date_to, run=run
            )
        else:
            day = date.fromisoformat(gaming_date or "")
            run = runs.integrity_run(
                venue=Venue.objects.get(pk=venue_id), date_from=day, date_to=day
            )
    except (IntegrityRun.DoesNotExist, Venue.DoesNotExist):
        return "gone"
    except PASSING as error:
        raise self.retry(exc=error, countdown=_backoff(self.request.retries)) from error
    except Exception as error:
        if run_id is not None:
            IntegrityRun.objects.filter(pk=run_id).update(
                status=IntegrityRun.Status.FAILED, error=f"{type(error).__name__}: {error}"[:2000]
            )
        raise
    return run.status
