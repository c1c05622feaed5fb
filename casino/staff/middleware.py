"""The second factor's gate: after the password, a person who needs a code
(``policy.needs_second_factor``) reaches nothing but the code's pages until they give one.

This is where the site's login page and the admin's meet the rule: both log in with the
password through ``authenticate()`` (the lockout), and every request after it passes here.
The API's token login asks the same rule itself (``casino/api/auth.py``); a request carrying
a token has no session and is not stopped here.
"""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import urlencode

from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.urls import reverse
from django.utils.functional import LazyObject, empty
from django.utils.translation import gettext as _

from casino.staff.policy import needs_second_factor
from casino.staff.second_factor import has_second_factor

#: The pages an unverified login may reach (by URL name).
OPEN_TO_UNVERIFIED = (
    "login",
    "logout",
    "second-factor-verify",
    "second-factor-enrol",
    "second-factor-recovery-codes",
    "set_language",
    "favicon",
    "api:auth-login",
)


class SecondFactorMiddleware:
    """Redirects a session logged in with the password alone, whose user needs a second
    factor, to the code page (or to enrolment, without a device yet); under ``/api/`` it
    answers 403 in the API's error shape. After django-otp's ``OTPMiddleware``."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self._open: frozenset[str] | None = None

    def open_paths(self) -> frozenset[str]:
        if self._open is None:
            self._open = frozenset(reverse(name) for name in OPEN_TO_UNVERIFIED)
        return self._open

    def __call__(self, request: HttpRequest) -> HttpResponse:
        user = request.user
        if (
            user.is_authenticated
            and not user.is_verified()
            and request.path_info not in self.open_paths()
            and needs_second_factor(user)
        ):
            if request.path_info.startswith("/api/"):
                detail = _("Give your second factor's code on the login page first.")
                body = {"error": "second_factor_required", "detail": detail, "field": None}
                return JsonResponse(body, status=403)
            page = "second-factor-verify" if has_second_factor(user) else "second-factor-enrol"
            return HttpResponseRedirect(
                f"{reverse(page)}?{urlencode({'next': request.get_full_path()})}"
            )
        request.user = _unwrapped(user)
        return self.get_response(request)


def _unwrapped(user: object) -> object:
    """The user behind ``request.user``'s lazy wrappers, now that the gate has read it:
    Django's and django-otp's each add a proxy to every attribute read after it (a few
    hundred a console request, 5% of a hand partial's CPU; docs/BENCHMARKS.md "floor")."""
    while isinstance(user, LazyObject) and user._wrapped is not empty:
        user = user._wrapped
    return user
