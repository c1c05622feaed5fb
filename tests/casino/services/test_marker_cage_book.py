"""Markers in the cage book (casino.cage.services.claims_book): what a marker and its
payments move in the cage, and the book's markers receivable always equal to what members
owe (casino.cage.marker_selectors.outstanding).

Worked by hand (VND; the cage counts 500,000, 200,000 and 100,000 notes; the chips are
1,000,000, 100,000, 10,000 and 1,000; the cage was never counted, so a denomination may
show below 0: these are the moves, signed):

    step                                    cage notes     cage chips        receivable
    marker A at table NN1, 20,000,000       -              -                 20,000,000
      (the chips left the tray; the book: receivable +20,000,000, tables -20,000,000)
    marker B at the cage, 15,000,000        -              15 x 1,000,000 out 35,000,000
    A paid 5,000,000 in cash (10 x 500,000) +10 x 500,000  -                 30,000,000
    B paid 3,000,000 in chips (fewest)      -              3 x 1,000,000 in   27,000,000
    A's payment reversed (a mistake)        -10 x 500,000  -                 32,000,000

    at the end the cage has 0 notes and -12 x 1,000,000 chips; the member owes
    A 20,000,000 + B 12,000,000 = 32,000,000, the book's markers receivable; the
    patrons' chips from the window are +12 x 1,000,000 (in the chip liability).
"""

from __future__ import annotations

from decimal import Decimal as D

import pytest

from casino.cage.inventory_selectors import account_holding, cage_inventory
from casino.cage.marker_selectors import outstanding
from casino.cage.models import CageLine, CageMovement
from casino.cage.services.credit_lines import credit_line_approve, credit_line_propose
from casino.cage.services.markers import (
    marker_issue_at_cage,
    marker_issue_at_table,
    marker_pay,
    marker_payment_reverse,
)
from casino.floor.services.sessions import session_open
from casino.kernel.errors import InvalidInput
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


def _receivable(venue):
    lines = CageLine.objects.filter(movement__venue=venue, account="markers")
    return sum((line.value for line in lines), D(0))


@pytest.fixture
def member(floor, approver):
    member = PlayerFactory(venue=floor.venue, membership_number="CR-9", name="Tran Van C")
    line = credit_line_propose(
        venue=floor.venue, player=member, user=floor.manager, limit="50000000"
    )
    credit_line_approve(line=line, user=approver)
    return member


def _notes(venue):
    venue.note_denominations = ["500000", "200000", "100000"]
    venue.save(update_fields=["note_denominations"])


def test_markers_and_their_payments_move_the_cage(floor, cashier, member):
    venue = floor.venue
    _notes(venue)
    session = session_open(
        table=floor.table,
        counted_by=floor.dealer,
        confirmed_by=floor.supervisor,
        opening_chips={"100000": 500},
    )
    a = marker_issue_at_table(
        session=session,
        player=member,
        user=floor.dealer,
        supervisor=floor.supervisor,
        amount=D("20000000"),
        player_signed=True,
    )
    assert cage_inventory(venue) == {"notes": {}, "chips": {}}
    assert _receivable(venue) == D("20000000")
    b = marker_issue_at_cage(
        venue=venue,
        player=member,
        user=cashier,
        supervisor=floor.supervisor,
        amount=D("15000000"),
        player_signed=True,
    )
    assert cage_inventory(venue)["chips"] == {"1000000": -15}
    assert _receivable(venue) == D("35000000") == outstanding(member)

    with pytest.raises(InvalidInput) as miscounted:
        marker_pay(marker=a, user=cashier, amount="5000000", method="cash", counted={"500000": 9})
    assert miscounted.value.field == "notes"
    assert "The notes come to 4,500,000, not 5,000,000" in miscounted.value.message
    cash = marker_pay(
        marker=a, user=cashier, amount="5000000", method="cash", counted={"500000": 10}
    )
    assert cage_inventory(venue)["notes"] == {"500000": 10}
    chips = marker_pay(marker=b, user=cashier, amount="3000000", method="chips")
    assert cage_inventory(venue)["chips"] == {"1000000": -12}
    assert _receivable(venue) == D("27000000") == outstanding(member)

    marker_payment_reverse(payment=cash, user=floor.manager, reason="the wrong marker")
    assert cage_inventory(venue) == {"notes": {}, "chips": {"1000000": -12}}
    assert _receivable(venue) == D("32000000") == outstanding(member)
    assert account_holding(venue, "patrons")["chips"] == {"1000000": 12}
    kinds = list(CageMovement.objects.order_by("pk").values_list("kind", "reference"))
    assert kinds == [
        ("marker_issue", f"marker {a.label}"),
        ("marker_issue", f"marker {b.label}"),
        ("marker_payment", f"marker payment {cash.pk}"),
        ("marker_payment", f"marker payment {chips.pk}"),
        ("marker_payment", f"marker payment {cash.reversed_by.pk}"),
    ]


def test_a_marker_at_the_cage_gives_the_chips_counted_out(floor, cashier, member):
    venue = floor.venue
    _notes(venue)
    marker_issue_at_cage(
        venue=venue,
        player=member,
        user=cashier,
        supervisor=floor.supervisor,
        amount=D("1500000"),
        player_signed=True,
        chips={"100000": 15},
    )
    assert cage_inventory(venue)["chips"] == {"100000": -15}
    with pytest.raises(InvalidInput) as odd:
        marker_issue_at_cage(
            venue=venue,
            player=member,
            user=cashier,
            supervisor=floor.supervisor,
            amount=D("1500000"),
            player_signed=True,
            chips={"100000": 14},
        )
    assert odd.value.field == "chips"
    assert outstanding(member) == D("1500000")  # the refused marker was not issued


def test_a_venue_whose_cage_counts_no_notes_keeps_markers_off_the_book(floor, cashier, member):
    marker = marker_issue_at_cage(
        venue=floor.venue,
        player=member,
        user=cashier,
        supervisor=floor.supervisor,
        amount=D("2000000"),
        player_signed=True,
    )
    marker_pay(marker=marker, user=cashier, amount="2000000", method="cash")
    assert outstanding(member) == 0
    assert not CageMovement.objects.exists()
