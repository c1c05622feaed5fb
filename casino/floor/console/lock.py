"""A shared terminal: the lock screen's lock and unlock (and taking the console over),
and a member's own console PIN.

The console locks after ``CONSOLE_IDLE_MINUTES`` without a key or a click, or by hand
(``static/js/lock.js``): a dialog covers the page without leaving it, so the round being
typed stays in its form, and the page tells the server (:func:`lock`), which from then on
refuses every request of the login in every tab until it is unlocked
(``casino.floor.console.terminal``, which also locks on its own once the idle minutes pass).

:func:`unlock` opens it again with the username and the PIN or password of the member
signed in, or of another who then takes the console over: a login, audited as
``console.takeover``, and, when the member signed in was the dealer on duty at an open
table, a relief there (``casino.staff.pins.console_takeover``), so the rounds from
then on are the newcomer's. A PIN is for the floor only (``casino.staff.pins
.pin_refusal``) and only opens a console that is signed in: a login that ran out (the
htmx requests answer 401 and the same dialog asks) signs in again with a password.

A PIN or password is checked behind the login lockout (``casino.staff.throttling``), recorded as
the entry point ``lock``. The unlock answers JSON for lock.js: who is signed in, the dealer
on duty now when a takeover relieved one, and the CSRF token to use from now on (a login
rotates it).
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

from casino.floor.console.access import console_login_required
from casino.floor.console.terminal import lock_session, unlock_session
from casino.floor.services.consoles import console_takeover, console_unlock
from casino.kernel.errors import ServiceError
from casino.staff.models import LoginAttempt
from casino.staff.pins import is_pin_shaped, pin_holder, pin_set
from casino.staff.throttling import LoginRefusal, pin_authenticate, refusal_message

#: Why the page locked: idle, or by hand.
LOCK_REASONS = ("idle", "manual")


def _checked(
    request: HttpRequest, username: str, secret: str, *, as_pin: bool, refusal: LoginRefusal
) -> Any:
    """The account whose PIN (``as_pin``) or password ``secret`` is, or None (the lockout
    included: ``refusal`` says so)."""
    lock = LoginAttempt.EntryPoint.LOCK
    try:
        if as_pin:
            return pin_authenticate(request, username, secret, entry_point=lock, refusal=refusal)
        return authenticate(
            request, username=username, password=secret, entry_point=lock, refusal=refusal
        )
    except PermissionDenied:
        return None


def _refused(message: str, status: int) -> JsonResponse:
    return JsonResponse({"error": message}, status=status)


@require_POST
@console_login_required
def lock(request: HttpRequest) -> HttpResponse:
    """The page locked itself (idle) or was locked by hand: the server holds the lock."""
    reason = request.POST.get("reason")
    lock_session(request, reason=reason if reason in LOCK_REASONS else "manual")
    return HttpResponse(status=204)


@require_POST
@console_login_required
def active(request: HttpRequest) -> HttpResponse:
    """The page is in use (its beat): the terminal's middleware notes it, or answers 423
    when the console is locked."""
    return HttpResponse(status=204)


@require_POST
def unlock(request: HttpRequest) -> HttpResponse:
    """Open the locked console again, as the same member or as another who takes it over."""
    username = (request.POST.get("username") or "").strip()
    secret = request.POST.get("secret") or ""
    if not username or not secret:
        return _refused(_("Type a username and its PIN or password."), 422)
    signed_in = request.user if request.user.is_authenticated else None
    holder, password_only = pin_holder(username) if is_pin_shaped(secret) else (None, None)
    by_pin = holder is not None and password_only is None
    if by_pin and signed_in is None:
        return _refused(
            _(
                "Your login ran out: sign in with your password. A PIN only unlocks a "
                "console that is signed in."
            ),
            403,
        )
    refusal = LoginRefusal()
    user = _checked(request, username, secret, as_pin=by_pin, refusal=refusal)
    if user is None:
        wrong = password_only or _(
            "Wrong username, PIN or password: try again, or ask a supervisor."
        )
        return _refused(refusal_message(refusal) or wrong, 403)
    on_duty = ""
    if signed_in is None:
        login(request, user)  # the login ran out: a new one, by password
    elif signed_in.pk == user.pk:
        console_unlock(user=user, by_pin=by_pin)
        unlock_session(request, by_pin=by_pin)
    else:
        try:
            relieved = console_takeover(user=user, previous=signed_in, by_pin=by_pin)
        except ServiceError as refused:
            return _refused(refused.message, refused.status)
        login(request, user)  # a new login: the venue's length again, a new CSRF token
        unlock_session(request, by_pin=by_pin)
        if relieved is not None:
            on_duty = _("Dealer on duty: %(dealer)s") % {"dealer": user.get_username()}
    return JsonResponse(
        {"user": user.get_username(), "on_duty": on_duty, "csrf": get_token(request)}
    )


@require_http_methods(["GET", "POST"])
@console_login_required
def own_pin(request: HttpRequest) -> HttpResponse:
    """Set one's own console PIN, confirmed with one's password."""
    errors: dict[str, str] = {}
    done = False
    if request.method == "POST":
        password = request.POST.get("password") or ""
        pin = (request.POST.get("pin") or "").strip()
        refusal = LoginRefusal()
        try:
            confirmed = authenticate(
                request,
                username=request.user.get_username(),
                password=password,
                entry_point=LoginAttempt.EntryPoint.LOCK,
                refusal=refusal,
            )
        except PermissionDenied:
            confirmed = None
        if confirmed is None or confirmed.pk != request.user.pk:
            errors["password"] = refusal_message(refusal) or _(
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
