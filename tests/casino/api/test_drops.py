"""The drop through the API: entered, listed, refused past the session's limit, reversed."""

from __future__ import annotations

from decimal import Decimal as D

import pytest

from casino.ledger.models import Drop, LedgerEntry
from tests.casino.api import client_for, credentials, error_of, ledger_total, open_session

pytestmark = pytest.mark.django_db


def test_a_drop_past_the_limit_is_a_400_and_a_mistaken_one_is_reversed(floor):
    dealer, supervisor = client_for(floor.dealer), client_for(floor.supervisor)
    session = open_session(dealer, floor.table.pk)
    drops = f"/api/v1/sessions/{session['id']}/drop/"
    # the security review's two drops: refused, with the error shape, writing nothing
    for _attempt in range(2):
        huge = supervisor.post(drops, {"amount": "9999999999999999.99"}, format="json")
        assert error_of(huge) == (400, "invalid", "amount")
        # more digits than an amount has: refused as the reader refuses it
        assert "“9999999999999999.99” is not an amount" in huge.json()["detail"]
    assert not Drop.objects.exists()
    # a drop typed with a digit too many, then reversed with a reason
    typo = supervisor.post(drops, {"amount": "5000000"}, format="json")
    assert typo.status_code == 201
    assert typo.json()["reverses"] is None
    reverse = f"{drops}{typo.json()['id']}/reverse/"
    assert error_of(supervisor.post(reverse, {"reason": ""}, format="json")) == (
        400,
        "invalid",
        "reason",
    )
    assert error_of(dealer.post(reverse, {"reason": "typo"}, format="json"))[:2] == (
        403,
        "forbidden",
    )
    reversed_ = supervisor.post(reverse, {"reason": "typed 5,000,000 for 500,000"}, format="json")
    assert reversed_.status_code == 201, reversed_.json()
    body = reversed_.json()
    assert (body["amount"], body["reverses"], body["counted_by"]) == (
        "-5000000.00",
        typo.json()["id"],
        "supervisor",
    )
    assert body["reason"] == "typed 5,000,000 for 500,000"
    again = supervisor.post(reverse, {"reason": "again"}, format="json")
    assert error_of(again) == (409, "conflict", None)
    assert "already reversed" in again.json()["detail"]
    # the right drop, and the list shows all three in order
    assert supervisor.post(drops, {"amount": "500000"}, format="json").status_code == 201
    listed = dealer.get(drops).json()
    assert [(d["amount"], d["reverses"]) for d in listed["results"]] == [
        ("5000000.00", None),
        ("-5000000.00", typo.json()["id"]),
        ("500000.00", None),
    ]
    assert ledger_total(session_id=session["id"]) == 0
    assert LedgerEntry.objects.filter(drop_id=body["id"]).count() == 2
    # closing counts the drop that stays
    closed = supervisor.post(
        f"/api/v1/sessions/{session['id']}/close/",
        {
            "closing_chips": {"100000": 50},
            "variance_reason": "the drop is cash bought in",
            "counted_by": credentials(floor.dealer),
        },
        format="json",
    )
    assert closed.status_code == 200, closed.json()
    assert closed.json()["reconciliation"]["drop"] == "500000.00"


def test_another_sessions_or_venues_drop_is_not_found(floor):
    supervisor = client_for(floor.supervisor)
    session = open_session(client_for(floor.dealer), floor.table.pk)
    other = open_session(client_for(floor.other_dealer), floor.other_table.pk, {"100000": 5})
    theirs = client_for(floor.other_supervisor).post(
        f"/api/v1/sessions/{other['id']}/drop/", {"amount": "1000"}, format="json"
    )
    assert theirs.status_code == 201
    drop_id = theirs.json()["id"]
    for path in (
        f"/api/v1/sessions/{session['id']}/drop/{drop_id}/reverse/",
        f"/api/v1/sessions/{other['id']}/drop/{drop_id}/reverse/",
    ):
        answer = supervisor.post(path, {"reason": "not ours"}, format="json")
        assert error_of(answer)[:2] == (404, "not_found")
    assert Drop.objects.get(pk=drop_id).amount == D("1000")
    assert not Drop.objects.filter(reverses_id=drop_id).exists()
