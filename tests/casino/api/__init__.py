"""Helpers shared by the API tests: clients, request bodies and the hands they deal."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.db.models import Sum
from rest_framework.test import APIClient

from casino.ledger.models import LedgerEntry
from casino.venues.models import Table
from tests.factories import pit_boss

# Hands from tests/casino/services/test_rounds.py (vn-kr-004 at a venue rounding to 1000).
NIU_9 = "KS QS 5H 4H TC"  # Niu 9, high card KS
NIU_8 = "JS QH JD AC 7H"  # Niu 8
NO_NIU = "KH 8H 4D JH AD"
#: Five more hands for a full table, no card shared with the three above.
OTHER_HANDS = (
    "2S 3S 6S 7S 9S",
    "2H 3H 6H 9H TH",
    "2C 3C 6C 8C 9C",
    "2D 3D 5D 6D 8D",
    "4S 4C 5C 5S 7C",
)


def client_for(user: Any = None) -> APIClient:
    """An API client logged in as ``user`` (anonymous when None)."""
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def box(position: int, cards: str, **stakes: Any) -> dict[str, Any]:
    """A box of a round body: ``box(1, NIU_9, single="100000", deposits={"double": ...})``."""
    deposits = stakes.pop("deposits", None)
    player = stakes.pop("player", None)
    body: dict[str, Any] = {"position": position, "cards": cards, "bets": stakes}
    if deposits is not None:
        body["deposits"] = deposits
    if player is not None:
        body["player"] = player
    return body


def round_body(session_id: int, *boxes: dict[str, Any], dealer: str = NIU_8, **extra: Any):
    return {"session": session_id, "dealer_cards": dealer, "boxes": list(boxes), **extra}


#: Every test user's password (tests/factories.py).
PASSWORD = "pw-for-tests"


def credentials(user: Any) -> dict[str, str]:
    """The body's signature of a second person: their username and password."""
    return {"username": user.get_username(), "password": PASSWORD}


def open_session(
    client: APIClient,
    table_id: int,
    chips: dict[str, int] | None = None,
    *,
    confirmed_by: Any = None,
    **extra: Any,
) -> dict:
    """Open the table through the API; a supervisor of its venue (the venue's pit boss
    unless ``confirmed_by`` says who) confirms the count."""
    if confirmed_by is None:
        confirmed_by = pit_boss(Table.objects.select_related("venue").get(pk=table_id).venue)
    response = client.post(
        "/api/v1/sessions/",
        {
            "table": table_id,
            "opening_chips": chips or {"100000": 50},
            "confirmed_by": credentials(confirmed_by),
            **extra,
        },
        format="json",
    )
    assert response.status_code == 201, response.json()
    return response.json()


def deal(client: APIClient, session_id: int, *boxes: dict[str, Any], **extra: Any) -> dict:
    response = client.post(
        "/api/v1/rounds/", round_body(session_id, *boxes, **extra), format="json"
    )
    assert response.status_code == 201, response.json()
    return response.json()


def settle(client: APIClient, round_id: int, key: str) -> Any:
    return client.post(f"/api/v1/rounds/{round_id}/settle/", HTTP_IDEMPOTENCY_KEY=key)


def slip(requester, cashier, dealer, supervisor, session_id, kind, chips):
    """Requested at the table, issued by the cage, signed at the table by ``dealer`` and
    ``supervisor``, and for a credit received back at the cage: posted."""
    created = requester.post(
        "/api/v1/slips/", {"session": session_id, "kind": kind, "chips": chips}, format="json"
    )
    assert created.status_code == 201, created.json()
    slip_id = created.json()["id"]
    issued = cashier.post(f"/api/v1/slips/{slip_id}/issue/", {"runner": "Lan"}, format="json")
    assert issued.status_code == 200, issued.json()
    assert dealer.post(f"/api/v1/slips/{slip_id}/confirm-dealer/").status_code == 200
    posted = supervisor.post(f"/api/v1/slips/{slip_id}/confirm-supervisor/")
    assert posted.status_code == 200, posted.json()
    if kind == "credit":
        assert posted.json()["status"] == "issued"
        posted = cashier.post(f"/api/v1/slips/{slip_id}/receive/")
        assert posted.status_code == 200, posted.json()
    assert posted.json()["status"] == "verified"
    assert posted.json()["runner"] == "Lan"
    return posted.json()


def ledger_total(**filters: Any) -> Decimal:
    return LedgerEntry.objects.filter(**filters).aggregate(t=Sum("amount"))["t"] or Decimal(0)


def error_of(response: Any) -> tuple[int, str, str | None]:
    """(status, error code, field) of an error response, checking its shape."""
    body = response.json()
    assert set(body) == {"error", "detail", "field"}, body
    assert body["detail"], body
    return response.status_code, body["error"], body["field"]
