"""Markers (casino.cage.services.markers): a credit line approved by two managers, markers
issued at a table and at the cage within it, partial payments, what is overdue, the aging.

Worked by hand (venue in VND, rounding unit 1,000; the default terms: 30 days to pay):

    step                                        marker   outstanding   limit   available
    credit limit 50,000,000 approved                               0  50,000,000  50,000,000
    marker M-000001 at table NN1  20,000,000       A   20,000,000  50,000,000  30,000,000
    marker M-000002 at the cage   15,000,000       B   35,000,000  50,000,000  15,000,000
    a marker of 16,000,000: refused (15,000,000 available)
    payment of A, cash              5,000,000          30,000,000              20,000,000
    payment of A of 16,000,000: refused (A has 15,000,000 left)
    payment of B, chips            15,000,000          15,000,000              35,000,000
    the cash payment reversed      -5,000,000          20,000,000              30,000,000
    limit lowered to 10,000,000 approved               20,000,000  10,000,000           0

    A: 20,000,000 - 5,000,000 + 5,000,000 = 20,000,000 left; B: 15,000,000 - 15,000,000 = 0.

The aging on today's gaming date T (term 30 days: due 30 days after the gaming date):

    marker  player  issued   due     days past due  balance                     bucket
    1       AG-1    T-10     T+20     0             1,000,000                   current
    2       AG-1    T-45     T-15    15             2,000,000                   1-30
    3       AG-1    T-75     T-45    45             3,000,000 - 1,000,000 paid  31-60
    4       AG-2    T-100    T-70    70             4,000,000                   61-90
    5       AG-2    T-130    T-100  100             5,000,000                   over 90
    6       AG-2    T-60     T-30    30             paid in full: not shown

    AG-1: 1,000,000 | 2,000,000 | 2,000,000 | 0 | 0 = 5,000,000 (overdue 4,000,000)
    AG-2: 0 | 0 | 0 | 4,000,000 | 5,000,000 = 9,000,000
    totals: 1,000,000 | 2,000,000 | 2,000,000 | 4,000,000 | 5,000,000 = 14,000,000
"""

from __future__ import annotations

import threading
from datetime import timedelta
from decimal import Decimal as D

import pytest
from django.contrib.auth import get_user_model
from django.db import DatabaseError, connection, transaction
from django.utils import timezone

from casino.audit.models import AuditEvent
from casino.cage.marker_dates import today_of
from casino.cage.marker_selectors import (
    available_credit,
    credit_limit,
    credit_lines,
    marker_aging,
    marker_balance,
    outstanding,
    overdue_markers,
    player_markers,
)
from casino.cage.models import CreditLine, Marker, MarkerPayment
from casino.cage.services.credit_lines import (
    credit_line_approve,
    credit_line_propose,
    marker_terms_set,
)
from casino.cage.services.markers import (
    marker_issue_at_cage,
    marker_issue_at_table,
    marker_pay,
    marker_payment_reverse,
)
from casino.floor.models import TableSession
from casino.floor.services.sessions import session_open
from casino.kernel.errors import Conflict, Forbidden, InvalidInput
from casino.players.models import Player
from tests.factories import PlayerFactory, niuniu_table


def _open(floor, table):
    return session_open(
        table=table,
        counted_by=floor.dealer,
        confirmed_by=floor.supervisor,
        opening_chips={"100000": 500},
    )


def _limit(floor, approver, player, limit):
    line = credit_line_propose(venue=floor.venue, player=player, user=floor.manager, limit=limit)
    return credit_line_approve(line=line, user=approver)


@pytest.fixture
def member(floor):
    return PlayerFactory(venue=floor.venue, membership_number="CR-1", name="Tran Van C")


def _at_table(floor, session, member, amount, **kwargs):
    return marker_issue_at_table(
        session=session,
        player=member,
        user=floor.dealer,
        supervisor=floor.supervisor,
        amount=amount,
        player_signed=True,
        **kwargs,
    )


def _at_cage(floor, cashier, member, amount, **kwargs):
    return marker_issue_at_cage(
        venue=floor.venue,
        player=member,
        user=cashier,
        supervisor=floor.supervisor,
        amount=amount,
        player_signed=True,
        **kwargs,
    )


@pytest.mark.django_db
def test_the_worked_example(floor, cashier, approver, member):
    session = _open(floor, floor.table)
    _limit(floor, approver, member, "50000000")
    assert available_credit(member) == (D("50000000"), 0, D("50000000"))

    a = _at_table(floor, session, member, D("20000000"))
    b = _at_cage(floor, cashier, member, D("15000000"))
    assert (a.label, b.label) == ("M-000001", "M-000002")
    assert a.session == session and a.in_drop and b.session is None and not b.in_drop
    assert a.due_on == a.gaming_date + timedelta(days=30)
    assert available_credit(member) == (D("50000000"), D("35000000"), D("15000000"))

    with pytest.raises(Conflict) as refused:
        _at_table(floor, session, member, D("16000000"))
    assert refused.value.reason == "credit_limit"
    assert "50,000,000" in str(refused.value) and "35,000,000" in str(refused.value)
    assert "15,000,000 is available" in str(refused.value)
    assert "16,000,000" in str(refused.value)

    cash = marker_pay(marker=a, user=cashier, amount="5000000", method="cash")
    assert marker_balance(a) == D("15000000") and outstanding(member) == D("30000000")
    with pytest.raises(Conflict, match="15,000,000 left to pay"):
        marker_pay(marker=a, user=cashier, amount=D("16000000"), method="chips")
    marker_pay(marker=b, user=cashier, amount=D("15000000"), method="chips")
    assert marker_balance(b) == 0 and outstanding(member) == D("15000000")
    reversal = marker_payment_reverse(payment=cash, user=floor.manager, reason="wrong marker")
    assert reversal.reverses == cash and reversal.amount == D("-5000000")
    assert marker_balance(a) == D("20000000") and outstanding(member) == D("20000000")

    _limit(floor, approver, member, D("10000000"))
    assert available_credit(member) == (D("10000000"), D("20000000"), 0)
    with pytest.raises(Conflict, match="0 is available"):
        _at_cage(floor, cashier, member, D("1000"))
    assert [line.limit for line in credit_lines(member)] == [D("10000000"), D("50000000")]
    assert [m.balance for m in player_markers(member)] == [0, D("20000000")]

    actions = list(
        AuditEvent.objects.filter(action__regex=r"^(marker|credit_line)\.")
        .order_by("id")
        .values_list("action", flat=True)
    )
    assert actions == [
        "credit_line.propose",
        "credit_line.approve",
        "marker.issue",
        "marker.issue",
        "marker.pay",
        "marker.pay",
        "marker.payment_reverse",
        "credit_line.propose",
        "credit_line.approve",
    ]
    with pytest.raises(Conflict, match="already reversed"):
        marker_payment_reverse(payment=cash, user=floor.manager, reason="again")
    with pytest.raises(Conflict):
        marker_payment_reverse(payment=reversal, user=floor.manager, reason="undo")


@pytest.mark.django_db
def test_two_managers_approve_a_credit_limit(floor, approver, member):
    line = credit_line_propose(
        venue=floor.venue, player=member, user=floor.manager, limit=D("5000000")
    )
    assert credit_limit(member) == 0  # proposed is not in force
    with pytest.raises(Forbidden, match="second manager"):
        credit_line_approve(line=line, user=floor.manager)
    for user in (floor.supervisor, floor.dealer, floor.auditor):
        with pytest.raises(Forbidden):
            credit_line_approve(line=line, user=user)
        with pytest.raises(Forbidden):
            credit_line_propose(venue=floor.venue, player=member, user=user, limit="1000")
    credit_line_approve(line=line, user=approver)
    assert credit_limit(member) == D("5000000")
    line.refresh_from_db()
    assert line.approved_by == approver
    for limit in ("-1000", "1500", "abc"):
        with pytest.raises(InvalidInput):
            credit_line_propose(venue=floor.venue, player=member, user=floor.manager, limit=limit)


@pytest.mark.django_db
def test_who_signs_and_issues(floor, cashier, approver, member):
    session = _open(floor, floor.table)
    _limit(floor, approver, member, D("10000000"))
    base = {"player": member, "amount": D("1000000"), "player_signed": True}
    # the issuer's role
    for user in (cashier, floor.auditor, floor.other_dealer):
        with pytest.raises(Forbidden):
            marker_issue_at_table(session=session, user=user, supervisor=floor.supervisor, **base)
    for user in (floor.dealer, floor.supervisor2, floor.manager):
        with pytest.raises(Forbidden):
            marker_issue_at_cage(venue=floor.venue, user=user, supervisor=floor.supervisor, **base)
    # the second signature: a supervisor, not the issuer
    for supervisor, reason in (
        (floor.dealer, "supervisor_required"),
        (cashier, "supervisor_required"),
        (None, "supervisor_required"),
        (floor.supervisor, "same_signer"),
    ):
        with pytest.raises(InvalidInput) as refused:
            marker_issue_at_table(
                session=session, user=floor.supervisor, supervisor=supervisor, **base
            )
        assert refused.value.reason == reason
    # the player's signature
    with pytest.raises(InvalidInput) as refused:
        marker_issue_at_table(
            session=session,
            user=floor.dealer,
            supervisor=floor.supervisor,
            **{**base, "player_signed": False},
        )
    assert refused.value.reason == "player_signature_required"
    # no credit line at all
    other = PlayerFactory(venue=floor.venue, membership_number="CR-2")
    with pytest.raises(Conflict, match="no credit line approved"):
        _at_cage(floor, cashier, other, D("1000"))
    # a closed session
    TableSession.objects.filter(pk=session.pk).update(status="closed")
    with pytest.raises(Conflict, match="closed"):
        _at_table(floor, session, member, D("1000"))
    # the payment's side: the cashier only, cash or chips, more than 0
    marker = _at_cage(floor, cashier, member, D("1000000"))
    for user in (floor.dealer, floor.supervisor, floor.manager):
        with pytest.raises(Forbidden):
            marker_pay(marker=marker, user=user, amount=D("1000"), method="cash")
    with pytest.raises(InvalidInput):
        marker_pay(marker=marker, user=cashier, amount=D("1000"), method="cheque")
    with pytest.raises(InvalidInput):
        marker_pay(marker=marker, user=cashier, amount=D("0"), method="cash")
    assert Marker.objects.count() == 1 and not MarkerPayment.objects.exists()


@pytest.mark.django_db
def test_a_barred_player_gets_no_credit_but_pays(floor, cashier, approver, member):
    _limit(floor, approver, member, D("10000000"))
    marker = _at_cage(floor, cashier, member, D("2000000"))
    Player.objects.filter(pk=member.pk).update(status="barred")
    with pytest.raises(Conflict, match="barred"):
        _at_cage(floor, cashier, member, D("1000"))
    with pytest.raises(Conflict, match="barred"):
        credit_line_propose(venue=floor.venue, player=member, user=floor.manager, limit="1000")
    # credit stopped (0) and a payment taken all the same
    _limit(floor, approver, member, D("0"))
    marker_pay(marker=marker, user=cashier, amount=D("2000000"), method="cash")
    assert outstanding(member) == 0


@pytest.mark.django_db
def test_terms_decide_the_due_date_and_the_drop_of_new_markers(floor, cashier, approver, member):
    session = _open(floor, floor.table)
    _limit(floor, approver, member, D("10000000"))
    first = _at_table(floor, session, member, D("1000000"))
    with pytest.raises(Forbidden):
        marker_terms_set(venue=floor.venue, user=floor.supervisor, term_days=14, credit_drop=False)
    with pytest.raises(InvalidInput):
        marker_terms_set(venue=floor.venue, user=floor.manager, term_days="0", credit_drop=False)
    marker_terms_set(venue=floor.venue, user=floor.manager, term_days="14", credit_drop=False)
    second = _at_table(floor, session, member, D("1000000"))
    first.refresh_from_db()
    assert (first.in_drop, first.due_on - first.gaming_date) == (True, timedelta(days=30))
    assert (second.in_drop, second.due_on - second.gaming_date) == (False, timedelta(days=14))


@pytest.mark.django_db
def test_overdue_and_the_aging(floor, cashier, approver, member):
    _limit(floor, approver, member, D("50000000"))
    other = PlayerFactory(venue=floor.venue, membership_number="AG-2")
    _limit(floor, approver, other, D("50000000"))
    Player.objects.filter(pk=member.pk).update(membership_number="AG-1")
    member.refresh_from_db()
    now = timezone.now()

    def issue(player, days_ago, amount):
        return _at_cage(floor, cashier, player, D(amount), at=now - timedelta(days=days_ago))

    issue(member, 10, "1000000")
    m2 = issue(member, 45, "2000000")
    m3 = issue(member, 75, "3000000")
    issue(other, 100, "4000000")
    issue(other, 130, "5000000")
    m6 = issue(other, 60, "6000000")
    marker_pay(marker=m3, user=cashier, amount=D("1000000"), method="cash")
    marker_pay(marker=m6, user=cashier, amount=D("6000000"), method="chips")

    today = today_of(floor.venue)
    assert m2.due_on == today - timedelta(days=15)
    overdue = overdue_markers(floor.venue, today=today)
    assert [m.number for m in overdue] == [5, 4, 3, 2]  # oldest due first

    aging = marker_aging(venue=floor.venue, as_of=today)
    assert aging.as_of == today
    first, second = aging.lines
    assert first.player == member and second.player == other
    assert list(first.buckets.values()) == [D("1000000"), D("2000000"), D("2000000"), 0, 0]
    assert (first.total, first.overdue, first.markers) == (D("5000000"), D("4000000"), 3)
    assert list(second.buckets.values()) == [0, 0, 0, D("4000000"), D("5000000")]
    assert second.total == D("9000000")
    assert list(aging.totals.values()) == [
        D("1000000"),
        D("2000000"),
        D("2000000"),
        D("4000000"),
        D("5000000"),
    ]
    assert aging.total == D("14000000")


@pytest.mark.django_db(transaction=True)
def test_two_tables_at_once_at_the_credit_limit_one_is_refused(floor, approver, member):
    # given a credit limit of 10,000,000, nothing outstanding, and two open tables
    sessions = [_open(floor, floor.table), _open(floor, niuniu_table(floor.venue, code="NN2"))]
    _limit(floor, approver, member, D("10000000"))
    start = threading.Barrier(2)
    issued: list[D] = []
    refused: list[BaseException] = []
    errors: list[BaseException] = []

    def issue(session_id: int) -> None:
        try:
            users = get_user_model().objects  # this thread's own
            dealer, supervisor = users.get(pk=floor.dealer.pk), users.get(pk=floor.supervisor.pk)
            session = TableSession.objects.get(pk=session_id)
            player = Player.objects.get(pk=member.pk)
            start.wait(timeout=30)
            marker = marker_issue_at_table(
                session=session,
                player=player,
                user=dealer,
                supervisor=supervisor,
                amount=D("6000000"),
                player_signed=True,
            )
            issued.append(marker.amount)
        except Conflict as error:
            refused.append(error)
        except BaseException as error:  # reported by the test below
            errors.append(error)
        finally:
            connection.close()

    # when each table issues a marker of 6,000,000 at once (12,000,000: over the limit)
    threads = [threading.Thread(target=issue, args=(s.pk,)) for s in sessions]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)

    # then one marker is issued and the other refused, saying the 4,000,000 available
    assert errors == []
    assert issued == [D("6000000")]
    assert len(refused) == 1 and "4,000,000 is available" in str(refused[0])
    assert outstanding(member) == D("6000000")
    assert Marker.objects.get().number == 1


@pytest.mark.django_db
def test_markers_and_payments_are_never_changed_or_deleted(floor, cashier, approver, member):
    line = _limit(floor, approver, member, D("10000000"))
    marker = _at_cage(floor, cashier, member, D("1000000"))
    payment = marker_pay(marker=marker, user=cashier, amount=D("1000"), method="cash")
    for sql, pk in (
        ("UPDATE cage_marker SET amount = 2000000 WHERE id = %s", marker.pk),
        ("DELETE FROM cage_marker WHERE id = %s", marker.pk),
        ("UPDATE cage_markerpayment SET amount = 2000000 WHERE id = %s", payment.pk),
        ("DELETE FROM cage_markerpayment WHERE id = %s", payment.pk),
        ('UPDATE cage_creditline SET "limit" = 1 WHERE id = %s', line.pk),
        ("DELETE FROM cage_creditline WHERE id = %s", line.pk),
    ):
        with (
            pytest.raises(DatabaseError, match="append-only"),
            transaction.atomic(),
            connection.cursor() as cursor,
        ):
            cursor.execute(sql, [pk])
    assert marker_balance(marker) == D("999000")
    assert CreditLine.objects.get().limit == D("10000000")
