"""Checks of the settings that ``manage.py check --deploy`` adds to Django's own."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.checks import Tags, Warning, register

#: Caches each process keeps for itself: counts in them are not shared between workers.
PER_PROCESS = ("LocMemCache", "DummyCache", "FileBasedCache")


@register(Tags.security, deploy=True)
def lockout_cache_is_shared(app_configs: Any = None, **kwargs: Any) -> list[Warning]:
    """The login lockout and the API's rate limits count in the default cache: with a
    per-process cache each gunicorn worker would count on its own, multiplying the limits
    by the number of workers (and restarting them at each restart)."""
    backend = settings.CACHES.get("default", {}).get("BACKEND", "")
    if backend.rsplit(".", 1)[-1] in PER_PROCESS:
        return [
            Warning(
                "The default cache is kept per process: the login lockout and the API's "
                "rate limits would not be shared by the web workers.",
                hint="Set CACHE_URL to the shared Redis, e.g. redis://redis:6379/1.",
                id="casino.W001",
            )
        ]
    return []
