"""Structured logs: one JSON object a line, each saying which request or task it belongs to.

Every line (``LOG_FORMAT=json``, the default) holds ``time`` (ISO 8601, UTC), ``level``,
``logger``, ``message``, ``request_id``, ``user`` and ``venue``, then the fields a call
passes in ``extra`` (``logger.info("...", extra={"report": 12})``), and ``exception`` with
the traceback when there is one. ``LOG_FORMAT=text`` writes the same on one readable line
for a terminal (``make run``).

Where the context comes from (context variables, so threads and tasks never mix them up):

- ``RequestLogMiddleware``: a request's id (its ``X-Request-ID`` header when it is a sane
  one, such as a proxy's, else a new UUID; echoed in the response's ``X-Request-ID``), the
  user once logged in, and one access line per request (``casino.access``: method, path,
  status, duration in ms). A 403 answer is also a line on ``casino.security``.
- ``log_venue(venue)``: a view that knows its venue says so (the reports' views, the
  console's table views).
- Celery's ``task_prerun``/``task_postrun`` signals: a task's id is its lines'
  ``request_id``, its name in ``task``; a line when it ends with its state and duration.
"""

from __future__ import annotations

import json
import logging
import re
import time
import uuid
from collections.abc import Callable
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import Any

from django.http import HttpRequest, HttpResponse

access_logger = logging.getLogger("casino.access")
security_logger = logging.getLogger("casino.security")
task_logger = logging.getLogger("casino.tasks")

request_id_var: ContextVar[str | None] = ContextVar("log_request_id", default=None)
user_var: ContextVar[str | None] = ContextVar("log_user", default=None)
venue_var: ContextVar[str | None] = ContextVar("log_venue", default=None)
task_var: ContextVar[str | None] = ContextVar("log_task", default=None)

#: The header a request's id comes in and goes out with.
HEADER = "X-Request-ID"
#: A request id taken from a client or proxy: short, and nothing that could forge a line.
SANE_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:\-]{0,127}")

#: What every LogRecord has: not ``extra`` fields.
_STANDARD = set(vars(logging.LogRecord("", 0, "", 0, "", (), None))) | {
    "message",
    "asctime",
    "request_id",
    "user",
    "venue",
    "task",
    "context",
}


def log_venue(venue: Any) -> None:
    """The venue (a ``Venue`` or its code) the current request's lines are about."""
    venue_var.set(getattr(venue, "code", venue) if venue is not None else None)


def request_id_from(header: str | None) -> str:
    """The client's id when it is sane, else a new one."""
    if header and SANE_ID.fullmatch(header):
        return header
    return uuid.uuid4().hex


class ContextFilter(logging.Filter):
    """Puts the request's (or task's) id, user, venue and task on every record."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = request_id_var.get()
        record.user = user_var.get()
        record.venue = venue_var.get()
        task = task_var.get()
        if task is not None and not hasattr(record, "task"):
            record.task = task
        return True


class JsonFormatter(logging.Formatter):
    """One JSON object a line."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            "request_id": getattr(record, "request_id", request_id_var.get()),
            "user": getattr(record, "user", user_var.get()),
            "venue": getattr(record, "venue", venue_var.get()),
        }
        if getattr(record, "task", None):
            line["task"] = record.task
        for name, value in vars(record).items():
            if name not in _STANDARD and not name.startswith("_"):
                line[name] = value
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        elif record.stack_info:
            line["stack"] = self.formatStack(record.stack_info)
        return json.dumps(line, default=str, ensure_ascii=False)


class TextFormatter(logging.Formatter):
    """The same on one readable line: time, level, logger, [request user venue], message."""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)s %(name)s [%(context)s] %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        context = [getattr(record, name, None) for name in ("request_id", "user", "venue")]
        record.context = " ".join(str(value) if value else "-" for value in context)
        return super().format(record)


def _username(request: HttpRequest) -> str | None:
    user = getattr(request, "user", None)
    return user.get_username() if user is not None and user.is_authenticated else None


class RequestLogMiddleware:
    """A request id for every line of a request, and one access line when it is answered."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        request_id = request_id_from(request.headers.get(HEADER))
        tokens = [
            (request_id_var, request_id_var.set(request_id)),
            (user_var, user_var.set(None)),
            (venue_var, venue_var.set(None)),
        ]
        started = time.perf_counter()
        try:
            response = self.get_response(request)
            duration = round((time.perf_counter() - started) * 1000, 1)
            # An API token's user is known once its view authenticated it.
            user_var.set(_username(request))
            response[HEADER] = request_id
            fields = {
                "method": request.method,
                "path": request.path,
                "status": response.status_code,
                "duration_ms": duration,
            }
            if response.status_code == 403:
                security_logger.warning(
                    "permission denied: %s %s", request.method, request.path, extra=fields
                )
            access_logger.info(
                "%s %s %s %.1f ms",
                request.method,
                request.path,
                response.status_code,
                duration,
                extra=fields,
            )
            return response
        finally:
            for var, token in reversed(tokens):
                var.reset(token)

    def process_view(self, request: HttpRequest, *args: Any) -> None:
        # After every middleware before the view ran: the session's user is known.
        user_var.set(_username(request))


def not_at_venue(what: str, **fields: Any) -> None:
    """A security line: the user asked for something of a venue they do not work at."""
    security_logger.warning("not found at the user's venues: %s", what, extra=fields)


_task_tokens: dict[str, list[tuple[ContextVar, Any]]] = {}
_task_started: dict[str, float] = {}


def task_started(task_id: str | None = None, task: Any = None, **_kwargs: Any) -> None:
    """``task_prerun``: the task's id is its lines' request id."""
    if task_id is None:
        return
    _task_tokens[task_id] = [
        (request_id_var, request_id_var.set(task_id)),
        (task_var, task_var.set(getattr(task, "name", None))),
        (user_var, user_var.set(None)),
        (venue_var, venue_var.set(None)),
    ]
    _task_started[task_id] = time.perf_counter()


def task_ended(task_id: str | None = None, task: Any = None, state: Any = None, **_kw: Any) -> None:
    """``task_postrun``: one line with the task's state and duration, then its context goes."""
    if task_id is None:
        return
    started = _task_started.pop(task_id, None)
    duration = round((time.perf_counter() - started) * 1000, 1) if started is not None else None
    task_logger.info(
        "task %s %s in %s ms",
        getattr(task, "name", "?"),
        state,
        duration,
        extra={"state": state, "duration_ms": duration},
    )
    for var, token in reversed(_task_tokens.pop(task_id, [])):
        try:
            var.reset(token)
        except ValueError:  # set in another context (a pool's thread): just clear it
            var.set(None)


def connect_celery_signals() -> None:
    from celery.signals import task_postrun, task_prerun

    task_prerun.connect(task_started, weak=False, dispatch_uid="casino.kernel.logs.task_started")
    task_postrun.connect(task_ended, weak=False, dispatch_uid="casino.kernel.logs.task_ended")
