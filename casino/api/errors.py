"""One shape for every API error: ``{"error": code, "detail": message, "field": name}``.

``error`` is a short stable code (``invalid``, ``parse_error``, ``not_authenticated``,
``forbidden``, ``not_found``, ``method_not_allowed``, ``conflict``, ...); ``detail`` says in
words what is wrong; ``field`` names the input it concerns (``boxes[0].cards``,
``opening_chips.5000``, ``Idempotency-Key``) or is null.

DRF's own errors (validation, parsing, authentication, permissions, unknown methods) and
Django's ``Http404`` / ``PermissionDenied`` / ``ValidationError`` are converted here, as are
the services' ``ServiceError``s, which carry their status, code and field.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from django.core.exceptions import NON_FIELD_ERRORS
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import DataError, IntegrityError
from django.http import Http404
from rest_framework import exceptions, serializers, status
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.views import set_rollback

from casino.kernel.errors import ServiceError

logger = logging.getLogger(__name__)

#: DRF's codes renamed where the services use another word for the same thing.
_CODES = {
    "permission_denied": "forbidden",
    "error": "server_error",
}
_NON_FIELD_KEYS = {api_settings.NON_FIELD_ERRORS_KEY, NON_FIELD_ERRORS}


class AboutField:
    """An API error about one input, which the answer's ``field`` names (None: none)."""

    def __init__(self, detail: Any = None, *, field: str | None = None) -> None:
        super().__init__(detail)  # type: ignore[call-arg]
        self.field = field


class LockedOut(AboutField, exceptions.APIException):
    """The login lockout refused a username and password (403 ``locked_out``): the right
    password would not help until the lock runs out."""

    status_code = status.HTTP_403_FORBIDDEN
    default_code = "locked_out"


class SecondFactorRequired(AboutField, exceptions.APIException):
    """A role that needs a second factor, without one enrolled (403
    ``second_factor_required``): it is set up on the site's login page, not through the API."""

    status_code = status.HTTP_403_FORBIDDEN
    default_code = "second_factor_required"


class NotFoundAt(AboutField, exceptions.NotFound):
    """An object that does not exist or is at another venue (404 ``not_found``), named by
    the input ``field``."""


class ErrorSerializer(serializers.Serializer):
    """The body of every error response."""

    error = serializers.CharField(help_text="A short, stable code: invalid, not_found, ...")
    detail = serializers.CharField(help_text="What is wrong, in words.")
    field = serializers.CharField(
        allow_null=True, help_text="The input the error is about, e.g. boxes[0].cards; or null."
    )


def error_body(code: str, detail: str, field: str | None = None) -> dict[str, Any]:
    return {"error": code, "detail": detail, "field": field or None}


def _sentence(text: str) -> str:
    """DRF's messages start with a capital; after a field name they read better without."""
    if len(text) > 1 and text[0].isupper() and text[1].islower():
        return text[0].lower() + text[1:]
    return text


def first_error(detail: Any, path: str = "") -> tuple[str, str]:
    """The first error in DRF's nested error structure, with the path of its input.

    Dicts are fields (``{"boxes": [{}, {"bets": {"double": [...]}}]}`` ->
    ``boxes[1].bets.double``), integer keys and lists are list items.

    >>> first_error({"boxes": [{}, {"bets": {"double": ["A valid number is required."]}}]})
    ('boxes[1].bets.double', 'A valid number is required.')
    >>> first_error({"non_field_errors": ["Invalid data."]})
    ('', 'Invalid data.')
    """
    if isinstance(detail, Mapping):
        for key, value in detail.items():
            if key in _NON_FIELD_KEYS:
                sub = path
            elif isinstance(key, int):
                sub = f"{path}[{key}]"
            else:
                sub = f"{path}.{key}" if path else str(key)
            if value in ({}, [], None):
                continue
            return first_error(value, sub)
        return path, "invalid input"
    if isinstance(detail, list | tuple):
        for index, item in enumerate(detail):
            if isinstance(item, Mapping | list | tuple):
                if item:
                    return first_error(item, f"{path}[{index}]")
                continue
            return path, str(item)
        return path, "invalid input"
    return path, str(detail)


def _validation(detail: Any) -> Response:
    field, message = first_error(detail)
    text = f"{field}: {_sentence(message)}" if field else message
    return Response(error_body("invalid", text, field), status=status.HTTP_400_BAD_REQUEST)


def _django_validation(error: DjangoValidationError) -> Response:
    if hasattr(error, "error_dict"):
        return _validation({k: [str(m) for m in v] for k, v in error.message_dict.items()})
    return _validation([str(m) for m in error.messages])


def exception_handler(exc: Exception, context: Mapping[str, Any]) -> Response | None:
    """DRF's ``EXCEPTION_HANDLER``: every error as ``{"error", "detail", "field"}``."""
    if isinstance(exc, ServiceError):
        set_rollback()
        return Response(error_body(exc.code, exc.message, exc.field), status=exc.status)
    if isinstance(exc, DjangoValidationError):
        set_rollback()
        return _django_validation(exc)
    if isinstance(exc, Http404):
        exc = exceptions.NotFound("not found")
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()
    elif isinstance(exc, DataError):
        # The serializers bound every number; reaching here is a bug, but still the client's
        # input that did not fit, not a server failure.
        logger.exception("a value did not fit the database")
        set_rollback()
        return Response(
            error_body("invalid", "a value is too large or not of the right kind"),
            status=status.HTTP_400_BAD_REQUEST,
        )
    elif isinstance(exc, IntegrityError):
        # The services turn the races they expect into conflicts; this is the safety net.
        logger.exception("an integrity error reached the API")
        set_rollback()
        return Response(
            error_body("conflict", "the change conflicts with another one; reload and retry"),
            status=status.HTTP_409_CONFLICT,
        )

    if not isinstance(exc, exceptions.APIException):
        return None
    set_rollback()
    if isinstance(exc, exceptions.ValidationError):
        return _validation(exc.detail)
    headers = {}
    if getattr(exc, "auth_header", None):
        headers["WWW-Authenticate"] = exc.auth_header
    if getattr(exc, "wait", None):
        headers["Retry-After"] = f"{int(exc.wait)}"
    codes = exc.get_codes()
    code = codes if isinstance(codes, str) else exc.default_code
    if isinstance(exc.detail, list | dict):
        _field, detail = first_error(exc.detail)
    else:
        detail = str(exc.detail)
    field = exc.field if isinstance(exc, AboutField) else None
    return Response(
        error_body(_CODES.get(code, code), detail, field),
        status=exc.status_code,
        headers=headers,
    )
