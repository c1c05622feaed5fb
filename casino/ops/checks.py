"""What ``/readyz`` checks beside django-health-check's own (database, cache).

Each check raises ``ServiceUnavailable`` with a short message that names no host, user or
password: the body is read without a login. They run in the view's worker threads, so each
closes the database connection it opened.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from contextlib import contextmanager

from django.conf import settings
from django.db import DatabaseError, connections
from django.db.migrations.executor import MigrationExecutor
from health_check.base import HealthCheck
from health_check.exceptions import ServiceUnavailable

from casino.kernel.replicas import PRIMARY, REPLICA, replica_lag_seconds
from casino.ops.heartbeats import heartbeat_age


@contextmanager
def _closing(alias: str) -> Iterator[None]:
    try:
        yield
    finally:
        connections[alias].close()


@dataclasses.dataclass
class Migrations(HealthCheck):
    """Every migration of the code is applied: new code on an old schema fails its queries."""

    def run(self) -> None:
        with _closing(PRIMARY):
            try:
                executor = MigrationExecutor(connections[PRIMARY])
                plan = executor.migration_plan(executor.loader.graph.leaf_nodes())
            except DatabaseError as error:
                raise ServiceUnavailable("the migrations could not be read") from error
        if plan:
            names = ", ".join(f"{m.app_label}.{m.name}" for m, _backwards in plan[:5])
            raise ServiceUnavailable(f"{len(plan)} migrations not applied: {names}")


@dataclasses.dataclass
class ReplicaLag(HealthCheck):
    """The report replica answers and is no more than ``REPLICA_LAG_LIMIT_SECONDS`` behind."""

    def run(self) -> None:
        with _closing(REPLICA):
            try:
                lag = replica_lag_seconds()
            except DatabaseError as error:
                raise ServiceUnavailable("the replica does not answer") from error
        limit = settings.REPLICA_LAG_LIMIT_SECONDS
        if lag > limit:
            raise ServiceUnavailable(f"the replica is {lag:.0f} s behind (limit {limit:g} s)")


@dataclasses.dataclass
class Broker(HealthCheck):
    """The Celery broker accepts a connection (no message is sent)."""

    def run(self) -> None:
        from casino.celery import app

        try:
            with app.connection_for_write() as connection:
                connection.ensure_connection(max_retries=1, timeout=3)
        except Exception as error:  # kombu raises the transport's own errors
            raise ServiceUnavailable("the broker does not answer") from error


@dataclasses.dataclass
class Heartbeat(HealthCheck):
    """A Celery worker's or beat's heartbeat is younger than ``HEARTBEAT_STALE_SECONDS``."""

    name: str = "worker"

    def run(self) -> None:
        age = heartbeat_age(self.name)
        if age is None:
            raise ServiceUnavailable(f"no {self.name} heartbeat")
        limit = settings.HEARTBEAT_STALE_SECONDS
        if age > limit:
            raise ServiceUnavailable(f"the {self.name} heartbeat is {age:.0f} s old")
