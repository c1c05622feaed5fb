"""Who takes which step of a slip (``slip_refusal``, ``slip_steps``), slips named as the
screens name them, and the reason a close needs for a variance over the venue's setting."""

from __future__ import annotations

from decimal import Decimal as D

import pytest
from django.db import IntegrityError, transaction
from django.utils import translation

from casino.errors import Conflict, Forbidden, InvalidInput
from casino.models import AuditEvent, Drop, TableSession, Venue
from casino.services.closing import check_closable, session_close
from casino.services.slips import (
    ISSUE,
    VERIFY,
    VOID,
    slip_issue,
    slip_refusal,
    slip_request,
    slip_steps,
    slip_verify,
    slip_void,
)
from casino.services.venues import venue_update

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english():
    """The messages in English, whatever an earlier request in this thread activated."""
    with translation.override("en"):
        yield


def fill(session, user, chips=None):
    return slip_request(session=session, user=user, kind="fill", chips=chips or {"100000": 10})


def test_each_step_is_offered_to_the_roles_that_may_take_it(floor, session):
    slip = fill(session, floor.dealer)
    # requested: a supervisor (or a manager) issues or voids it; nobody verifies it yet
    assert slip_steps(slip=slip, user=floor.dealer) == ()
    assert slip_steps(slip=slip, user=floor.supervisor) == (ISSUE, VOID)
    assert slip_steps(slip=slip, user=floor.manager) == (ISSUE, VOID)
    assert slip_steps(slip=slip, user=floor.auditor) == ()
    assert slip_steps(slip=slip, user=floor.other_supervisor) == ()
    # issued: another supervisor verifies it; its issuer may only void it
    slip = slip_issue(slip=slip, user=floor.supervisor)
    assert slip_steps(slip=slip, user=floor.supervisor) == (VOID,)
    assert slip_steps(slip=slip, user=floor.supervisor2) == (VERIFY, VOID)
    assert slip_steps(slip=slip, user=floor.dealer) == ()
    # verified: nothing is left to do
    slip = slip_verify(slip=slip, user=floor.supervisor2)
    assert slip_steps(slip=slip, user=floor.supervisor2) == ()
    assert slip_steps(slip=slip, user=floor.manager) == ()


def test_a_refused_step_says_why_with_a_stable_reason_and_the_slips_number(floor, session):
    slip = fill(session, floor.dealer)
    with pytest.raises(Forbidden) as by_dealer:
        slip_issue(slip=slip, user=floor.dealer)
    assert by_dealer.value.reason == "not_supervisor"
    assert slip_refusal(slip=slip, user=floor.dealer, step=ISSUE).reason == "not_supervisor"
    slip_issue(slip=slip, user=floor.supervisor)
    with pytest.raises(Conflict) as again:
        slip_issue(slip=slip, user=floor.supervisor2)
    assert again.value.reason == "slip_state"
    assert f"slip {slip.label} is issued; only a requested slip is issued" == again.value.message
    with pytest.raises(Forbidden) as by_issuer:
        slip_verify(slip=slip, user=floor.supervisor)
    assert by_issuer.value.reason == "verify_by_issuer"
    assert slip.label in by_issuer.value.message and "second person" in by_issuer.value.message
    with pytest.raises(Forbidden):
        slip_void(slip=slip, user=floor.dealer, reason="a dealer cannot")
    with pytest.raises(InvalidInput) as no_reason:
        slip_void(slip=slip, user=floor.supervisor, reason=" ")
    assert no_reason.value.field == "reason"
    slip.refresh_from_db()
    assert (slip.status, slip.issued_by) == ("issued", floor.supervisor)
    # in the language of whoever reads it
    with translation.override("vi"):
        refused = slip_refusal(slip=slip, user=floor.supervisor, step=VERIFY)
        assert refused.message.startswith(f"bạn đã xuất phiếu {slip.label}")


def test_a_close_refused_for_slips_names_them_as_the_screens_do(floor, session):
    first, second = fill(session, floor.dealer), fill(session, floor.dealer)
    assert first.label.endswith("-000001") and len(first.label) == 11
    with pytest.raises(Conflict) as refused:
        check_closable(session)
    assert refused.value.reason == "slips_pending"
    assert f"slip {first.label}, {second.label} is not verified" in refused.value.message
    slip_void(slip=first, user=floor.supervisor, reason="asked twice")
    slip_issue(slip=second, user=floor.supervisor)
    slip_verify(slip=second, user=floor.supervisor2)
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
