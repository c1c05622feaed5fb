"""A lost database answers 503 (retry), not 500 (a bug).

When PostgreSQL restarts or fails over, requests in flight and the first ones after it
fail with ``OperationalError`` / ``InterfaceError``: nothing was written (each service is
one transaction, rolled back with the connection), and the same request again, with the
same ``Idempotency-Key`` or ``create_key``, is safe. So the client is told to retry:
``503 Service Unavailable`` with ``Retry-After`` and, under ``/api/``, the API's error body
``{"error": "unavailable", "detail": ..., "field": null}``.

Django closes a connection that failed at the end of the request, so the next request on
that worker connects again; with ``CONN_HEALTH_CHECKS = True`` a persistent connection
that died while idle is replaced before a request uses it, so no request fails after the
database is back.

Hooked as ``casino.api.unavailable.DatabaseUnavailableMiddleware`` in ``MIDDLEWARE``.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse

logger = logging.getLogger(__name__)

#: Seconds a client waits before retrying (a PostgreSQL restart takes a few).
RETRY_AFTER = 2
DETAIL = (
    "the database is unavailable for a moment; nothing was changed, send the same request again"
)


def unavailable_response(request: HttpRequest) -> HttpResponse:
    """503 with the API's error body under ``/api/``, plain text elsewhere (the console)."""
    if request.path.startswith("/api/"):
        response: HttpResponse = JsonResponse(
            {"error": "unavailable", "detail": DETAIL, "field": None}, status=503
        )
    else:
        response = HttpResponse(
            "The database is unavailable for a moment: nothing was changed. Try again.",
            status=503,
            content_type="text/plain; charset=utf-8",
        )
    response["Retry-After"] = str(RETRY_AFTER)
    return response


class DatabaseUnavailableMiddleware:
    """Turn a lost database connection raised by a view into a 503 the client can retry."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, OperationalError | InterfaceError):
            return None
        logger.warning("database unavailable: %s %s: %s", request.method, request.path, exception)
        return unavailable_response(request)
