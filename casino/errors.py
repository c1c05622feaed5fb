"""Errors the services raise, each with the HTTP status and code the API answers with.

The message says what is wrong and how to put it right; ``field`` names the input.
"""

from __future__ import annotations


class ServiceError(Exception):
    status = 400
    code = "invalid"

    def __init__(self, message: str, *, field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field


class InvalidInput(ServiceError):
    """The input is wrong (400)."""


class Conflict(ServiceError):
    """The input is fine but the object's state does not allow it (409)."""

    status = 409
    code = "conflict"


class Forbidden(ServiceError):
    """The user may not do this (403)."""

    status = 403
    code = "forbidden"
