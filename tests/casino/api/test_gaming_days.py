"""``/api/v1/venues/<id>/gaming-day/``: any role of the venue reads its gaming day and
shifts, its managers set them through ``gaming_day_set``."""

from __future__ import annotations

import pytest

from casino.audit.models import AuditEvent
from casino.floor.services.sessions import session_open
from casino.venues.models import Venue
from tests.casino.api import client_for, error_of

pytestmark = pytest.mark.django_db

PLAN = {
    "gaming_day_starts": "06:00",
    "shifts": [
        {"name": "Ca sáng", "starts": "06:00"},
        {"name": "Ca chiều", "starts": "14:00"},
        {"name": "Ca đêm", "starts": "22:00"},
    ],
}


def url(venue) -> str:
    return f"/api/v1/venues/{venue.pk}/gaming-day/"


def test_any_role_reads_the_whole_day_shift_of_a_venue_without_a_plan(floor):
    response = client_for(floor.dealer).get(url(floor.venue))
    assert response.status_code == 200, response.json()
    assert response.json() == {
        "venue": {"id": floor.venue.pk, "code": "hanoi"},
        "gaming_day_starts": "06:00",
        "shifts": [{"name": "day", "starts": "06:00", "ends": "06:00"}],
    }


def test_a_manager_sets_the_plan(floor):
    response = client_for(floor.manager).put(url(floor.venue), PLAN, format="json")
    assert response.status_code == 200, response.json()
    assert response.json()["shifts"] == [
        {"name": "Ca sáng", "starts": "06:00", "ends": "14:00"},
        {"name": "Ca chiều", "starts": "14:00", "ends": "22:00"},
        {"name": "Ca đêm", "starts": "22:00", "ends": "06:00"},
    ]
    assert Venue.objects.get(pk=floor.venue.pk).shift_plan == PLAN["shifts"]
    event = AuditEvent.objects.get(action="venue.gaming_day")
    assert event.after == {"gaming_day_starts": "06:00", "shifts": PLAN["shifts"]}
    # What it reads back is what was set.
    assert client_for(floor.auditor).get(url(floor.venue)).json() == response.json()


REFUSED = [
    ({"gaming_day_starts": "6 am"}, "gaming_day_starts", "is not a time of day"),
    ({"shifts": "Ca sáng"}, "shifts", None),
    ({"shifts": [{"name": "", "starts": "06:00"}]}, "shifts[0].name", "has no name"),
    (
        {"shifts": [{"name": "A", "starts": "06:00"}, {"name": "a", "starts": "12:00"}]},
        "shifts[1].name",
        "two shifts are named a",
    ),
    (
        {"shifts": [{"name": "A", "starts": "06:00"}, {"name": "B", "starts": "06:00"}]},
        "shifts[1].starts",
        "both start at 06:00",
    ),
    ({"shifts": [{"name": "A", "starts": "07:00"}]}, "shifts[0].starts", "the first shift, A"),
    (
        {
            "shifts": [
                {"name": "A", "starts": "06:00"},
                {"name": "B", "starts": "01:00"},
                {"name": "C", "starts": "12:00"},
            ]
        },
        "shifts[2].starts",
        "in the order they start",
    ),
    ({"shifts": [{"name": "A", "starts": "6h"}]}, "shifts[0].starts", "is not a time of day"),
]


@pytest.mark.parametrize(("change", "field", "words"), REFUSED)
def test_a_wrong_plan_is_refused_on_its_field(floor, change, field, words):
    response = client_for(floor.manager).put(url(floor.venue), {**PLAN, **change}, format="json")
    assert error_of(response) == (400, "invalid", field)
    if words:
        assert words in response.json()["detail"]
    assert Venue.objects.get(pk=floor.venue.pk).shift_plan == []


def test_the_start_waits_for_the_tables_to_close(floor):
    session_open(
        table=floor.table,
        counted_by=floor.dealer,
        confirmed_by=floor.supervisor,
        opening_chips={"100000": 50},
    )
    manager = client_for(floor.manager)
    response = manager.put(
        url(floor.venue), {**PLAN, "gaming_day_starts": "08:00", "shifts": []}, format="json"
    )
    assert error_of(response) == (409, "conflict", "gaming_day_starts")
    assert "these tables are open: NN1" in response.json()["detail"]
    # The shifts change with the table open: they apply from the next gaming day.
    assert manager.put(url(floor.venue), PLAN, format="json").status_code == 200


def test_only_a_manager_sets_it_and_only_at_their_venues(floor):
    for user in (floor.dealer, floor.supervisor, floor.auditor):
        response = client_for(user).put(url(floor.venue), PLAN, format="json")
        assert error_of(response) == (403, "forbidden", None)
    other = client_for(floor.manager)
    assert error_of(other.get(url(floor.other_venue)))[:2] == (404, "not_found")
    assert error_of(other.put(url(floor.other_venue), PLAN, format="json"))[:2] == (
        404,
        "not_found",
    )
    assert error_of(client_for().get(url(floor.venue)))[0] == 401
    assert not AuditEvent.objects.filter(action="venue.gaming_day").exists()
