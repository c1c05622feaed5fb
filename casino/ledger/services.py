"""Posting to the ledger: the one way entries are written.

Every movement is a balanced set of entries: the amounts of the entries that post one
thing (a round, a void, a slip, a drop) sum to zero. ``ledger_post`` refuses a set that
does not, before anything is written, so an unbalanced posting is a bug caught at its
source rather than a difference found at the count.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from decimal import Decimal

from casino.ledger.models import LedgerEntry


class UnbalancedPosting(Exception):
    """Entries that do not sum to zero: a programming error, never the user's."""


def _owner(entry: LedgerEntry) -> tuple[int | None, int | None, int | None]:
    return entry.round_id, entry.slip_id, entry.drop_id


def check_balanced(entries: Iterable[LedgerEntry]) -> None:
    """Raise ``UnbalancedPosting`` unless the entries of each thing they post sum to zero."""
    totals: dict[tuple[int | None, int | None, int | None], Decimal] = defaultdict(Decimal)
    for entry in entries:
        totals[_owner(entry)] += entry.amount
    unbalanced = {owner: total for owner, total in totals.items() if total != 0}
    if unbalanced:
        raise UnbalancedPosting(f"ledger entries do not sum to zero: {unbalanced}")


def ledger_post(
    entries: Iterable[LedgerEntry], *, batch_size: int | None = None
) -> list[LedgerEntry]:
    """Write balanced entries in one INSERT (``batch_size`` rows a statement for bulk runs).

    The caller holds the transaction (and the lock of what is posted); entries of several
    things may be posted at once, each thing balanced on its own.
    """
    entries = list(entries)
    check_balanced(entries)
    return LedgerEntry.objects.bulk_create(entries, batch_size=batch_size)
