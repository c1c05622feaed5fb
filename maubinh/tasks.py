"""Celery tasks of the Mau Binh app; each takes ids and calls one service."""

from __future__ import annotations

from celery import shared_task

from maubinh.house_take import figures_compute, figures_failed


@shared_task(
    bind=True,
    acks_late=True,
    soft_time_limit=240,
    time_limit=300,
    autoretry_for=(Exception,),
    retry_backoff=True,
    max_retries=3,
)
def maubinh_house_take_task(self, version_id: int) -> str:
    """Simulate the house take of a ruleset version's rules (idempotent by content hash).

    The simulation takes 15 to 35 s at the default number of deals; the limits leave room
    for a busy worker.
    """
    try:
        row = figures_compute(version_id=version_id)
    except Exception as error:
        if self.request.retries >= self.max_retries:
            figures_failed(version_id=version_id, error=f"{type(error).__name__}: {error}")
        raise
    return row.rules_hash
