"""Rate limits of the API, counted atomically in the shared cache (Redis ``INCR``).

- ``login`` (``LoginRateThrottle``, the login endpoint): per client address, the same
  address the lockout counts (``LOGIN_CLIENT_IP_HEADER``); a first line in front of the
  lockout, so a flood is answered 429 before any password or record is looked at.
- ``write`` (``WriteRateThrottle``, every view): per user, the unsafe methods only (POST,
  PATCH, PUT, DELETE); reads are not limited.

Rates are ``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]`` (``API_LOGIN_RATE``,
``API_WRITE_RATE``: ``N/second|minute|hour|day``; ``off`` for none). Each counts in fixed
windows of its period (one ``INCR`` per request, not DRF's list of timestamps read and
written back), so a client may send up to twice its rate across a window's edge. A refused
request is a 429 in the API's error shape with ``Retry-After`` (the window's remaining
seconds).
"""

from __future__ import annotations

import math
import time
from typing import Any

from rest_framework.permissions import SAFE_METHODS
from rest_framework.settings import api_settings
from rest_framework.throttling import BaseThrottle

from casino.staff.throttling import client_address, take_attempt

PERIODS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def parse_rate(rate: str | None) -> tuple[int, int] | None:
    """``"120/minute"`` -> (120, 60); None for no limit.

    >>> parse_rate("120/minute"), parse_rate("5/s"), parse_rate("off")
    ((120, 60), (5, 1), None)
    """
    if not rate or rate.strip().lower() in {"off", "none"}:
        return None
    count, period = rate.split("/")
    return int(count), PERIODS[period.strip()[0]]


class WindowThrottle(BaseThrottle):
    """``scope``'s rate, counted per ``ident`` in fixed windows."""

    scope = ""

    def __init__(self) -> None:
        self.limit = parse_rate(api_settings.DEFAULT_THROTTLE_RATES.get(self.scope))
        self.retry_after: float | None = None

    def ident(self, request: Any, view: Any) -> str | None:
        raise NotImplementedError

    def allow_request(self, request: Any, view: Any) -> bool:
        if self.limit is None:
            return True
        ident = self.ident(request, view)
        if ident is None:
            return True
        count, seconds = self.limit
        now = time.time()
        window = int(now // seconds)
        used = take_attempt(f"throttle:{self.scope}:{ident}:{window}", seconds + 1)
        if used <= count:
            return True
        self.retry_after = seconds - now % seconds
        return False

    def wait(self) -> float | None:
        return None if self.retry_after is None else max(1, math.ceil(self.retry_after))


class WriteRateThrottle(WindowThrottle):
    scope = "write"

    def ident(self, request: Any, view: Any) -> str | None:
        if request.method in SAFE_METHODS or not request.user.is_authenticated:
            return None
        return str(request.user.pk)


class LoginRateThrottle(WindowThrottle):
    scope = "login"

    def ident(self, request: Any, view: Any) -> str | None:
        return client_address(request)
