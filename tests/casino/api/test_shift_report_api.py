"""A shift's report through the API: a manager asks for it (queued, audited), the venue's
report readers read its build and figures; others are refused."""

from __future__ import annotations

import pytest

from casino.audit.models import AuditEvent
from casino.floor.services.closing import session_close
from casino.reports.models import ShiftReport
from casino.staff.roles import MANAGER
from tests.casino.api import client_for, error_of
from tests.factories import staff

pytestmark = pytest.mark.django_db


@pytest.fixture
def shift(floor, session):
    session_close(
        session=session,
        counted_by=floor.dealer,
        confirmed_by=floor.supervisor,
        closing_chips={"100000": 50},
    )
    return session.shift


def test_a_manager_asks_and_the_readers_read(floor, shift, django_capture_on_commit_callbacks):
    path = f"/api/v1/shifts/{shift.pk}/report/"
    with django_capture_on_commit_callbacks() as sent:
        asked = client_for(floor.manager).post(path, format="json")
    assert asked.status_code == 202, asked.json()
    answer = asked.json()
    assert (answer["status"], answer["figures"], answer["requested_by"]) == (
        "pending",
        None,
        floor.manager.username,
    )
    assert answer["shift"]["id"] == shift.pk
    assert len(sent) == 1  # the build is queued once the request is committed
    assert AuditEvent.objects.filter(action="report.request").count() == 1
    again = client_for(floor.manager).post(path, format="json").json()
    assert again["id"] == answer["id"] and ShiftReport.objects.count() == 1
    report = f"/api/v1/shift-reports/{answer['id']}/"
    read = client_for(floor.auditor).get(report)
    assert (read.status_code, read.json()["status"]) == (200, "pending")


def test_who_may_ask_and_read(floor, shift):
    path = f"/api/v1/shifts/{shift.pk}/report/"
    assert error_of(client_for(floor.supervisor).post(path, format="json"))[:2] == (
        403,
        "forbidden",
    )
    elsewhere = client_for(staff("other-manager", MANAGER, floor.other_venue))
    assert error_of(elsewhere.post(path, format="json"))[:2] == (404, "not_found")
    assert error_of(client_for(floor.manager).post("/api/v1/shifts/999999/report/"))[:2] == (
        404,
        "not_found",
    )
    made = client_for(floor.manager).post(path, format="json").json()
    report = f"/api/v1/shift-reports/{made['id']}/"
    assert error_of(client_for(floor.dealer).get(report))[:2] == (403, "forbidden")
    assert error_of(client_for(floor.other_supervisor).get(report))[:2] == (404, "not_found")
    assert error_of(client_for().get(report))[:2] == (401, "not_authenticated")
    assert error_of(client_for(floor.supervisor).get("/api/v1/shift-reports/999999/"))[:2] == (
        404,
        "not_found",
    )
