"""A preview is a promise about the table's state: two terminals at one table each preview
the same deal; the first Confirm records it, the second is refused with the reason (the
table recorded a round since its preview), and the same key again stays idempotent. The
same through the services and the API."""

from __future__ import annotations

from decimal import Decimal as D

import pytest

from casino.floor.console.services import round_confirm
from casino.floor.models import Round, TableSession
from casino.floor.services.rounds import round_create
from casino.games import BoxInput
from casino.kernel.errors import Conflict, InvalidInput
from casino.ledger.models import LedgerEntry
from tests.casino.api import NIU_9 as API_NIU_9
from tests.casino.api import box, client_for, error_of, open_session, round_body
from tests.niuniu.test_console import HX, NIU_8, NIU_9, digest_of, round_data, url

pytestmark = pytest.mark.django_db


def two_previews(dealer, session):
    """The same deal previewed on two terminals (two forms, two keys)."""
    first = round_data(key="a" * 32, box1=(NIU_9, {"single": "100,000"}))
    second = round_data(key="b" * 32, box1=(NIU_9, {"single": "100,000"}))
    shown = []
    for data in (first, second):
        previewed = dealer.post(url("preview", session), data, **HX)
        assert previewed.status_code == 200, previewed.content.decode()[:2000]
        html = previewed.content.decode()
        assert 'name="round_number" value="1"' in html
        shown.append({**data, "digest": digest_of(previewed), "round_number": "1"})
    return shown


def test_a_second_terminals_confirm_of_the_same_deal_is_refused_with_the_reason(dealer, session):
    first, second = two_previews(dealer, session)
    assert dealer.post(url("confirm", session), first, **HX).status_code == 200
    entries = LedgerEntry.objects.count()

    refused = dealer.post(url("confirm", session), second, **HX)

    assert refused.status_code == 422
    html = refused.content.decode()
    assert "Table NN1 moved on after this preview: round 1 was recorded there since." in html
    assert "preview the round again" in html
    assert Round.objects.count() == 1
    assert LedgerEntry.objects.count() == entries
    # A fresh preview speaks of round 2 and confirms it (a deal that was not the same).
    again = dealer.post(url("preview", session), second, **HX)
    assert 'name="round_number" value="2"' in again.content.decode()
    fresh = {**second, "digest": digest_of(again), "round_number": "2"}
    assert dealer.post(url("confirm", session), fresh, **HX).status_code == 200
    assert list(Round.objects.order_by("number").values_list("number", flat=True)) == [1, 2]


def test_the_first_terminals_confirm_sent_again_stays_one_round_without_an_error(dealer, session):
    first, _second = two_previews(dealer, session)
    assert dealer.post(url("confirm", session), first, **HX).status_code == 200
    entries = LedgerEntry.objects.count()
    again = dealer.post(url("confirm", session), first, **HX)
    assert again.status_code == 200
    assert "moved on" not in again.content.decode()
    assert Round.objects.count() == 1
    assert LedgerEntry.objects.count() == entries


def boxes():
    return [BoxInput(position=1, cards=NIU_9.upper(), stakes={"single": D("100000")})]


def test_the_services_refuse_a_stale_number_and_keep_the_key_idempotent(floor, session):
    cards = NIU_8.upper()
    settled = round_confirm(
        session=session,
        user=floor.dealer,
        dealer_cards=cards,
        boxes=boxes(),
        key="k-1",
        expected_number=1,
    ).round
    with pytest.raises(Conflict) as refused:
        round_confirm(
            session=session,
            user=floor.dealer,
            dealer_cards=cards,
            boxes=boxes(),
            key="k-2",
            expected_number=1,
        )
    assert refused.value.reason == "table_moved_on"
    # The same key again answers the round it recorded, however stale its number.
    again = round_confirm(
        session=session,
        user=floor.dealer,
        dealer_cards=cards,
        boxes=boxes(),
        key="k-1",
        expected_number=1,
    ).round
    assert again.pk == settled.pk
    with pytest.raises(InvalidInput) as ahead:
        round_create(
            session=session,
            user=floor.dealer,
            dealer_cards=cards,
            boxes=boxes(),
            expected_number=5,
        )
    assert (ahead.value.reason, ahead.value.field) == ("round_number_ahead", "expected_number")
    assert Round.objects.count() == 1
    assert TableSession.objects.get(pk=session.pk).next_round_number == 2


def test_the_api_refuses_a_round_dealt_after_the_table_moved_on_with_409(floor):
    client = client_for(floor.dealer)
    opened = open_session(client, floor.table.pk)
    assert opened["next_round_number"] == 1
    body = round_body(opened["id"], box(1, API_NIU_9, single="100000"), expected_number=1)
    first = client.post("/api/v1/rounds/", {**body, "create_key": "t1"}, format="json")
    assert first.status_code == 201, first.json()
    repeat = client.post("/api/v1/rounds/", {**body, "create_key": "t1"}, format="json")
    assert repeat.status_code == 201 and repeat.json()["id"] == first.json()["id"]

    second = client.post("/api/v1/rounds/", {**body, "create_key": "t2"}, format="json")

    assert error_of(second) == (409, "conflict", None)
    assert "round 1 was recorded there since" in second.json()["detail"]
    assert Round.objects.count() == 1
    session = client.get(f"/api/v1/sessions/{opened['id']}/").json()
    assert session["next_round_number"] == 2
