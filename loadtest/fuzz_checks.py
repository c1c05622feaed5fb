"""Schemathesis hooks for ``make fuzz``: every 4xx of the API carries its JSON error body.

Loaded by the schemathesis CLI through ``SCHEMATHESIS_HOOKS=loadtest.fuzz_checks``; the
check is then named ``json_error_body`` in ``--checks``.
"""

from __future__ import annotations

import json

import schemathesis

ERROR_KEYS = {"error", "detail", "field"}
#: Answered by gunicorn itself (a request line or headers past its limits, as nginx does
#: in production) before Django sees the request: not the API's answers.
SERVER_LIMITS = {414, 431}


@schemathesis.check
def json_error_body(ctx, response, case) -> bool | None:
    """A 4xx answers ``{"error": code, "detail": message, "field": name or null}``."""
    if not 400 <= response.status_code < 500 or response.status_code in SERVER_LIMITS:
        return None
    content_type = ",".join(response.headers.get("content-type", []))
    if not content_type.startswith("application/json"):
        raise AssertionError(f"{response.status_code} is not JSON but {content_type!r}")
    try:
        body = json.loads(response.content)
    except ValueError as error:
        raise AssertionError(f"{response.status_code} body is not valid JSON: {error}") from None
    if not isinstance(body, dict) or set(body) != ERROR_KEYS:
        raise AssertionError(f"{response.status_code} body is not the error shape: {body!r}")
    if not (isinstance(body["error"], str) and body["error"] and body["detail"]):
        raise AssertionError(f"{response.status_code} error body without code or detail: {body!r}")
    return True
