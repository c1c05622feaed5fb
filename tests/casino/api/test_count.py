"""The count through the API: a day's boxes, two counts (the second differing, with its
reason), the day closed, the figures; refusals by role and venue."""

from __future__ import annotations

from decimal import Decimal as D

import pytest

from casino.count.models import DropBox
from casino.floor.services.closing import session_close
from casino.floor.services.sessions import session_open
from casino.staff.roles import COUNT
from tests.casino.api import client_for, error_of
from tests.casino.days import end_gaming_day
from tests.factories import staff

#: The first counter confirms the second's close of the count.
CONFIRMED = {"confirmed_by": {"username": "counter", "password": "pw-for-tests"}}

pytestmark = pytest.mark.django_db


@pytest.fixture
def box(floor):
    floor.venue.note_denominations = ["500000", "100000"]
    floor.venue.save()
    session = session_open(
        table=floor.table,
        counted_by=floor.dealer,
        confirmed_by=floor.supervisor,
        opening_chips={"100000": 50},
    )
    session_close(
        session=session,
        counted_by=floor.dealer,
        confirmed_by=floor.supervisor,
        closing_chips={"100000": 50},
    )
    return DropBox.objects.get(box_sessions__session=session)


def test_two_counts_the_close_and_the_figures(floor, box):
    first = client_for(staff("counter", COUNT, floor.venue))
    second = client_for(staff("counter2", COUNT, floor.venue))
    day = f"/api/v1/venues/{floor.venue.pk}/count/{box.gaming_date.isoformat()}/"
    counts = f"/api/v1/drop-boxes/{box.pk}/counts/"
    listed = first.get(day).json()
    assert listed["status"] == "open"
    assert [(b["id"], b["status"], b["ready"]) for b in listed["boxes"]] == [
        (box.pk, "in_use", True)
    ]
    body = {
        "notes": {"500000": 2},
        "chips": {"10000": 3},
        "others": [{"what": "cheque", "amount": "20000"}],
    }
    made = first.post(counts, body, format="json")
    assert made.status_code == 201, made.json()
    assert (made.json()["ordinal"], made.json()["total"]) == (1, "1050000.00")
    assert error_of(first.post(counts, body, format="json"))[:2] == (403, "forbidden")
    differing = {"notes": {"500000": 2}, "chips": {"10000": 3}}
    assert error_of(second.post(counts, differing, format="json")) == (400, "invalid", "reason")
    made = second.post(counts, {**differing, "reason": "no cheque in the box"}, format="json")
    assert made.status_code == 201, made.json()
    assert (made.json()["difference"], made.json()["reason"]) == (
        "-20000.00",
        "no cheque in the box",
    )
    early = second.post(f"{day}close/", CONFIRMED, format="json")
    assert error_of(early)[:2] == (409, "conflict")
    assert "is still being played" in early.json()["detail"]
    end_gaming_day(floor.venue, box.gaming_date)
    closed = second.post(f"{day}close/", CONFIRMED, format="json")
    assert closed.status_code == 200, closed.json()
    assert (closed.json()["status"], closed.json()["closed_by"]) == ("closed", "counter2")
    assert error_of(second.post(f"{day}close/", CONFIRMED, format="json"))[:2] == (409, "conflict")
    figures = client_for(floor.auditor).get(f"{day}figures/").json()
    (row,) = figures["rows"]
    # 5,000,000 closer - 5,000,000 opener + 0 credits - 0 fills + 1,030,000 drop
    assert (row["drop"], row["win"], row["win_drop_pct"]) == ("1030000.00", "1030000.00", "100")
    assert figures["count_closed"] is True
    assert D(figures["total"]["win"]) == D("1030000")


def test_the_count_is_refused_to_the_pit_and_not_found_at_another_venue(floor, box):
    day = f"/api/v1/venues/{floor.venue.pk}/count/{box.gaming_date.isoformat()}/"
    counts = f"/api/v1/drop-boxes/{box.pk}/counts/"
    supervisor = client_for(floor.supervisor)
    assert error_of(supervisor.post(counts, {}, format="json"))[:2] == (403, "forbidden")
    assert error_of(supervisor.post(f"{day}close/", format="json"))[:2] == (403, "forbidden")
    assert supervisor.get(day).status_code == 200
    assert error_of(client_for(floor.dealer).get(f"{day}figures/"))[:2] == (403, "forbidden")
    outsider = client_for(staff("outsider", COUNT, floor.other_venue))
    assert error_of(outsider.get(day))[:2] == (404, "not_found")
    assert error_of(outsider.post(counts, {}, format="json"))[:2] == (404, "not_found")
    assert error_of(outsider.get(f"/api/v1/venues/{floor.venue.pk}/count/nope/"))[0] == 404
