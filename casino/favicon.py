"""The site's icon at ``/favicon.ico``, where browsers ask for it on every page that names
none (the admin, the API's pages): a spade on the felt, drawn inline so no file is served."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET

ICON = (
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">'
    '<rect width="100" height="100" rx="18" fill="#0f5c3a"/>'
    '<path fill="#fff" d="M50 12C60 28 86 41 86 59c0 11-9 19-19 19-7 0-12-3-15-7 1 7 4 13 '
    '11 16H37c7-3 10-9 11-16-3 4-8 7-15 7-10 0-19-8-19-19 0-18 26-31 36-47z"/></svg>'
)


@require_GET
@cache_control(public=True, max_age=86400)
def favicon(request: HttpRequest) -> HttpResponse:
    return HttpResponse(ICON, content_type="image/svg+xml")
