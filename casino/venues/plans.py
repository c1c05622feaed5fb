"""A venue's shift plan as its managers write it (``Venue.gaming_day_starts`` and
``Venue.shift_plan``): times of day, the plan checked before it is stored, and the plan a
gaming day keeps and the screens show. Making the days and shifts from it is
``casino.venues.services.gaming_days``'s."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from datetime import time
from typing import Any

from django.utils.translation import gettext

from casino.kernel.errors import InvalidInput
from casino.venues.models import Shift, Venue

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
    shifts = _shift_list(shifts)
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
        name = _shift_name(shift, index=index, field=field, names=names)
        starts = _shift_starts(
            shift, name=name, index=index, field=field, times=times, day_starts=day_starts
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


def _shift_list(shifts: Any) -> Sequence[Any]:
    """The plan's shifts as a list (none: an empty one), refused when not a list or longer
    than ``MAX_SHIFTS``."""
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
    return shifts


def _shift_name(shift: Mapping, *, index: int, field: str, names: Mapping[str, int]) -> str:
    """A shift's name, stripped, refused when missing, too long or already another's."""
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
    return name


def _shift_starts(
    shift: Mapping,
    *,
    name: str,
    index: int,
    field: str,
    times: Mapping[time, str],
    day_starts: time,
) -> time:
    """When a shift starts, refused when not a time, another shift's, or (the first shift)
    not when the gaming day starts."""
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
    return starts


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
