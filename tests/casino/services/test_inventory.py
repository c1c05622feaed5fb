"""The inventory chain of a table's tray: the closer is the next opener's expectation,
each count is made by the dealer and confirmed by a supervisor, and fills and credits move
the running tray."""

from __future__ import annotations

from decimal import Decimal as D

import pytest

from casino.audit.models import AuditEvent
from casino.cage.services.slips import slip_issue, slip_request, slip_void
from casino.cage.slip_selectors import tray_inventory
from casino.floor.services.closing import session_close, session_reconcile
from casino.floor.services.inventory import chips_discrepancy, table_inventory
from casino.floor.services.sessions import session_open
from casino.kernel.errors import Forbidden, InvalidInput
from tests.casino.slips import cashier_at, slip_post

pytestmark = pytest.mark.django_db

COUNT = {"100000": 50, "10000": 20}


def opened(floor, chips=None, **extra):
    return session_open(
        table=floor.table,
        counted_by=floor.dealer,
        confirmed_by=floor.supervisor,
        opening_chips=COUNT if chips is None else chips,
        **extra,
    )


def closed(floor, session, chips=None):
    return session_close(
        session=session,
        counted_by=floor.dealer,
        confirmed_by=floor.supervisor,
        closing_chips=COUNT if chips is None else chips,
    )


def test_a_first_opening_has_nothing_to_compare_with(floor):
    assert table_inventory(table=floor.table) is None
    session = opened(floor, {"100000": 7})
    assert session.opening_expected_chips is None
    assert (session.opening_discrepancy, session.opening_discrepancy_total) == (None, None)
    assert (session.opened_by, session.opening_confirmed_by) == (floor.dealer, floor.supervisor)
    event = AuditEvent.objects.get(action="session.open")
    assert "first opening: no inventory to compare with" in event.summary
    assert event.after["expected_chips"] is None
    assert (event.after["counted_by"], event.after["confirmed_by"]) == ("dealer", "supervisor")


def test_the_closing_count_is_the_tables_inventory_and_a_matching_opener_needs_no_reason(floor):
    first = closed(floor, opened(floor))
    assert (first.closing_counted_by, first.closed_by) == (floor.dealer, floor.supervisor)
    assert table_inventory(table=floor.table) == COUNT
    event = AuditEvent.objects.get(action="session.close")
    assert (event.after["counted_by"], event.after["confirmed_by"]) == ("dealer", "supervisor")
    # a reconciled session's count stands too
    session_reconcile(session=first, user=floor.supervisor2)
    assert table_inventory(table=floor.table) == COUNT
    # when the next opener counts the same
    second = opened(floor, dict(COUNT), discrepancy_reason="ignored: nothing differs")
    assert second.opening_expected_chips == COUNT
    assert (second.opening_discrepancy, second.opening_discrepancy_total) == ({}, D(0))
    assert second.opening_discrepancy_reason == ""
    assert (
        "matches the inventory"
        in AuditEvent.objects.filter(action="session.open").order_by("pk").last().summary
    )


def test_an_opener_that_differs_needs_a_reason_and_is_recorded_per_denomination(floor):
    closed(floor, opened(floor))
    count = {"100000": 48, "10000": 21, "1000": 3}
    with pytest.raises(InvalidInput) as refused:
        opened(floor, count)
    assert (refused.value.field, refused.value.reason) == (
        "discrepancy_reason",
        "discrepancy_reason_required",
    )
    # the difference is named: 2 fewer 100,000s, 1 more 10,000, 3 more 1,000s
    assert "-2 × 100,000, +1 × 10,000, +3 × 1,000 (-187,000)" in refused.value.message
    assert not floor.table.sessions.filter(status="open").exists()
    # when a reason is given
    session = opened(floor, count, discrepancy_reason="  two chips went to the cage  ")
    assert session.opening_discrepancy == {"100000": -2, "10000": 1, "1000": 3}
    assert session.opening_discrepancy_total == D("-187000")
    assert session.opening_discrepancy_reason == "two chips went to the cage"
    after = AuditEvent.objects.filter(action="session.open").order_by("pk").last().after
    assert after["discrepancy"] == {"100000": -2, "10000": 1, "1000": 3}
    assert (after["discrepancy_total"], after["discrepancy_reason"]) == (
        "-187000",
        "two chips went to the cage",
    )


@pytest.mark.parametrize(
    ("confirmer", "reason"),
    [
        ("dealer", "confirmed_by_counter"),  # the same person twice
        ("other_dealer_here", "confirmer_not_supervisor"),  # a dealer confirms
        ("other_supervisor", "confirmer_not_supervisor"),  # another venue's supervisor
        ("auditor", "confirmer_not_supervisor"),
    ],
)
def test_the_opener_is_confirmed_by_another_person_a_supervisor_of_the_venue(
    floor, confirmer, reason
):
    from casino.staff.roles import DEALER
    from tests.factories import staff

    people = {
        "dealer": floor.dealer,
        "other_dealer_here": staff("dealer-two", DEALER, floor.venue),
        "other_supervisor": floor.other_supervisor,
        "auditor": floor.auditor,
    }
    with pytest.raises(Forbidden) as refused:
        session_open(
            table=floor.table,
            counted_by=floor.dealer,
            confirmed_by=people[confirmer],
            opening_chips=COUNT,
        )
    assert (refused.value.field, refused.value.reason) == ("confirmed_by", reason)
    assert not floor.table.sessions.exists()


def test_the_closer_is_counted_and_confirmed_by_two_people(floor):
    session = opened(floor)
    with pytest.raises(Forbidden) as same:
        session_close(
            session=session,
            counted_by=floor.supervisor,
            confirmed_by=floor.supervisor,
            closing_chips=COUNT,
        )
    assert (same.value.field, same.value.reason) == ("counted_by", "confirmed_by_counter")
    with pytest.raises(Forbidden) as stranger:
        session_close(
            session=session,
            counted_by=floor.other_dealer,
            confirmed_by=floor.supervisor,
            closing_chips=COUNT,
        )
    assert (stranger.value.field, stranger.value.reason) == ("counted_by", "counter_not_dealer")
    with pytest.raises(Forbidden):  # a dealer does not confirm a close
        session_close(
            session=session,
            counted_by=floor.supervisor,
            confirmed_by=floor.dealer,
            closing_chips=COUNT,
        )
    session.refresh_from_db()
    assert session.status == "open"
    # a supervisor counts, another confirms: both recorded
    done = session_close(
        session=session,
        counted_by=floor.supervisor2,
        confirmed_by=floor.supervisor,
        closing_chips=COUNT,
    )
    assert (done.closing_counted_by, done.closed_by) == (floor.supervisor2, floor.supervisor)


def test_verified_fills_and_credits_move_the_running_tray(floor):
    session = opened(floor)
    assert tray_inventory(session=session) == COUNT

    cashier = cashier_at(floor.venue)

    def slip(kind, chips, *, verify=True):
        made = slip_request(session=session, user=floor.dealer, kind=kind, chips=chips)
        if verify:
            return slip_post(made, dealer=floor.dealer, supervisor=floor.supervisor2)
        return slip_issue(slip=made, user=cashier)

    slip("fill", {"1000000": 2, "100000": 5})
    slip("credit", {"10000": 20, "1000": 0})
    assert tray_inventory(session=session) == {"1000000": 2, "100000": 55}
    # a slip not verified (issued, or voided) moves nothing
    pending = slip("fill", {"1000": 10}, verify=False)
    assert tray_inventory(session=session) == {"1000000": 2, "100000": 55}
    slip_void(slip=pending, user=cashier, reason="asked twice")  # an issued fill: the cage
    assert tray_inventory(session=session) == {"1000000": 2, "100000": 55}


def test_a_difference_lists_every_denomination_either_count_holds():
    difference = chips_discrepancy({"100": 3}, {"100": 3, "5": 2}, ["100", "10"])
    assert (difference.chips, difference.total, bool(difference)) == ({"5": -2}, D(-10), True)
    assert not chips_discrepancy({"100": 3}, {"100": 3})
