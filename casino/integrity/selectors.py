"""What the investigation pages read: the list, one investigation, the overdue ones, the log.

Investigations are read by whoever reads the venue's reports
(``casino.floor.console.readers.report_access``); managers of the venue act on them
(casino.integrity.investigations). Times are shown in the venue's time zone, amounts as the
venue writes them. They read the primary: a manager comes back to these pages right after
each step, which a lagging replica would not show yet (the dashboard's caller decides where
its own reads go).
"""

from __future__ import annotations

import zoneinfo
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from typing import Any

from django.db.models import Q, QuerySet
from django.utils import timezone

from casino.integrity.models import FluctuationInvestigation
from casino.kernel.money import venue_money
from casino.kernel.replicas import replica_reads
from casino.venues.models import Venue
from casino.venues.selectors import report_venues

Status = FluctuationInvestigation.Status
#: The most investigations a list or the dashboard shows.
LIST_LIMIT = 200
DASHBOARD_LIMIT = 20


def _base() -> QuerySet[FluctuationInvestigation]:
    return FluctuationInvestigation.objects.select_related(
        "venue", "shift", "table", "assigned_to", "findings_by", "signed_off_by", "closed_by"
    )


def overdue_q(now: datetime | None = None) -> Q:
    return Q(due_at__lt=now or timezone.now()) & ~Q(status=Status.CLOSED)


def is_overdue(investigation: FluctuationInvestigation, now: datetime | None = None) -> bool:
    return investigation.status != Status.CLOSED and investigation.due_at < (now or timezone.now())


def investigation_get(*, pk: int) -> FluctuationInvestigation | None:
    """One investigation with its people (the caller checks access with its venue)."""
    return _base().select_related("report").filter(pk=pk).first()


def investigation_notes(investigation: FluctuationInvestigation) -> list[Any]:
    return list(investigation.notes.select_related("author").order_by("written_at", "pk"))


@dataclass(frozen=True)
class InvestigationLine:
    """An investigation as the pages and the log show it: its amounts as its venue writes
    them, whether it is overdue, and the days it took (so far, while open)."""

    investigation: FluctuationInvestigation
    handle_shown: str
    house_win_shown: str
    theoretical_win_shown: str
    overdue: bool
    days_taken: int


def shown(
    investigation: FluctuationInvestigation, now: datetime | None = None
) -> InvestigationLine:
    """The investigation as it is shown (``InvestigationLine``)."""
    venue = investigation.venue
    end = investigation.closed_at or now or timezone.now()
    return InvestigationLine(
        investigation=investigation,
        handle_shown=venue_money(investigation.handle, venue),
        house_win_shown=venue_money(investigation.house_win, venue, signed=True),
        theoretical_win_shown=(
            venue_money(investigation.theoretical_win, venue, signed=True)
            if investigation.theoretical_win is not None
            else "—"
        ),
        overdue=is_overdue(investigation, now),
        days_taken=(end - investigation.opened_at).days,
    )


def investigations_list(
    *,
    user: Any,
    venue: Venue | None = None,
    status: str = "",
    overdue: bool = False,
) -> list[InvestigationLine]:
    """The investigations of the venues whose reports the user reads (one venue's if
    given), newest first, filtered by status and overdue."""
    # The primary's rows: the list is where a manager returns after each step.
    venues = [venue.pk] if venue else list(report_venues(user=user).values_list("pk", flat=True))
    found = _base().filter(venue_id__in=venues)
    if status in Status.values:
        found = found.filter(status=status)
    now = timezone.now()
    if overdue:
        found = found.filter(overdue_q(now))
    return [shown(i, now) for i in found.order_by("-opened_at", "-pk")[:LIST_LIMIT]]


def overdue_investigations(*, venue: Venue) -> list[FluctuationInvestigation]:
    """The venue's investigations past their due date and not closed, the oldest first
    (the dashboard's list)."""
    now = timezone.now()
    return list(
        _base().filter(overdue_q(now), venue=venue).order_by("due_at", "pk")[:DASHBOARD_LIMIT]
    )


@dataclass(frozen=True)
class Log:
    venue: Venue
    date_from: date
    date_to: date
    rows: list[InvestigationLine]


def investigation_log(*, venue: Venue, date_from: date, date_to: date) -> Log:
    """The venue's investigations opened in the date range (the venue's days), oldest
    first: the investigation log a regulator reads."""
    tz = zoneinfo.ZoneInfo(venue.timezone)
    start = datetime.combine(date_from, time.min, tzinfo=tz)
    end = datetime.combine(date_to + timedelta(days=1), time.min, tzinfo=tz)
    now = timezone.now()
    found = (
        _base()
        .filter(venue=venue, opened_at__gte=start, opened_at__lt=end)
        .order_by("opened_at", "pk")
    )
    with replica_reads():  # a report: read where the other reports read
        rows = [shown(i, now) for i in found]
    return Log(venue=venue, date_from=date_from, date_to=date_to, rows=rows)
