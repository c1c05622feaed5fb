"""The figures a service measures as it works, for the Prometheus endpoint (``/metrics``).

Only what no table keeps is measured here: how long a settle takes, and the web's requests
(``casino.ops.middleware``). Everything the database holds (rounds settled, open sessions,
slips waiting, report build times, integrity alerts, lockouts) is counted from it at scrape
time (``casino.ops.metrics``), exact whatever the number of processes.

Several gunicorn workers (and Celery's) each keep their own figures: with
``PROMETHEUS_MULTIPROC_DIR`` set (before the process starts) prometheus-client writes them to
files in that folder, and the scrape sums every process's (:func:`scrape_registry`).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar

from prometheus_client import REGISTRY, CollectorRegistry, Counter, Histogram
from prometheus_client.multiprocess import MultiProcessCollector

F = TypeVar("F", bound=Callable[..., Any])

#: A settle from its call to its commit: a Confirm at the table waits this long.
SETTLE_SECONDS = Histogram(
    "casino_settle_seconds",
    "Seconds a settle takes, from the call to the commit (refusals not counted).",
    buckets=(0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0),
)
HTTP_REQUESTS = Counter(
    "casino_http_requests", "Requests answered, by method and status class.", ["method", "status"]
)
HTTP_SECONDS = Histogram(
    "casino_http_request_seconds",
    "Seconds a request takes to answer, by method.",
    ["method"],
    buckets=(0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0),
)


def timed(histogram: Histogram) -> Callable[[F], F]:
    """Observe the seconds each call that returns takes (a refusal is not a settle)."""

    def decorate(function: F) -> F:
        @wraps(function)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            started = time.perf_counter()
            result = function(*args, **kwargs)
            histogram.observe(time.perf_counter() - started)
            return result

        return wrapper  # type: ignore[return-value]

    return decorate


def scrape_registry() -> CollectorRegistry:
    """Every process's figures (multiprocess mode), or this process's own."""
    folder = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    if not folder:
        return REGISTRY
    registry = CollectorRegistry()
    MultiProcessCollector(registry, path=folder)
    return registry
