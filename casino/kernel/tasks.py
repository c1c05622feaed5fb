"""What every Celery task of the project does with a passing error: which errors pass, and
how long it waits before trying again."""

from __future__ import annotations

from celery.utils.time import get_exponential_backoff_interval
from django.db import InterfaceError, OperationalError

#: Errors that pass: the task is tried again later.
PASSING = (OperationalError, InterfaceError, ConnectionError, TimeoutError)
MAX_RETRIES = 5


def backoff(retries: int) -> int:
    """Seconds before the next try: 10 s, 20 s, 40 s ... at most 10 minutes (well inside the
    broker's visibility timeout), with full jitter."""
    return get_exponential_backoff_interval(
        factor=10, retries=retries, maximum=600, full_jitter=True
    )
