"""``/healthz``, ``/readyz`` and ``/metrics``: what the load balancer and monitoring read.

No login for any of them (a probe has none); ``/metrics`` answers only the addresses in
``METRICS_ALLOWED_ADDRESSES`` and is a 404 to any other. The health bodies hold each check's
name, pass or fail, and a short reason: no host, user, version or secret.
"""

from __future__ import annotations

import asyncio
import ipaddress
from typing import Any

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.views.decorators.cache import never_cache
from health_check.base import HealthCheck
from health_check.checks import Cache, Database
from health_check.views import HealthCheckView
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, generate_latest

from casino.kernel.metrics import scrape_registry
from casino.kernel.replicas import replica_configured
from casino.ops.checks import Broker, Heartbeat, Migrations, ReplicaLag
from casino.ops.heartbeats import BEAT, WORKER
from casino.ops.metrics import DomainCollector
from casino.staff.throttling import client_address


@never_cache
def healthz(request: HttpRequest) -> JsonResponse:
    """The process answers: nothing else is asked (a restart is the only cure for a fail)."""
    return JsonResponse({"status": "pass"})


def ready_checks() -> list[tuple[str, HealthCheck]]:
    """The checks, by name: those of what this installation has configured."""
    checks: list[tuple[str, HealthCheck]] = [
        ("database", Database()),
        ("migrations", Migrations()),
        ("cache", Cache()),
    ]
    if replica_configured():
        checks.append(("replica", ReplicaLag()))
    if settings.CELERY_BROKER_URL:
        checks.append(("broker", Broker()))
        checks.append(("worker", Heartbeat(name=WORKER)))
        checks.append(("beat", Heartbeat(name=BEAT)))
    return checks


class ReadyView(HealthCheckView):
    """Every check at once: 200 if all pass, 503 if any fails, and each check's result."""

    async def get(self, request: HttpRequest, *args: Any, **kwargs: Any) -> JsonResponse:
        named = ready_checks()
        results = await asyncio.gather(*(check.get_result() for _name, check in named))
        checks = {
            name: {"status": "fail", "output": result.error.message}
            if result.error
            else {"status": "pass"}
            for (name, _check), result in zip(named, results, strict=True)
        }
        failed = any(result.error for result in results)
        return JsonResponse(
            {"status": "fail" if failed else "pass", "checks": checks},
            status=503 if failed else 200,
        )


readyz = ReadyView.as_view()


def _allowed(address: str) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(
        ip in ipaddress.ip_network(allowed, strict=False)
        for allowed in settings.METRICS_ALLOWED_ADDRESSES
    )


@never_cache
def metrics(request: HttpRequest) -> HttpResponse:
    """The Prometheus text: the processes' own figures, then those counted from the tables."""
    if not _allowed(client_address(request)):
        raise Http404
    domain = CollectorRegistry(auto_describe=False)
    domain.register(DomainCollector())
    body = generate_latest(scrape_registry()) + generate_latest(domain)
    return HttpResponse(body, content_type=CONTENT_TYPE_LATEST)
