"""The Content-Security-Policy built once a process (``casino.kernel.csp``) says on every
answer what django-csp's own middleware says, and leaves every answer that changes the
policy (a view's decorators, a nonce, a header of the view's own) to django-csp."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from csp import middleware as library
from csp.constants import HEADER, HEADER_REPORT_ONLY, NONCE
from csp.decorators import csp_exempt, csp_update
from csp.exceptions import CSPNonceError
from django.http import HttpRequest, HttpResponse
from django.test import RequestFactory, override_settings

from casino.kernel.csp import CSPMiddleware

View = Callable[[HttpRequest], HttpResponse]


def page(request: HttpRequest) -> HttpResponse:
    return HttpResponse("page")


def answers(view: View, path: str = "/console/") -> tuple[HttpResponse, HttpResponse]:
    """The answer of ``view`` through ours and through django-csp's middleware."""
    ours = CSPMiddleware(view)(RequestFactory().get(path))
    theirs = library.CSPMiddleware(view)(RequestFactory().get(path))
    return ours, theirs


@override_settings(DEBUG=False)
def test_the_settings_policy_is_django_csps():
    ours, theirs = answers(page)
    assert ours[HEADER] == theirs[HEADER]
    assert "default-src 'self'" in ours[HEADER] and "frame-ancestors 'none'" in ours[HEADER]
    assert HEADER_REPORT_ONLY not in ours  # none configured: none sent
    ours_again, _ = answers(page)  # the second answer, from the header built once
    assert ours_again[HEADER] == theirs[HEADER]


@override_settings(DEBUG=False)
def test_a_changed_setting_is_read_again():
    first, _ = answers(page)
    policy = {"DIRECTIVES": {"default-src": ["'none'"]}}
    with override_settings(
        CONTENT_SECURITY_POLICY=policy, CONTENT_SECURITY_POLICY_REPORT_ONLY=policy
    ):
        changed, theirs = answers(page)
    assert changed[HEADER] == theirs[HEADER] == "default-src 'none'"
    assert changed[HEADER_REPORT_ONLY] == "default-src 'none'"
    after, _ = answers(page)
    assert after[HEADER] == first[HEADER]


@override_settings(DEBUG=False)
def test_a_views_decorators_are_django_csps_to_apply():
    ours, theirs = answers(csp_update({"img-src": ["https://cards.example"]})(page))
    assert "https://cards.example" in ours[HEADER]
    assert ours[HEADER] == theirs[HEADER]
    exempt, _ = answers(csp_exempt()(page))
    assert HEADER not in exempt


@override_settings(
    DEBUG=False,
    CONTENT_SECURITY_POLICY={"DIRECTIVES": {"script-src": ["'self'", NONCE]}},
)
def test_a_nonce_asked_for_is_in_the_header_and_refused_after_it():
    def with_nonce(request: HttpRequest) -> HttpResponse:
        return HttpResponse(str(request.csp_nonce))

    answer = CSPMiddleware(with_nonce)(request := RequestFactory().get("/console/"))
    nonce = answer.content.decode()
    assert f"script-src 'self' 'nonce-{nonce}'" in answer[HEADER].split("; ")
    assert request.csp_nonce == nonce
    plain = RequestFactory().get("/console/")
    assert "script-src 'self'" in CSPMiddleware(page)(plain)[HEADER].split("; ")
    with pytest.raises(CSPNonceError):
        str(plain.csp_nonce)


@override_settings(DEBUG=False)
def test_a_views_own_header_stands():
    def own(request: HttpRequest) -> HttpResponse:
        answer = HttpResponse("framed")
        answer[HEADER] = "frame-ancestors 'self'"
        return answer

    ours, theirs = answers(own)
    assert ours[HEADER] == theirs[HEADER] == "frame-ancestors 'self'"
