"""The operations' Celery task: beat's heartbeat (``casino.ops.heartbeats``)."""

from __future__ import annotations

from celery import shared_task

from casino.ops.heartbeats import BEAT, BEAT_TASK, heartbeat_write


@shared_task(name=BEAT_TASK, acks_late=True, ignore_result=True)
def beat_heartbeat_task() -> None:
    """Write beat's heartbeat; idempotent (a late or repeated message writes a time again)."""
    heartbeat_write(BEAT)
