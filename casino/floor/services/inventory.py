"""The chips of a table's tray, by denomination: the table's inventory between sessions
and how a count differs from what was expected.

A table's inventory is what its last session counted at close (``closing_chips``): the
closing count is the next opener's expectation, so nothing is stored twice. A session's
running tray (its opening count with the verified fills added and the verified credits
taken off) is read from its slips: ``casino.cage.slip_selectors.tray_inventory``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from decimal import Decimal

from casino.floor.models import TableSession
from casino.venues.models import Table

#: The states of a session whose closing count stands as its table's inventory.
_COUNTED_CLOSED = (TableSession.Status.CLOSED, TableSession.Status.RECONCILED)
_ZERO = Decimal(0)


def table_inventory(*, table: Table | int) -> dict[str, int] | None:
    """The chips in the table's tray, per denomination: what its last closed (or
    reconciled) session counted at close; ``None`` for a table never closed."""
    table_id = table if isinstance(table, int) else table.pk
    last = (
        TableSession.objects.filter(table_id=table_id, status__in=_COUNTED_CLOSED)
        .exclude(closing_chips=None)
        .order_by("-closed_at", "-pk")
        .values_list("closing_chips", flat=True)
        .first()
    )
    return None if last is None else {d: int(n) for d, n in last.items()}


@dataclass(frozen=True)
class Discrepancy:
    """A count against what was expected: counted - expected chips per denomination where
    they differ (signed), and its value."""

    chips: dict[str, int]
    total: Decimal

    def __bool__(self) -> bool:
        return bool(self.chips)


def chips_discrepancy(
    counted: Mapping[str, int], expected: Mapping[str, int], denominations: Iterable[str] = ()
) -> Discrepancy:
    """Counted - expected per denomination, in the order of ``denominations`` (the table's,
    largest first) and then any other denomination either side holds.

    >>> chips_discrepancy({"100": 3, "10": 1}, {"100": 4, "5": 2}, ["100", "10", "5"])
    Discrepancy(chips={'100': -1, '10': 1, '5': -2}, total=Decimal('-100'))
    """
    order = list(dict.fromkeys([*denominations, *counted, *expected]))
    chips: dict[str, int] = {}
    total = _ZERO
    for denomination in order:
        difference = int(counted.get(denomination, 0)) - int(expected.get(denomination, 0))
        if difference:
            chips[denomination] = difference
            total += Decimal(denomination) * difference
    return Discrepancy(chips=chips, total=total)
