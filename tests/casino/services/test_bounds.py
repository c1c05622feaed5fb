"""A session's running totals stay where a close always fits, and a mistaken drop is reversed.

A money field holds 16 digits before the point; each of a session's totals (the counts, the
fills, the credits, the drop) stays below 10**15, so win by count (five of them summed) and
the variance always fit, and the close never fails on a numeric overflow.
"""

from __future__ import annotations

from decimal import Decimal as D

import pytest
from django.db import IntegrityError, transaction
from django.db.models import Sum

from casino.audit.models import AuditEvent
from casino.cage.services.slips import slip_request, slip_void
from casino.floor.models import Round, RoundStatus, TableSession
from casino.floor.services.closing import session_close, session_figures
from casino.floor.services.sessions import (
    SESSION_TOTAL_LIMIT,
    drop_record,
    drop_reverse,
    session_open,
)
from casino.kernel.errors import Conflict, Forbidden, InvalidInput
from casino.ledger.models import Account, Drop, EntryKind, LedgerEntry
from tests.casino.slips import slip_post
from tests.factories import niuniu_table

pytestmark = pytest.mark.django_db

HUGE = D("9999999999999999.99")  # the largest amount a money field holds
#: A chip of a tenth of the limit, so a slip of 10 of them reaches it.
BIG_CHIP = "100000000000000"


def open_table(floor, table=None, chips=None):
    return session_open(
        table=table or floor.table,
        counted_by=floor.dealer,
        confirmed_by=floor.supervisor,
        opening_chips=chips or {"100000": 50},
    )


def test_the_limit_is_a_digit_below_the_money_field():
    assert D("10") * SESSION_TOTAL_LIMIT == D("1E16")
    assert SESSION_TOTAL_LIMIT < HUGE < D("1E16")


def test_two_huge_drops_are_refused_and_the_session_still_closes(floor):
    # given an open table
    session = open_table(floor)
    # when the drop of the security review is entered twice
    for _attempt in range(2):
        with pytest.raises(InvalidInput) as refused:
            drop_record(session=session, user=floor.supervisor, amount=HUGE)
        # then each is refused, naming the amount and saying what to do, and nothing is written
        assert refused.value.field == "amount"
        # (more digits than an amount has: the reader's refusal, saying how to write one)
        assert "“9999999999999999.99” is not an amount: write 100,000" in refused.value.message
    assert not Drop.objects.filter(session=session).exists()
    assert not LedgerEntry.objects.filter(session=session).exists()
    # and the session closes
    closed = session_close(
        session=session,
        counted_by=floor.dealer,
        confirmed_by=floor.supervisor,
        closing_chips={"100000": 50},
        drop="1000",
        variance_reason="the drop is counted with no round played",
    )
    assert (closed.status, closed.drop_total, closed.win_by_count) == ("closed", 1000, 1000)


def test_the_drop_that_would_take_the_total_over_is_refused_not_the_ones_before(floor):
    session = open_table(floor)
    half = D("600000000000000")  # 6 x 10**14: one fits, two do not
    drop_record(session=session, user=floor.supervisor, amount=half)
    with pytest.raises(InvalidInput, match="would come to 1,200,000,000,000,000"):
        drop_record(session=session, user=floor.supervisor, amount=half)
    # the drop entered at close is refused the same way, naming the drop
    with pytest.raises(InvalidInput) as refused:
        session_close(
            session=session,
            counted_by=floor.dealer,
            confirmed_by=floor.supervisor,
            closing_chips={"100000": 50},
            drop=half,
        )
    assert refused.value.field == "drop"
    assert TableSession.objects.get(pk=session.pk).status == "open"
    # right up to the limit is fine, and the close fits its fields
    last = SESSION_TOTAL_LIMIT - half - D("1")  # VND: no decimals
    closed = session_close(
        session=session,
        counted_by=floor.dealer,
        confirmed_by=floor.supervisor,
        closing_chips={"100000": 50},
        drop=last,
        variance_reason="the drop is counted with no round played",
    )
    assert closed.drop_total == D("999999999999999")
    assert closed.win_by_count == closed.variance == D("999999999999999")


def test_fills_and_credits_stay_below_the_limit_counting_slips_not_yet_verified(floor):
    table = niuniu_table(floor.venue, code="BIG", denominations=(BIG_CHIP, "1000"))
    session = open_table(floor, table, {"1000": 10})
    # a fill of 9 x 10**14 requested: counted from its request on
    fill = slip_request(session=session, user=floor.dealer, kind="fill", chips={BIG_CHIP: 9})
    with pytest.raises(InvalidInput) as refused:
        slip_request(session=session, user=floor.dealer, kind="fill", chips={BIG_CHIP: 1})
    assert refused.value.field == "chips" and "fills of this session" in refused.value.message
    # credits have their own total
    credit = slip_request(session=session, user=floor.dealer, kind="credit", chips={BIG_CHIP: 9})
    # a voided slip no longer counts
    slip_void(slip=credit, user=floor.supervisor, reason="asked by mistake")
    slip_request(session=session, user=floor.dealer, kind="credit", chips={BIG_CHIP: 9})
    # the fill is verified, posted, and the session closes with every figure in its field
    slip_post(fill, dealer=floor.dealer, supervisor=floor.supervisor2)
    assert session_figures(session)["fills"] == D("900000000000000")


def test_a_count_beyond_the_limit_is_refused_as_a_count(floor):
    table = niuniu_table(floor.venue, code="BIG", denominations=(BIG_CHIP, "1000"))
    with pytest.raises(InvalidInput) as refused:
        open_table(floor, table, {BIG_CHIP: 10})
    assert refused.value.field == "opening_chips"
    assert "the chips come to 1,000,000,000,000,000" in refused.value.message
    session = open_table(floor, table, {BIG_CHIP: 9})
    with pytest.raises(InvalidInput) as refused:
        session_close(
            session=session,
            counted_by=floor.dealer,
            confirmed_by=floor.supervisor,
            closing_chips={BIG_CHIP: 11},
        )
    assert refused.value.field == "closing_chips"
    # the worst a session can hold still closes: the most it may take in, none of it out
    closed = session_close(
        session=session,
        counted_by=floor.dealer,
        confirmed_by=floor.supervisor,
        closing_chips={BIG_CHIP: 9},
    )
    assert closed.variance == 0


def reversal_of(floor, session, amount):
    drop = drop_record(session=session, user=floor.supervisor, amount=amount)
    return drop, drop_reverse(drop=drop, user=floor.supervisor2, reason="counted table 2's box")


def test_a_mistaken_drop_is_reversed_by_a_drop_that_names_it(floor):
    session = open_table(floor)
    kept = drop_record(session=session, user=floor.supervisor, amount=D("300000"))
    drop, reversal = reversal_of(floor, session, D("5000000"))
    # the reversal is a drop of the opposite amount naming the first; nothing is deleted
    assert (reversal.amount, reversal.reverses, reversal.counted_by) == (
        D("-5000000"),
        drop,
        floor.supervisor2,
    )
    assert reversal.reason == "counted table 2's box"
    assert Drop.objects.filter(session=session).count() == 3
    # its ledger entries reverse the first's, one for one, and balance
    entries = list(LedgerEntry.objects.filter(drop=reversal).order_by("pk"))
    originals = list(LedgerEntry.objects.filter(drop=drop).order_by("pk"))
    assert [(e.account, e.amount, e.kind, e.reverses) for e in entries] == [
        (o.account, -o.amount, EntryKind.VOID, o) for o in originals
    ]
    assert LedgerEntry.objects.filter(drop=reversal).aggregate(t=Sum("amount"))["t"] == 0
    drop_box = LedgerEntry.objects.filter(session=session, account=Account.DROP)
    assert drop_box.aggregate(t=Sum("amount"))["t"] == kept.amount
    # audited, with who, what and why
    event = AuditEvent.objects.get(action="drop.reverse")
    assert (event.user, event.object_id) == (floor.supervisor2, str(reversal.pk))
    assert event.after["reason"] == "counted table 2's box"
    assert event.before == {"drop": drop.pk, "amount": "5000000.00"}
    # and the close counts only the drop that stays
    closed = session_close(
        session=session,
        counted_by=floor.dealer,
        confirmed_by=floor.supervisor,
        closing_chips={"100000": 50},
        variance_reason="the drop is counted with no round played",
    )
    assert closed.drop_total == D("300000")
    assert closed.win_by_count == D("300000")


def test_a_reversal_is_made_once_by_a_supervisor_with_a_reason(floor):
    session = open_table(floor)
    drop = drop_record(session=session, user=floor.supervisor, amount=D("70000"))
    with pytest.raises(Forbidden):
        drop_reverse(drop=drop, user=floor.dealer, reason="wrong box")
    with pytest.raises(Forbidden):
        drop_reverse(drop=drop, user=floor.other_supervisor, reason="wrong box")
    with pytest.raises(InvalidInput) as refused:
        drop_reverse(drop=drop, user=floor.supervisor, reason="  ")
    assert refused.value.field == "reason"
    reversal = drop_reverse(drop=drop, user=floor.supervisor, reason="wrong box")
    with pytest.raises(Conflict, match="already reversed"):
        drop_reverse(drop=drop, user=floor.supervisor, reason="again")
    with pytest.raises(Conflict, match="itself a reversal"):
        drop_reverse(drop=reversal, user=floor.supervisor, reason="undo the undo")
    assert Drop.objects.filter(session=session).count() == 2
    # the drop that is right is entered again
    drop_record(session=session, user=floor.supervisor, amount=D("70000"))
    assert session_figures(session)["drop"] == D("70000")


def test_a_closed_sessions_drop_is_not_reversed(floor):
    session = open_table(floor)
    drop = drop_record(session=session, user=floor.supervisor, amount=D("70000"))
    session_close(
        session=session,
        counted_by=floor.dealer,
        confirmed_by=floor.supervisor,
        closing_chips={"100000": 50},
        variance_reason="the drop is counted with no round played",
    )
    with pytest.raises(Conflict, match="is closed"):
        drop_reverse(drop=drop, user=floor.supervisor, reason="too late")


def test_the_database_refuses_a_drop_that_is_neither_positive_nor_a_reversal(floor):
    session = open_table(floor)
    with pytest.raises(IntegrityError), transaction.atomic():
        Drop.objects.create(
            session=session,
            amount=D("-5"),
            counted_by=floor.supervisor,
            counted_at=session.opened_at,
        )
    drop = drop_record(session=session, user=floor.supervisor, amount=D("5"))
    reversal = drop_reverse(drop=drop, user=floor.supervisor, reason="typo")
    with pytest.raises(IntegrityError), transaction.atomic():  # one reversal per drop
        Drop.objects.create(
            session=session,
            amount=D("-5"),
            reverses=drop,
            counted_by=floor.supervisor,
            counted_at=reversal.counted_at,
        )
    assert Drop.objects.filter(session=session).count() == 2


def test_a_settled_win_beyond_a_money_field_stops_the_close_with_a_conflict(floor):
    # rounds written past every table limit (by hand, in the database): the close says so
    # instead of failing on the numeric overflow, and writes nothing
    session = open_table(floor)
    for number in (1, 2):
        round_ = Round.objects.create(
            session=session,
            number=number,
            game="niuniu",
            status=RoundStatus.SETTLED,
            ruleset=floor.table.ruleset,
            ruleset_version_id=1,
            ruleset_version_number=1,
            dealer=floor.dealer,
            created_by=floor.dealer,
        )
        LedgerEntry.objects.bulk_create(
            LedgerEntry(
                venue=floor.venue,
                session=session,
                round=round_,
                account=account,
                kind=EntryKind.STAKE_RESULT,
                amount=amount,
            )
            for account, amount in ((Account.HOUSE, HUGE), (Account.PLAYER, -HUGE))
        )
    with pytest.raises(Conflict, match=r"the settled win would be 19,999,999,999,999,999\.98"):
        session_close(
            session=session,
            counted_by=floor.dealer,
            confirmed_by=floor.supervisor,
            closing_chips={"100000": 50},
        )
    assert TableSession.objects.get(pk=session.pk).status == "open"
