"""A table's whole session through the API: open, deal, settle, void, fill, credit, close.

The reconciliation figures are worked out by hand in the comments.
"""

from __future__ import annotations

from decimal import Decimal as D

import pytest
from rest_framework.test import APIClient

from casino.audit.models import AuditEvent
from casino.floor.models import RoundStatus, TableSession
from casino.ledger.models import LedgerEntry
from casino.staff.logins import token_issue
from tests.casino.api import (
    NIU_8,
    NIU_9,
    NO_NIU,
    box,
    client_for,
    credentials,
    deal,
    ledger_total,
    open_session,
    settle,
    slip,
)
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


def test_a_session_from_opening_to_reconciliation(floor, cashier):
    dealer = client_for(floor.dealer)
    supervisor = client_for(floor.supervisor)
    supervisor2 = client_for(floor.supervisor2)
    player = PlayerFactory(venue=floor.venue, membership_number="M-1")

    # Opening: 2 x 1,000,000 + 30 x 100,000 = 5,000,000
    session = open_session(
        dealer, floor.table.pk, {"1000000": 2, "100000": 30}, confirmed_by=floor.supervisor
    )
    assert (session["opened_by"], session["opening_confirmed_by"]) == ("dealer", "supervisor")
    assert session["opening_expected_chips"] is None  # the table's first opening
    assert (session["status"], session["opening_total"]) == ("open", "5000000.00")
    assert session["dealer"] == "dealer"

    # Round 1: box 1 Niu 9 beats the dealer's Niu 8: +100,000 less 5% = player +95,000;
    # box 2 No Niu loses its 50,000. House: -95,000 + 50,000 = -45,000.
    r1 = deal(dealer, session["id"], box(1, NIU_9, single="100000"), box(2, NO_NIU, single=50000))
    assert r1["totals"]["house_net"] == "-45000.00"
    # Round 2: a registered player's No Niu loses the single (200,000) and the double at
    # the dealer's Niu 8 loss multiple 2 (2 x 100,000). House: +400,000.
    r2 = deal(
        dealer,
        session["id"],
        box(
            1,
            NO_NIU,
            player=player.pk,
            single="200000",
            double="100000",
            deposits={"double": "300000"},
        ),
    )
    assert r2["boxes"][0]["player"]["membership_number"] == "M-1"
    assert [b["net"] for b in r2["boxes"][0]["bets"]] == ["-200000.00", "-200000.00"]
    # Round 3: Niu 9 wins 300,000 less 5% = house -285,000; it is voided after settling.
    r3 = deal(dealer, session["id"], box(3, NIU_9, single="300000"), dealer=NIU_8)
    for number, dealt in enumerate((r1, r2, r3), start=1):
        assert dealt["number"] == number
        response = settle(dealer, dealt["id"], f"settle-{number}")
        assert response.status_code == 200, response.json()
        assert response.json()["status"] == "settled"
        assert response.json()["preview"] is False

    requested = dealer.post(f"/api/v1/rounds/{r3['id']}/void/", {"reason": "misdeal"})
    assert requested.status_code == 202
    assert (requested.json()["status"], requested.json()["void_requested_by"]) == (
        "settled",
        "dealer",
    )
    voided = supervisor.post(f"/api/v1/rounds/{r3['id']}/void/", {}, format="json")
    assert voided.status_code == 200
    assert (voided.json()["status"], voided.json()["voided_by"]) == ("voided", "supervisor")

    # Fill: 10 x 100,000 = 1,000,000 to the table; credit: 5 x 100,000 = 500,000 back.
    cage = client_for(cashier)
    fill = slip(dealer, cage, dealer, supervisor2, session["id"], "fill", {"100000": 10})
    credit = slip(supervisor, cage, dealer, supervisor, session["id"], "credit", {"100000": 5})
    assert (fill["amount"], credit["amount"]) == ("1000000.00", "500000.00")

    # Closing count: 5 x 1,000,000 + 5 x 100,000 + 4 x 10,000 + 5 x 1,000 = 5,545,000,
    # with 300,000 cash in the drop box. The count is off: the venue wants a reason.
    count = {
        "closing_chips": {"1000000": 5, "100000": 5, "10000": 4, "1000": 5},
        "drop": "300000",
        "counted_by": credentials(floor.dealer),
    }
    close = f"/api/v1/sessions/{session['id']}/close/"
    refused = supervisor.post(close, count, format="json")
    assert (refused.status_code, refused.json()["field"]) == (400, "variance_reason")
    assert "-10,000 off the ledger" in refused.json()["detail"]
    assert TableSession.objects.get(pk=session["id"]).status == "open"
    reason = "a 10,000 chip paid out twice in round 2"
    closed = supervisor.post(close, {**count, "variance_reason": reason}, format="json")
    assert closed.status_code == 200, closed.json()
    assert (closed.json()["closing_counted_by"], closed.json()["closed_by"]) == (
        "dealer",
        "supervisor",
    )
    event = AuditEvent.objects.get(action="session.close", object_id=str(session["id"]))
    assert (event.after["variance"], event.after["variance_reason"]) == ("-10000.00", reason)
    # win by count = closing - opening + credits - fills + drop
    #              = 5,545,000 - 5,000,000 + 500,000 - 1,000,000 + 300,000 = 345,000
    # win by ledger = the settled, not voided rounds: -45,000 + 400,000 = 355,000
    #                 (round 3's -285,000 is reversed by its void)
    # variance = 345,000 - 355,000 = -10,000 (the count is 10,000 short)
    assert closed.json()["status"] == "closed"
    assert closed.json()["reconciliation"] == {
        "opening": "5000000.00",
        "closing": "5545000.00",
        "fills": "1000000.00",
        "credits": "500000.00",
        "drop": "300000.00",
        "win_by_count": "345000.00",
        "win_by_ledger": "355000.00",
        "variance": "-10000.00",
        # its box not counted yet: no figure with the count (never a 0)
        "with_count": {
            "counted": False,
            "counted_drop": None,
            "drop": None,
            "win_by_count": None,
            "variance": None,
        },
    }
    stored = TableSession.objects.get(pk=session["id"])
    assert (stored.win_by_count, stored.win_by_ledger, stored.variance) == (
        D("345000"),
        D("355000"),
        D("-10000"),
    )

    reconciled = supervisor2.post(f"/api/v1/sessions/{session['id']}/reconcile/")
    assert reconciled.status_code == 200
    assert reconciled.json()["status"] == "reconciled"
    assert (
        dealer.get(f"/api/v1/sessions/{session['id']}/").json()["reconciliation"]
        == (closed.json()["reconciliation"])
    )

    # Every round's and slip's entries sum to zero, through the API and in the database.
    for dealt in (r1, r2, r3):
        ledger = dealer.get(f"/api/v1/rounds/{dealt['id']}/ledger/").json()
        assert ledger["sum"] == "0.00"
        assert ledger_total(round_id=dealt["id"]) == 0
    for posted in (fill, credit):
        ledger = supervisor.get(f"/api/v1/slips/{posted['id']}/ledger/").json()
        assert ledger["sum"] == "0.00"
        assert len(ledger["entries"]) == 2
        assert ledger_total(slip_id=posted["id"]) == 0
    # The void reversed round 3's four entries and deleted none of them.
    r3_ledger = dealer.get(f"/api/v1/rounds/{r3['id']}/ledger/").json()
    originals = [e for e in r3_ledger["entries"] if e["reverses"] is None]
    reversals = [e for e in r3_ledger["entries"] if e["reverses"] is not None]
    assert len(originals) == len(reversals) == 4
    assert {e["reverses"] for e in reversals} == {e["id"] for e in originals}
    assert all(e["kind"] == "void" for e in reversals)
    assert r3_ledger["by_account"] == {"player": "0.00", "house": "0.00"}
    assert LedgerEntry.objects.filter(session_id=session["id"]).count() == (
        # Entries are posted per box: round 1 has two boxes (result + commission, result),
        # round 2 one losing box (its single and double together), round 3 one winning
        # box and its four reversals; then the fill, the credit and the drop.
        6 + 2 + 8 + 2 + 2 + 2
    )
    statuses = dict(
        TableSession.objects.get(pk=session["id"]).rounds.values_list("number", "status")
    )
    assert statuses == {1: RoundStatus.SETTLED, 2: RoundStatus.SETTLED, 3: RoundStatus.VOIDED}

    # The audit trail tells the story, filtered by action and object.
    trail = client_for(floor.auditor).get("/api/v1/audit/", {"action": "round."}).json()
    assert {e["action"] for e in trail["results"]} == {
        "round.create",
        "round.settle",
        "round.void_request",
        "round.void",
    }
    of_r3 = client_for(floor.auditor).get(
        "/api/v1/audit/", {"object_type": "casino.round", "object_id": r3["id"]}
    )
    assert [e["action"] for e in of_r3.json()["results"]] == [
        "round.void",
        "round.void_request",
        "round.settle",
        "round.create",
    ]


def test_token_auth(floor):
    _token, key = token_issue(user=floor.dealer, device="NN1-tablet")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    response = client.get("/api/v1/tables/")
    assert response.status_code == 200
    assert [t["code"] for t in response.json()["results"]] == ["NN1"]
    assert open_session(client, floor.table.pk)["opened_by"] == "dealer"

    client.credentials(HTTP_AUTHORIZATION="Token not-a-token")
    refused = client.get("/api/v1/tables/")
    assert refused.status_code == 401
    assert refused.json() == {
        "error": "authentication_failed",
        "detail": "The token is unknown, expired or revoked: log in again "
        "(POST /api/v1/auth/login/) for a new one.",
        "field": None,
    }
    assert refused["WWW-Authenticate"] == "Token"


def test_session_auth_needs_the_csrf_token_to_write(floor):
    client = APIClient(enforce_csrf_checks=True)
    assert client.login(username="dealer", password="pw-for-tests")
    assert client.get("/api/v1/venues/").status_code == 200
    refused = client.post(
        "/api/v1/sessions/",
        {"table": floor.table.pk, "opening_chips": {"100000": 1}},
        format="json",
    )
    assert refused.status_code == 403
    assert refused.json()["error"] == "forbidden"
    assert "CSRF" in refused.json()["detail"]
    assert not TableSession.objects.exists()


def test_anonymous_requests_are_401_with_the_token_challenge(floor):
    response = client_for().get("/api/v1/rounds/")
    assert response.status_code == 401
    assert response["WWW-Authenticate"] == "Token"
    assert response.json()["error"] == "not_authenticated"
