"""A password hasher for the lockout's concurrency test only: it counts every password it
verifies in Redis, and takes as long as a production hash does.

Wired by ``tests/casino/logins/counting_settings.py``, which only that test's gunicorn
uses; ``PASSWORD_CHECKS_REDIS`` names the Redis database and ``PASSWORD_CHECKS_KEY`` the
counter. Never in production.
"""

from __future__ import annotations

import os
import time
from functools import cache

import redis
from django.contrib.auth.hashers import MD5PasswordHasher

#: Seconds one check takes: production's PBKDF2 takes a few hundred milliseconds, and the
#: longer a check takes, the more attempts can slip past a lock that is read before it.
CHECK_SECONDS = float(os.environ.get("PASSWORD_CHECK_SECONDS", "0.2"))


@cache
def _redis() -> redis.Redis:
    return redis.Redis.from_url(os.environ["PASSWORD_CHECKS_REDIS"])


class CountingMD5PasswordHasher(MD5PasswordHasher):
    """The test suite's MD5 hasher (same algorithm name, so it verifies the suite's
    passwords), counting each verification."""

    def verify(self, password: str, encoded: str) -> bool:
        _redis().incr(os.environ["PASSWORD_CHECKS_KEY"])
        time.sleep(CHECK_SECONDS)
        return super().verify(password, encoded)
