"""Opening, slips, the drop and closing: the reconciliation worked by hand."""

from __future__ import annotations

from decimal import Decimal as D

import pytest
from django.db.models import Sum

from casino.cage.models import SlipStatus
from casino.cage.services.slips import slip_issue, slip_request, slip_void
from casino.floor.models import TableSession
from casino.floor.services.closing import session_close, session_reconcile
from casino.floor.services.rounds import round_create
from casino.floor.services.sessions import drop_record, session_open
from casino.floor.services.settlement import round_settle
from casino.games import BoxInput
from casino.kernel.errors import Conflict, Forbidden, InvalidInput
from casino.ledger.models import Account, LedgerEntry
from tests.casino.slips import slip_post

pytestmark = pytest.mark.django_db


def open_table(floor, chips=None):
    return session_open(
        table=floor.table,
        counted_by=floor.dealer,
        confirmed_by=floor.supervisor,
        opening_chips=chips or {"100000": 50, "10000": 20},
    )


def test_opening_counts_the_chips(floor):
    session = open_table(floor)
    assert session.opening_total == D("5200000")  # 50 x 100,000 + 20 x 10,000
    assert session.shift.venue == floor.venue
    assert session.dealer == floor.dealer


@pytest.mark.parametrize(
    ("chips", "field", "message"),
    [
        ({"7000": 1}, "opening_chips.7000", "not a chip of this table"),
        ({"100000": -1}, "opening_chips.100000", "whole number from 0 to 1000000"),
        ({"100000": "ten"}, "opening_chips.100000", "whole number from 0 to 1000000"),
        ({"100000": 10**12}, "opening_chips.100000", "whole number from 0 to 1000000"),
        (["100000"], "opening_chips", "denomination -> number of chips"),
    ],
)
def test_a_bad_chip_count_is_refused(floor, chips, field, message):
    with pytest.raises(InvalidInput) as error:
        session_open(
            table=floor.table,
            counted_by=floor.dealer,
            confirmed_by=floor.supervisor,
            opening_chips=chips,
        )
    assert (error.value.field, message in error.value.message) == (field, True)


def test_a_table_opens_once(floor):
    open_table(floor)
    with pytest.raises(Conflict, match="already open"):
        open_table(floor)


def test_a_dealer_cannot_open_another_venues_table(floor):
    with pytest.raises(Forbidden):
        session_open(
            table=floor.other_table,
            counted_by=floor.dealer,
            confirmed_by=floor.supervisor,
            opening_chips={"1000": 1},
        )


def test_slips_need_the_cage_and_two_people_at_the_table_and_post_when_verified(floor):
    session = open_table(floor)
    fill = slip_request(session=session, user=floor.supervisor, kind="fill", chips={"100000": 10})
    credit = slip_request(session=session, user=floor.supervisor, kind="credit", chips={"10000": 5})
    assert (fill.number, credit.number) == (1, 2)
    assert not LedgerEntry.objects.filter(slip=fill).exists()
    fill = slip_post(fill, dealer=floor.dealer, supervisor=floor.supervisor)
    assert fill.status == SlipStatus.VERIFIED
    tray = LedgerEntry.objects.get(slip=fill, account=Account.TRAY)
    cage = LedgerEntry.objects.get(slip=fill, account=Account.CAGE)
    assert (tray.amount, cage.amount) == (D("1000000"), D("-1000000"))
    by_dealer = slip_request(session=session, user=floor.dealer, kind="fill", chips={"1000": 1})
    with pytest.raises(Forbidden):
        slip_issue(slip=by_dealer, user=floor.dealer)
    with pytest.raises(Forbidden):
        slip_request(session=session, user=floor.other_dealer, kind="fill", chips={"1000": 1})
    voided = slip_void(slip=credit, user=floor.supervisor, reason="asked by mistake")
    assert voided.status == SlipStatus.VOID
    with pytest.raises(Conflict, match="corrected by an opposite slip"):
        slip_void(slip=fill, user=floor.supervisor, reason="too late")


def test_closing_reconciles_count_against_ledger(floor):
    # given a table opened with 5,200,000
    session = open_table(floor)
    # one round: box 1 wins single 100,000 (net 95,000 after 5%), box 2 loses 200,000
    round_, _ = round_create(
        session=session,
        user=floor.dealer,
        dealer_cards="JS QH JD AC 7H",  # Niu 8
        boxes=[
            BoxInput(1, "KS QS 5H 4H TC", {"single": D("100000")}),  # Niu 9 wins
            BoxInput(2, "KH 8H 4D JH AD", {"single": D("200000")}),  # No Niu loses
        ],
    )
    round_settle(round_=round_, user=floor.dealer, key="r1")
    # a fill of 1,000,000, a credit of 300,000, a drop of 500,000
    for kind, chips in (("fill", {"100000": 10}), ("credit", {"100000": 3})):
        slip = slip_request(session=session, user=floor.supervisor, kind=kind, chips=chips)
        slip_post(slip, dealer=floor.dealer, supervisor=floor.supervisor2)
    drop_record(session=session, user=floor.supervisor, amount=D("500000"))
    # when the closer counts 5,705,000 on the table... (one chip short of the ledger's)
    closed = session_close(
        session=session,
        counted_by=floor.dealer,
        confirmed_by=floor.supervisor,
        closing_chips={"100000": 57, "1000": 4},
        drop=D("100000"),
        variance_reason="the drop is cash bought in",
    )
    # then
    # win by ledger = house: -95,000 + 200,000 = 105,000
    assert closed.win_by_ledger == D("105000")
    # win by count = closing 5,704,000 - opening 5,200,000 + credits 300,000 - fills 1,000,000
    #              + drop (500,000 + 100,000) = 404,000
    assert closed.closing_total == D("5704000")
    assert (closed.fills_total, closed.credits_total, closed.drop_total) == (
        D("1000000"),
        D("300000"),
        D("600000"),
    )
    assert closed.win_by_count == D("404000")
    assert closed.variance == D("299000")
    assert closed.status == TableSession.Status.CLOSED
    assert LedgerEntry.objects.filter(session=session).aggregate(t=Sum("amount"))["t"] == 0
    reconciled = session_reconcile(session=closed, user=floor.supervisor2)
    assert reconciled.status == TableSession.Status.RECONCILED


def test_closing_waits_for_unsettled_rounds_and_open_slips(floor):
    session = open_table(floor)
    round_create(
        session=session,
        user=floor.dealer,
        dealer_cards="JS QH JD AC 7H",
        boxes=[BoxInput(1, "KS QS 5H 4H TC", {"single": D("100000")})],
    )
    with pytest.raises(Conflict, match="round 1 is not settled"):
        session_close(
            session=session,
            counted_by=floor.dealer,
            confirmed_by=floor.supervisor,
            closing_chips={},
        )
    with pytest.raises(Forbidden):
        session_close(
            session=session,
            counted_by=floor.supervisor,
            confirmed_by=floor.dealer,
            closing_chips={},
        )


@pytest.mark.parametrize(
    ("drop", "message"),
    [
        ("0", "drop must be more than 0"),
        ("0.001", "“0.001” is not an amount: write 100,000 or 100000, without decimals"),
        ("1e20", "“1e20” is not an amount"),
    ],
)
def test_a_bad_drop_at_close_names_the_drop(floor, drop, message):
    session = open_table(floor)
    with pytest.raises(InvalidInput) as error:
        session_close(
            session=session,
            counted_by=floor.dealer,
            confirmed_by=floor.supervisor,
            closing_chips={},
            drop=drop,
        )
    assert error.value.field == "drop"
    assert message in error.value.message
