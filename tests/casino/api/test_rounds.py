"""Settling and voiding through the API: idempotency, races, reversals, the ledger."""

from __future__ import annotations

import threading

import pytest
from django.contrib.auth import get_user_model
from django.db import connection

from casino.floor.models import Round, RoundStatus
from casino.ledger.models import LedgerEntry
from tests.casino.api import (
    NIU_9,
    NO_NIU,
    box,
    client_for,
    deal,
    error_of,
    ledger_total,
    open_session,
    settle,
)


@pytest.fixture
def dealer(floor):
    return client_for(floor.dealer)


@pytest.fixture
def session_id(floor, dealer):
    return open_session(dealer, floor.table.pk)["id"]


@pytest.mark.django_db
def test_the_same_settle_twice_posts_once_and_answers_the_same(dealer, session_id):
    dealt = deal(dealer, session_id, box(1, NIU_9, single="100000"), box(2, NO_NIU, single="50000"))
    first = settle(dealer, dealt["id"], "key-1")
    again = settle(dealer, dealt["id"], "key-1")
    assert first.status_code == again.status_code == 200
    assert first.json() == again.json()
    assert first.json()["totals"]["house_net"] == "-45000.00"
    assert LedgerEntry.objects.filter(round_id=dealt["id"]).count() == 6
    # The preview the deal answered is what the settlement posted.
    assert [b["bets"] for b in first.json()["boxes"]] == [b["bets"] for b in dealt["boxes"]]
    assert dealer.get(f"/api/v1/rounds/{dealt['id']}/").json() == first.json()


@pytest.mark.django_db
def test_settling_again_under_another_key_or_without_one(dealer, session_id):
    dealt = deal(dealer, session_id, box(1, NIU_9, single="100000"))
    assert error_of(dealer.post(f"/api/v1/rounds/{dealt['id']}/settle/")) == (
        400,
        "invalid",
        "Idempotency-Key",
    )
    assert error_of(settle(dealer, dealt["id"], "x" * 65)) == (400, "invalid", "Idempotency-Key")
    assert settle(dealer, dealt["id"], "first").status_code == 200
    conflict = settle(dealer, dealt["id"], "second")
    assert error_of(conflict) == (409, "conflict", None)
    assert "already settled" in conflict.json()["detail"]
    assert LedgerEntry.objects.filter(round_id=dealt["id"]).count() == 4


@pytest.mark.django_db
def test_a_void_is_requested_then_approved_by_another_supervisor(floor, dealer, session_id):
    supervisor, supervisor2 = client_for(floor.supervisor), client_for(floor.supervisor2)
    dealt = deal(dealer, session_id, box(1, NIU_9, single="100000"))
    settle(dealer, dealt["id"], "k")
    url = f"/api/v1/rounds/{dealt['id']}/void/"

    assert error_of(supervisor.post(url, {})) == (400, "invalid", "reason")
    requested = supervisor.post(url, {"reason": "cards exposed"})
    assert requested.status_code == 202
    assert requested.json()["status"] == "settled"
    assert requested.json()["void_requested_by"] == "supervisor"
    assert requested.json()["void_reason"] == "cards exposed"
    # Neither the requester nor a dealer approves it.
    refused = supervisor.post(url, {})
    assert error_of(refused) == (403, "forbidden", None)
    assert "second person" in refused.json()["detail"]
    assert error_of(dealer.post(url, {})) == (403, "forbidden", None)
    assert Round.objects.get(pk=dealt["id"]).status == RoundStatus.SETTLED

    approved = supervisor2.post(url, {})
    assert approved.status_code == 200
    assert (approved.json()["status"], approved.json()["voided_by"]) == ("voided", "supervisor2")
    assert error_of(supervisor2.post(url, {})) == (409, "conflict", None)
    # Settling a voided round is a conflict, whatever the key.
    assert error_of(settle(dealer, dealt["id"], "k"))[0:2] == (409, "conflict")
    assert error_of(settle(dealer, dealt["id"], "other"))[0:2] == (409, "conflict")

    # Reversed, not deleted: four entries and four reversals, summing to zero.
    ledger = dealer.get(f"/api/v1/rounds/{dealt['id']}/ledger/").json()
    assert len(ledger["entries"]) == 8
    assert ledger["sum"] == "0.00"
    assert ledger_total(round_id=dealt["id"]) == 0
    assert LedgerEntry.objects.filter(round_id=dealt["id"], reverses__isnull=False).count() == 4


@pytest.mark.django_db
def test_a_dealt_round_is_voided_without_entries(floor, dealer, session_id):
    dealt = deal(dealer, session_id, box(1, NIU_9, single="100000"))
    assert dealer.post(f"/api/v1/rounds/{dealt['id']}/void/", {"reason": "wrong"}).status_code == (
        202
    )
    voided = client_for(floor.supervisor).post(f"/api/v1/rounds/{dealt['id']}/void/", {})
    assert voided.status_code == 200
    assert voided.json()["status"] == "voided"
    ledger = dealer.get(f"/api/v1/rounds/{dealt['id']}/ledger/").json()
    assert (ledger["entries"], ledger["sum"]) == ([], "0.00")


@pytest.mark.django_db
def test_the_same_create_key_answers_the_round_already_dealt(dealer, session_id):
    first = deal(dealer, session_id, box(1, NIU_9, single="100000"), create_key="form-7")
    again = deal(dealer, session_id, box(1, NIU_9, single="100000"), create_key="form-7")
    assert first == again
    assert Round.objects.count() == 1


@pytest.mark.django_db
def test_lists_filter_rounds_by_session_and_status(floor, dealer, session_id):
    one = deal(dealer, session_id, box(1, NIU_9, single="100000"))
    two = deal(dealer, session_id, box(1, NIU_9, single="100000"))
    settle(dealer, one["id"], "k")
    listed = dealer.get("/api/v1/rounds/", {"session": session_id}).json()
    assert [r["id"] for r in listed["results"]] == [two["id"], one["id"]]
    assert listed["count"] == 2
    settled = dealer.get("/api/v1/rounds/", {"status": "settled"}).json()
    assert [(r["id"], r["house_net"]) for r in settled["results"]] == [(one["id"], "-95000.00")]
    assert error_of(dealer.get("/api/v1/rounds/", {"status": "done"})) == (400, "invalid", "status")


def _settle_at_once(user_ids, round_id, keys):
    """Settle from two threads, each with its own connection, started together."""
    users = [get_user_model().objects.get(pk=pk) for pk in user_ids]
    barrier = threading.Barrier(len(keys))
    answers: list = [None] * len(keys)

    def run(index):
        try:
            client = client_for(users[index])
            barrier.wait(timeout=10)
            answers[index] = settle(client, round_id, keys[index])
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(keys))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return answers


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("keys", "statuses"),
    [(("same", "same"), [200, 200]), (("one", "two"), [200, 409])],
    ids=["same-key", "different-keys"],
)
def test_two_connections_settling_at_once_settle_once(floor, keys, statuses):
    dealer = client_for(floor.dealer)
    session_id = open_session(dealer, floor.table.pk)["id"]
    dealt = deal(dealer, session_id, box(1, NIU_9, single="100000"), box(2, NO_NIU, single="50000"))

    answers = _settle_at_once([floor.dealer.pk, floor.supervisor.pk], dealt["id"], keys)

    assert sorted(answer.status_code for answer in answers) == statuses
    winners = [a.json() for a in answers if a.status_code == 200]
    assert all(body == winners[0] for body in winners)
    assert LedgerEntry.objects.filter(round_id=dealt["id"]).count() == 6
    assert ledger_total(round_id=dealt["id"]) == 0
    assert Round.objects.get(pk=dealt["id"]).settle_key in keys


@pytest.mark.django_db(transaction=True)
def test_two_connections_dealing_one_create_key_at_once_deal_once(floor):
    dealer = client_for(floor.dealer)
    session_id = open_session(dealer, floor.table.pk)["id"]
    user = get_user_model().objects.get(pk=floor.dealer.pk)
    barrier = threading.Barrier(2)
    answers: list = [None, None]

    def run(index):
        try:
            client = client_for(user)
            barrier.wait(timeout=10)
            answers[index] = client.post(
                "/api/v1/rounds/",
                {
                    "session": session_id,
                    "dealer_cards": NO_NIU,
                    "boxes": [box(1, NIU_9, single="100000")],
                    "create_key": "confirm-1",
                },
                format="json",
            )
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)

    # the second waits for the first's lock on the session, then answers its round
    assert [answer.status_code for answer in answers] == [201, 201]
    assert answers[0].json()["id"] == answers[1].json()["id"]
    assert Round.objects.filter(session_id=session_id).count() == 1
