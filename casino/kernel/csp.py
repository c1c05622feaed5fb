"""django-csp's middleware, with the settings' policy built once a process.

Why our own: ``csp.middleware.CSPMiddleware`` builds the Content-Security-Policy header from
the settings on every answer, twice (the policy and the report-only one), each time turning
a dataclass into a dict and joining every directive. That was about a twentieth of a console
partial's CPU, asked on every card a dealer types (docs/BENCHMARKS.md "floor"). The project's
policy is the settings' alone (``CONTENT_SECURITY_POLICY``): no view changes it and no
template asks for a nonce. So an answer that changes nothing of it gets the header built
once, by django-csp's own ``build_policy``; any answer that does change something (the
``csp_update``, ``csp_replace``, ``csp_exempt`` and ``csp`` decorators, a nonce asked for,
``DEBUG``'s error pages, URL prefixes excluded) is left to django-csp whole.
"""

from __future__ import annotations

from typing import Any

from csp import middleware
from csp.constants import HEADER, HEADER_REPORT_ONLY
from csp.utils import build_policy
from django.conf import settings
from django.core.signals import setting_changed
from django.http import HttpRequest, HttpResponseBase

#: What a view's decorators set on its answer to change the policy (django-csp's names).
_PER_ANSWER = tuple(
    f"_csp_{what}{ro}" for what in ("config", "update", "replace", "exempt") for ro in ("", "_ro")
)
_SETTINGS = ("CONTENT_SECURITY_POLICY", "CONTENT_SECURITY_POLICY_REPORT_ONLY")

_built: list[tuple[str, str]] | None = None


def _headers() -> list[tuple[str, str]] | None:
    """The headers of the settings' policy (each only if not empty), or None when the
    settings exclude URL prefixes (each answer's path then decides: django-csp's work)."""
    global _built  # one a process, built on the first answer
    if _built is None:
        policies = [
            (HEADER, getattr(settings, "CONTENT_SECURITY_POLICY", None) or {}),
            (HEADER_REPORT_ONLY, getattr(settings, "CONTENT_SECURITY_POLICY_REPORT_ONLY", None)),
        ]
        if any((policy or {}).get("EXCLUDE_URL_PREFIXES") for _header, policy in policies):
            return None
        built = [
            (HEADER, build_policy()),
            (HEADER_REPORT_ONLY, build_policy(report_only=True)),
        ]
        _built = [(header, value) for header, value in built if value]
    return _built


def _forget(*, setting: str, **kwargs: Any) -> None:
    """A test's ``override_settings`` of the policy: build it again from the new settings."""
    global _built
    if setting in _SETTINGS:
        _built = None


setting_changed.connect(_forget)


class CSPMiddleware(middleware.CSPMiddleware):
    """django-csp's, with the header of the settings' policy built once a process."""

    def process_response(
        self, request: HttpRequest, response: HttpResponseBase
    ) -> HttpResponseBase:
        headers = None if settings.DEBUG else _headers()
        if (
            headers is None
            or getattr(request, "_csp_nonce", None) is not None
            or any(getattr(response, name, None) is not None for name in _PER_ANSWER)
        ):
            return super().process_response(request, response)
        for header, value in headers:
            if header not in response:  # a view's own header stands, as django-csp keeps it
                response[header] = value
        # As django-csp does: a nonce asked for after the header is written is an error.
        request.csp_nonce = middleware.CheckableLazyObject(self._csp_nonce_post_response)
        return response
