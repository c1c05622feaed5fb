"""Django's Redis cache (``CACHE_URL``), with one Redis client per connection pool.

Why our own: Django's ``RedisCacheClient`` builds a new ``redis.Redis`` on every cache call,
and that constructor fills a table of some 170 response callbacks each time. A console
partial reads the cache two or three times (its login's session, the table it is at), and
those constructors were a tenth of its CPU (docs/BENCHMARKS.md "floor"). A ``redis.Redis``
holds no connection of its own (its pool does) and is safe to share between threads, so one
per pool serves every call. Nothing else differs from Django's backend.
"""

from __future__ import annotations

from typing import Any

from django.core.cache.backends import redis as django_redis


class RedisCacheClient(django_redis.RedisCacheClient):
    """Django's client, keeping the ``redis.Redis`` it makes for each pool."""

    def __init__(self, servers: Any, **options: Any) -> None:
        super().__init__(servers, **options)
        self.clients: dict[int, Any] = {}  # by id of the pool

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        pool = self._get_connection_pool(write)
        client = self.clients.get(id(pool))
        if client is None:
            client = self.clients[id(pool)] = self._client(connection_pool=pool)
        return client


class RedisCache(django_redis.RedisCache):
    """``django.core.cache.backends.redis.RedisCache`` with the client above."""

    def __init__(self, server: Any, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = RedisCacheClient
