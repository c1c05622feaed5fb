"""Reads for reports from a replica: ``REPLICA_DATABASE_URL`` adds the ``replica`` alias.

Report building and the dashboard read inside ``replica_reads()``; there, and only there,
``ReplicaRouter`` sends reads to the replica. Writes always go to the primary
(``default``), and so do reads outside the block: a service that reads what it is about
to change must see the primary's rows, never a copy that lags behind. Without a replica
the block changes nothing. Steps to set up streaming replication: docs/OPERATIONS.md.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from django.conf import settings

#: The alias of the read replica in ``DATABASES`` (present when it is configured).
REPLICA = "replica"
PRIMARY = "default"

_reads: ContextVar[bool] = ContextVar("replica_reads", default=False)


@contextmanager
def replica_reads() -> Iterator[None]:
    """Within the block, reads go to the replica (when one is configured)."""
    token = _reads.set(True)
    try:
        yield
    finally:
        _reads.reset(token)


def read_alias() -> str:
    """The alias reads go to here: the replica inside ``replica_reads()`` if there is one."""
    return REPLICA if _reads.get() and REPLICA in settings.DATABASES else PRIMARY


class ReplicaRouter:
    """Reads inside ``replica_reads()`` to the replica; every write to the primary."""

    def db_for_read(self, model: Any, **hints: Any) -> str | None:
        return read_alias()

    def db_for_write(self, model: Any, **hints: Any) -> str:
        return PRIMARY

    def allow_relation(self, obj1: Any, obj2: Any, **hints: Any) -> bool:
        return True  # the replica holds the primary's rows

    def allow_migrate(self, db: str, app_label: str, **hints: Any) -> bool:
        return db == PRIMARY  # the replica follows the primary's schema by replication
