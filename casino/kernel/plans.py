"""A report's large reads planned for their own parameters, every time.

The app's connections prepare a statement once it has run five times on them
(``server_side_binding``, ``prepare_threshold=5``: casino/settings.py); after five runs of
a prepared statement PostgreSQL may switch to a generic plan, made without the
parameters' values. For a round's small statements that saves the planning. For a report's
``GROUP BY`` over millions of tallies it is a trap: not knowing the range of gaming dates,
the generic plan expects a few shifts and walks the tallies shift by shift through an
index, in one process, instead of the parallel scan the actual range calls for (measured on
the group's month to date of 10 venues read one by one: 8 s on a fresh connection, 46 s on
it from the second reading on; docs/BENCHMARKS.md "group_periods").
``custom_plans`` plans the block's statements with
their values each time (``plan_cache_mode = force_custom_plan``, for the block's
transaction only: safe behind PgBouncer in transaction mode).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from django.db import connections, transaction


@contextmanager
def custom_plans(alias: str) -> Iterator[None]:
    """Within the block, the statements run on ``alias`` are planned with their parameters'
    values, never by a prepared statement's generic plan (the module docstring)."""
    connection = connections[alias]
    if connection.vendor != "postgresql":
        yield
        return
    with transaction.atomic(using=alias):
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL plan_cache_mode = force_custom_plan")
        yield
