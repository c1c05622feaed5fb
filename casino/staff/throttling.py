"""Login lockout: an attempt is counted before its password is checked, atomically, in the
cache every web process shares; past the limit the password is not checked at all.

Two counts, each over a window of ``LOGIN_LOCKOUT_MINUTES`` (default 15) that starts with
the first attempt it counts:

- per username (as typed, case-folded) and client address: at most
  ``LOGIN_FAILURE_LIMIT`` (default 5) passwords and second-factor codes are checked; a
  successful login clears the count (for one who needs a second factor, the right code
  does, not the password before it);
- per client address, whatever the usernames (against trying one password on many
  accounts): at most ``LOGIN_ADDRESS_FAILURE_LIMIT`` (default 30) failed checks; a
  successful login takes its own attempt back, so the logins of a floor behind one
  address do not add up, while failures do.

Taking the attempt first is what makes the bound hold under concurrency: the count is one
Redis ``INCR`` (Django's cache ``add`` then ``incr``), so however many logins arrive at
once on however many workers, each gets its own number, and only those numbered within the
limit reach the password hasher. (Reading a lock and counting the failure after the check,
as before, let every attempt in flight during a check through: 10 checks for 50 logins at
once on 5 workers.) A refused attempt does not extend the window.

The lock covers everything that calls ``authenticate()``: the login page, the admin's, the
API's token login, the console's supervisor approval (void, close) and its lock screen,
whose PINs are checked behind the same counts (``pin_authenticate``), and the second
factor's codes after the password (``code_authenticate``).

Every failed check and every lockout is stored (``casino.floor.models.LoginAttempt``, read in
the admin) and logged, one line each, on the ``casino.security`` logger; a lockout is
recorded once, by the first attempt it refuses (the attempts after it in the same window
are refused without a record, so a flood does not become a flood of rows). Successful
logins are stored too. No password is ever stored or logged.

Wiring (``casino/settings.py``)::

    AUTHENTICATION_BACKENDS = ["casino.staff.throttling.LockoutBackend"]

The counts live in Django's default cache: with several web processes it must be the
shared Redis (``CACHE_URL``; ``check --deploy`` refuses a per-process cache). The client
address is ``REMOTE_ADDR``, or the header named by ``LOGIN_CLIENT_IP_HEADER`` (e.g.
``HTTP_X_REAL_IP``) when set, which only a trusted reverse proxy may set.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib.auth import authenticate, get_user_model
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.forms import AuthenticationForm
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest
from django.utils.translation import gettext as _

from casino.staff.models import LoginAttempt
from casino.staff.policy import needs_second_factor
from casino.staff.signed_in import signed_in_user

logger = logging.getLogger("casino.security")

KEY_PREFIX = "login-attempts"


def failure_limit() -> int:
    return int(getattr(settings, "LOGIN_FAILURE_LIMIT", 5))


def address_failure_limit() -> int:
    return int(getattr(settings, "LOGIN_ADDRESS_FAILURE_LIMIT", 30))


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
            return forwarded.split(",")[0].strip()[:64]
    return (request.META.get("REMOTE_ADDR", "-") or "-")[:64]


def _hashed(*parts: str) -> str:
    # Hashed: the cache key stays short and safe whatever was typed as a username.
    return hashlib.sha256("|".join(parts).encode()).hexdigest()


def _pair_key(username: str, address: str) -> str:
    return f"{KEY_PREFIX}:pair:{_hashed(username.strip().casefold(), address)}"


def _address_key(address: str) -> str:
    return f"{KEY_PREFIX}:address:{_hashed(address)}"


def take_attempt(key: str, seconds: int | None = None) -> int:
    """Count one attempt under ``key`` in a window of ``seconds`` (the lockout's by
    default); the count so far, this one included.

    ``add`` starts a window (a no-op when one is running), ``incr`` is Redis' atomic
    ``INCR``. Should the window run out between the two, ``incr`` finds no key (and
    starts again) or, in Redis, creates it without an expiry: whoever's count is 1 sets
    the window's expiry (again), so no count is ever left without one.
    """
    seconds = seconds or lockout_seconds()
    for _try in range(3):
        cache.add(key, 0, timeout=seconds)
        try:
            count = cache.incr(key)
        except ValueError:  # expired between add and incr: start the window again
            continue
        if count == 1:
            cache.touch(key, timeout=seconds)
        return count
    raise RuntimeError(f"could not count a login attempt under {key}")


def give_back(key: str) -> None:
    """Take one attempt off ``key``'s count (a login that succeeded)."""
    try:
        left = cache.decr(key)
    except ValueError:
        return  # the window ran out meanwhile: nothing to give back
    if left <= 0:
        # Had the window run out just before the DECR, Redis made a new count without an
        # expiry: give it one (a count of 0 locks nothing, so a longer window is harmless).
        cache.touch(key, timeout=lockout_seconds())


def attempts(*, username: str, address: str) -> tuple[int, int]:
    """The counts so far: (this username from this address, this address); for tests and
    for an operator looking into a lockout."""
    pair = cache.get(_pair_key(username, address)) or 0
    return int(pair), int(cache.get(_address_key(address)) or 0)


def clear(*, username: str, address: str) -> None:
    """Lift the lock of a username at an address (an operator, after a check by phone)."""
    cache.delete(_pair_key(username, address))


@dataclass
class LoginRefusal:
    """Whether the lockout refused one login, and why (``outcome``, a
    ``LoginAttempt.Outcome``; None if the password was checked). ``authenticate()`` answers
    None for a refused login as for a wrong password: a caller that tells the two apart
    passes one of these along as a credential, ``authenticate(request, username=...,
    password=..., refusal=refused)``, and reads it afterwards."""

    outcome: str | None = None


@dataclass(frozen=True)
class Attempt:
    """A login attempt as the lockout sees it."""

    username: str
    address: str
    pair_key: str
    address_key: str
    #: Where the login was typed (``LoginAttempt.EntryPoint``).
    entry_point: str

    @classmethod
    def of(
        cls, username: str, request: HttpRequest | None, entry_point: str | None = None
    ) -> Attempt:
        """``entry_point``: named by the view that asks (the console's lock screen), else
        read from the request's path."""
        address = client_address(request)
        if entry_point not in LoginAttempt.EntryPoint.values:
            entry_point = _entry_point(request)
        return cls(
            username, address, _pair_key(username, address), _address_key(address), entry_point
        )


def _refuse(
    attempt: Attempt,
    request: HttpRequest | None,
    outcome: str,
    first: bool,
    refusal: LoginRefusal | None,
) -> None:
    if refusal is not None:
        refusal.outcome = outcome
    if first:
        # The first refusal of a window is the lockout; later ones are counted only.
        _record(attempt, request, outcome)
    raise PermissionDenied("too many failed logins; try again later")


def _record(attempt: Attempt, request: HttpRequest | None, outcome: str) -> None:
    from casino.staff.logins import login_record

    record = login_record(
        username=attempt.username,
        address=attempt.address,
        user_agent=(request.META.get("HTTP_USER_AGENT", "") if request is not None else ""),
        entry_point=attempt.entry_point,
        outcome=outcome,
    )
    if outcome == LoginAttempt.Outcome.SUCCEEDED:
        return
    # %r: a username is whatever was typed (newlines included); never the password.
    logger.warning(
        "login %s: username=%r address=%s entry=%s user_agent=%r window=%ss",
        outcome,
        record.username,
        record.address,
        record.entry_point,
        record.user_agent,
        lockout_seconds(),
        extra={
            "event": f"login_{outcome}",
            "username": record.username,
            "address": record.address,
            "entry_point": record.entry_point,
        },
    )


def refusal_message(refusal: LoginRefusal) -> str | None:
    """What to tell someone whose login the lockout refused (None if it did not)."""
    refused = refusal.outcome
    if refused is None:
        return None
    minutes = lockout_seconds() // 60
    if refused == LoginAttempt.Outcome.ADDRESS_LOCKED_OUT:
        text = _(
            "Too many failed logins from your address: logins from it are refused for up to "
            "%(minutes)d minutes. Ask a manager if this is not you."
        )
    else:
        text = _(
            "Too many failed logins for this username from your address: try again in up "
            "to %(minutes)d minutes, or ask a manager to reset the password."
        )
    return text % {"minutes": minutes}


class LockoutAuthenticationForm(AuthenticationForm):
    """The login page's form: says so when the lockout refused the login (the page would
    otherwise say the password is wrong, and the right one would not help)."""

    locked_out: str | None = None

    def clean(self) -> dict[str, Any]:
        # Django's ``AuthenticationForm.clean``, the refusal passed along to be read.
        username = self.cleaned_data.get("username")
        password = self.cleaned_data.get("password")
        if username is not None and password:
            refusal = LoginRefusal()
            self.user_cache = authenticate(
                self.request, username=username, password=password, refusal=refusal
            )
            if self.user_cache is None:
                self.locked_out = refusal_message(refusal)
                raise self.get_invalid_login_error()
            self.confirm_login_allowed(self.user_cache)
        return self.cleaned_data


def _entry_point(request: HttpRequest | None) -> str:
    """Where a login was typed, by the request's path."""
    path = getattr(request, "path_info", "") or ""
    if path.startswith("/api/"):
        return LoginAttempt.EntryPoint.API
    if path.startswith("/admin/"):
        return LoginAttempt.EntryPoint.ADMIN
    if path.startswith("/console/"):
        return LoginAttempt.EntryPoint.APPROVAL
    if request is not None and path == settings.LOGIN_URL:
        return LoginAttempt.EntryPoint.PAGE
    return LoginAttempt.EntryPoint.OTHER


def _take(attempt: Attempt, request: HttpRequest | None, refusal: LoginRefusal | None) -> None:
    """Count the attempt against both limits; past either, refuse it (``PermissionDenied``),
    saying why on ``refusal``."""
    pair = take_attempt(attempt.pair_key)
    if pair > failure_limit():
        first = pair == failure_limit() + 1
        _refuse(attempt, request, LoginAttempt.Outcome.LOCKED_OUT, first, refusal)
    at_address = take_attempt(attempt.address_key)
    if at_address > address_failure_limit():
        first = at_address == address_failure_limit() + 1
        _refuse(attempt, request, LoginAttempt.Outcome.ADDRESS_LOCKED_OUT, first, refusal)


def _checked(
    attempt: Attempt, request: HttpRequest | None, user: Any, *, clears: bool = True
) -> Any:
    """Record the check's outcome; a success clears the username's count (unless
    ``clears`` is False: a password that a second factor's code must follow) and gives
    the address its attempt back."""
    if user is None:
        _record(attempt, request, LoginAttempt.Outcome.FAILED)
        return None
    if clears:
        cache.delete(attempt.pair_key)
    give_back(attempt.address_key)
    _record(attempt, request, LoginAttempt.Outcome.SUCCEEDED)
    return user


class LockoutBackend(ModelBackend):
    """Django's ``ModelBackend``, behind the lockout: the attempt is counted first, and
    the password checked only within the limits.

    Raising ``PermissionDenied`` makes ``authenticate()`` stop at once: no other backend
    is tried and the password is not checked.
    """

    def authenticate(
        self,
        request: HttpRequest | None,
        username: str | None = None,
        password: str | None = None,
        entry_point: str | None = None,
        refusal: LoginRefusal | None = None,
        **kwargs: Any,
    ) -> Any:
        """Two credentials of ``authenticate()`` of its own: ``entry_point``, where the login
        was typed when the path does not say it (``LoginAttempt.EntryPoint.LOCK``), and
        ``refusal``, told whether the lockout refused the login."""
        name = username or kwargs.get(get_user_model().USERNAME_FIELD)
        if not isinstance(name, str) or not name or password is None:
            return None  # nothing to check (Django asks every backend)
        attempt = Attempt.of(name, request, entry_point)
        _take(attempt, request, refusal)
        user = super().authenticate(request, username=username, password=password, **kwargs)
        return _checked(attempt, request, user, clears=not _code_follows(attempt, user))

    def get_user(self, user_id: Any) -> Any:
        """The signed-in user of a session, with their access, in one statement
        (``casino.staff.signed_in``); None for an account deactivated since."""
        user = signed_in_user(user_id)
        return user if user is not None and self.user_can_authenticate(user) else None


#: Where a password re-opens a session already logged in (and verified): no code follows.
_SAME_SESSION = (LoginAttempt.EntryPoint.LOCK, LoginAttempt.EntryPoint.APPROVAL)


def _code_follows(attempt: Attempt, user: Any) -> bool:
    """Whether a second factor's code must follow this right password: then the count is
    cleared by the right code, not by the password (else each right password would clear
    the wrong codes typed after the last one, and the codes could be guessed without end)."""
    return (
        user is not None and attempt.entry_point not in _SAME_SESSION and needs_second_factor(user)
    )


def pin_authenticate(
    request: HttpRequest,
    username: str,
    pin: str,
    *,
    entry_point: str | None = None,
    refusal: LoginRefusal | None = None,
) -> Any:
    """The active account ``username`` if ``pin`` is its console PIN, else None; behind the
    same lockout and counts as a password (a PIN is short: five tries per username and
    address in the window, and they add up with wrong passwords). ``PermissionDenied``
    when the lockout refuses it, as ``authenticate()`` would."""
    from casino.staff.pins import pin_matches

    attempt = Attempt.of(username, request, entry_point)
    _take(attempt, request, refusal)
    user = get_user_model()._default_manager.filter(username=username, is_active=True).first()
    if user is not None and not pin_matches(user, pin):
        user = None
    if user is not None:
        user.backend = f"{LockoutBackend.__module__}.{LockoutBackend.__qualname__}"
    return _checked(attempt, request, user)


def code_authenticate(
    request: HttpRequest,
    user: Any,
    check: Callable[[], Any],
    *,
    refusal: LoginRefusal | None = None,
) -> Any:
    """``check()``'s answer (the second factor's device that took the code, or None),
    asked behind the same lockout and counts as the password: a wrong code counts as a
    wrong password of the username at the address, a right one clears the count.
    ``PermissionDenied`` when the lockout refuses it, as ``authenticate()`` would."""
    attempt = Attempt.of(user.get_username(), request, LoginAttempt.EntryPoint.CODE)
    _take(attempt, request, refusal)
    device = check()
    _checked(attempt, request, user if device is not None else None)
    return device
