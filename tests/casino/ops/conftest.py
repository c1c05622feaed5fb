"""The operations' tests run on the real Redis, as production does (``CACHE_URL``): the
heartbeats and the lockout's counts under a key prefix of the test's own."""

from tests.casino.logins.conftest import redis_prefix, shared_cache  # noqa: F401
