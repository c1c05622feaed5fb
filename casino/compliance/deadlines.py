"""When a suspicious-activity report is due: per the venue's jurisdiction, counted from the
detection of the activity or from the decision to file, in calendar days.

The periods below are the jurisdiction presets' (``Venue.jurisdiction`` names one): this
table is the one place the cases read them from. A venue whose jurisdiction is not in it
(or that names none) has ``DEFAULT_DAYS`` from the decision.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

#: What the period is counted from.
DETECTION, DECISION = "detection", "decision"


@dataclass(frozen=True)
class FilingPeriod:
    days: int
    counted_from: str  # DETECTION or DECISION


#: A report's period per jurisdiction (ISO 3166 code), as the jurisdiction presets set it.
FILING_PERIODS: dict[str, FilingPeriod] = {
    "VN": FilingPeriod(days=3, counted_from=DETECTION),
    "KR": FilingPeriod(days=3, counted_from=DECISION),
    "MO": FilingPeriod(days=2, counted_from=DECISION),
}
DEFAULT_DAYS = 30
DEFAULT_PERIOD = FilingPeriod(days=DEFAULT_DAYS, counted_from=DECISION)


def jurisdiction_of(venue: Any) -> str:
    """The venue's jurisdiction code ("" when it names none)."""
    return (getattr(venue, "jurisdiction", "") or "").upper()


def filing_period(venue: Any) -> FilingPeriod:
    return FILING_PERIODS.get(jurisdiction_of(venue), DEFAULT_PERIOD)


def filing_deadline(venue: Any, start: datetime) -> datetime:
    """The last instant a report started at ``start`` (a detection or a decision, as the
    venue's period counts) may be filed."""
    return start + timedelta(days=filing_period(venue).days)


def case_deadline(venue: Any, *, detected_at: datetime, decided_at: datetime | None) -> datetime:
    """A case's deadline: from its detection where the period counts from it; otherwise
    from its decision, and until it is decided, from its detection (a draft left too long
    shows as overdue)."""
    period = filing_period(venue)
    if period.counted_from == DECISION and decided_at is not None:
        return filing_deadline(venue, decided_at)
    return filing_deadline(venue, detected_at)
