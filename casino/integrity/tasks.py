"""The integrity run as a Celery task: a run asked for on its page, or a venue's gaming day
once it closed. It keeps the name it was first published under (``casino.tasks.…``):
messages already queued name a task by it. Passing errors are retried with backoff
(``casino.kernel.tasks``); anything else marks the run failed."""

from __future__ import annotations

from celery import shared_task

from casino.kernel.tasks import MAX_RETRIES, PASSING, backoff


@shared_task(
    name="casino.tasks.integrity_run_task",
    bind=True,
    acks_late=True,
    soft_time_limit=600,
    time_limit=660,
    max_retries=MAX_RETRIES,
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
        raise self.retry(exc=error, countdown=backoff(self.request.retries)) from error
    except Exception as error:
        if run_id is not None:
            IntegrityRun.objects.filter(pk=run_id).update(
                status=IntegrityRun.Status.FAILED, error=f"{type(error).__name__}: {error}"[:2000]
            )
        raise
    return run.status
