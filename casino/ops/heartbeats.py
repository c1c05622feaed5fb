"""The Celery worker's and beat's heartbeats, which ``/readyz`` reads (``casino.ops.checks``).

Both are a time written to the shared cache (``CACHE_URL``, Redis), so any web process reads
what the worker and beat wrote, at the cost of one cache read per probe:

- the **worker**: Celery's own event heartbeat (``heartbeat_sent``, every 2 s from the
  worker's main process while it is connected to the broker) writes the time, at most once
  every :data:`WORKER_EVERY` seconds. No task is sent and no broadcast asked (``celery
  inspect ping`` would make every probe wait for every worker's answer);
- **beat**: a schedule row (migration ``0001``, :func:`beat_schedule_install`) sends
  ``casino.ops.tasks.beat_heartbeat_task`` every :data:`BEAT_EVERY` seconds, and the worker
  that runs it writes the time. A fresh beat heartbeat so also says a message went through
  the broker and was run; a stale one beside a fresh worker heartbeat means beat is down (or
  the queue is backed up behind long tasks).
"""

from __future__ import annotations

import time

from celery.signals import heartbeat_sent
from django.core.cache import cache
from django.db import transaction
from django_celery_beat.models import IntervalSchedule, PeriodicTask

WORKER = "worker"
BEAT = "beat"
#: How often the worker writes its heartbeat, and how often beat sends its task (seconds).
WORKER_EVERY = 10.0
BEAT_EVERY = 30
BEAT_SCHEDULE = "operations: beat's heartbeat"
BEAT_TASK = "casino.ops.tasks.beat_heartbeat_task"
_KEY = "ops:heartbeat:{}"
#: The heartbeats are kept this long; an absent one is as stale as an old one.
_KEEP = 24 * 3600

_last_written: dict[str, float] = {}


def heartbeat_write(name: str, *, at: float | None = None) -> None:
    """Write ``name``'s heartbeat: now, or ``at`` (seconds since the epoch)."""
    cache.set(_KEY.format(name), time.time() if at is None else at, timeout=_KEEP)


def heartbeat_age(name: str) -> float | None:
    """Seconds since ``name``'s last heartbeat, or ``None`` if there is none."""
    written = cache.get(_KEY.format(name))
    return None if written is None else max(0.0, time.time() - float(written))


@heartbeat_sent.connect
def _worker_heartbeat(**_kwargs: object) -> None:
    now = time.monotonic()
    if now - _last_written.get(WORKER, float("-inf")) >= WORKER_EVERY:
        heartbeat_write(WORKER)
        _last_written[WORKER] = now


@transaction.atomic
def beat_schedule_install() -> tuple[PeriodicTask, bool]:
    """Beat's heartbeat every :data:`BEAT_EVERY` seconds, its messages expiring after two
    (none pile up while no worker runs); an existing entry keeps its interval and switch."""
    every, _created = IntervalSchedule.objects.get_or_create(
        every=BEAT_EVERY, period=IntervalSchedule.SECONDS
    )
    return PeriodicTask.objects.get_or_create(
        name=BEAT_SCHEDULE,
        defaults={
            "task": BEAT_TASK,
            "interval": every,
            "enabled": True,
            "expire_seconds": 2 * BEAT_EVERY,
        },
    )
