"""A venue's gaming day and its shifts: the plan (set by its managers) and the shifts made
from it as the floor plays.

The plan (``Venue.gaming_day_starts`` and ``Venue.shift_plan``) is a time of day, in venue
time, when the gaming day starts, and the day's shifts in order, each a name and the time
it starts: the first starts when the day starts, each ends when the next starts and the
last when the next gaming day starts, so a plan has no gaps or overlaps. No shifts: one
shift named "day" for the whole gaming day. Shift names are the venue's own words, shown
as written.
The plan is checked, kept and shown by ``casino.venues.plans``; this module sets it and
makes the days and shifts from it.

A gaming day is made (``GamingDay``) with its first shift, with a copy of the plan then in
force; its later shifts follow that copy. Shifts and days already made never change: a
change of plan applies from the next gaming day that has not begun (today's, when no
shift of it has been made yet). The day's start changes only while all of the venue's
tables are closed. When the start moved, the first day under the new start begins where
the last day made ended (a day never overlaps another; the instants between them belong
to the new day).

Instants are worked out in the venue's zone: a start time that does not exist on a day
(clocks put forward) begins when the clocks jump; one that happens twice (clocks put
back) begins at its first occurrence.

Locking: ``gaming_day_set`` locks the venue's tables, then the venue (as
``venue_update``); making a shift locks the venue row, after the table ``session_open``
holds.
"""

from __future__ import annotations

import zoneinfo
from collections.abc import Mapping, Sequence
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext

from casino.audit.models import AuditAction
from casino.audit.services import audit_record
from casino.kernel.errors import Conflict, Forbidden
from casino.staff.roles import MANAGE, can
from casino.venues.hooks import open_tables
from casino.venues.models import GamingDay, Shift, Table, Venue
from casino.venues.plans import WHOLE_DAY_SHIFT, parse_time, plan_clean, plan_of, written_time


def _as_dict(venue: Venue) -> dict[str, Any]:
    return {
        "gaming_day_starts": written_time(parse_time(venue.gaming_day_starts) or time(6, 0)),
        "shifts": [dict(shift) for shift in venue.shift_plan],
    }


@transaction.atomic
def gaming_day_set(
    *, venue: Venue, user: Any, gaming_day_starts: time | str, shifts: Sequence[Mapping[str, Any]]
) -> Venue:
    """Set when the venue's gaming day starts and its shifts (its managers, or a
    superuser). Applies from the next gaming day not begun yet; the start changes only
    while all of the venue's tables are closed."""
    day_starts, plan = plan_clean(gaming_day_starts=gaming_day_starts, shifts=shifts)
    list(Table.objects.select_for_update(of=("self",)).filter(venue_id=venue.pk).order_by("pk"))
    venue = Venue.objects.select_for_update().get(pk=venue.pk)
    if not (getattr(user, "is_superuser", False) or can(user, MANAGE, venue.pk)):
        raise Forbidden(gettext("only a manager of the venue sets its gaming day and shifts"))
    before = _as_dict(venue)
    if parse_time(venue.gaming_day_starts) != day_starts:
        open_codes = open_tables(Table.objects.filter(venue=venue))
        if open_codes:
            raise Conflict(
                gettext(
                    "these tables are open: %(tables)s; the time the gaming day starts can "
                    "change once all of the venue's tables are closed (its shifts can change "
                    "now)"
                )
                % {"tables": ", ".join(open_codes)},
                field="gaming_day_starts",
            )
    venue.gaming_day_starts = day_starts
    venue.shift_plan = plan
    after = _as_dict(venue)
    if after == before:
        return venue
    venue.save(update_fields=["gaming_day_starts", "shift_plan"])
    audit_record(
        user=user,
        action=AuditAction.VENUE_GAMING_DAY,
        obj=venue,
        venue=venue,
        summary=f"set the gaming day of venue {venue.code}",
        before=before,
        after=after,
    )
    return venue


# The shifts made from the plan


def local_instant(day: date, at: time, zone: zoneinfo.ZoneInfo) -> datetime:
    """The instant the venue's clocks show ``at`` on ``day``: the first one if they show
    it twice, the instant they jump past it if they skip it. In UTC: two instants of one
    zone compare by their wall times (PEP 495), which a day the clocks go back repeats."""
    naive = datetime.combine(day, at)
    first = naive.replace(tzinfo=zone)
    if first.astimezone(UTC).astimezone(zone).replace(tzinfo=None) == naive:
        return first.astimezone(UTC)
    # Skipped: the first second whose wall time is at or after ``at``.
    a = naive.replace(tzinfo=zone, fold=0).astimezone(UTC)
    b = naive.replace(tzinfo=zone, fold=1).astimezone(UTC)
    low, high = min(a, b), max(a, b)
    steps = int((high - low).total_seconds())
    lo, hi = 0, steps
    while lo < hi:
        middle = (lo + hi) // 2
        wall = (low + timedelta(seconds=middle)).astimezone(zone).replace(tzinfo=None)
        if wall >= naive:
            hi = middle
        else:
            lo = middle + 1
    return low + timedelta(seconds=lo)


def gaming_date_of(venue: Venue, at: datetime) -> date:
    """The gaming date ``at`` falls in under the venue's start time (not its days made)."""
    zone = zoneinfo.ZoneInfo(venue.timezone)
    starts = parse_time(venue.gaming_day_starts) or time(6, 0)
    day = at.astimezone(zone).date()
    if local_instant(day, starts, zone) > at:
        day -= timedelta(days=1)
    elif local_instant(day + timedelta(days=1), starts, zone) <= at:
        day += timedelta(days=1)
    return day


def gaming_day_end(venue: Venue, gaming_date: date) -> datetime:
    """When the venue's gaming day ``gaming_date`` ends: the end of the day made for it,
    else the venue's start time on the next date (a day not made yet)."""
    made = (
        GamingDay.objects.filter(venue=venue, gaming_date=gaming_date)
        .values_list("ends_at", flat=True)
        .first()
    )
    if made is not None:
        return made
    zone = zoneinfo.ZoneInfo(venue.timezone)
    starts = parse_time(venue.gaming_day_starts) or time(6, 0)
    return local_instant(gaming_date + timedelta(days=1), starts, zone)


def _day_make(venue: Venue, at: datetime) -> GamingDay:
    """The gaming day ``at`` falls in, made now with the venue's plan."""
    zone = zoneinfo.ZoneInfo(venue.timezone)
    starts = parse_time(venue.gaming_day_starts) or time(6, 0)
    day = gaming_date_of(venue, at)
    previous = GamingDay.objects.filter(venue=venue, ends_at__lte=at).order_by("-ends_at").first()
    if previous is not None and previous.gaming_date >= day:
        day = previous.gaming_date + timedelta(days=1)
    starts_at = local_instant(day, starts, zone)
    if previous is not None and (starts_at > at or previous.ends_at > starts_at):
        starts_at = previous.ends_at
    ends_at = local_instant(day + timedelta(days=1), starts, zone)
    following = (
        GamingDay.objects.filter(venue=venue, starts_at__gt=at).order_by("starts_at").first()
    )
    if following is not None and following.starts_at < ends_at:
        ends_at = following.starts_at
    try:
        with transaction.atomic():
            return GamingDay.objects.create(
                venue=venue,
                gaming_date=day,
                starts_at=starts_at,
                ends_at=ends_at,
                shift_plan=plan_of(venue),
            )
    except IntegrityError:
        raise Conflict(
            gettext(
                "the gaming day %(date)s of %(venue)s was already made for other hours; "
                "check the venue's gaming days in the admin"
            )
            % {"date": day.isoformat(), "venue": venue.name}
        ) from None


def day_shifts(day: GamingDay, zone: zoneinfo.ZoneInfo) -> list[tuple[str, datetime, datetime]]:
    """The day's shifts as (name, starts_at, ends_at), from the plan it keeps."""
    plan = [(shift["name"], parse_time(shift["starts"])) for shift in day.shift_plan]
    plan = [(name, starts) for name, starts in plan if starts is not None]
    if not plan:
        return [(WHOLE_DAY_SHIFT, day.starts_at, day.ends_at)]
    first = plan[0][1]
    instants = [day.starts_at]
    for _name, starts in plan[1:]:
        calendar_day = day.gaming_date + timedelta(days=0 if starts > first else 1)
        instants.append(max(local_instant(calendar_day, starts, zone), instants[-1]))
    instants.append(day.ends_at)
    shifts = []
    for (name, _starts), begins, ends in zip(plan, instants, instants[1:], strict=False):
        begins, ends = min(begins, day.ends_at), min(ends, day.ends_at)
        if ends > begins:
            shifts.append((name, begins, ends))
    return shifts


@transaction.atomic
def shift_make(*, venue: Venue, at: datetime) -> Shift:
    """The shift covering ``at``, made (with its gaming day when that has not begun)."""
    at = at.astimezone(UTC)
    venue = Venue.objects.select_for_update().get(pk=venue.pk)
    shift = Shift.objects.filter(venue=venue, starts_at__lte=at, ends_at__gt=at).first()
    if shift is not None:
        return shift
    day = GamingDay.objects.filter(venue=venue, starts_at__lte=at, ends_at__gt=at).first()
    if day is None:
        day = _day_make(venue, at)
    zone = zoneinfo.ZoneInfo(venue.timezone)
    name, starts_at, ends_at = next(
        shift for shift in day_shifts(day, zone) if shift[1] <= at < shift[2]
    )
    shift, created = Shift.objects.get_or_create(
        venue=venue,
        gaming_date=day.gaming_date,
        name=name,
        defaults={"starts_at": starts_at, "ends_at": ends_at},
    )
    if not created and not shift.starts_at <= at < shift.ends_at:
        raise Conflict(
            gettext(
                "the shift %(name)s of %(date)s was already made for other hours; rename "
                "that shift in the admin or the shift in the venue's plan"
            )
            % {"name": name, "date": day.gaming_date.isoformat()}
        )
    return shift


def shift_at(*, venue: Venue, at: datetime | None = None) -> Shift:
    """The shift covering ``at`` (now by default), made from the plan when it is not yet."""
    at = (at or timezone.now()).astimezone(UTC)
    shift = Shift.objects.filter(venue=venue, starts_at__lte=at, ends_at__gt=at).first()
    if shift is not None:
        return shift
    return shift_make(venue=venue, at=at)
