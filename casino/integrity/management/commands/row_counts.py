"""Count the rows of the tables a restore must bring back whole: rounds and their bets, the
ledger, the audit trail, the cage's slips and cash records, the sessions and the drops.

One ``table count`` line each, sorted by table, so two listings compare with ``diff``: the
primary's at a moment and a restore's to that moment (docs/OPERATIONS.md "Restore drill").
It only reads: one statement counting every table, so the figures are of one snapshot
even while the floor plays.
"""

from __future__ import annotations

from django.core.management.base import BaseCommand
from django.db import connection
from django.db.models import Model

from casino.audit.models import AuditEvent
from casino.cage.models import CashTransaction, Slip
from casino.count.models import BoxCount
from casino.floor.models import Bet, Round, TableSession
from casino.ledger.models import Drop, LedgerEntry

COUNTED: tuple[type[Model], ...] = (
    AuditEvent,
    Bet,
    BoxCount,
    CashTransaction,
    Drop,
    LedgerEntry,
    Round,
    Slip,
    TableSession,
)


def row_counts() -> dict[str, int]:
    """Each counted table's rows, by table name, as one snapshot sees them (one statement:
    the tables' own names, no input)."""
    tables = [model._meta.db_table for model in COUNTED]
    counts = ", ".join(
        f"(SELECT count(*) FROM {connection.ops.quote_name(table)})"  # noqa: S608
        for table in tables
    )
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {counts}")
        return dict(zip(tables, cursor.fetchone(), strict=True))


class Command(BaseCommand):
    help = "List the row counts of the rounds, bets, ledger, audit trail, slips and sessions."

    def handle(self, *args, **options) -> None:
        counts = row_counts()
        width = max(map(len, counts))
        for table in sorted(counts):
            self.stdout.write(f"{table:<{width}}  {counts[table]}")
