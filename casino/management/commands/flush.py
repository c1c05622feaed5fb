"""Django's ``flush``, allowed to empty the append-only tables (the ledger, the audit trail).

Their triggers refuse TRUNCATE (migration 0010) unless the tables' owner says so for the
transaction with ``SET LOCAL casino.allow_truncate = 'on'``. Emptying the whole database
is that deliberate act (the test suite between transactional tests, which calls this
command; a development reset), so this command says so before each TRUNCATE it sends. The
app's database role owns no table and holds no TRUNCATE privilege: run by it, this fails
(docs/OPERATIONS.md, "Database roles").
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.core.management.commands import flush
from django.db import connections

ALLOW_TRUNCATE = "SET LOCAL casino.allow_truncate = 'on'"


def allow_truncate(
    execute: Callable[..., Any], sql: str, params: Any, many: bool, context: dict[str, Any]
) -> Any:
    """Precede each TRUNCATE with the owner's ``SET LOCAL`` (in the same transaction)."""
    if sql.lstrip()[:8].upper() == "TRUNCATE":
        execute(ALLOW_TRUNCATE, None, False, context)
    return execute(sql, params, many, context)


class Command(flush.Command):
    def handle(self, **options: Any) -> None:
        connection = connections[options["database"]]
        if connection.vendor != "postgresql":
            return super().handle(**options)
        with connection.execute_wrapper(allow_truncate):
            return super().handle(**options)
