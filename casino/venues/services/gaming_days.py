"""A venue's gaming day and its shifts: the plan (set by its managers) and the shifts made
from it as the floor plays.

The plan (``Venue.gaming_day_starts`` and ``Venue.shift_plan``) is a time of day, in venue
time, when the gaming day starts, and the day's shifts in order, each a name and the time
it starts: the first starts when the day starts, each ends when the next starts and the
last when the next gaming day starts, so a plan has no gaps or overlaps. No shifts: one
shift named "day" for the whole gaming day. Shift names are the venue's own words, shown
as written.

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

import re
import zoneinfo
from collections.abc import Mapping, Sequence
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext

from casino.audit.models import AuditAction
from casino.audit.services import audit_record
from casino.floor.models import TableSession
from casino.kernel.errors import Conflict, Forbidden, InvalidInput
from casino.staff.roles import MANAGE, can
from casino.venues.models import GamingDay, Shift, Table, Venue

#: The name of the one shift of a venue without a plan.
WHOLE_DAY_SHIFT = "day"
#: The most shifts a gaming day may have.
MAX_SHIFTS = 24
#: The longest shift name (``Shift.name``).
MAX_NAME = Shift._meta.get_field("name").max_length

_TIME = re.compile(r"^\s*(\d{1,2}):(\d{2})\s*$")


def written_time(value: time) -> str:
    """``06:00``."""
    return value.strftime("%H:%M")


def parse_time(value: Any) -> time | None:
    """A time of day in hours and minutes (``"06:00"`` or a ``time``), or None."""
    if isinstance(value, time):
        if value.second or value.microsecond or value.tzinfo is not None:
            return None
        return value
    if isinstance(value, str):
        match = _TIME.match(value)
        if match:
            hours, minutes = int(match[1]), int(match[2])
            if hours < 24 and minutes < 60:
                return time(hours, minutes)
    return None


def _day_start(value: Any) -> time:
    starts = parse_time(value)
    if starts is None:
        raise InvalidInput(
            gettext(
                "%(value)s is not a time of day; give the time the gaming day starts as "
                "hours and minutes, e.g. 06:00"
            )
            % {"value": value if value not in (None, "") else gettext("nothing")},
            field="gaming_day_starts",
        )
    return starts


def _since(starts: time, day_starts: time) -> int:
    """Minutes from the gaming day's start to ``starts`` (a time after midnight is in the
    next calendar day)."""
    return (starts.hour * 60 + starts.minute - day_starts.hour * 60 - day_starts.minute) % 1440


def plan_clean(*, gaming_day_starts: Any, shifts: Any) -> tuple[time, list[dict[str, str]]]:
    """The day's start and its shifts checked (``InvalidInput`` naming the input that is
    wrong), as stored: ``[{"name": ..., "starts": "HH:MM"}, ...]``."""
    day_starts = _day_start(gaming_day_starts)
    if shifts is None:
        shifts = []
    if isinstance(shifts, str | bytes | Mapping) or not isinstance(shifts, Sequence):
        raise InvalidInput(
            gettext(
                "give the shifts as a list, each with a name and the time it starts, e.g. "
                '[{"name": "Morning", "starts": "06:00"}]; an empty list is one shift for '
                "the whole gaming day"
            ),
            field="shifts",
        )
    if len(shifts) > MAX_SHIFTS:
        raise InvalidInput(
            gettext("a gaming day has at most %(max)d shifts; this plan has %(count)d")
            % {"max": MAX_SHIFTS, "count": len(shifts)},
            field="shifts",
        )
    clean: list[dict[str, str]] = []
    names: dict[str, int] = {}
    times: dict[time, str] = {}
    previous: tuple[str, time] | None = None
    for index, shift in enumerate(shifts):
        field = f"shifts[{index}]"
        if not isinstance(shift, Mapping):
            raise InvalidInput(
                gettext("give shift %(number)d as a name and the time it starts")
                % {"number": index + 1},
                field=field,
            )
        name = shift.get("name")
        name = name.strip() if isinstance(name, str) else ""
        if not name:
            raise InvalidInput(
                gettext("shift %(number)d has no name; give each shift a name, e.g. Morning")
                % {"number": index + 1},
                field=f"{field}.name",
            )
        if len(name) > MAX_NAME:
            raise InvalidInput(
                gettext("the shift name %(name)s is longer than %(max)d characters; shorten it")
                % {"name": name, "max": MAX_NAME},
                field=f"{field}.name",
            )
        if name.casefold() in names:
            raise InvalidInput(
                gettext("two shifts are named %(name)s; give each shift a name of its own")
                % {"name": name},
                field=f"{field}.name",
            )
        starts = parse_time(shift.get("starts"))
        if starts is None:
            raise InvalidInput(
                gettext(
                    "%(value)s is not a time of day; give the time shift %(name)s starts as "
                    "hours and minutes, e.g. 14:00"
                )
                % {"value": shift.get("starts") or gettext("nothing"), "name": name},
                field=f"{field}.starts",
            )
        if starts in times:
            raise InvalidInput(
                gettext(
                    "shifts %(first)s and %(second)s both start at %(time)s; give each shift "
                    "a start time of its own"
                )
                % {"first": times[starts], "second": name, "time": written_time(starts)},
                field=f"{field}.starts",
            )
        if index == 0 and starts != day_starts:
            raise InvalidInput(
                gettext(
                    "the first shift, %(name)s, starts at %(time)s but the gaming day starts "
                    "at %(day)s; start the first shift when the gaming day starts"
                )
                % {
                    "name": name,
                    "time": written_time(starts),
                    "day": written_time(day_starts),
                },
                field=f"{field}.starts",
            )
        if previous is not None and _since(starts, day_starts) < _since(previous[1], day_starts):
            raise InvalidInput(
                gettext(
                    "shift %(name)s starts at %(time)s, before %(previous)s (%(previous_time)s) "
                    "in a gaming day that starts at %(day)s; list the shifts in the order "
                    "they start"
                )
                % {
                    "name": name,
                    "time": written_time(starts),
                    "previous": previous[0],
                    "previous_time": written_time(previous[1]),
                    "day": written_time(day_starts),
                },
                field=f"{field}.starts",
            )
        names[name.casefold()] = index
        times[starts] = name
        previous = (name, starts)
        clean.append({"name": name, "starts": written_time(starts)})
    return day_starts, clean


def plan_of(venue: Venue) -> list[dict[str, str]]:
    """The venue's shifts as a gaming day keeps them: its plan, or one shift for the day."""
    if venue.shift_plan:
        return [dict(shift) for shift in venue.shift_plan]
    starts = parse_time(venue.gaming_day_starts) or time(6, 0)
    return [{"name": WHOLE_DAY_SHIFT, "starts": written_time(starts)}]


def plan_shown(plan: Sequence[Mapping[str, str]]) -> list[dict[str, str]]:
    """The plan's shifts with the time each ends (the next one's start, the last one's
    the day's start)."""
    return [
        {**shift, "ends": plan[(index + 1) % len(plan)]["starts"]}
        for index, shift in enumerate(plan)
    ]


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
        open_tables = list(
            TableSession.objects.filter(table__venue=venue, status=TableSession.Status.OPEN)
            .order_by("table__code")
            .values_list("table__code", flat=True)
        )
        if open_tables:
            raise Conflict(
                gettext(
                    "these tables are open: %(tables)s; the time the gaming day starts can "
                    "change once all of the venue's tables are closed (its shifts can change "
                    "now)"
                )
                % {"tables": ", ".join(open_tables)},
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
