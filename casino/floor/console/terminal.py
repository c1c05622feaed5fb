"""A shared terminal, held by the server: the console's lock and what a PIN opens.

The lock is state of the login (Django's session), not of a page, so it holds in every tab
of the terminal and across a reload:

- the page locks itself after ``CONSOLE_IDLE_MINUTES`` without use, or by hand (*Lock or
  switch dealer*), and tells the server (``console:lock``); the server locks on its own too
  once the console has gone unused for the idle minutes (and one beat of slack: the page
  reports use at most every ``BEAT_SECONDS``, ``console:active``), so a page closed, or
  reloaded after the idle minutes, is locked without the page's help;
- while locked, every request of the login is refused (:class:`TerminalMiddleware`): a
  page answers the lock screen (423), an htmx request or the page's own calls a bare 423
  that the page's lock screen opens on, the API 423 in its error shape; only the unlock,
  logging in and out and the language are let through;
- the unlock (``casino/floor/console/lock.py``) lifts it, with the PIN or password of who is
  signed in, or of another member who takes the console over.

A login made or opened by a PIN is a *console session*: outside ``/console/`` (the admin,
the reports, the API) it is treated as signed out, so each asks for a password login. A
password (the login page, the admin's, the unlock with a password) makes it whole again.

Lock and unlock are audited (``console.lock``, ``console.unlock``, ``console.takeover``:
``casino.staff.pins``).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import lru_cache

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django_htmx.http import reswap

from casino.floor.services.consoles import console_lock

#: Session keys: the console is locked; when it was last used (seconds since the epoch);
#: the login was opened by a PIN (a console session).
LOCKED, SEEN, CONSOLE_ONLY = "console_locked", "console_seen", "console_only"
#: The page reports use at most this often; the server's idle deadline allows one more.
BEAT_SECONDS = 30
#: A use is written to the session at most this often (one write, not one per request).
SEEN_EVERY = 10

#: Paths the lock never refuses: signing in and out, the language, the unlock itself.
_FREE = ("/static/", "/favicon.ico", "/i18n/")


def idle_seconds() -> float:
    """How long the console may go unused before the page locks it."""
    return float(settings.CONSOLE_IDLE_MINUTES) * 60


def _now() -> float:
    return time.time()


def is_console_only(request: HttpRequest) -> bool:
    """Whether the login was opened by a PIN: the console only."""
    session = getattr(request, "session", None)
    return bool(session is not None and session.get(CONSOLE_ONLY))


def lock_session(request: HttpRequest, *, reason: str) -> None:
    """Lock the console of the signed-in login (once: a second lock records nothing)."""
    if request.session.get(LOCKED):
        return
    request.session[LOCKED] = True
    console_lock(user=request.user, reason=reason)


def unlock_session(request: HttpRequest, *, by_pin: bool) -> None:
    """The console is open again, to whoever is signed in now; a PIN leaves it a console
    session, a password makes it a whole login."""
    request.session[LOCKED] = False
    request.session[CONSOLE_ONLY] = by_pin
    request.session[SEEN] = _now()


def login_starts_afresh(request: HttpRequest | None) -> None:
    """A login (whichever the door) is unlocked and whole; the unlock marks a PIN's."""
    session = getattr(request, "session", None)
    if session is not None:
        for key in (LOCKED, SEEN, CONSOLE_ONLY):
            session.pop(key, None)


@lru_cache(maxsize=1)  # one set: it takes no argument
def _free_paths() -> frozenset[str]:
    return frozenset(
        {reverse("console:unlock"), reverse("console:lock"), reverse("logout"), settings.LOGIN_URL}
    )


def _free(path: str) -> bool:
    return path in _free_paths() or path.startswith(_FREE)


def _idle_too_long(request: HttpRequest) -> bool:
    seen = request.session.get(SEEN)
    return seen is not None and _now() - float(seen) > idle_seconds() + BEAT_SECONDS


def _note_use(request: HttpRequest) -> None:
    """Note a use of the console: anything but an htmx GET (a poll is not a person); the
    page's beat (``console:active``) is a POST."""
    seen = request.session.get(SEEN)
    if seen is None or (
        not (request.htmx and request.method == "GET") and _now() - float(seen) >= SEEN_EVERY
    ):
        request.session[SEEN] = _now()


def locked_response(request: HttpRequest) -> HttpResponse:
    """What a locked console answers: the lock screen, or a bare 423 the page opens it on."""
    message = _(
        "This console is locked: unlock it with your PIN or password, or another dealer "
        "takes over with theirs."
    )
    if request.path_info.startswith("/api/"):
        return JsonResponse(
            {"error": "console_locked", "detail": message, "field": None}, status=423
        )
    if request.htmx:
        response = HttpResponse(message, status=423, content_type="text/plain; charset=utf-8")
        return reswap(response, "none")
    return render(request, "console/locked.html", {"console_locked": True}, status=423)


async def _signed_out() -> AnonymousUser:
    return AnonymousUser()


class TerminalMiddleware:
    """Holds the console's lock and keeps a console session to the console (after
    ``AuthenticationMiddleware`` and ``HtmxMiddleware``)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.refusal(request) or self.get_response(request)

    @staticmethod
    def refusal(request: HttpRequest) -> HttpResponse | None:
        path = request.path_info
        if path.startswith(_FREE):
            return None
        if path.startswith("/api/") and "HTTP_AUTHORIZATION" in request.META:
            return None  # a device's token, not this login
        if not request.user.is_authenticated:
            return None
        console = path.startswith("/console/")
        if not console and is_console_only(request):
            # A PIN opened the console only: anywhere else, a password login is asked for.
            request.user = AnonymousUser()
            request.auser = _signed_out  # type: ignore[attr-defined]
            return None
        if _free(path):
            return None
        if not request.session.get(LOCKED) and _idle_too_long(request):
            lock_session(request, reason="idle")
        if request.session.get(LOCKED):
            return locked_response(request)
        if console or SEEN in request.session:
            _note_use(request)
        return None
