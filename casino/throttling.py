"""Login throttling: after too many failed logins for one username from one address, that
pair is locked out for a while.

``LOGIN_FAILURE_LIMIT`` failures (default 5) of one username from one client address,
each less than ``LOGIN_LOCKOUT_MINUTES`` (default 15) after the previous one, lock that
username out from that address for ``LOGIN_LOCKOUT_MINUTES``: every login then fails,
with the right password too, without the password being checked. A successful login
clears the count. The lock covers everything that calls ``authenticate()``: the login
page, the admin's, and the console's supervisor approval (void, close), so a dealer
cannot guess a supervisor's password either.

Wiring (``casino/settings.py``)::

    AUTHENTICATION_BACKENDS = ["casino.throttling.LockoutBackend"]

``LockoutBackend`` is Django's ``ModelBackend`` refusing locked-out pairs; failures are
counted from Django's ``user_login_failed`` signal (so failures of any backend count). The
counts live in Django's cache: with several web processes it must be a shared cache
(Redis), or each process counts on its own. The client address is ``REMOTE_ADDR``, or
the header named by ``LOGIN_CLIENT_IP_HEADER`` (e.g. ``HTTP_X_REAL_IP``) when set, which
only a trusted reverse proxy may set.
"""

from __future__ import annotations

import hashlib
import time
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.signals import user_logged_in, user_login_failed
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.dispatch import receiver
from django.http import HttpRequest

KEY_PREFIX = "login-failures"


def failure_limit() -> int:
    return int(getattr(settings, "LOGIN_FAILURE_LIMIT", 5))


def lockout_seconds() -> int:
    return int(getattr(settings, "LOGIN_LOCKOUT_MINUTES", 15)) * 60


def client_address(request: HttpRequest | None) -> str:
    """The client's address: ``REMOTE_ADDR``, or the trusted proxy's header if configured."""
    if request is None:
        return "-"
    header = getattr(settings, "LOGIN_CLIENT_IP_HEADER", "")
    if header:
        forwarded = request.META.get(header, "")
        if forwarded:
            return forwarded.split(",")[0].strip()
    return request.META.get("REMOTE_ADDR", "-") or "-"


def _key(username: str, request: HttpRequest | None) -> str:
    # Hashed: the cache key stays short and safe whatever was typed as a username.
    raw = f"{username.strip().casefold()}|{client_address(request)}".encode()
    return f"{KEY_PREFIX}:{hashlib.sha256(raw).hexdigest()}"


def _state(username: str, request: HttpRequest | None) -> dict[str, float]:
    return cache.get(_key(username, request)) or {"failures": 0, "until": 0.0}


def is_locked_out(*, username: str, request: HttpRequest | None) -> bool:
    state = _state(username, request)
    return state["failures"] >= failure_limit() and time.time() < state["until"]


def record_failure(*, username: str, request: HttpRequest | None) -> int:
    """Count a failed login; returns the failures so far. Each failure restarts the window."""
    state = _state(username, request)
    if time.time() >= state["until"]:
        state = {"failures": 0, "until": 0.0}  # the last failure was long ago (or a lock ran out)
    seconds = lockout_seconds()
    state = {"failures": state["failures"] + 1, "until": time.time() + seconds}
    cache.set(_key(username, request), state, timeout=seconds)
    return int(state["failures"])


def clear_failures(*, username: str, request: HttpRequest | None) -> None:
    cache.delete(_key(username, request))


def _username(credentials: dict[str, Any]) -> str | None:
    name = credentials.get("username") or credentials.get(get_user_model().USERNAME_FIELD)
    return name if isinstance(name, str) and name else None


class LockoutBackend(ModelBackend):
    """Django's ``ModelBackend``, refusing a username locked out from this address.

    Raising ``PermissionDenied`` makes ``authenticate()`` stop at once: no other backend
    is tried and the password is not checked.
    """

    def authenticate(
        self,
        request: HttpRequest | None,
        username: str | None = None,
        password: str | None = None,
        **kwargs: Any,
    ) -> Any:
        name = username or kwargs.get(get_user_model().USERNAME_FIELD)
        if isinstance(name, str) and name and is_locked_out(username=name, request=request):
            raise PermissionDenied("too many failed logins; try again later")
        user = super().authenticate(request, username=username, password=password, **kwargs)
        if user is not None and isinstance(name, str):
            # The console's supervisor approval authenticates without logging in.
            clear_failures(username=name, request=request)
        return user


@receiver(user_login_failed, dispatch_uid="casino.throttling.count_failure")
def count_failure(sender: Any, credentials: dict[str, Any], request: Any = None, **kwargs: Any):
    name = _username(credentials)
    if name is None or is_locked_out(username=name, request=request):
        return  # a refused attempt while locked does not extend the lock
    record_failure(username=name, request=request)


@receiver(user_logged_in, dispatch_uid="casino.throttling.clear_on_login")
def clear_on_login(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    clear_failures(username=user.get_username(), request=request)
