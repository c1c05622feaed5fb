"""The API's description for the API's own callers: the OpenAPI schema and Swagger UI.

Both need a login, like the API itself: the schema answers a caller without a token or a
session 401, and one without a floor role 403, in the API's error body; the Swagger page
sends a browser to the login page and a member of staff without a floor role to a page
saying why. Swagger UI's scripts and styles come from the app's own static files
(``drf-spectacular-sidecar``, ``SWAGGER_UI_DIST = "SIDECAR"``), never from a CDN.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response

from casino.api.permissions import RolePermission
from casino.staff.policy import Capability, declare, holds_anywhere


class SchemaView(SpectacularAPIView):
    """The OpenAPI schema (YAML, or JSON with ``?format=json``), for any floor role."""

    read_capability = Capability.READ_FLOOR
    permission_classes = [RolePermission]

    def finalize_response(
        self, request: Request, response: Response, *args: Any, **kwargs: Any
    ) -> Response:
        # An error is the API's JSON body, not a YAML rendering of it.
        if response.status_code >= 400:
            request.accepted_renderer = JSONRenderer()
            request.accepted_media_type = "application/json"
        return super().finalize_response(request, response, *args, **kwargs)


class SwaggerView(SpectacularSwaggerSplitView):
    """Swagger UI with its start-up script from a URL (``?script``) and its page's style from
    a file: the Content-Security-Policy refuses inline scripts and style elements."""

    template_name = "api/swagger_ui.html"
    read_capability = Capability.READ_FLOOR
    permission_classes = [RolePermission]


_swagger = SwaggerView.as_view(url_name="schema")


@declare(Capability.READ_FLOOR)
@login_required
def swagger(request: HttpRequest) -> HttpResponse:
    """The Swagger page: a browser signs in first; it reads the schema with its session."""
    if not holds_anywhere(request.user, Capability.READ_FLOOR):
        message = _("Only staff with a floor role read the API's description.")
        return render(request, "console/error.html", {"message": message}, status=403)
    return _swagger(request)
