"""The cage's inventory by denomination (casino.cage.services.inventory): a shift opened and
closed by counts signed by two people, the window's purchases and redemptions, the vault,
fills and credits, each moving the inventory and the cage book; an imbalance needs a reason
and opens an investigation; the chip liability.

Worked by hand (venue in VND; notes 500,000 / 200,000 / 100,000; the table's chips
1,000,000 / 100,000 / 10,000 / 1,000):

    step                                   notes 500k 200k   chips 1M 100k 10k     value
    first opening count (opening balance)         20   10          5   40   50  21,500,000
    chip purchase: 4 x 500k for 20 x 100k         +4              -20           +0
    fill NN1: 10 x 100k (issued at the cage)                        -10     -1,000,000
    credit NN1: 20 x 10k (received)                                     +20   +200,000
    chip redemption: 1 x 1M for 5 x 200k              -5      +1                 +0
    to the vault: 10 x 500k                      -10                         -5,000,000
    from the vault: 5 x 100k                                         +5       +500,000
    expected at the close                         14    5          6   15   70  16,200,000
      = notes 14 x 500k + 5 x 200k = 8,000,000; chips 6 x 1M + 15 x 100k + 70 x 10k
        = 8,200,000
    counted at the close                          14    4          6   15   71  16,010,000
    over/short: -1 x 200k + 1 x 10k = -190,000 (a reason, and an investigation)

The chip liability after NN1 closes (opened with 50 x 100k and 30 x 10k, closed with
45 x 100k and 10 x 10k):
    window (patrons' chips in the book): +20 x 100k (bought), -1 x 1M (redeemed)
    NN1: opening + fills - credits - closing = 100k: 50 + 10 - 45 = +15;
         10k: 30 - 20 - 10 = 0
    outstanding: 1M: -1 (-1,000,000: a chip the book never saw go out, from before it
    began); 100k: 35 (3,500,000); total 2,500,000.
"""

from __future__ import annotations

from decimal import Decimal as D

import pytest
from django.db import DatabaseError, connection, transaction
from django.urls import reverse

from casino.audit.models import AuditAction, AuditEvent
from casino.cage.inventory_selectors import cage_inventory, cage_shift_report, chip_liability
from casino.cage.models import (
    CageAccount,
    CageCount,
    CageLine,
    CageMovement,
    CageShift,
    Instrument,
    MovementKind,
    Slip,
)
from casino.cage.services.cage_book import Line, cage_move
from casino.cage.services.inventory import (
    cage_count_record,
    cage_count_sign,
    chip_purchase,
    chip_redemption,
    vault_transfer,
)
from casino.cage.services.slips import (
    slip_confirm_dealer,
    slip_confirm_supervisor,
    slip_issue,
    slip_receive,
    slip_request,
    slip_void,
)
from casino.floor.services.closing import session_close
from casino.floor.services.sessions import session_open
from casino.integrity.models import FluctuationInvestigation
from casino.kernel.errors import Conflict, Forbidden, InvalidInput
from tests.casino.slips import slip_post

pytestmark = pytest.mark.django_db

OPENING = {
    "notes": {"500000": 20, "200000": 10},
    "chips": {"1000000": 5, "100000": 40, "10000": 50},
}
EXPECTED_AT_CLOSE = {
    "notes": {"500000": 14, "200000": 5},
    "chips": {"1000000": 6, "100000": 15, "10000": 70},
}


@pytest.fixture
def venue(floor):
    venue = floor.venue
    venue.note_denominations = ["500000", "200000", "100000"]
    venue.save(update_fields=["note_denominations"])
    return venue


def _open_shift(venue, counter, signer, counted=OPENING, reason=""):
    count = cage_count_record(
        venue=venue, user=counter, kind="opening", counted=counted, reason=reason
    )
    return cage_count_sign(count=count, user=signer)


def _table_session(floor):
    return session_open(
        table=floor.table,
        counted_by=floor.dealer,
        confirmed_by=floor.supervisor,
        opening_chips={"100000": 50, "10000": 30},
    )


def test_a_shift_from_its_opening_count_to_its_closing_count(floor, venue, cashier):
    # given: the cage's first count, by the cashier, signed by a manager
    opening = _open_shift(venue, cashier, floor.manager)
    shift = CageShift.objects.get()
    assert opening.first and opening.shift == shift and shift.status == CageShift.Status.OPEN
    assert opening.movement.kind == MovementKind.OPENING_BALANCE
    assert cage_inventory(venue) == OPENING
    session = _table_session(floor)

    # when: the window, a fill, a credit and the vault
    chip_purchase(venue=venue, user=cashier, chips={"100000": 20}, notes={"500000": 4})
    fill = slip_request(session=session, user=floor.dealer, kind="fill", chips={"100000": 10})
    slip_post(fill, dealer=floor.dealer, supervisor=floor.supervisor, cashier=cashier)
    credit = slip_request(session=session, user=floor.dealer, kind="credit", chips={"10000": 20})
    slip_post(credit, dealer=floor.dealer, supervisor=floor.supervisor, cashier=cashier)
    chip_redemption(venue=venue, user=cashier, chips={"1000000": 1}, notes={"200000": 5})
    vault_transfer(venue=venue, user=cashier, kind="to_vault", moved={"notes": {"500000": 10}})
    vault_transfer(venue=venue, user=cashier, kind="from_vault", moved={"chips": {"100000": 5}})

    # then: the book expects what the hand-worked table says
    assert cage_inventory(venue) == EXPECTED_AT_CLOSE

    # when: the closing count is one 200k note short and one 10k chip over
    counted = {
        "notes": {"500000": 14, "200000": 4},
        "chips": {"1000000": 6, "100000": 15, "10000": 71},
    }
    with pytest.raises(InvalidInput) as refused:
        cage_count_record(venue=venue, user=cashier, kind="closing", counted=counted)
    assert refused.value.field == "reason"
    assert "-190,000" in refused.value.message
    closing = cage_count_record(
        venue=venue,
        user=cashier,
        kind="closing",
        counted=counted,
        reason="a 200k note paid twice at the window",
    )
    assert closing.difference == {"notes": {"200000": -1}, "chips": {"10000": 1}}
    assert closing.difference_value == D("-190000")
    closing = cage_count_sign(count=closing, user=floor.manager)

    # then: the shift is closed, the book holds what was counted, and integrity investigates
    shift.refresh_from_db()
    assert shift.status == CageShift.Status.CLOSED
    assert cage_inventory(venue) == counted
    adjustment = closing.movement
    assert adjustment.kind == MovementKind.COUNT_ADJUSTMENT
    over_short = sum(
        line.value for line in adjustment.lines.all() if line.account == CageAccount.OVER_SHORT
    )
    assert over_short == D("190000")  # the house's loss, posted against the cage's -190,000
    investigation = FluctuationInvestigation.objects.get(cage_count=closing)
    assert investigation.figures["difference_value"] == "-190000.00"
    assert investigation.figures["reason"] == "a 200k note paid twice at the window"

    # and: the shift's report
    report = cage_shift_report(shift=shift)
    assert report.totals == {
        "opening": D("21500000"),
        "expected": D("16200000"),
        "counted": D("16010000"),
        "difference": D("-190000"),
    }
    by_row = {(line.instrument, line.denomination): line for line in report.lines}
    hundred = by_row[("chips", "100000")]
    assert hundred.opening == 40 and hundred.expected == 15 and hundred.difference == 0
    assert hundred.moved == {"chip_purchase": -20, "fill": -10, "from_vault": 5}
    assert [m.kind for m in report.movements] == [
        "chip_purchase",
        "fill",
        "credit",
        "chip_redemption",
        "to_vault",
        "from_vault",
    ]

    # and: the chip liability once the table has closed
    session_close(
        session=session,
        counted_by=floor.dealer,
        confirmed_by=floor.supervisor,
        closing_chips={"100000": 45, "10000": 10},
        variance_reason="test",
    )
    liability = chip_liability(venue=venue)
    assert [(x.denomination, x.at_window, x.at_tables) for x in liability.lines] == [
        ("1000000", -1, 0),
        ("100000", 20, 15),
    ]
    assert liability.total == D("2500000") and liability.open_tables == 0

    # and: every write audited
    actions = list(AuditEvent.objects.values_list("action", flat=True))
    assert actions.count(AuditAction.CAGE_COUNT) == 2  # the refused count wrote nothing
    assert actions.count(AuditAction.CAGE_COUNT_SIGN) == 2
    assert actions.count(AuditAction.CAGE_MOVE) == 8


def test_a_count_is_signed_by_a_second_person_of_the_cage_or_a_manager(floor, venue, cashier):
    with pytest.raises(Forbidden):
        cage_count_record(venue=venue, user=floor.dealer, kind="opening", counted=OPENING)
    count = cage_count_record(venue=venue, user=cashier, kind="opening", counted=OPENING)
    with pytest.raises(Forbidden) as same:
        cage_count_sign(count=count, user=cashier)
    assert same.value.reason == "two_people"
    with pytest.raises(Forbidden):
        cage_count_sign(count=count, user=floor.supervisor)
    with pytest.raises(Forbidden):  # a manager of another venue
        cage_count_sign(count=count, user=floor.other_supervisor)
    cage_count_sign(count=count, user=floor.manager)
    with pytest.raises(Conflict):
        cage_count_sign(count=count, user=floor.manager)


def test_a_count_again_supersedes_the_one_waiting(floor, venue, cashier):
    first = cage_count_record(venue=venue, user=cashier, kind="opening", counted=OPENING)
    again = cage_count_record(venue=venue, user=floor.manager, kind="opening", counted=OPENING)
    first.refresh_from_db()
    assert first.status == CageCount.Status.SUPERSEDED
    with pytest.raises(Conflict):
        cage_count_sign(count=first, user=floor.manager)
    assert cage_count_sign(count=again, user=cashier).status == CageCount.Status.SIGNED


def test_the_shift_opens_once_and_closes_only_when_open(floor, venue, cashier):
    with pytest.raises(Conflict) as none:
        cage_count_record(venue=venue, user=cashier, kind="closing", counted=OPENING)
    assert none.value.reason == "no_shift"
    _open_shift(venue, cashier, floor.manager)
    with pytest.raises(Conflict) as twice:
        cage_count_record(venue=venue, user=cashier, kind="opening", counted=OPENING)
    assert twice.value.reason == "shift_open"


def test_a_count_is_signed_only_if_the_cage_has_not_moved(floor, venue, cashier):
    _open_shift(venue, cashier, floor.manager)
    closing = cage_count_record(venue=venue, user=cashier, kind="closing", counted=OPENING)
    chip_purchase(venue=venue, user=cashier, chips={"100000": 1}, notes={"100000": 1})
    with pytest.raises(Conflict) as moved:
        cage_count_sign(count=closing, user=floor.manager)
    assert moved.value.reason == "cage_moved"


def test_an_opening_count_that_differs_from_the_last_close_opens_an_investigation(
    floor, venue, cashier
):
    _open_shift(venue, cashier, floor.manager)
    closing = cage_count_record(venue=venue, user=cashier, kind="closing", counted=OPENING)
    cage_count_sign(count=closing, user=floor.manager)
    assert not FluctuationInvestigation.objects.exists()  # counted as expected
    short = {"notes": {"500000": 19, "200000": 10}, "chips": OPENING["chips"]}
    opening = _open_shift(venue, cashier, floor.manager, counted=short, reason="missing note")
    assert opening.difference_value == D("-500000")
    assert FluctuationInvestigation.objects.get().cage_count == opening


def test_the_window_and_the_vault_refuse_what_does_not_add_up(floor, venue, cashier):
    _open_shift(venue, cashier, floor.manager)
    with pytest.raises(InvalidInput) as unequal:
        chip_purchase(venue=venue, user=cashier, chips={"100000": 3}, notes={"100000": 2})
    assert unequal.value.reason == "exchange_unequal"
    with pytest.raises(InvalidInput) as unknown:
        chip_purchase(venue=venue, user=cashier, chips={"5000": 1}, notes={"100000": 1})
    assert unknown.value.field == "chips.chips.5000"
    with pytest.raises(Conflict) as lacking:  # the cage holds 5 chips of 1,000,000
        vault_transfer(venue=venue, user=cashier, kind="to_vault", moved={"chips": {"1000000": 6}})
    assert lacking.value.reason == "not_in_cage"
    with pytest.raises(Forbidden):
        chip_purchase(venue=venue, user=floor.manager, chips={"100000": 1}, notes={"100000": 1})
    assert CageMovement.objects.count() == 1  # the opening balance alone


def test_cage_move_refuses_unbalanced_lines(floor, venue, cashier):
    with pytest.raises(InvalidInput) as unbalanced:
        cage_move(
            venue=venue,
            user=cashier,
            kind=MovementKind.MARKER_ISSUE,
            lines=[
                Line(CageAccount.CAGE, Instrument.CHIPS, "100000", -2),
                Line(CageAccount.MARKERS, Instrument.VALUE, value=D("100000")),
            ],
        )
    assert unbalanced.value.reason == "unbalanced"
    with pytest.raises(InvalidInput):  # the cage holds pieces, not values
        cage_move(
            venue=venue,
            user=cashier,
            kind=MovementKind.FRONT_MONEY_DEPOSIT,
            lines=[
                Line(CageAccount.CAGE, Instrument.VALUE, value=D("100000")),
                Line(CageAccount.FRONT_MONEY, Instrument.VALUE, value=D("-100000")),
            ],
        )
    marker = cage_move(
        venue=venue,
        user=cashier,
        kind=MovementKind.MARKER_ISSUE,
        lines=[
            Line(CageAccount.CAGE, Instrument.CHIPS, "100000", -2),
            Line(CageAccount.PATRONS, Instrument.CHIPS, "100000", 2),
            Line(CageAccount.MARKERS, Instrument.VALUE, value=D("200000")),
            Line(CageAccount.PATRONS, Instrument.VALUE, value=D("-200000")),
        ],
        reference="M-1",
    )
    assert marker.lines.count() == 4


def test_fills_and_credits_move_the_cage(floor, venue, cashier):
    _open_shift(venue, cashier, floor.manager)
    session = _table_session(floor)
    fill = slip_request(session=session, user=floor.dealer, kind="fill", chips={"100000": 10})
    slip_issue(slip=fill, user=cashier, runner="runner")  # the chips leave the cage here
    assert cage_inventory(venue)["chips"]["100000"] == 30
    slip_void(slip=fill, user=cashier, reason="table closed early")  # and come back
    assert cage_inventory(venue)["chips"]["100000"] == 40
    credit = slip_request(session=session, user=floor.dealer, kind="credit", chips={"10000": 5})
    slip_issue(slip=credit, user=cashier, runner="runner")
    assert cage_inventory(venue)["chips"]["10000"] == 50  # not yet at the cage
    slip_confirm_dealer(slip=credit, user=floor.dealer)
    slip_confirm_supervisor(slip=credit, user=floor.supervisor)
    slip_receive(slip=credit, user=cashier)
    assert cage_inventory(venue)["chips"]["10000"] == 55
    movements = CageMovement.objects.filter(slip__isnull=False).order_by("id")
    assert [(m.kind, m.slip.kind) for m in movements] == [
        ("fill", Slip.Kind.FILL),
        ("fill", Slip.Kind.FILL),
        ("credit", Slip.Kind.CREDIT),
    ]
    assert all(m.shift.status == CageShift.Status.OPEN for m in movements)


def refused(sql: str, params=None) -> str:
    with pytest.raises(DatabaseError) as error, transaction.atomic(), connection.cursor() as c:
        c.execute("SET CONSTRAINTS ALL IMMEDIATE")
        c.execute(sql, params)
    return str(error.value)


def test_the_book_is_append_only_and_balanced_in_the_database(floor, venue, cashier):
    _open_shift(venue, cashier, floor.manager)
    line = CageLine.objects.first()
    assert "append-only" in refused(
        "UPDATE cage_cageline SET count = count + 1 WHERE id = %s", [line.pk]
    )
    assert "append-only" in refused("DELETE FROM cage_cagemovement")
    assert "not zero" in refused(
        "INSERT INTO cage_cageline (movement_id, account, instrument, currency, chip_set, "
        "denomination, count, value) VALUES (%s, 'cage', 'notes', 'VND', '', 100000, 1, 100000)",
        [line.movement_id],
    )


def test_the_shift_report_and_the_chip_liability_as_pages_and_csv(client, floor, venue, cashier):
    _open_shift(venue, cashier, floor.manager)
    chip_purchase(venue=venue, user=cashier, chips={"100000": 20}, notes={"500000": 4})
    closing = cage_count_record(
        venue=venue,
        user=cashier,
        kind="closing",
        counted={
            "notes": {"500000": 24, "200000": 10},
            "chips": {"1000000": 5, "100000": 20, "10000": 49},
        },
        reason="a 10k chip missing",
    )
    shift = cage_count_sign(count=closing, user=floor.manager).shift
    client.force_login(floor.auditor)
    listing = client.get(reverse("reports:cage_shifts") + f"?venue={venue.code}")
    assert listing.status_code == 200
    assert reverse("reports:cage_shift", args=[shift.pk]) in listing.content.decode()
    page = client.get(reverse("reports:cage_shift", args=[shift.pk]))
    text = page.content.decode()
    assert page.status_code == 200 and "a 10k chip missing" in text
    assert "21,500,000" in text and "-10,000" in text
    csv = client.get(reverse("reports:cage_shift_csv", args=[shift.pk]))
    lines = csv.content.decode("utf-8-sig").splitlines()
    assert csv.status_code == 200, lines
    assert any(line.endswith(",10000,50,0,50,49,-1,-10000") for line in lines)
    liability = client.get(reverse("reports:chip_liability") + f"?venue={venue.code}")
    assert liability.status_code == 200 and "2,000,000" in liability.content.decode()
    csv = client.get(reverse("reports:chip_liability_csv") + f"?venue={venue.code}")
    assert "100000,20,0,20,2000000" in csv.content.decode("utf-8-sig")
    client.force_login(floor.dealer)
    assert client.get(reverse("reports:cage_shift", args=[shift.pk])).status_code == 403


def test_the_cage_window_screens(client, floor, venue, cashier):
    url = reverse("console:cage-inventory", args=[venue.pk])
    client.force_login(cashier)
    screen = client.get(url)
    text = screen.content.decode()
    assert screen.status_code == 200
    assert 'aria-label="Number of 500,000 Bank notes"' in text or "count-notes-500000" in text
    # the cashier counts, the manager signs
    count = client.post(
        reverse("console:cage-count", args=[venue.pk]),
        {"kind": "opening", "notes-500000": "20", "chips-100000": "40"},
    )
    assert count.status_code == 200
    pending = CageCount.objects.get(status=CageCount.Status.PENDING)
    assert "Sign the count" not in count.content.decode()  # not by its counter
    client.force_login(floor.manager)
    signed = client.post(reverse("console:cage-count-sign", args=[venue.pk, pending.pk]))
    assert signed.status_code == 200 and CageShift.objects.filter(status="open").exists()
    # the window: a purchase; one that does not add up is shown again with why
    client.force_login(cashier)
    bought = client.post(
        reverse("console:cage-movement", args=[venue.pk, "purchase"]),
        {"notes-500000": "2", "chips-100000": "10"},
        HTTP_HX_REQUEST="true",
    )
    assert bought.status_code == 200 and 'id="cage-inventory"' in bought.content.decode()
    unequal = client.post(
        reverse("console:cage-movement", args=[venue.pk, "redemption"]),
        {"notes-500000": "1", "chips-100000": "10"},
    )
    assert unequal.status_code == 422 and 'role="alert"' in unequal.content.decode()
    to_vault = client.post(
        reverse("console:cage-movement", args=[venue.pk, "to-vault"]), {"notes-500000": "5"}
    )
    assert to_vault.status_code == 200
    assert cage_inventory(venue) == {"notes": {"500000": 17}, "chips": {"100000": 30}}
    # a count off the book without a reason is refused, with the reason asked
    closing = client.post(
        reverse("console:cage-count", args=[venue.pk]),
        {"kind": "closing", "notes-500000": "17", "chips-100000": "29"},
    )
    assert closing.status_code == 422
    client.force_login(floor.dealer)
    assert client.get(url).status_code == 403


def test_the_shift_report_reads_in_a_fixed_number_of_queries(
    floor, venue, cashier, django_assert_num_queries
):
    _open_shift(venue, cashier, floor.manager)
    for _ in range(5):
        chip_purchase(venue=venue, user=cashier, chips={"100000": 1}, notes={"100000": 1})
    shift = CageShift.objects.select_related("venue").get()
    # the counts, the movements with who recorded them, their lines, the venue's tables
    with django_assert_num_queries(4):
        report = cage_shift_report(shift=shift)
    assert len(report.movements) == 5
