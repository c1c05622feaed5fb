"""A venue's gaming day and shifts: the plan's checks, the shifts made from it (at their
boundaries, across midnight, on the days clocks change), a change of plan applying to the
gaming days not begun, and the day's start kept while a table is open."""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest

from casino.audit.models import AuditEvent
from casino.floor.services.sessions import session_open, shift_current
from casino.kernel.errors import Conflict, Forbidden, InvalidInput
from casino.staff.roles import MANAGER
from casino.venues.models import GamingDay, Shift, Venue
from casino.venues.plans import plan_clean
from casino.venues.services.gaming_days import gaming_day_set, local_instant
from tests.factories import VenueFactory, staff

pytestmark = pytest.mark.django_db

HANOI = ZoneInfo("Asia/Ho_Chi_Minh")
HANOI_PLAN = [
    {"name": "Ca sáng", "starts": "06:00"},
    {"name": "Ca chiều", "starts": "14:00"},
    {"name": "Ca đêm", "starts": "22:00"},
]


def local(zone: ZoneInfo, *args: int) -> datetime:
    return datetime(*args, tzinfo=zone)


def planned(venue: Venue, starts: str, shifts: list[dict]) -> Venue:
    manager = staff(f"{venue.code}-planner", MANAGER, venue)
    return gaming_day_set(venue=venue, user=manager, gaming_day_starts=starts, shifts=shifts)


def hours(shift: Shift) -> float:
    """How long the shift lasts (subtracting instants of one zone gives wall-clock hours)."""
    return (shift.ends_at.astimezone(UTC) - shift.starts_at.astimezone(UTC)) / timedelta(hours=1)


def made(shift: Shift) -> tuple[str, date, datetime, datetime]:
    return shift.name, shift.gaming_date, shift.starts_at, shift.ends_at


# The plan's checks

REFUSED = [
    ("25:00", [], "gaming_day_starts", "25:00 is not a time of day"),
    ("", [], "gaming_day_starts", "is not a time of day"),
    ("06:00", "Ca sáng 06:00", "shifts", "give the shifts as a list"),
    ("06:00", [{"name": f"s{n}", "starts": f"{n:02d}:00"} for n in range(25)], "shifts", "at most"),
    ("06:00", ["Ca sáng"], "shifts[0]", "give shift 1 as a name"),
    ("06:00", [{"name": " ", "starts": "06:00"}], "shifts[0].name", "shift 1 has no name"),
    ("06:00", [{"name": "x" * 33, "starts": "06:00"}], "shifts[0].name", "longer than 32"),
    (
        "06:00",
        [{"name": "Ca sáng", "starts": "06:00"}, {"name": "ca SÁNG", "starts": "14:00"}],
        "shifts[1].name",
        "two shifts are named ca SÁNG",
    ),
    ("06:00", [{"name": "Ca sáng", "starts": "6h"}], "shifts[0].starts", "6h is not a time"),
    (
        "06:00",
        [{"name": "Ca sáng", "starts": "06:00"}, {"name": "Ca chiều", "starts": "06:00"}],
        "shifts[1].starts",
        "both start at 06:00",
    ),
    (
        "06:00",
        [{"name": "Ca chiều", "starts": "14:00"}, {"name": "Ca sáng", "starts": "06:00"}],
        "shifts[0].starts",
        "the first shift, Ca chiều, starts at 14:00 but the gaming day starts at 06:00",
    ),
    (
        "06:00",
        [
            {"name": "Ca sáng", "starts": "06:00"},
            {"name": "Ca đêm", "starts": "02:00"},
            {"name": "Ca chiều", "starts": "14:00"},
        ],
        "shifts[2].starts",
        "list the shifts in the order they start",
    ),
]


@pytest.mark.parametrize(("starts", "shifts", "field", "message"), REFUSED)
def test_a_plan_that_is_wrong_is_refused_saying_what_and_where(
    floor, starts, shifts, field, message
):
    with pytest.raises(InvalidInput) as refused:
        gaming_day_set(
            venue=floor.venue, user=floor.manager, gaming_day_starts=starts, shifts=shifts
        )
    assert refused.value.field == field
    assert message in refused.value.message
    venue = Venue.objects.get(pk=floor.venue.pk)
    assert (venue.gaming_day_starts, venue.shift_plan) == (time(6, 0), [])
    assert not AuditEvent.objects.filter(action="venue.gaming_day").exists()


def test_a_plan_across_midnight_is_in_order_from_the_days_start():
    starts, plan = plan_clean(
        gaming_day_starts="18:00",
        shifts=[
            {"name": " Evening ", "starts": "18:00"},
            {"name": "Late", "starts": "2:00"},
            {"name": "Morning", "starts": "10:00"},
        ],
    )
    assert starts == time(18, 0)
    assert plan == [
        {"name": "Evening", "starts": "18:00"},
        {"name": "Late", "starts": "02:00"},
        {"name": "Morning", "starts": "10:00"},
    ]


def test_a_manager_sets_the_plan_audited_and_only_a_manager_of_the_venue(floor):
    for user in (floor.supervisor, staff("elsewhere", MANAGER, floor.other_venue)):
        with pytest.raises(Forbidden):
            gaming_day_set(
                venue=floor.venue, user=user, gaming_day_starts="06:00", shifts=HANOI_PLAN
            )
    venue = gaming_day_set(
        venue=floor.venue, user=floor.manager, gaming_day_starts=time(6, 0), shifts=HANOI_PLAN
    )
    assert Venue.objects.get(pk=venue.pk).shift_plan == HANOI_PLAN
    event = AuditEvent.objects.get(action="venue.gaming_day")
    assert event.before == {"gaming_day_starts": "06:00", "shifts": []}
    assert event.after == {"gaming_day_starts": "06:00", "shifts": HANOI_PLAN}
    # The same plan again changes nothing and records nothing.
    gaming_day_set(
        venue=floor.venue, user=floor.manager, gaming_day_starts="06:00", shifts=HANOI_PLAN
    )
    assert AuditEvent.objects.filter(action="venue.gaming_day").count() == 1


def test_the_days_start_waits_for_every_table_to_close_its_shifts_do_not(floor, session):
    with pytest.raises(Conflict) as refused:
        gaming_day_set(venue=floor.venue, user=floor.manager, gaming_day_starts="08:00", shifts=[])
    assert refused.value.field == "gaming_day_starts"
    assert "these tables are open: NN1" in refused.value.message
    assert Venue.objects.get(pk=floor.venue.pk).gaming_day_starts == time(6, 0)
    gaming_day_set(
        venue=floor.venue, user=floor.manager, gaming_day_starts="06:00", shifts=HANOI_PLAN
    )
    assert Venue.objects.get(pk=floor.venue.pk).shift_plan == HANOI_PLAN


# The shifts made from the plan


def test_without_a_plan_a_shift_is_the_whole_gaming_day_from_06_00(floor):
    shift = shift_current(venue=floor.venue, at=local(HANOI, 2026, 12, 3, 5, 59))
    assert made(shift) == (
        "day",
        date(2026, 12, 2),
        local(HANOI, 2026, 12, 2, 6, 0),
        local(HANOI, 2026, 12, 3, 6, 0),
    )


def test_the_plans_shifts_at_their_boundaries(floor):
    venue = planned(floor.venue, "06:00", HANOI_PLAN)
    afternoon = shift_current(venue=venue, at=local(HANOI, 2026, 12, 2, 14, 0))
    assert made(afternoon) == (
        "Ca chiều",
        date(2026, 12, 2),
        local(HANOI, 2026, 12, 2, 14, 0),
        local(HANOI, 2026, 12, 2, 22, 0),
    )
    morning = shift_current(venue=venue, at=local(HANOI, 2026, 12, 2, 13, 59, 59))
    assert made(morning)[0] == "Ca sáng"
    assert morning.ends_at == afternoon.starts_at
    night = shift_current(venue=venue, at=local(HANOI, 2026, 12, 3, 5, 59, 59))
    assert made(night) == (
        "Ca đêm",
        date(2026, 12, 2),
        local(HANOI, 2026, 12, 2, 22, 0),
        local(HANOI, 2026, 12, 3, 6, 0),
    )
    next_morning = shift_current(venue=venue, at=local(HANOI, 2026, 12, 3, 6, 0))
    assert (next_morning.name, next_morning.gaming_date) == ("Ca sáng", date(2026, 12, 3))
    assert next_morning.starts_at == night.ends_at
    # Asked again, the same rows.
    assert shift_current(venue=venue, at=local(HANOI, 2026, 12, 2, 21, 0)) == afternoon
    assert GamingDay.objects.filter(venue=venue).count() == 2


def test_a_plan_crossing_midnight(floor):
    venue = planned(
        floor.venue,
        "18:00",
        [
            {"name": "Evening", "starts": "18:00"},
            {"name": "Late", "starts": "02:00"},
            {"name": "Morning", "starts": "10:00"},
        ],
    )
    late = shift_current(venue=venue, at=local(HANOI, 2026, 12, 3, 3, 0))
    assert made(late) == (
        "Late",
        date(2026, 12, 2),
        local(HANOI, 2026, 12, 3, 2, 0),
        local(HANOI, 2026, 12, 3, 10, 0),
    )
    morning = shift_current(venue=venue, at=local(HANOI, 2026, 12, 3, 17, 59))
    assert made(morning)[:2] == ("Morning", date(2026, 12, 2))
    assert morning.ends_at == local(HANOI, 2026, 12, 3, 18, 0)
    evening = shift_current(venue=venue, at=local(HANOI, 2026, 12, 3, 18, 0))
    assert made(evening)[:2] == ("Evening", date(2026, 12, 3))


def test_lisbon_on_the_nights_its_clocks_change():
    venue = planned(
        VenueFactory(code="lisboa", currency="EUR", timezone="Europe/Lisbon"),
        "06:00",
        [{"name": "Dia", "starts": "06:00"}, {"name": "Noite", "starts": "22:00"}],
    )
    # 29 March 2026: 01:00 WET becomes 02:00 WEST; the night is an hour shorter.
    spring = shift_current(venue=venue, at=datetime(2026, 3, 29, 1, 30, tzinfo=UTC))
    assert (spring.name, spring.gaming_date) == ("Noite", date(2026, 3, 28))
    assert spring.starts_at == datetime(2026, 3, 28, 22, 0, tzinfo=UTC)
    assert spring.ends_at == datetime(2026, 3, 29, 5, 0, tzinfo=UTC)  # 06:00 WEST
    assert hours(spring) == 7
    day = shift_current(venue=venue, at=spring.ends_at)
    assert (day.name, day.gaming_date, day.starts_at) == ("Dia", date(2026, 3, 29), spring.ends_at)
    # 25 October 2026: 02:00 WEST becomes 01:00 WET; the night is an hour longer.
    autumn = shift_current(venue=venue, at=datetime(2026, 10, 25, 1, 30, tzinfo=UTC))
    assert (autumn.name, autumn.gaming_date) == ("Noite", date(2026, 10, 24))
    assert hours(autumn) == 9


def test_sao_paulo_a_start_the_clocks_skip_or_show_twice():
    """Brazil's daylight saving of 2018-19: midnight was skipped on 4 November 2018, and
    23:00 to midnight shown twice on 16 February 2019."""
    sao_paulo = ZoneInfo("America/Sao_Paulo")
    venue = planned(
        VenueFactory(code="saopaulo", currency="BRL", timezone="America/Sao_Paulo"),
        "00:00",
        [{"name": "Madrugada", "starts": "00:00"}, {"name": "Tarde", "starts": "12:00"}],
    )
    # 00:00 on 4 November does not exist: the day starts when the clocks jump to 01:00.
    jump = datetime(2018, 11, 4, 3, 0, tzinfo=UTC)
    assert local_instant(date(2018, 11, 4), time(0, 0), sao_paulo) == jump
    before = shift_current(venue=venue, at=jump - timedelta(seconds=1))
    assert (before.name, before.gaming_date, before.ends_at) == ("Tarde", date(2018, 11, 3), jump)
    after = shift_current(venue=venue, at=jump)
    assert (after.name, after.gaming_date, after.starts_at) == (
        "Madrugada",
        date(2018, 11, 4),
        jump,
    )
    assert hours(after) == 11  # 01:00 to 12:00
    # A day starting at 23:30 starts at the first of the two 23:30s of 16 February.
    other = VenueFactory(code="saopaulo2", currency="BRL", timezone="America/Sao_Paulo")
    planned(other, "23:30", [])
    first = datetime(2019, 2, 17, 1, 30, tzinfo=UTC)  # 23:30 -02:00
    shift = shift_current(venue=other, at=datetime(2019, 2, 17, 2, 0, tzinfo=UTC))  # 23:00 -03
    assert (shift.name, shift.gaming_date, shift.starts_at) == ("day", date(2019, 2, 16), first)
    assert hours(shift) == 25


def test_a_change_of_plan_applies_to_the_gaming_days_not_begun(floor):
    venue = planned(floor.venue, "06:00", HANOI_PLAN)
    morning = shift_current(venue=venue, at=local(HANOI, 2026, 12, 2, 10, 0))
    before = made(morning)
    venue = planned(
        venue,
        "06:00",
        [{"name": "Morning", "starts": "06:00"}, {"name": "Evening", "starts": "18:00"}],
    )
    # The day begun keeps its plan: its next shift is the afternoon one.
    afternoon = shift_current(venue=venue, at=local(HANOI, 2026, 12, 2, 15, 0))
    assert made(afternoon)[:3] == ("Ca chiều", date(2026, 12, 2), local(HANOI, 2026, 12, 2, 14, 0))
    # The next one follows the new plan.
    tomorrow = shift_current(venue=venue, at=local(HANOI, 2026, 12, 3, 10, 0))
    assert made(tomorrow) == (
        "Morning",
        date(2026, 12, 3),
        local(HANOI, 2026, 12, 3, 6, 0),
        local(HANOI, 2026, 12, 3, 18, 0),
    )
    morning.refresh_from_db()
    assert made(morning) == before


def test_a_later_start_begins_its_first_day_where_the_last_one_ended(floor):
    day = shift_current(venue=floor.venue, at=local(HANOI, 2026, 12, 2, 10, 0))
    venue = planned(floor.venue, "08:00", [])
    between = shift_current(venue=venue, at=local(HANOI, 2026, 12, 3, 7, 0))
    assert made(between) == (
        "day",
        date(2026, 12, 3),
        day.ends_at,
        local(HANOI, 2026, 12, 4, 8, 0),
    )
    day.refresh_from_db()
    assert day.ends_at == local(HANOI, 2026, 12, 3, 6, 0)


def test_an_earlier_start_never_overlaps_the_day_made(floor):
    day = shift_current(venue=floor.venue, at=local(HANOI, 2026, 12, 2, 10, 0))
    venue = planned(floor.venue, "04:00", [])
    next_day = shift_current(venue=venue, at=local(HANOI, 2026, 12, 3, 6, 30))
    assert (next_day.gaming_date, next_day.starts_at) == (date(2026, 12, 3), day.ends_at)
    assert next_day.ends_at == local(HANOI, 2026, 12, 4, 4, 0)


def test_a_table_opens_in_the_plans_shift(floor):
    planned(floor.venue, "06:00", HANOI_PLAN)
    session = session_open(
        table=floor.table,
        counted_by=floor.dealer,
        confirmed_by=floor.supervisor,
        opening_chips={"100000": 5},
    )
    now = session.opened_at.astimezone(HANOI).time()
    expected = "Ca sáng" if time(6) <= now < time(14) else "Ca chiều" if now >= time(14) else None
    if now >= time(22) or now < time(6):
        expected = "Ca đêm"
    assert session.shift.name == expected
    assert session.shift.starts_at <= session.opened_at < session.shift.ends_at
