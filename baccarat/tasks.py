"""Celery tasks of the Baccarat app; each takes ids and calls one service."""

from __future__ import annotations

from celery import shared_task

from baccarat.house_edge import figures_compute, figures_failed


@shared_task(
    bind=True,
    acks_late=True,
    soft_time_limit=60,
    time_limit=90,
    autoretry_for=(Exception,),
    retry_backoff=True,
    max_retries=3,
)
def ruleset_figures_task(self, version_id: int) -> str:
    """Compute the exact odds of a ruleset version's rules (idempotent by content hash)."""
    try:
        row = figures_compute(version_id=version_id)
    except Exception as error:
        if self.request.retries >= self.max_retries:
            figures_failed(version_id=version_id, error=f"{type(error).__name__}: {error}")
        raise
    return row.rules_hash
