"""What a view that answers a file keeps (the files themselves: ``casino/exports.py``): the
``@export_view`` mark, by which the guard test finds every download, and the language a
file speaks (``file_language``, the one rule of it, and the languages a page offers)."""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum
from functools import wraps
from typing import Any, TypeVar

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import translation

# The views that answer a file

View = TypeVar("View", bound=Callable[..., HttpResponse])
#: Every view marked ``@export_view`` (module.name): the routes the guard test requests.
EXPORT_VIEWS: set[str] = set()


def export_view(view: View) -> View:
    """Mark a view as one that answers an export (``functools.wraps`` keeps the mark under
    other decorators); a file it answers must say its language (``Content-Language``:
    ``download`` writes the language ``file_language`` answered)."""

    @wraps(view)
    def answer(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        response = view(request, *args, **kwargs)
        if "attachment" in response.get("Content-Disposition", "") and not response.get(
            "Content-Language"
        ):
            raise RuntimeError(
                f"{view.__qualname__} answered a file in no language (export_views.file_language)"
            )
        return response

    answer.export_view = True  # type: ignore[attr-defined]
    EXPORT_VIEWS.add(f"{view.__module__}.{view.__qualname__}")
    return answer  # type: ignore[return-value]


# The language a file speaks


class FileLanguage(StrEnum):
    """Whose language a link asks a file in (``?lang=``)."""

    VENUE = "venue"
    READER = "reader"


def reader_language(request: HttpRequest) -> str:
    """The reader's language: the one they picked (the language cookie), else their
    browser's, else the site's."""
    return translation.get_language_from_request(request)


def file_language(request: HttpRequest, venue_language: str, *, filed: bool = False) -> str:
    """Put the request in the language its file speaks, and answer it: the reader's when
    ``?lang=reader``, the venue's when ``?lang=venue``; without either, the venue's for a
    ``filed`` copy, and for any other file the pages' rule (the reader's pick, else the
    venue's)."""
    venue = venue_language or settings.LANGUAGE_CODE
    asked = request.GET.get("lang")
    picked = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME)
    if asked == FileLanguage.READER:
        language = reader_language(request)
    elif asked == FileLanguage.VENUE or filed:
        language = venue
    elif picked and translation.check_for_language(picked):
        language = picked
    else:
        language = venue
    translation.activate(language)
    request.LANGUAGE_CODE = translation.get_language()
    return request.LANGUAGE_CODE


def file_languages(request: HttpRequest, venue_language: str) -> list[tuple[str, str, str]]:
    """The languages a page offers its files in: (``lang``, language code, its name in
    itself), the venue's first, the reader's after it when it is another."""
    venue = venue_language or settings.LANGUAGE_CODE
    offered = [(FileLanguage.VENUE.value, venue)]
    reader = reader_language(request)
    if translation.get_supported_language_variant(reader) != venue:
        offered.append((FileLanguage.READER.value, reader))
    return [
        (lang, code, translation.get_language_info(code)["name_local"]) for lang, code in offered
    ]
