"""Buy-ins and cash-outs written through the API: recorded at an open session by the
table's staff, once per Idempotency-Key, with the identification a threshold asks for, and
voided by a supervisor with a reason; each audited as the console's are."""

from __future__ import annotations

import pytest

from casino.audit.models import AuditEvent
from casino.cage.models import CashTransaction
from casino.cage.services.thresholds import thresholds_approve, thresholds_propose
from casino.floor.services.closing import session_close
from casino.staff.roles import MANAGER
from tests.casino.api import client_for, error_of
from tests.factories import PlayerFactory, staff

pytestmark = pytest.mark.django_db


def url(session) -> str:
    return f"/api/v1/sessions/{session.pk}/cash-transactions/"


def test_a_buy_in_recorded_once_per_key(floor, session):
    dealer = client_for(floor.dealer)
    player = PlayerFactory(venue=floor.venue, membership_number="A-1")
    body = {"amount": "1000000", "player": player.pk}
    made = dealer.post(url(session), body, format="json", HTTP_IDEMPOTENCY_KEY="k-1")
    assert made.status_code == 201, made.json()
    answer = made.json()
    assert (answer["kind"], answer["instrument"], answer["amount"]) == (
        "buy_in",
        "cash",
        "1000000.00",
    )
    assert (answer["player"], answer["session"], answer["recorded_by"]) == (
        player.pk,
        session.pk,
        "dealer",
    )
    again = dealer.post(url(session), body, format="json", HTTP_IDEMPOTENCY_KEY="k-1")
    assert again.json()["id"] == answer["id"]
    assert CashTransaction.objects.count() == 1
    assert AuditEvent.objects.filter(action="cash.buy_in", object_id=str(answer["id"])).exists()
    out = dealer.post(url(session), {"amount": "300000", "kind": "cash_out"}, format="json")
    assert (out.status_code, out.json()["kind"], out.json()["player"]) == (201, "cash_out", None)
    too_long = dealer.post(url(session), body, format="json", HTTP_IDEMPOTENCY_KEY="k" * 65)
    assert error_of(too_long) == (400, "invalid", "Idempotency-Key")


def test_the_services_rules_answer_naming_the_field(floor, session):
    dealer = client_for(floor.dealer)
    version = thresholds_propose(
        venue=floor.venue,
        user=floor.manager,
        logging_threshold="500000",
        reporting_threshold="1000000",
    )
    thresholds_approve(version=version, user=staff("manager2", MANAGER, floor.venue))
    player = PlayerFactory(venue=floor.venue, membership_number="A-1")
    reaching = {"amount": "1000000", "player": player.pk}
    assert error_of(dealer.post(url(session), reaching, format="json")) == (
        400,
        "invalid",
        "id_document_type",
    )
    shown = {**reaching, "id_document_type": "passport", "id_document_number": "B123"}
    made = dealer.post(url(session), shown, format="json")
    assert (made.status_code, made.json()["threshold_reached"]) == (201, "reporting")
    unknown = dealer.post(url(session), {"amount": "600000"}, format="json")
    assert error_of(unknown) == (400, "invalid", "patron_description")
    assert error_of(dealer.post(url(session), {"amount": "0"}, format="json"))[:2] == (
        400,
        "invalid",
    )
    elsewhere = PlayerFactory(venue=floor.other_venue)
    stranger = dealer.post(url(session), {"amount": "1000", "player": elsewhere.pk}, format="json")
    assert error_of(stranger) == (404, "not_found", "player")
    session_close(
        session=session,
        counted_by=floor.dealer,
        confirmed_by=floor.supervisor,
        closing_chips={"100000": 50},
        variance_reason="the cash is in the drop box",
    )
    assert error_of(dealer.post(url(session), {"amount": "1000"}, format="json"))[:2] == (
        409,
        "conflict",
    )


def test_who_records_and_voids(floor, session):
    made = client_for(floor.dealer).post(url(session), {"amount": "50000"}, format="json")
    void = f"/api/v1/cash-transactions/{made.json()['id']}/void/"
    assert error_of(client_for(floor.auditor).post(url(session), {"amount": "1"}, format="json"))[
        :2
    ] == (403, "forbidden")
    other = client_for(floor.other_dealer).post(url(session), {"amount": "1000"}, format="json")
    assert error_of(other)[:2] == (404, "not_found")
    # the void is a supervisor's, with a reason
    assert error_of(client_for(floor.dealer).post(void, {"reason": "x"}, format="json"))[:2] == (
        403,
        "forbidden",
    )
    supervisor = client_for(floor.supervisor)
    assert error_of(supervisor.post(void, {"reason": " "}, format="json")) == (
        400,
        "invalid",
        "reason",
    )
    voided = supervisor.post(void, {"reason": "typed twice"}, format="json")
    assert voided.status_code == 200, voided.json()
    assert (voided.json()["voided"], voided.json()["void_reason"]) == (True, "typed twice")
    assert AuditEvent.objects.filter(action="cash.void").count() == 1
    other_venue = client_for(floor.other_supervisor).post(void, {"reason": "x"}, format="json")
    assert error_of(other_venue)[:2] == (404, "not_found")
    assert CashTransaction.objects.count() == 1  # nothing deleted
