"""What the login and token tests share: the real Redis as the shared cache, under a key
prefix of the test's own (never a FLUSHDB: the database may be Celery's broker too)."""

from __future__ import annotations

import os
import uuid

import pytest
import redis


def redis_url() -> str:
    """The Redis the suite runs with: ``CACHE_URL``, else the broker's (``make test``)."""
    url = os.environ.get("CACHE_URL") or os.environ.get("CELERY_BROKER_URL", "")
    if not url.startswith(("redis://", "rediss://", "unix://")):
        pytest.fail("these tests need Redis: set CELERY_BROKER_URL=redis://... (make test does)")
    return url


@pytest.fixture
def redis_prefix():
    """A key prefix of this test's own in the suite's Redis; its keys are removed after."""
    prefix = f"test-{uuid.uuid4().hex[:12]}"
    yield prefix
    client = redis.Redis.from_url(redis_url())
    keys = list(client.scan_iter(f"{prefix}*", count=1000))
    if keys:
        client.delete(*keys)


@pytest.fixture(autouse=True)
def shared_cache(settings, redis_prefix):
    """Django's default cache on the real Redis, as in production (``CACHE_URL``): the
    lockout's and the rate limits' counts, this test's own."""
    settings.CACHES = {
        "default": {
            "BACKEND": "casino.kernel.redis_cache.RedisCache",
            "LOCATION": redis_url(),
            "KEY_PREFIX": redis_prefix,
        }
    }
    from django.core.cache import cache

    yield cache
