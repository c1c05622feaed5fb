"""A request whose body Django will not read is answered in the shape of where it went.

Django refuses a body larger than ``DATA_UPLOAD_MAX_MEMORY_SIZE`` (2.5 MB) and a form with
more than ``DATA_UPLOAD_MAX_NUMBER_FIELDS`` fields or ``DATA_UPLOAD_MAX_NUMBER_FILES``
files by raising a ``SuspiciousOperation`` wherever the body is first read (DRF's parsing,
the CSRF check of a console form or of a session-authenticated API call), and answers it
through ``handler400``, by default a bare HTML "Bad Request". This handler answers:

- under ``/api/``, the API's error body ``{"error", "detail", "field"}``: 413
  ``too_large`` for a body over the limit, 400 ``invalid`` for too many fields or files,
  400 ``bad_request`` for anything else Django found suspicious;
- elsewhere (the console, the reports, the admin), a page that says what happened and
  that nothing was changed; to htmx, the bare message, which console.js shows.

Bad JSON and a content type other than JSON never reach this: DRF raises ``ParseError``
and ``UnsupportedMediaType``, which ``casino.api.errors`` turns into the same body.

Hooked as ``handler400`` in ``casino/urls.py``.
"""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent, TooManyFilesSent
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from casino.api.errors import error_body


def _megabytes(size: int) -> str:
    return f"{size / 1_000_000:g} MB"


def _api_error(exception: Exception | None) -> tuple[int, str, str]:
    if isinstance(exception, RequestDataTooBig):
        limit = _megabytes(settings.DATA_UPLOAD_MAX_MEMORY_SIZE)
        return (
            413,
            "too_large",
            f"the request body is larger than the {limit} the server reads; the largest "
            "body the API takes (a round) is a few KB: send less",
        )
    if isinstance(exception, TooManyFieldsSent):
        return (
            400,
            "invalid",
            f"the request has more than {settings.DATA_UPLOAD_MAX_NUMBER_FIELDS} fields; "
            "the API takes JSON: send the body as application/json",
        )
    if isinstance(exception, TooManyFilesSent):
        return (
            400,
            "invalid",
            f"the request has more than {settings.DATA_UPLOAD_MAX_NUMBER_FILES} files; "
            "the API takes no files: send the body as application/json",
        )
    return 400, "bad_request", "the request could not be read; nothing was changed"


def _page_message(exception: Exception | None) -> tuple[int, str]:
    if isinstance(exception, RequestDataTooBig):
        return 413, _(
            "The form sent more than %(limit)s, more than any form here needs: nothing was "
            "changed. Go back, check what was typed or pasted, and send it again."
        ) % {"limit": _megabytes(settings.DATA_UPLOAD_MAX_MEMORY_SIZE)}
    if isinstance(exception, TooManyFieldsSent | TooManyFilesSent):
        return 400, _(
            "The form sent more fields than any form here has: nothing was changed. Reload "
            "the page and send it again."
        )
    return 400, _("The request could not be read: nothing was changed. Reload the page.")


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """Django's ``handler400``."""
    if request.path.startswith("/api/"):
        status, code, detail = _api_error(exception)
        return JsonResponse(error_body(code, detail), status=status)
    status, message = _page_message(exception)
    if getattr(request, "htmx", False):
        return HttpResponse(message, status=status, content_type="text/plain; charset=utf-8")
    return render(request, "400.html", {"message": message}, status=status)
