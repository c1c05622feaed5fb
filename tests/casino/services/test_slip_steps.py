"""Who takes which step of a slip (``slip_refusal``, ``slip_steps``) and each step's
service: the cage issues, the table's dealer and a supervisor sign, a credit is received at
the cage, who voids when; slips named as the screens name them, and the reason a close
needs for a variance over the venue's setting."""

from __future__ import annotations

from decimal import Decimal as D

import pytest
from django.db import IntegrityError, transaction
from django.db.models import Sum
from django.utils import translation

from casino.audit.models import AuditEvent
from casino.cage.models import Slip
from casino.cage.services.slips import (
    CONFIRM_DEALER,
    CONFIRM_SUPERVISOR,
    ISSUE,
    RECEIVE,
    VOID,
    slip_confirm_dealer,
    slip_confirm_supervisor,
    slip_issue,
    slip_receive,
    slip_refusal,
    slip_request,
    slip_steps,
    slip_void,
)
from casino.floor.models import TableSession
from casino.floor.services.closing import check_closable, session_close
from casino.kernel.errors import Conflict, Forbidden, InvalidInput
from casino.ledger.models import Drop, LedgerEntry
from casino.staff.roles import CAGE, SUPERVISOR, grant
from casino.venues.models import Venue
from casino.venues.services.venues import venue_update
from tests.casino.slips import slip_post
from tests.factories import staff

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english():
    """The messages in English, whatever an earlier request in this thread activated."""
    with translation.override("en"):
        yield


def fill(session, user, chips=None):
    return slip_request(session=session, user=user, kind="fill", chips=chips or {"100000": 10})


def test_each_step_is_offered_to_the_roles_that_may_take_it(floor, session, cashier):
    slip = fill(session, floor.dealer)
    # requested: the cashier issues (or voids) it at the cage; a supervisor may void it
    assert slip_steps(slip=slip, user=floor.dealer) == ()
    assert slip_steps(slip=slip, user=cashier) == (ISSUE, VOID)
    assert slip_steps(slip=slip, user=floor.supervisor) == (VOID,)
    assert slip_steps(slip=slip, user=floor.manager) == (VOID,)
    assert slip_steps(slip=slip, user=floor.auditor) == ()
    assert slip_steps(slip=slip, user=floor.other_supervisor) == ()
    # issued: the dealer and a supervisor sign at the table; the cashier may void it
    slip = slip_issue(slip=slip, user=cashier)
    assert slip_steps(slip=slip, user=cashier) == (VOID,)
    assert slip_steps(slip=slip, user=floor.dealer) == (CONFIRM_DEALER,)
    assert slip_steps(slip=slip, user=floor.supervisor) == (CONFIRM_DEALER, CONFIRM_SUPERVISOR)
    # the dealer signed: a supervisor signs the other line, the dealer has nothing left
    slip = slip_confirm_dealer(slip=slip, user=floor.dealer)
    assert slip_steps(slip=slip, user=floor.dealer) == ()
    assert slip_steps(slip=slip, user=floor.supervisor) == (CONFIRM_SUPERVISOR,)
    # posted: nothing is left to do
    slip = slip_confirm_supervisor(slip=slip, user=floor.supervisor)
    assert slip.status == "verified"
    for user in (cashier, floor.dealer, floor.supervisor, floor.manager):
        assert slip_steps(slip=slip, user=user) == ()


def test_a_refused_step_says_why_with_a_stable_reason_and_the_slips_number(floor, session, cashier):
    slip = fill(session, floor.dealer)
    for pit in (floor.dealer, floor.supervisor, floor.manager):
        with pytest.raises(Forbidden) as by_pit:
            slip_issue(slip=slip, user=pit)
        assert by_pit.value.reason == "not_cashier"
    assert slip_refusal(slip=slip, user=floor.dealer, step=ISSUE).reason == "not_cashier"
    with pytest.raises(Conflict) as too_soon:
        slip_confirm_dealer(slip=slip, user=floor.dealer)
    assert too_soon.value.reason == "slip_state"
    slip_issue(slip=slip, user=cashier)
    with pytest.raises(Conflict) as again:
        slip_issue(slip=slip, user=cashier)
    assert again.value.reason == "slip_state"
    assert f"slip {slip.label} is issued; only a requested slip is issued" == again.value.message
    # the cashier signs nowhere at the table
    with pytest.raises(Forbidden) as cage_at_table:
        slip_confirm_dealer(slip=slip, user=cashier)
    assert cage_at_table.value.reason == "not_table"
    with pytest.raises(Forbidden):
        slip_confirm_supervisor(slip=slip, user=cashier)
    # a dealer does not sign the supervisor's line
    with pytest.raises(Forbidden) as dealer_line:
        slip_confirm_supervisor(slip=slip, user=floor.dealer)
    assert dealer_line.value.reason == "not_supervisor"
    # another venue's supervisor is not this table's
    with pytest.raises(Forbidden):
        slip_confirm_supervisor(slip=slip, user=floor.other_supervisor)
    # an issued fill is voided at the cage, by the cashier who takes the chips back
    with pytest.raises(Forbidden) as table_void:
        slip_void(slip=slip, user=floor.supervisor, reason="not at the table")
    assert table_void.value.reason == "void_at_cage"
    with pytest.raises(InvalidInput) as no_reason:
        slip_void(slip=slip, user=cashier, reason=" ")
    assert no_reason.value.field == "reason"
    slip.refresh_from_db()
    assert (slip.status, slip.issued_by) == ("issued", cashier)
    # in the language of whoever reads it
    with translation.override("vi"):
        refused = slip_refusal(slip=slip, user=floor.dealer, step=CONFIRM_SUPERVISOR)
        assert refused.message != "only a supervisor signs the supervisor's line at the table"


def test_the_same_person_does_not_sign_both_lines_at_the_table(floor, session, cashier):
    slip = slip_issue(slip=fill(session, floor.dealer), user=cashier)
    slip = slip_confirm_dealer(slip=slip, user=floor.supervisor)
    with pytest.raises(Forbidden) as twice:
        slip_confirm_supervisor(slip=slip, user=floor.supervisor)
    assert twice.value.reason == "same_person_twice"
    assert slip.label in twice.value.message
    with pytest.raises(Conflict) as line_taken:
        slip_confirm_dealer(slip=slip, user=floor.dealer)
    assert line_taken.value.reason == "already_signed"
    assert not LedgerEntry.objects.filter(slip=slip).exists()
    slip = slip_confirm_supervisor(slip=slip, user=floor.supervisor2)
    assert slip.status == "verified"


def test_the_cashier_who_issued_a_slip_does_not_sign_it_at_the_table(floor, session):
    # one person who is both the cage's cashier and a supervisor at the venue
    both = staff("cashier-and-supervisor", CAGE, floor.venue)
    grant(both, floor.venue, SUPERVISOR)
    slip = slip_issue(slip=fill(session, floor.dealer), user=both)
    for sign in (slip_confirm_dealer, slip_confirm_supervisor):
        with pytest.raises(Forbidden) as refused:
            sign(slip=slip, user=both)
        assert refused.value.reason == "cashier_at_table"
        assert "you issued slip" in refused.value.message
    assert slip_steps(slip=slip, user=both) == (VOID,)


def test_the_database_refuses_the_cashier_on_a_table_line(floor, session, cashier):
    slip = slip_issue(slip=fill(session, floor.dealer), user=cashier)
    with pytest.raises(IntegrityError), transaction.atomic():
        Slip.objects.filter(pk=slip.pk).update(dealer_confirmed_by=cashier)
    with pytest.raises(IntegrityError), transaction.atomic():
        Slip.objects.filter(pk=slip.pk).update(
            dealer_confirmed_by=floor.supervisor, supervisor_confirmed_by=floor.supervisor
        )
    with pytest.raises(IntegrityError), transaction.atomic():
        Slip.objects.filter(pk=slip.pk).update(status="void", voided_by=cashier, void_reason="")


def test_a_fill_is_posted_by_the_second_table_signature_in_either_order(floor, session, cashier):
    first = slip_issue(slip=fill(session, floor.dealer), user=cashier, runner=" Minh ")
    assert first.runner == "Minh"
    first = slip_confirm_supervisor(slip=first, user=floor.supervisor)
    assert first.status == "issued" and not LedgerEntry.objects.filter(slip=first).exists()
    first = slip_confirm_dealer(slip=first, user=floor.dealer)
    assert (first.status, first.verified_by) == ("verified", floor.dealer)
    entries = {e.account: e.amount for e in LedgerEntry.objects.filter(slip=first)}
    assert entries == {"tray": D("1000000"), "cage": D("-1000000")}
    assert LedgerEntry.objects.aggregate(t=Sum("amount"))["t"] == 0
    actions = list(
        AuditEvent.objects.filter(object_id=str(first.pk), object_type="casino.slip")
        .order_by("pk")
        .values_list("action", flat=True)
    )
    assert actions == [
        "slip.request",
        "slip.issue",
        "slip.confirm-supervisor",
        "slip.confirm-dealer",
        "slip.verify",
    ]
    with pytest.raises(Conflict, match="corrected by an opposite slip"):
        slip_void(slip=first, user=cashier, reason="too late")


def test_a_credit_is_signed_out_at_the_table_and_posted_when_the_cage_receives_it(
    floor, session, cashier
):
    credit = slip_request(session=session, user=floor.dealer, kind="credit", chips={"100000": 3})
    with pytest.raises(Conflict):
        slip_receive(slip=credit, user=cashier)  # not issued yet
    credit = slip_issue(slip=credit, user=cashier)
    with pytest.raises(Conflict) as unsigned:
        slip_receive(slip=credit, user=cashier)
    assert unsigned.value.reason == "not_signed_out"
    credit = slip_confirm_dealer(slip=credit, user=floor.dealer)
    credit = slip_confirm_supervisor(slip=credit, user=floor.supervisor)
    assert credit.status == "issued" and not LedgerEntry.objects.filter(slip=credit).exists()
    assert slip_steps(slip=credit, user=cashier) == (RECEIVE,)
    assert slip_steps(slip=credit, user=floor.supervisor) == (VOID,)
    with pytest.raises(Forbidden) as by_table:
        slip_receive(slip=credit, user=floor.supervisor)
    assert by_table.value.reason == "not_cashier"
    credit = slip_receive(slip=credit, user=cashier)  # the issuing cashier may receive it
    assert (credit.status, credit.received_by, credit.verified_by) == ("verified", cashier, cashier)
    entries = {e.account: e.amount for e in LedgerEntry.objects.filter(slip=credit)}
    assert entries == {"tray": D("-300000"), "cage": D("300000")}
    # a fill is never received at the cage
    other = slip_issue(slip=fill(session, floor.dealer), user=cashier)
    with pytest.raises(Conflict, match="is a fill"):
        slip_receive(slip=other, user=cashier)


def test_who_voids_at_which_step(floor, session, cashier):
    # requested: a supervisor at the table or the cashier at the cage; never the dealer
    asked = fill(session, floor.dealer)
    with pytest.raises(Forbidden) as by_dealer:
        slip_void(slip=asked, user=floor.dealer, reason="no")
    assert by_dealer.value.reason == "not_voider"
    assert slip_void(slip=asked, user=floor.supervisor, reason="asked twice").status == "void"
    refused = slip_void(slip=fill(session, floor.dealer), user=cashier, reason="no such chips")
    assert (refused.voided_by, refused.void_reason) == (cashier, "no such chips")
    # an issued credit: a supervisor at the table (the chips stay in the tray)
    credit = slip_request(session=session, user=floor.dealer, kind="credit", chips={"1000": 1})
    credit = slip_issue(slip=credit, user=cashier)
    with pytest.raises(Forbidden) as at_cage:
        slip_void(slip=credit, user=cashier, reason="no")
    assert at_cage.value.reason == "void_at_table"
    credit = slip_void(slip=credit, user=floor.supervisor, reason="table kept its chips")
    # every voided slip keeps its number, who voided it and why; nothing reached the ledger
    assert [(s.number, s.status) for s in Slip.objects.order_by("number")] == [
        (1, "void"),
        (2, "void"),
        (3, "void"),
    ]
    assert credit.void_reason == "table kept its chips" and credit.voided_at is not None
    assert not LedgerEntry.objects.filter(slip__isnull=False).exists()
    nxt = fill(session, floor.dealer)
    assert nxt.number == 4


def test_a_close_refused_for_slips_names_them_as_the_screens_do(floor, session, cashier):
    first, second = fill(session, floor.dealer), fill(session, floor.dealer)
    assert first.label.endswith("-000001") and len(first.label) == 11
    with pytest.raises(Conflict) as refused:
        check_closable(session)
    assert refused.value.reason == "slips_pending"
    assert f"slip {first.label}, {second.label} is not verified" in refused.value.message
    slip_void(slip=first, user=floor.supervisor, reason="asked twice")
    slip_post(second, dealer=floor.dealer, supervisor=floor.supervisor2, cashier=cashier)
    check_closable(session)


# The variance's reason


def test_any_variance_needs_a_reason_by_default_and_the_audit_keeps_it(floor, session):
    assert floor.venue.variance_reason_over == 0
    count = {"100000": 49}  # 100,000 short, nothing played
    with pytest.raises(InvalidInput) as refused:
        session_close(
            session=session,
            counted_by=floor.dealer,
            confirmed_by=floor.supervisor,
            closing_chips=count,
            drop="5000",
        )
    assert (refused.value.field, refused.value.reason) == (
        "variance_reason",
        "variance_reason_required",
    )
    assert "the count is -95,000 off the ledger" in refused.value.message
    # nothing was written: the drop typed with the close went with it
    assert TableSession.objects.get(pk=session.pk).status == "open"
    assert not Drop.objects.filter(session=session).exists()
    closed = session_close(
        session=session,
        counted_by=floor.dealer,
        confirmed_by=floor.supervisor,
        closing_chips=count,
        drop="5000",
        variance_reason="  a 100,000 chip went to the cage by hand ",
    )
    assert (closed.status, closed.variance, closed.drop_total) == ("closed", D("-95000"), 5000)
    event = AuditEvent.objects.get(action="session.close")
    assert event.after["variance_reason"] == "a 100,000 chip went to the cage by hand"


def test_a_count_that_matches_the_ledger_needs_no_reason(floor, session):
    closed = session_close(
        session=session,
        counted_by=floor.dealer,
        confirmed_by=floor.supervisor,
        closing_chips={"100000": 50},
    )
    assert (closed.status, closed.variance) == ("closed", 0)
    assert AuditEvent.objects.get(action="session.close").after["variance_reason"] == ""


def test_the_venue_sets_how_much_variance_needs_no_reason(floor, session):
    # changed by a manager while the table is open (it applies at the next close), audited
    venue_update(venue=floor.venue, user=floor.manager, variance_reason_over="100000")
    event = AuditEvent.objects.get(action="venue.update")
    assert (event.before["variance_reason_over"], event.after["variance_reason_over"]) == (
        "0",
        "100000",
    )
    with pytest.raises(InvalidInput) as refused:
        session_close(
            session=session,
            counted_by=floor.dealer,
            confirmed_by=floor.supervisor,
            closing_chips={"100000": 48},
        )
    assert "-200,000 off the ledger, more than the 100,000 this venue" in refused.value.message
    closed = session_close(
        session=session,
        counted_by=floor.dealer,
        confirmed_by=floor.supervisor,
        closing_chips={"100000": 49},
    )
    assert closed.variance == D("-100000")


@pytest.mark.parametrize("value", ["-1", "abc", ""])
def test_the_venues_setting_is_an_amount_of_0_or_more(floor, value):
    with pytest.raises(InvalidInput) as refused:
        venue_update(venue=floor.venue, user=floor.manager, variance_reason_over=value)
    assert refused.value.field == "variance_reason_over"
    assert "0 or more" in refused.value.message
    assert Venue.objects.get(pk=floor.venue.pk).variance_reason_over == 0
    assert not AuditEvent.objects.filter(action="venue.update").exists()


def test_the_database_refuses_a_negative_setting(floor):
    with pytest.raises(IntegrityError), transaction.atomic():
        Venue.objects.filter(pk=floor.venue.pk).update(variance_reason_over=D("-1"))
