"""Opening and closing through the API: the other person of each count signs in the body,
and an opener that differs from the table's inventory needs its reason."""

from __future__ import annotations

import pytest

from casino.floor.models import TableSession
from casino.staff.models import LoginAttempt
from tests.casino.api import client_for, credentials, error_of, open_session

pytestmark = pytest.mark.django_db


def test_the_opener_is_confirmed_by_a_supervisor_with_their_own_password(floor):
    dealer = client_for(floor.dealer)
    body = {"table": floor.table.pk, "opening_chips": {"100000": 50}}
    wrong = dealer.post(
        "/api/v1/sessions/",
        {**body, "confirmed_by": {"username": "supervisor", "password": "nope"}},
    )
    assert error_of(wrong) == (400, "invalid", "confirmed_by")
    assert LoginAttempt.objects.filter(username="supervisor", outcome="failed").count() == 1
    themselves = dealer.post(
        "/api/v1/sessions/", {**body, "confirmed_by": credentials(floor.dealer)}
    )
    assert error_of(themselves) == (403, "forbidden", "confirmed_by")
    elsewhere = dealer.post(
        "/api/v1/sessions/", {**body, "confirmed_by": credentials(floor.other_supervisor)}
    )
    assert error_of(elsewhere) == (403, "forbidden", "confirmed_by")
    assert error_of(dealer.post("/api/v1/sessions/", body)) == (400, "invalid", "confirmed_by")
    assert not TableSession.objects.exists()


def test_the_next_opener_is_compared_with_the_last_closer(floor):
    dealer, supervisor = client_for(floor.dealer), client_for(floor.supervisor)
    first = open_session(dealer, floor.table.pk, {"100000": 50}, confirmed_by=floor.supervisor)
    close = f"/api/v1/sessions/{first['id']}/close/"
    same = supervisor.post(
        close, {"closing_chips": {"100000": 50}, "counted_by": credentials(floor.supervisor)}
    )
    assert error_of(same) == (403, "forbidden", "counted_by")
    closed = supervisor.post(
        close, {"closing_chips": {"100000": 50}, "counted_by": credentials(floor.dealer)}
    )
    assert (closed.json()["closing_counted_by"], closed.json()["closed_by"]) == (
        "dealer",
        "supervisor",
    )
    body = {
        "table": floor.table.pk,
        "opening_chips": {"100000": 48, "10000": 5},
        "confirmed_by": credentials(floor.supervisor),
    }
    refused = dealer.post("/api/v1/sessions/", body)
    assert error_of(refused) == (400, "invalid", "discrepancy_reason")
    assert "-2 × 100,000, +5 × 10,000 (-150,000)" in refused.json()["detail"]
    opened = dealer.post("/api/v1/sessions/", {**body, "discrepancy_reason": "chips at the cage"})
    assert opened.status_code == 201, opened.json()
    answer = opened.json()
    assert answer["opening_expected_chips"] == {"100000": 50}
    assert answer["opening_discrepancy"] == {
        "chips": {"100000": -2, "10000": 5},
        "total": "-150000.00",
        "reason": "chips at the cage",
    }


def test_the_schema_documents_the_signatures(floor):
    schema = client_for(floor.manager).get("/api/schema/", HTTP_ACCEPT="application/json")
    text = schema.content.decode()
    assert "confirmed_by" in text and "counted_by" in text and "discrepancy_reason" in text
