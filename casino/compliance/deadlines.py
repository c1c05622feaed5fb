"""When a suspicious-activity report is due: the venue's jurisdiction preset says how long
(``casino.venues.jurisdictions``: ``str_deadline`` in ``str_deadline_unit``) and from what
(``str_counted_from``: the detection of the activity, or the decision to file); this module
turns that into an instant, the one place the cases read it.

- working days: Monday to Friday on the venue's calendar, the time of day kept; the
  jurisdiction's public holidays are not known to the system, so a deadline that falls after
  one is a day early, never late.
- "without delay" (a law that gives no number): within one day.
- a venue that names no jurisdiction (or one no longer kept): ``DEFAULT_DAYS`` calendar days
  from the decision.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from casino.venues.jurisdictions import Deadline, jurisdiction_of

#: What the period is counted from.
DETECTION, DECISION = "detection", "decision"
DEFAULT_DAYS = 30
#: "Without delay": the system gives a day.
WITHOUT_DELAY = timedelta(days=1)


@dataclass(frozen=True)
class FilingPeriod:
    amount: int
    unit: str  # Deadline
    counted_from: str  # DETECTION or DECISION


DEFAULT_PERIOD = FilingPeriod(
    amount=DEFAULT_DAYS, unit=Deadline.CALENDAR_DAYS, counted_from=DECISION
)


def filing_period(venue: Any) -> FilingPeriod:
    """The venue's jurisdiction's period for a suspicious-activity report."""
    preset = jurisdiction_of(venue)
    if preset is None:
        return DEFAULT_PERIOD
    return FilingPeriod(
        amount=preset.str_deadline or 0,
        unit=preset.str_deadline_unit,
        counted_from=preset.str_counted_from,
    )


def _working_days_after(start: datetime, days: int, zone: ZoneInfo) -> datetime:
    local = start.astimezone(zone)
    while days > 0:
        local += timedelta(days=1)
        if local.weekday() < 5:
            days -= 1
    return local.astimezone(start.tzinfo)


def filing_deadline(venue: Any, start: datetime) -> datetime:
    """The last instant a report started at ``start`` (a detection or a decision, as the
    venue's period counts) may be filed."""
    period = filing_period(venue)
    if period.unit == Deadline.WORKING_DAYS:
        zone = ZoneInfo(getattr(venue, "timezone", "") or "UTC")
        return _working_days_after(start, period.amount, zone)
    if period.unit == Deadline.HOURS:
        return start + timedelta(hours=period.amount)
    if period.unit == Deadline.WITHOUT_DELAY:
        return start + WITHOUT_DELAY
    return start + timedelta(days=period.amount)


def case_deadline(venue: Any, *, detected_at: datetime, decided_at: datetime | None) -> datetime:
    """A case's deadline: from its detection where the period counts from it; otherwise
    from its decision, and until it is decided, from its detection (a draft left too long
    shows as overdue)."""
    period = filing_period(venue)
    if period.counted_from == DECISION and decided_at is not None:
        return filing_deadline(venue, decided_at)
    return filing_deadline(venue, detected_at)
