"""In the browser: a whole cage shift, each step through the screen a person at the venue uses,
each person in a browser of their own (the cashier, a manager, the table's dealer and its
supervisor); the venue speaks English.

The venue (VND) counts bank notes of 500,000 / 200,000 / 100,000 and the chips its table NN1
plays (1,000,000 / 100,000 / 10,000 / 1,000). Worked by hand, pieces the cage holds:

    step                                     notes 500k 200k 100k   chips 1M 100k  10k
    opening count (cashier, signed by the            20   10   10          5   40   50
      manager): 10,000,000 + 2,000,000 + 1,000,000 = 13,000,000 in notes,
      5,000,000 + 4,000,000 + 500,000 = 9,500,000 in chips; 22,500,000 in all
    fill to NN1, 10 x 100k, issued at the cage                                 -10
      (its chips leave the cage: -1,000,000)
    chip purchase at the window: 20 x 100k out,       +4                       -20
      4 x 500k in (2,000,000 each way: +0)
    chip redemption at the window: 1 x 1M in,              -5              +1
      5 x 200k out (1,000,000 each way: +0)
    marker M of 3,000,000 issued at NN1                 (the tray's chips: nothing at the cage)
    marker M paid at the cage in cash: 3,000,000     +6
      in the fewest notes = 6 x 500k (+3,000,000)
    front money deposit of 2,700,000 at the window:  +5   +1
      the fewest notes = 5 x 500k + 1 x 200k (+2,700,000)
    front money draw of 1,000,000 at NN1                (the tray's chips: nothing at the cage)
    expected at the close                            35    6   10          6   10   50
      notes 17,500,000 + 1,200,000 + 1,000,000 = 19,700,000; chips 6,000,000 + 1,000,000
      + 500,000 = 7,500,000; in all 27,200,000
      (= 22,500,000 - 1,000,000 + 3,000,000 + 2,700,000)
    counted at the close                             35    6    9          6   10   50
      = 27,100,000
    over/short: one 100,000 note short = -100,000 (a reason, and an investigation)

The shift report's columns are the movements in the order they were recorded: Fill, Chip
purchase, Chip redemption, Marker issued (a column of zeros: the marker issued at the table
moves no piece of the cage), Marker payment, Front money deposit.
"""

from __future__ import annotations

from decimal import Decimal as D

import pytest
from playwright.sync_api import expect

from casino.cage.models import CageCount, CageShift, Marker, Slip
from casino.cage.services.credit_lines import credit_line_approve, credit_line_propose
from casino.floor.services.sessions import session_open
from casino.integrity.models import FluctuationInvestigation
from casino.staff.roles import CAGE, MANAGER
from tests.browser.conftest import PASSWORD, shot
from tests.factories import PlayerFactory, staff

pytestmark = pytest.mark.django_db(transaction=True)

NOTES = ("500000", "200000", "100000")
CHIPS = ("1000000", "100000", "10000", "1000")
OPENING = {
    "notes": {"500000": 20, "200000": 10, "100000": 10},
    "chips": {"1000000": 5, "100000": 40, "10000": 50},
}
FILL = {"100000": 10}
PURCHASE = {"chips": {"100000": 20}, "notes": {"500000": 4}}
REDEMPTION = {"chips": {"1000000": 1}, "notes": {"200000": 5}}
MARKER = D("3000000")
MARKER_NOTES = {"500000": 6}  # the fewest notes for 3,000,000
FRONT_MONEY = D("2700000")
FRONT_MONEY_NOTES = {"500000": 5, "200000": 1}  # the fewest notes for 2,700,000
DRAW = D("1000000")
#: Each report column's pieces in or out of the cage, by (instrument, denomination).
MOVED = {
    "Fill": {("chips", d): -n for d, n in FILL.items()},
    "Chip purchase": {
        **{("chips", d): -n for d, n in PURCHASE["chips"].items()},
        **{("notes", d): n for d, n in PURCHASE["notes"].items()},
    },
    "Chip redemption": {
        **{("chips", d): n for d, n in REDEMPTION["chips"].items()},
        **{("notes", d): -n for d, n in REDEMPTION["notes"].items()},
    },
    "Marker issued": {},
    "Marker payment": {("notes", d): n for d, n in MARKER_NOTES.items()},
    "Front money deposit": {("notes", d): n for d, n in FRONT_MONEY_NOTES.items()},
}
EXPECTED = {
    "notes": {"500000": 35, "200000": 6, "100000": 10},
    "chips": {"1000000": 6, "100000": 10, "10000": 50},
}
COUNTED = {
    "notes": {"500000": 35, "200000": 6, "100000": 9},
    "chips": {"1000000": 6, "100000": 10, "10000": 50},
}
OPENING_VALUE, EXPECTED_VALUE, COUNTED_VALUE = D("22500000"), D("27200000"), D("27100000")
SHORT = D("-100000")
REASON = "one 100,000 note short: paid out twice at the window"
INSTRUMENTS = {"notes": "Bank notes", "chips": "Chips"}


def _value(holding):
    return sum((D(d) * n for pieces in holding.values() for d, n in pieces.items()), D(0))


def _shown(amount) -> str:
    """An amount or a count as the venue writes it (VND, grouped by commas)."""
    return f"{int(amount):,}"


def test_the_header_adds_up():
    """The constants above are the header's figures: the opening and each movement give the
    expected inventory, the count is one 100,000 note short of it."""
    for instrument, pieces in EXPECTED.items():
        for denomination, number in pieces.items():
            moved = sum(m.get((instrument, denomination), 0) for m in MOVED.values())
            assert OPENING[instrument].get(denomination, 0) + moved == number
    assert (_value(OPENING), _value(EXPECTED), _value(COUNTED)) == (
        OPENING_VALUE,
        EXPECTED_VALUE,
        COUNTED_VALUE,
    )
    assert COUNTED_VALUE - EXPECTED_VALUE == SHORT == -D(NOTES[2])
    assert _value({"n": MARKER_NOTES}) == MARKER and _value({"n": FRONT_MONEY_NOTES}) == FRONT_MONEY


@pytest.fixture
def cage_floor(floor):
    """The venue's notes listed, speaking English; its cashier; a member with a credit line
    of 5,000,000 (proposed by a manager, approved by a second); NN1's session open."""
    venue = floor.venue
    venue.language = "en"
    venue.note_denominations = list(NOTES)
    venue.save(update_fields=["language", "note_denominations"])
    assert tuple(floor.table.chip_denominations) == CHIPS
    staff("cashier", CAGE, venue)
    player = PlayerFactory(venue=venue, membership_number="VIP-8", name="Pham Van C")
    line = credit_line_propose(venue=venue, player=player, user=floor.manager, limit="5000000")
    credit_line_approve(line=line, user=staff("approver", MANAGER, venue))
    floor.session = session_open(
        table=floor.table,
        counted_by=floor.dealer,
        confirmed_by=floor.supervisor,
        opening_chips={"1000000": 10, "100000": 50},
    )
    floor.player = player
    return floor


def _count(screen, region_name: str, holding, reason: str = "") -> None:
    """Type a count into the inventory screen's count form and record it."""
    form = screen.get_by_role("region", name=region_name)
    _count_into(form, holding)
    if reason:
        form.get_by_label("Reason for a difference").fill(reason)
    form.get_by_role("button", name="Record the count").click()
    expect(screen.get_by_role("status")).to_have_text("Counted: a second person signs the count.")


def _sign(screen, inventory: str, closes: bool) -> None:
    screen.goto(inventory)
    waiting = screen.get_by_role("region", name="A count waits for its second signature")
    waiting.get_by_role("button", name="Sign the count as the second person").click()
    done = "closed" if closes else "open"
    expect(screen.get_by_role("status")).to_have_text(f"Signed: the cage shift is {done}.")


def _fill(cashier, dealer, supervisor, floor) -> Slip:
    """NN1 asks for a fill of 10 x 100,000; the cashier issues it; the table signs for it."""
    slips = f"/console/sessions/{floor.session.pk}/slips/"
    dealer.goto(f"/console/sessions/{floor.session.pk}/")
    dealer.get_by_role("link", name="Fills and credits").click()
    dealer.get_by_label(_shown("100000"), exact=True).fill(str(FILL["100000"]))
    dealer.get_by_role("button", name="Send request").click()
    dealer.get_by_role("status").wait_for()
    slip = Slip.objects.get(session=floor.session)
    assert (
        f"Fill {slip.label} requested for 1,000,000." in dealer.get_by_role("status").inner_text()
    )

    cashier.goto(f"/console/cage/{floor.venue.pk}/")
    waiting = cashier.get_by_role("region", name="Requests waiting to be issued")
    row = waiting.get_by_role("row", name=f"Fill {slip.label} for table NN1")
    row.get_by_label(f"Runner of slip {slip.label}").fill("Minh")
    row.get_by_role("button", name=f"Issue slip {slip.label}").click()
    expect(cashier.get_by_role("status")).to_contain_text(f"Fill {slip.label}")

    dealer.goto(slips)
    dealer.get_by_role("button", name=f"Confirm receipt of slip {slip.label} as dealer").click()
    dealer.get_by_role("status").wait_for()
    supervisor.goto(slips)
    supervisor.get_by_role(
        "button", name=f"Confirm receipt of slip {slip.label} as supervisor"
    ).click()
    supervisor.get_by_role("status").wait_for()
    slip.refresh_from_db()
    assert (slip.status, slip.issued_by.username, slip.runner) == ("verified", "cashier", "Minh")
    return slip


def _window(cashier, inventory: str) -> None:
    """A chip purchase, then a chip redemption, at the cage window."""
    cashier.goto(inventory)
    for move, button in (
        (PURCHASE, "Chip purchase: chips out, notes in"),
        (REDEMPTION, "Chip redemption: chips in, notes out"),
    ):
        window = cashier.get_by_role("region", name="Chips bought or cashed in at the window")
        _count_into(window, move)
        window.get_by_role("button", name=button).click()
        kind = button.split(":")[0]
        expect(cashier.get_by_role("status")).to_have_text(f"{kind} entered in the cage book.")


def _count_into(form, holding) -> None:
    for instrument, pieces in holding.items():
        for denomination, number in pieces.items():
            label = f"Number of {_shown(denomination)} {INSTRUMENTS[instrument]}"
            form.get_by_label(label, exact=True).fill(str(number))


def _marker(cashier, dealer, floor) -> Marker:
    """A marker issued at NN1 (the player and a supervisor sign), paid at the cage in cash."""
    dealer.goto(f"/console/sessions/{floor.session.pk}/")
    dealer.get_by_role("link", name="Markers").click()
    form = dealer.get_by_role("form", name="Issue a marker")
    form.get_by_label("Membership number").fill("VIP-8")
    form.get_by_label("Amount (VND)").fill(_shown(MARKER))
    form.get_by_label("The player has signed the marker").check()
    form.get_by_label("Username").fill("supervisor")
    form.get_by_label("Password").fill(PASSWORD)
    form.get_by_role("button", name="Issue the marker").click()
    dealer.get_by_role("status").wait_for()
    marker = Marker.objects.get()
    assert (
        f"Marker {marker.label} of 3,000,000 issued to Pham Van C"
        in dealer.get_by_role("status").inner_text()
    )
    listed = dealer.get_by_role("region", name="Markers of this session")
    assert "3,000,000" in listed.get_by_role("row", name="VIP-8 Pham Van C").inner_text()

    cashier.goto(f"/console/cage/{floor.venue.pk}/")
    cashier.get_by_role("link", name="Markers").click()
    cashier.get_by_label("Membership number").fill("VIP-8")
    cashier.get_by_role("button", name="Show").click()
    figures = cashier.get_by_role("region", name="VIP-8 Pham Van C").get_by_role("definition")
    expect(figures).to_have_text(["5,000,000", "3,000,000", "2,000,000"])  # limit, owed, left
    row = cashier.get_by_role("region", name="Markers", exact=True).get_by_role(
        "row", name=marker.label
    )
    row.get_by_label("Amount paid").fill(_shown(MARKER))
    row.get_by_label("Paid in").select_option(label="Cash")
    row.get_by_role("button", name="Take the payment").click()
    expect(cashier.get_by_role("status")).to_have_text(
        f"Payment of 3,000,000 (Cash) of marker {marker.label} taken."
    )
    paid = cashier.get_by_role("region", name="Markers", exact=True).get_by_role(
        "row", name=marker.label
    )
    expect(paid.get_by_role("cell").last).to_have_text("Paid")
    figures = cashier.get_by_role("region", name="VIP-8 Pham Van C").get_by_role("definition")
    expect(figures).to_have_text(["5,000,000", "0", "5,000,000"])  # limit, owed, available
    return marker


def _front_money(cashier, dealer, floor) -> None:
    """2,700,000 deposited at the cage window, 1,000,000 drawn at NN1."""
    cashier.goto(f"/console/cage/{floor.venue.pk}/")
    cashier.get_by_role("link", name="Front money").click()
    cashier.get_by_label("Membership number").fill("VIP-8")
    cashier.get_by_role("button", name="Show").click()
    form = cashier.get_by_role("form", name="Deposit or return front money")
    form.get_by_label("Amount (VND)").fill(_shown(FRONT_MONEY))
    form.get_by_role("button", name="Deposit").click()
    notice = cashier.get_by_role("status").filter(has_text="recorded for Pham Van C")
    expect(notice).to_contain_text(f"of {_shown(FRONT_MONEY)} recorded")
    balance = cashier.get_by_role("status", name="Front money balance")
    expect(balance).to_have_text(f"Balance: {_shown(FRONT_MONEY)}")

    dealer.goto(f"/console/sessions/{floor.session.pk}/")
    dealer.get_by_role("link", name="Front money").click()
    form = dealer.get_by_role("form", name="Chips against front money")
    form.get_by_label("Membership number").fill("VIP-8")
    form.get_by_label("Amount (VND)").fill(_shown(DRAW))
    form.get_by_role("button", name="Draw").click()
    expect(dealer.get_by_role("status").filter(has_text="drew")).to_have_text(
        f"Pham Van C drew {_shown(DRAW)} of chips against their front money."
    )
    balance = dealer.get_by_role("status", name="Front money balance")
    expect(balance).to_have_text(f"Balance: {_shown(FRONT_MONEY - DRAW)}")


def _report_table(screen):
    """The shift report's inventory table as read: each line by (instrument, denomination)
    with its figures by column, and the totals by their row's name."""
    table = screen.get_by_role("table", name="Inventory by denomination")
    headers = table.get_by_role("columnheader").all_inner_texts()
    lines, totals = {}, {}
    for row in table.get_by_role("row").all():
        named = row.get_by_role("rowheader").all_inner_texts()
        cells = row.get_by_role("cell").all_inner_texts()
        if len(named) == 1 and len(cells) == len(headers) - 1:
            figures = dict(zip(headers[2:], cells[1:], strict=True))
            lines[(cells[0], named[0])] = figures
        elif len(named) == 1 and len(cells) == 1:
            totals[named[0]] = cells[0]
    return headers, lines, totals


def _expected_line(instrument: str, denomination: str) -> dict[str, str]:
    opened = OPENING[instrument].get(denomination, 0)
    expected, counted = EXPECTED[instrument][denomination], COUNTED[instrument][denomination]
    return {
        "At the opening count": _shown(opened),
        **{kind: _shown(m.get((instrument, denomination), 0)) for kind, m in MOVED.items()},
        "Expected": _shown(expected),
        "Counted": _shown(counted),
        "Over/short": _shown(counted - expected),
        "Over/short value": _shown((counted - expected) * D(denomination)),
    }


def test_a_cage_shift_from_its_opening_count_to_its_report(person, cage_floor):
    floor = cage_floor
    inventory = f"/console/cage/{floor.venue.pk}/inventory/"
    cashier, manager = person("cashier"), person("floor-manager")
    dealer, supervisor = person("dealer"), person("supervisor")

    # 1. the opening count, by the cashier, signed by the manager
    cashier.goto(inventory)
    _count(cashier, "Count the cage to open a shift", OPENING)
    _sign(manager, inventory, closes=False)

    # 2.-5. the shift's movements, each at its screen
    _fill(cashier, dealer, supervisor, floor)
    _window(cashier, inventory)
    _marker(cashier, dealer, floor)
    _front_money(cashier, dealer, floor)

    # 6. the closing count, one 100,000 note short, with its reason; the manager signs
    cashier.goto(inventory)
    closing = cashier.get_by_role("region", name="Count the cage to close the shift")
    expect(closing).to_contain_text(f"The cage should hold {_shown(EXPECTED_VALUE)}.")
    _count(cashier, "Count the cage to close the shift", COUNTED, REASON)
    waiting = cashier.get_by_role("region", name="A count waits for its second signature")
    expect(waiting).to_contain_text(
        f"It differs from what the cage should hold by {_shown(SHORT)}. Reason: {REASON}"
    )
    _sign(manager, inventory, closes=True)
    shot(manager, "cage-shift-closed")

    # the shift report, from the inventory screen's link
    manager.get_by_role("link", name="Cage shift reports").click()
    shift = CageShift.objects.get()
    shifts = manager.get_by_role("table", name="Cage shifts")
    shifts.get_by_role("link", name=shift.gaming_date.isoformat()).click()
    headers, lines, totals = _report_table(manager)
    assert headers[3:-4] == list(MOVED)
    assert set(lines) == {
        (INSTRUMENTS[instrument], _shown(denomination))
        for instrument, pieces in EXPECTED.items()
        for denomination in pieces
    }
    for instrument, pieces in EXPECTED.items():
        for denomination in pieces:
            shown = lines[(INSTRUMENTS[instrument], _shown(denomination))]
            assert shown == _expected_line(instrument, denomination), (instrument, denomination)
    assert totals == {
        "At the opening count": _shown(OPENING_VALUE),
        "Expected": _shown(EXPECTED_VALUE),
        "Counted": _shown(COUNTED_VALUE),
        "Over/short": _shown(SHORT),
    }
    counts = manager.get_by_role("definition").all_inner_texts()
    assert counts == [
        "counted by cashier, signed by floor-manager",
        f"counted by cashier, signed by floor-manager: {REASON}",
    ]
    shot(manager, "cage-shift-report")

    # the investigation the imbalance opened, on the investigations' screen
    (investigation,) = FluctuationInvestigation.objects.all()
    count = CageCount.objects.get(kind="closing")
    assert investigation.cage_count == count and count.difference_value == SHORT
    manager.goto(f"/reports/investigations/?venue={floor.venue.code}")
    listed = manager.get_by_role("table", name="1 investigation")
    row = listed.get_by_role("row", name=f"#{investigation.pk}")
    label = f"Cage closing count of {shift.gaming_date.isoformat()}"
    assert label in row.inner_text() and "Open" in row.inner_text()
    row.get_by_role("link", name=f"#{investigation.pk}").click()
    expect(manager.get_by_role("heading", level=1)).to_have_text(
        f"Investigation {investigation.pk}: {label}"
    )
    counted = manager.get_by_role("region", name="The cage count that differs from the cage's book")
    expect(counted.get_by_role("definition")).to_have_text([_shown(SHORT), REASON])
    expect(counted).to_contain_text("counted by cashier, signed by floor-manager")
    shot(manager, "cage-shift-investigation")
