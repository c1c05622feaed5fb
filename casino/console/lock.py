"""A shared terminal: the lock screen's unlock (and taking the console over), and a
member's own console PIN.

The console locks itself after ``CONSOLE_IDLE_MINUTES`` without a key or a click
(``static/js/lock.js``): a dialog covers the page without leaving it, so the round being
typed stays in its form. It opens again with the username and the PIN or password of the
dealer signed in, or of another member of staff, who then takes the console over (a login,
audited as ``console.takeover``). When the login itself ran out on the server (the venue's
``session_hours``), the console's htmx requests answer 401 and the same dialog signs in
again, still on the page: the dealer then confirms what they had typed.

A PIN or password is checked behind the login lockout (``casino.throttling``), recorded as
the entry point ``lock``. The unlock answers JSON for lock.js: who is signed in and the
CSRF token to use from now on (a login rotates it).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import authenticate, login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.middleware.csrf import get_token
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from casino.console.access import console_login_required
from casino.errors import ServiceError
from casino.models import LoginAttempt
from casino.services.pins import console_takeover, has_pin, is_pin_shaped, pin_set
from casino.throttling import pin_authenticate, refusal_message


def _checked(request: HttpRequest, username: str, secret: str) -> Any:
    """The account whose PIN or password ``secret`` is, or None (the lockout included)."""
    request.login_entry_point = LoginAttempt.EntryPoint.LOCK  # type: ignore[attr-defined]
    try:
        if is_pin_shaped(secret) and has_pin(username):
            return pin_authenticate(request, username, secret)
        return authenticate(request, username=username, password=secret)
    except PermissionDenied:
        return None


def _refused(message: str, status: int) -> JsonResponse:
    return JsonResponse({"error": message}, status=status)


@require_POST
def unlock(request: HttpRequest) -> HttpResponse:
    """Open the locked console again, as the same dealer or as another who takes it over."""
    username = (request.POST.get("username") or "").strip()
    secret = request.POST.get("secret") or ""
    if not username or not secret:
        return _refused(_("Type a username and its PIN or password."), 422)
    user = _checked(request, username, secret)
    if user is None:
        wrong = _("Wrong username, PIN or password: try again, or ask a supervisor.")
        return _refused(refusal_message(request) or wrong, 403)
    previous = request.user if request.user.is_authenticated else None
    if previous is None or previous.pk != user.pk:
        login(request, user)  # a new login: the venue's length again, a new CSRF token
    if previous is not None and previous.pk != user.pk:
        console_takeover(user=user, previous=previous)
    return JsonResponse({"user": user.get_username(), "csrf": get_token(request)})


@require_http_methods(["GET", "POST"])
@console_login_required
def own_pin(request: HttpRequest) -> HttpResponse:
    """Set one's own console PIN, confirmed with one's password."""
    errors: dict[str, str] = {}
    done = False
    if request.method == "POST":
        password = request.POST.get("password") or ""
        pin = (request.POST.get("pin") or "").strip()
        request.login_entry_point = LoginAttempt.EntryPoint.LOCK  # type: ignore[attr-defined]
        try:
            confirmed = authenticate(
                request, username=request.user.get_username(), password=password
            )
        except PermissionDenied:
            confirmed = None
        if confirmed is None or confirmed.pk != request.user.pk:
            errors["password"] = refusal_message(request) or _(
                "That is not your password: type the password you log in with."
            )
        elif pin != (request.POST.get("pin_again") or "").strip():
            errors["pin_again"] = _("The two PINs differ: type the same PIN twice.")
        else:
            try:
                pin_set(user=request.user, member=request.user, pin=pin)
            except ServiceError as error:
                errors[error.field or "pin"] = error.message
            else:
                done = True
    status = 422 if errors else 200
    return render(request, "console/pin.html", {"errors": errors, "done": done}, status=status)
