"""Reads of the cage's inventory: what the cage holds by denomination as its book says, the
denominations it counts, its shifts and their report, and the chip liability.

A holding is ``{"notes": {denomination: count}, "chips": {denomination: count}}``: notes of
the venue's currency, chips of its chip set (``HOUSE_CHIPS``), each denomination written as
the venue lists it (``note_denominations``, its tables' ``chip_denominations``).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.core.exceptions import ObjectDoesNotExist
from django.db.models import Q, Sum

from casino.cage.models import (
    HOUSE_CHIPS,
    CageAccount,
    CageCount,
    CageLine,
    CageMovement,
    CageShift,
    Instrument,
    Slip,
    SlipStatus,
)
from casino.floor.models import TableSession
from casino.kernel.money import plain, to_decimal
from casino.venues.models import Table, Venue

Holding = dict[str, dict[str, int]]
#: The instruments a cage holds and counts, in the order a count lists them.
PIECES = (Instrument.NOTES, Instrument.CHIPS)
_ZERO = Decimal(0)


def _largest_first(values: Iterable[str]) -> list[str]:
    unique = {to_decimal(str(v)): str(v) for v in values}
    return [unique[value] for value in sorted(unique, reverse=True)]


def note_denominations(venue: Venue) -> list[str]:
    """The bank notes of the venue's currency the cage counts, largest first."""
    return _largest_first(venue.note_denominations or [])


def chip_denominations(venue: Venue) -> list[str]:
    """The chips of the venue's chip set: every denomination one of its tables plays,
    largest first."""
    lists = Table.objects.filter(venue=venue).values_list("chip_denominations", flat=True)
    return _largest_first(d for denominations in lists for d in denominations or [])


def denominations(venue: Venue) -> dict[str, list[str]]:
    """The denominations the cage counts, by instrument."""
    return {
        Instrument.NOTES: note_denominations(venue),
        Instrument.CHIPS: chip_denominations(venue),
    }


def denomination_key(value: Decimal, listed: Iterable[str]) -> str:
    """A stored denomination as the venue writes it (``"100000"``, not ``"100000.00"``)."""
    for text in listed:
        if to_decimal(text) == value:
            return text
    return plain(value)


def fewest_pieces(amount: Decimal, listed: Iterable[str]) -> dict[str, int] | None:
    """``amount`` in as few pieces of the ``listed`` denominations (largest first) as it
    takes, or None when they cannot make it exactly.

    >>> fewest_pieces(Decimal("350000"), ["200000", "100000", "50000"])
    {'200000': 1, '100000': 1, '50000': 1}
    >>> fewest_pieces(Decimal("5000"), ["10000"]) is None
    True
    """
    made: dict[str, int] = {}
    left = amount
    for denomination in listed:
        count = int(left // Decimal(denomination))
        if count:
            made[denomination] = count
            left -= count * Decimal(denomination)
    return made if left == 0 else None


def empty_holding() -> Holding:
    return {Instrument.NOTES: {}, Instrument.CHIPS: {}}


def holding_value(holding: Mapping[str, Mapping[str, int]]) -> Decimal:
    """What a holding (or a difference) is worth: each denomination times its count."""
    return sum(
        (to_decimal(d) * int(n) for pieces in holding.values() for d, n in pieces.items()),
        _ZERO,
    )


def account_holding(
    venue: Venue, account: str = CageAccount.CAGE, *, movements: Q | None = None
) -> Holding:
    """The notes and chips an account of the venue's cage book holds (the sum of its
    lines), by denomination; with ``movements``, of those movements only. The cage's is
    its expected inventory."""
    lines = CageLine.objects.filter(
        movement__venue=venue,
        account=account,
        instrument__in=PIECES,
        currency=venue.currency,
    ).filter(Q(instrument=Instrument.NOTES) | Q(chip_set=HOUSE_CHIPS))
    if movements is not None:
        lines = lines.filter(movements)
    sums = (
        lines.values("instrument", "denomination")
        .annotate(count=Sum("count"))
        .order_by("instrument", "-denomination")
    )
    listed = denominations(venue)
    holding = empty_holding()
    for row in sums:
        if row["count"]:
            key = denomination_key(row["denomination"], listed[row["instrument"]])
            holding[row["instrument"]][key] = int(row["count"])
    return holding


def cage_inventory(venue: Venue) -> Holding:
    """What the cage should hold now: every movement of its book, the counts' adjustments
    among them."""
    return account_holding(venue, CageAccount.CAGE)


def open_shift(venue: Venue) -> CageShift | None:
    return CageShift.objects.filter(venue=venue, status=CageShift.Status.OPEN).first()


def pending_count(venue: Venue) -> CageCount | None:
    """The count waiting for its second signature, if any."""
    return (
        CageCount.objects.select_related("counted_by")
        .filter(venue=venue, status=CageCount.Status.PENDING)
        .first()
    )


def has_been_counted(venue: Venue) -> bool:
    """Whether the venue's cage has a signed count: its inventory is known from then on."""
    return CageCount.objects.filter(venue=venue, status=CageCount.Status.SIGNED).exists()


def cage_shifts(*, venue: Venue, limit: int = 50) -> list[CageShift]:
    return list(CageShift.objects.filter(venue=venue).order_by("-opened_at", "-id")[:limit])


def cage_movements(*, venue: Venue, shift: CageShift | None = None, limit: int = 100) -> list[Any]:
    """The latest movements of the venue's book (of ``shift`` only, when given), newest first,
    with their lines and who recorded them."""
    movements = CageMovement.objects.filter(venue=venue)
    if shift is not None:
        movements = movements.filter(shift=shift)
    return list(
        movements.select_related("recorded_by", "slip")
        .prefetch_related("lines")
        .order_by("-recorded_at", "-id")[:limit]
    )


# The cage shift report


@dataclass(frozen=True)
class ReportLine:
    """One row of a cage shift report: a denomination of an instrument with its opening
    count, what each kind of movement moved, what was expected, counted, and the
    difference."""

    instrument: str
    denomination: str
    opening: int
    moved: dict[str, int]
    expected: int
    counted: int | None
    difference: int | None

    @property
    def value(self) -> Decimal:
        return to_decimal(self.denomination) * (
            self.counted if self.counted is not None else self.expected
        )

    @property
    def difference_value(self) -> Decimal:
        return to_decimal(self.denomination) * (self.difference or 0)


@dataclass(frozen=True)
class ShiftReport:
    shift: CageShift
    opening: CageCount | None
    closing: CageCount | None
    movements: list[CageMovement]
    kinds: list[str]
    lines: list[ReportLine]
    totals: dict[str, Decimal] = field(default_factory=dict)


def late_paper(movement: CageMovement) -> Any:
    """The paper form a movement was entered from after a system outage (a fill or credit
    slip written by hand, ``casino.cage.manual``): a late entry; None for any other."""
    try:
        return movement.slip.paper if movement.slip is not None else None
    except ObjectDoesNotExist:
        return None


def cage_shift(*, venue_ids: Iterable[int], pk: int) -> CageShift | None:
    return CageShift.objects.select_related("venue").filter(venue_id__in=venue_ids, pk=pk).first()


def cage_shift_report(*, shift: CageShift) -> ShiftReport:
    """The shift's opening count, each movement during it, what the cage should hold at its
    close (opening + movements), what the closing count found and the over/short, by
    instrument and denomination. The closing count's own adjustment is not a movement of
    the report: it is the over/short."""
    venue = shift.venue
    counts = {
        c.kind: c
        for c in CageCount.objects.select_related("counted_by", "signed_by", "movement").filter(
            shift=shift, status=CageCount.Status.SIGNED
        )
    }
    opening, closing = counts.get(CageCount.Kind.OPENING), counts.get(CageCount.Kind.CLOSING)
    adjustment = closing.movement_id if closing else None
    movements = [
        m
        for m in CageMovement.objects.filter(shift=shift)
        .select_related("recorded_by", "slip__paper__series")
        .prefetch_related("lines")
        .order_by("recorded_at", "id")
        if m.pk != adjustment and (opening is None or m.pk != opening.movement_id)
    ]
    moved: dict[tuple[str, str], dict[str, int]] = defaultdict(lambda: defaultdict(int))
    kinds: list[str] = []
    listed = denominations(venue)
    for movement in movements:
        for line in movement.lines.all():
            if line.account != CageAccount.CAGE or line.currency != venue.currency:
                continue
            key = denomination_key(line.denomination, listed[line.instrument])
            moved[(line.instrument, key)][movement.kind] += line.count
        if movement.kind not in kinds:
            kinds.append(movement.kind)
    lines = []
    totals = {"opening": _ZERO, "expected": _ZERO, "counted": _ZERO, "difference": _ZERO}
    for instrument in PIECES:
        opened = (
            (opening.notes if instrument == Instrument.NOTES else opening.chips) if opening else {}
        )
        counted = (
            (closing.notes if instrument == Instrument.NOTES else closing.chips)
            if closing
            else None
        )
        order = _largest_first(
            [
                *listed[instrument],
                *opened,
                *(counted or {}),
                *(d for i, d in moved if i == instrument),
            ]
        )
        for denomination in order:
            start = int(opened.get(denomination, 0))
            by_kind = dict(moved.get((instrument, denomination), {}))
            expected = start + sum(by_kind.values())
            have = None if counted is None else int(counted.get(denomination, 0))
            if not (start or by_kind or expected or have):
                continue
            line = ReportLine(
                instrument=instrument,
                denomination=denomination,
                opening=start,
                moved=by_kind,
                expected=expected,
                counted=have,
                difference=None if have is None else have - expected,
            )
            lines.append(line)
            value = to_decimal(denomination)
            totals["opening"] += value * start
            totals["expected"] += value * expected
            totals["counted"] += value * (have or 0)
            totals["difference"] += line.difference_value
    return ShiftReport(
        shift=shift,
        opening=opening,
        closing=closing,
        movements=movements,
        kinds=kinds,
        lines=lines,
        totals=totals,
    )


# Chip liability


@dataclass(frozen=True)
class LiabilityLine:
    denomination: str
    at_window: int
    at_tables: int

    @property
    def outstanding(self) -> int:
        return self.at_window + self.at_tables

    @property
    def value(self) -> Decimal:
        return to_decimal(self.denomination) * self.outstanding


@dataclass(frozen=True)
class ChipLiability:
    lines: list[LiabilityLine]
    open_tables: int

    @property
    def total(self) -> Decimal:
        return sum((line.value for line in self.lines), _ZERO)


def chip_liability(*, venue: Venue) -> ChipLiability:
    """The chips in patrons' hands: issued to them and not yet returned, by denomination.

    Two places put chips into patrons' hands and take them back:
    - the cage window: the book's patrons' account of chips (purchases - redemptions, and
      the chips of a marker issued at the cage, less those a member pays a marker with);
    - the tables: a closed (or reconciled) session gave its players what its tray lost
      that the cage did not take back: opening count + fills - credits - closing count.
    A session still open has not been counted yet: its chips are counted at its close, and
    the report says how many tables are open. Chips in patrons' hands when the cage book
    started are not known to it (nothing before the first count is)."""
    listed = chip_denominations(venue)
    window = account_holding(venue, CageAccount.PATRONS)[Instrument.CHIPS]
    tables: dict[str, int] = defaultdict(int)
    closed = (TableSession.Status.CLOSED, TableSession.Status.RECONCILED)
    sessions = TableSession.objects.filter(table__venue=venue, status__in=closed).values_list(
        "pk", "opening_chips", "closing_chips"
    )
    for _pk, opened, closing in sessions:
        for d, n in (opened or {}).items():
            tables[d] += int(n)
        for d, n in (closing or {}).items():
            tables[d] -= int(n)
    slips = Slip.objects.filter(
        venue=venue, status=SlipStatus.VERIFIED, session__status__in=closed
    ).values_list("kind", "chips")
    for kind, chips in slips:
        sign = 1 if kind == Slip.Kind.FILL else -1
        for d, n in (chips or {}).items():
            tables[d] += sign * int(n)
    by_value: dict[Decimal, list[int]] = defaultdict(lambda: [0, 0])
    for d, n in window.items():
        by_value[to_decimal(d)][0] += n
    for d, n in tables.items():
        by_value[to_decimal(d)][1] += n
    lines = [
        LiabilityLine(denomination=denomination_key(value, listed), at_window=w, at_tables=t)
        for value, (w, t) in sorted(by_value.items(), reverse=True)
        if w or t
    ]
    open_tables = TableSession.objects.filter(
        table__venue=venue, status=TableSession.Status.OPEN
    ).count()
    return ChipLiability(lines=lines, open_tables=open_tables)
