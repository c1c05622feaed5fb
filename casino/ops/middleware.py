"""Every request counted and timed for ``/metrics`` (``casino.kernel.metrics``)."""

from __future__ import annotations

import time
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

from casino.kernel.metrics import HTTP_REQUESTS, HTTP_SECONDS

#: Methods named as they are; any other is "other" (a label per made-up method is unbounded).
METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})


class RequestMetricsMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        started = time.perf_counter()
        response = self.get_response(request)
        method = request.method if request.method in METHODS else "other"
        HTTP_SECONDS.labels(method).observe(time.perf_counter() - started)
        HTTP_REQUESTS.labels(method, f"{response.status_code // 100}xx").inc()
        return response
