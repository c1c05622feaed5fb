"""The slips as the console and the API read them, scoped to the venues the user works at:
the API's list (``slip_list``), a session's slips, the cage's venue and lists, and a gaming
day's slip report (the rest of the console's reads: ``casino.floor.console.selectors``,
whose ``venues_where`` lists the cage's venues).

A ``*_for`` returns ``None`` for an object at another venue exactly as for one that does
not exist, so the views answer both with 404. Every read loads the people it shows with the
slip (``select_related``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Any

from django.db.models import Max, QuerySet
from django.utils import timezone

from casino.cage.models import Slip, SlipStatus, slip_label
from casino.floor.models import TableSession
from casino.staff.roles import venue_ids
from casino.venues.models import Shift, Venue

_SLIP_PEOPLE = (
    "requested_by",
    "issued_by",
    "dealer_confirmed_by",
    "supervisor_confirmed_by",
    "received_by",
    "verified_by",
    "voided_by",
)


def _slips() -> QuerySet[Slip]:
    # The session's dealer: who may sign a slip's dealer line, named when another may not.
    # Its paper, when it was entered late from a manual slip (``casino.cage.manual``).
    return Slip.objects.select_related(
        "venue",
        "session__table",
        "session__shift",
        "session__dealer",
        "paper__series",
        *_SLIP_PEOPLE,
    )


def slip_lines(slip: Slip) -> list[tuple[Decimal, int, Decimal]]:
    """The slip's chips: (denomination, count, amount), the highest first (the templates'
    ``slip|chip_lines``)."""
    lines = [
        (Decimal(value), int(count), Decimal(value) * int(count))
        for value, count in slip.chips.items()
    ]
    return sorted(lines, key=lambda line: line[0], reverse=True)


def tray_inventory(*, session: TableSession) -> dict[str, int]:
    """The running tray of a session, per denomination: the opening count + the chips of
    its verified fills - those of its verified credits (a count may go below 0 when a
    credit takes chips the rounds brought in)."""
    tray = {d: int(n) for d, n in session.opening_chips.items()}
    slips = Slip.objects.filter(session=session, status=SlipStatus.VERIFIED).values_list(
        "kind", "chips"
    )
    for kind, chips in slips:
        sign = 1 if kind == Slip.Kind.FILL else -1
        for denomination, count in (chips or {}).items():
            tray[denomination] = tray.get(denomination, 0) + sign * int(count)
    return {d: n for d, n in tray.items() if n}


def session_slips(*, session: TableSession) -> list[Slip]:
    return list(_slips().filter(session=session).order_by("-year", "-number"))


def session_slip_for(*, session: TableSession, pk: int) -> Slip | None:
    """A slip of the session (``None`` for one of another session, or none)."""
    return Slip.objects.filter(session=session, pk=pk).first()


# The API's


def slip_list(
    *,
    user: Any,
    session_id: int | None = None,
    kind: str | None = None,
    status: str | None = None,
) -> QuerySet[Slip]:
    slips = (
        Slip.objects.filter(venue_id__in=venue_ids(user))
        .select_related(
            "venue",
            "session__table",
            "requested_by",
            "issued_by",
            "dealer_confirmed_by",
            "supervisor_confirmed_by",
            "received_by",
            "verified_by",
            "voided_by",
        )
        .order_by("venue__code", "-year", "-number")
    )
    if session_id is not None:
        slips = slips.filter(session_id=session_id)
    if kind:
        slips = slips.filter(kind=kind)
    if status:
        slips = slips.filter(status=status)
    return slips


def slip_get(*, user: Any, pk: int) -> Slip | None:
    return slip_list(user=user).filter(pk=pk).first()


# The cage


def venue_for(*, user: Any, pk: int) -> Venue | None:
    """A venue the user works at (``None`` for another one, or none)."""
    if pk not in venue_ids(user):
        return None
    return Venue.objects.filter(pk=pk).first()


def current_gaming_date(*, venue: Venue) -> date | None:
    """The gaming day of the venue's latest shift begun by now (``None`` before its first)."""
    shift = (
        Shift.objects.filter(venue=venue, starts_at__lte=timezone.now())
        .order_by("-starts_at")
        .first()
    )
    return shift.gaming_date if shift is not None else None


@dataclass(frozen=True)
class CageLists:
    """What the cage's screen lists: requests to issue, slips out, the day's finished ones."""

    waiting: list[Slip]
    travelling: list[Slip]
    finished: list[Slip]
    gaming_date: date | None


def cage_lists(*, venue: Venue) -> CageLists:
    """The venue's slips waiting to be issued (oldest first), issued and not yet posted, and
    the current gaming day's posted and voided ones (three queries)."""
    slips = _slips().filter(venue=venue)
    gaming_date = current_gaming_date(venue=venue)
    finished = slips.filter(status__in=[SlipStatus.VERIFIED, SlipStatus.VOID])
    if gaming_date is None:
        finished = finished.none()
    else:
        finished = finished.filter(session__shift__gaming_date=gaming_date)
    return CageLists(
        waiting=list(slips.filter(status=SlipStatus.REQUESTED).order_by("year", "number")),
        travelling=list(slips.filter(status=SlipStatus.ISSUED).order_by("year", "number")),
        finished=list(finished.order_by("-year", "-number")),
        gaming_date=gaming_date,
    )


def cage_slip_for(*, venue: Venue, pk: int) -> Slip | None:
    return Slip.objects.filter(venue=venue, pk=pk).first()


def slip_for(*, user: Any, pk: int) -> Slip | None:
    """A slip at one of the user's venues, with its people."""
    return _slips().filter(venue_id__in=venue_ids(user), pk=pk).first()


# The slip report


@dataclass(frozen=True)
class SlipDay:
    """A gaming day's slips at a venue: every one by number, the numbers missing from the
    day's range and the totals posted."""

    venue: Venue
    gaming_date: date
    slips: list[Slip]
    issued: list[Slip]
    verified: list[Slip]
    voided: list[Slip]
    missing: list[str]
    fills: Decimal
    credits: Decimal


def slip_day(*, venue: Venue, gaming_date: date) -> SlipDay:
    """The slips of the venue's sessions of ``gaming_date`` (by their shift's gaming day).

    Missing numbers: for each year the day's slips are numbered in, every number from the one
    after the highest number stored below the day's first, to the day's last, that no slip
    at the venue holds (a number is allocated only with its slip, so a gap is a slip row
    gone or never written; it is reported on the day after it).
    """
    slips = list(
        _slips()
        .filter(venue=venue, session__shift__gaming_date=gaming_date)
        .order_by("year", "number")
    )
    missing: list[str] = []
    years = sorted({slip.year for slip in slips})
    for year in years:
        numbers = [slip.number for slip in slips if slip.year == year]
        stored = Slip.objects.filter(venue=venue, year=year)
        before = stored.filter(number__lt=min(numbers)).aggregate(n=Max("number"))["n"] or 0
        held = set(
            stored.filter(number__gt=before, number__lte=max(numbers)).values_list(
                "number", flat=True
            )
        )
        missing += [
            slip_label(year, number)
            for number in range(before + 1, max(numbers) + 1)
            if number not in held
        ]
    verified = [slip for slip in slips if slip.status == SlipStatus.VERIFIED]
    return SlipDay(
        venue=venue,
        gaming_date=gaming_date,
        slips=slips,
        issued=[slip for slip in slips if slip.issued_by_id is not None],
        verified=verified,
        voided=[slip for slip in slips if slip.status == SlipStatus.VOID],
        missing=missing,
        fills=sum((s.amount for s in verified if s.kind == Slip.Kind.FILL), Decimal(0)),
        credits=sum((s.amount for s in verified if s.kind == Slip.Kind.CREDIT), Decimal(0)),
    )
