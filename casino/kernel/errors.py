"""Errors the services raise, each with the HTTP status and code the API answers with.

The message says what is wrong and how to put it right; ``field`` names the input.
``reason`` is a short stable name of the rule that refused (``stake_below_minimum``),
for a screen that shows its own words for it; a message built with ``gettext_lazy`` is
shown in the language of whoever reads it (the console in the venue's, the API's client
in its ``Accept-Language``).
"""

from __future__ import annotations

from django.utils.functional import Promise


class ServiceError(Exception):
    status = 400
    code = "invalid"

    def __init__(
        self, message: str | Promise, *, field: str | None = None, reason: str | None = None
    ) -> None:
        super().__init__(message)
        self._message = message
        self.field = field
        self.reason = reason or self.code

    @property
    def message(self) -> str:
        """The message in the active language."""
        return str(self._message)

    def __str__(self) -> str:
        return str(self._message)


class InvalidInput(ServiceError):
    """The input is wrong (400)."""


class Conflict(ServiceError):
    """The input is fine but the object's state does not allow it (409)."""

    status = 409
    code = "conflict"


class NotFound(ServiceError):
    """No such object among the user's venues: it does not exist or is at another venue, the
    same answer for both (404)."""

    status = 404
    code = "not_found"


class Forbidden(ServiceError):
    """The user may not do this (403)."""

    status = 403
    code = "forbidden"
