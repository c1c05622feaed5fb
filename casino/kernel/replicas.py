"""Reads for reports from a replica: ``REPLICA_DATABASE_URL`` adds the ``replica`` alias.

Report building and the dashboard read inside ``replica_reads()``; there, and only there,
``ReplicaRouter`` sends reads to the replica. Writes always go to the primary
(``default``), and so do reads outside the block: a service that reads what it is about
to change must see the primary's rows, never a copy that lags behind. A read inside the
block that depends on rows the same code just wrote names the primary itself
(``.using(PRIMARY)``), as the report's cells do. Without a replica the block changes
nothing; with one that cannot be reached, the block reads from the primary and logs a
warning. Steps to set up streaming replication: docs/OPERATIONS.md "Reads on a replica".
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from django.conf import settings
from django.db import DatabaseError, connections

#: The alias of the read replica in ``DATABASES`` (present when it is configured).
REPLICA = "replica"
PRIMARY = "default"
#: How long a report build waits for the replica to replay what the primary had when the
#: build started (seconds); past it the build reads from the primary.
CATCH_UP_SECONDS = 10.0

logger = logging.getLogger(__name__)

_reads: ContextVar[bool] = ContextVar("replica_reads", default=False)


def replica_configured() -> bool:
    """Whether a replica alias is configured (``REPLICA_DATABASE_URL``)."""
    return REPLICA in settings.DATABASES


@contextmanager
def replica_reads(*, caught_up: bool = False, wait: float = CATCH_UP_SECONDS) -> Iterator[None]:
    """Within the block, reads go to the replica (when one is configured and answers).

    ``caught_up``: first wait (up to ``wait`` seconds) until the replica has replayed the
    primary's WAL as it stands now, so the block reads every row committed before it
    (a report built right after its shift's last table closed); if the replica does not
    catch up in time, the block reads from the primary.
    """
    use = replica_configured() and _reachable()
    if use and caught_up:
        use = _caught_up(wait)
    token = _reads.set(use)
    try:
        yield
    finally:
        _reads.reset(token)


def read_alias() -> str:
    """The alias reads go to here: the replica inside ``replica_reads()`` if there is one."""
    return REPLICA if _reads.get() and replica_configured() else PRIMARY


def _reachable() -> bool:
    replica = connections[REPLICA]
    try:
        # A kept connection that died with the replica is found out here (once a request,
        # CONN_HEALTH_CHECKS), not by the block's first query.
        replica.close_if_health_check_failed()
        replica.ensure_connection()
    except DatabaseError as error:
        logger.warning("replica unreachable, reading from the primary: %s", error)
        return False
    return True


def _caught_up(wait: float, *, poll: float = 0.05) -> bool:
    """Wait for the replica to replay the primary's current WAL position (PostgreSQL)."""
    primary = connections[PRIMARY]
    if primary.vendor != "postgresql":
        return True
    try:
        with primary.cursor() as cursor:
            cursor.execute("SELECT pg_current_wal_lsn()::text")
            (lsn,) = cursor.fetchone()
        deadline = time.monotonic() + wait
        with connections[REPLICA].cursor() as cursor:
            while True:
                # On a server that is not a standby (the test mirror) there is nothing to wait for.
                cursor.execute(
                    "SELECT NOT pg_is_in_recovery() OR pg_last_wal_replay_lsn() >= %s::pg_lsn",
                    [lsn],
                )
                if cursor.fetchone()[0]:
                    return True
                if time.monotonic() >= deadline:
                    break
                time.sleep(poll)
    except DatabaseError as error:
        logger.warning("replica not answering, reading from the primary: %s", error)
        return False
    logger.warning("replica %.0f s behind the primary at least, reading from the primary", wait)
    return False


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


def replica_lag_seconds() -> float:
    """How far the replica's replay is behind the primary (seconds; 0 with no replica).

    0 when the replica has replayed all it received (an idle primary sends nothing, and the
    time since the last replayed transaction would grow without any lag), else the time since
    the last transaction it replayed was committed. Raises ``DatabaseError`` if the replica
    does not answer.
    """
    if not replica_configured() or connections[REPLICA].vendor != "postgresql":
        return 0.0
    with connections[REPLICA].cursor() as cursor:
        cursor.execute(
            "SELECT CASE WHEN NOT pg_is_in_recovery()"
            " OR pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() THEN 0"
            " ELSE COALESCE(EXTRACT(EPOCH FROM now() - pg_last_xact_replay_timestamp()), 0)"
            " END"
        )
        (lag,) = cursor.fetchone()
    return float(lag)
