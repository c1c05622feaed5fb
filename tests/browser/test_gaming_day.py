"""A whole gaming day of one table in the browser, from the opener to the count.

The table closed yesterday with 50 x 100,000 in its tray. Today the dealer counts 49 and a
supervisor confirms: the difference needs a reason. A fill goes through the cage and is
signed for at the table, a credit is signed out at the table and received at the cage,
a slip requested by mistake is voided. One round is settled; players bought 1,000,000 of
chips with cash, which went into the drop box. The table closes, counted by the dealer
and confirmed by a supervisor; then two counters count its drop box, the first one a note
short, and the count is closed. Each step is refused first to the wrong role and to the
same person twice. The day's win and win/drop are checked against the figures worked out
by hand below. Every person works in their own browser, by the names the screens give
their controls and regions.
"""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal as D

import pytest
from django.utils import timezone

from casino.audit.models import AuditEvent
from casino.cage.models import Slip
from casino.count.models import BoxCount, CountDay, DropBox
from casino.floor.models import TableSession
from casino.floor.services.closing import session_close
from casino.floor.services.rounds import round_create
from casino.floor.services.sessions import session_open, shift_current
from casino.floor.services.settlement import round_settle
from casino.games import BoxInput
from casino.ledger.models import Drop, LedgerEntry
from casino.staff.roles import CAGE, COUNT
from tests.browser.conftest import PASSWORD, forged_post, log_in, shot
from tests.casino.api import NIU_8, NO_NIU
from tests.casino.days import end_gaming_day
from tests.factories import staff

pytestmark = pytest.mark.django_db(transaction=True)

# The day worked out by hand (amounts of the venue's currency).
OPENER = D("4900000")  # 49 x 100,000 counted; yesterday's closer was 50 x 100,000
FILL = D("1000000")  # 10 x 100,000 from the cage
CREDIT = D("500000")  # 5 x 100,000 back to the cage
HOUSE_WIN = D("100000")  # the round: a No Niu box's single of 100,000 lost to Niu 8
CASH = D("1000000")  # chips bought with cash: out of the tray, the notes into the drop box
CLOSER = OPENER + FILL - CREDIT + HOUSE_WIN - CASH  # 4,500,000 = 45 x 100,000
WIN = CLOSER - OPENER + CREDIT - FILL + CASH  # 100,000: the drop is the second count's
WIN_DROP = "10.00"  # WIN / CASH, in percent
HOLD = "100.00"  # the house's settled win over the handle (100,000 / 100,000)


def sign_as_supervisor(page, username: str) -> None:
    page.fill("input[name=supervisor]", username)
    page.fill("input[name=password]", PASSWORD)


def request_slip(page, session, kind: str, count: int) -> Slip:
    page.goto(f"/console/sessions/{session.pk}/slips/")
    page.get_by_label(kind, exact=True).check()
    page.fill("#chips-100000", str(count))
    page.get_by_role("button", name="Send request").click()
    page.get_by_role("status").wait_for()
    return Slip.objects.filter(session=session).latest("pk")


@pytest.fixture
def day(floor):
    """The floor's venue speaks English and counts by note; the table closed yesterday."""
    venue = floor.venue
    venue.language = "en"
    venue.note_denominations = ["500000", "100000"]
    venue.save()
    yesterday = shift_current(venue=venue, at=timezone.now() - timedelta(days=1))
    session = session_open(
        table=floor.table,
        counted_by=floor.dealer,
        confirmed_by=floor.supervisor,
        opening_chips={"100000": 50},
        shift=yesterday,
    )
    session_close(
        session=session,
        counted_by=floor.dealer,
        confirmed_by=floor.supervisor,
        closing_chips={"100000": 50},
    )
    staff("cashier", CAGE, venue)
    staff("counter", COUNT, venue)
    staff("counter2", COUNT, venue)
    return floor


@pytest.mark.slow
def test_a_whole_gaming_day_from_the_opener_to_the_count(page, person, day):
    floor = day
    venue = floor.venue

    # -- the opener: the dealer counts 49, a supervisor confirms --------------------------
    log_in(page, "dealer")
    page.goto(f"/console/tables/{floor.table.pk}/open/")
    row = page.locator("tr[data-row='100000']")
    assert row.locator("[data-expected-count]").text_content() == "50"
    page.fill("#chips-100000", "49")
    assert page.text_content("[data-difference-total]") == "-100,000"
    # the dealer cannot confirm their own count, nor can another dealer
    staff("dealer2", "dealer", venue)
    for confirmer, words in (
        ("dealer", "cannot also confirm the count"),
        ("dealer2", "is not a supervisor"),
    ):
        sign_as_supervisor(page, confirmer)
        page.get_by_label("Reason for the difference").fill("one chip sent to the cage")
        page.get_by_role("button", name="Open table").click()
        page.get_by_role("alert").filter(has_text=words).wait_for()
        assert not TableSession.objects.filter(status="open").exists()
    # a supervisor confirms; without a reason the difference is refused, with one it opens
    page.get_by_label("Reason for the difference").fill("")
    sign_as_supervisor(page, "supervisor")
    page.get_by_role("button", name="Open table").click()
    page.locator("#discrepancy-reason-error").wait_for()
    assert "-1 × 100,000 (-100,000)" in page.text_content("#discrepancy-reason-error")
    page.get_by_label("Reason for the difference").fill("one chip sent to the cage last night")
    sign_as_supervisor(page, "supervisor")
    page.get_by_role("button", name="Open table").click()
    page.locator("#opening-discrepancy").wait_for()
    assert "one chip sent to the cage last night" in page.text_content("#opening-discrepancy")
    session = TableSession.objects.get(status="open")
    assert (session.opening_total, session.opening_discrepancy) == (OPENER, {"100000": -1})
    assert (session.opened_by, session.opening_confirmed_by) == (floor.dealer, floor.supervisor)
    shot(page, "day-01-opened")

    # -- a fill: requested at the table, issued at the cage, signed for by two people ----
    fill = request_slip(page, session, "Fill", 10)
    # the dealer may not issue it: that is the cage's
    assert forged_post(page, f"/console/cage/{venue.pk}/slips/{fill.pk}/issue/") == 403
    cashier = person("cashier")
    cashier.goto(f"/console/cage/{venue.pk}/")
    waiting = cashier.get_by_role("region", name="Requests waiting to be issued")
    slip_row = waiting.get_by_role("row", name=f"Fill {fill.label} for table {floor.table.code}")
    slip_row.get_by_label(f"Runner of slip {fill.label}").fill("Minh")
    slip_row.get_by_role("button", name=f"Issue slip {fill.label}").click()
    cashier.get_by_role("status").wait_for()
    pdf = cashier.request.get(f"/console/slips/{fill.pk}/pdf/")
    assert pdf.ok and pdf.body().startswith(b"%PDF")
    # the cashier who issued it does not sign for it at the table
    slips_url = f"/console/sessions/{session.pk}/slips/"
    dealer_line = f"/console/sessions/{session.pk}/slips/{fill.pk}/confirm-dealer/"
    assert forged_post(cashier, dealer_line) in (403, 404)
    # a supervisor who signs the dealer's line is not offered the supervisor's too
    supervisor = person("supervisor")
    supervisor.goto(slips_url)
    supervisor.get_by_role("button", name=f"Confirm receipt of slip {fill.label} as dealer").click()
    supervisor.get_by_role("status").wait_for()
    assert (
        supervisor.get_by_role(
            "button", name=f"Confirm receipt of slip {fill.label} as supervisor"
        ).count()
        == 0
    )
    supervisor_line = f"/console/sessions/{session.pk}/slips/{fill.pk}/confirm-supervisor/"
    assert forged_post(supervisor, supervisor_line) == 403
    assert not LedgerEntry.objects.filter(slip=fill).exists()
    # a second supervisor signs: posted
    second = person("supervisor2")
    second.goto(slips_url)
    second.get_by_role("button", name=f"Confirm receipt of slip {fill.label} as supervisor").click()
    second.get_by_role("status").wait_for()
    fill.refresh_from_db()
    assert fill.status == "verified" and LedgerEntry.objects.filter(slip=fill).count() == 2
    shot(second, "day-02-fill-posted")

    # -- a credit: signed out at the table, received at the cage -------------------------
    credit = request_slip(page, session, "Credit", 5)
    cashier.goto(f"/console/cage/{venue.pk}/")
    slip_row = cashier.get_by_role(
        "row", name=f"Credit {credit.label} for table {floor.table.code}"
    )
    slip_row.get_by_label(f"Runner of slip {credit.label}").fill("Minh")
    slip_row.get_by_role("button", name=f"Issue slip {credit.label}").click()
    cashier.get_by_role("status").wait_for()
    page.goto(slips_url)
    page.get_by_role("button", name=f"Sign out slip {credit.label} as dealer").click()
    page.get_by_role("status").wait_for()
    # the cage receives only once both table lines are signed, and only the cage does
    receive = f"/console/cage/{venue.pk}/slips/{credit.pk}/receive/"
    assert forged_post(cashier, receive) == 409
    assert forged_post(page, receive) == 403
    supervisor.goto(slips_url)
    supervisor.get_by_role("button", name=f"Sign out slip {credit.label} as supervisor").click()
    supervisor.get_by_role("status").wait_for()
    cashier.goto(f"/console/cage/{venue.pk}/")
    cashier.get_by_role("button", name=f"Receive the chips of slip {credit.label}").click()
    cashier.get_by_role("status").wait_for()
    credit.refresh_from_db()
    assert credit.status == "verified" and credit.received_by.username == "cashier"

    # -- a slip requested by mistake, voided with its reason: its number stays ------------
    mistake = request_slip(page, session, "Fill", 3)
    void_url = f"/console/sessions/{session.pk}/slips/{mistake.pk}/void/"
    assert forged_post(page, void_url, {"reason": "not mine to void"}) == 403  # a dealer
    supervisor.goto(slips_url)
    supervisor.get_by_label(f"Reason for voiding slip {mistake.label}").fill("asked twice")
    supervisor.get_by_role("button", name=f"Void slip {mistake.label}").click()
    supervisor.get_by_role("status").wait_for()
    mistake.refresh_from_db()
    assert (mistake.status, mistake.void_reason) == ("void", "asked twice")
    assert [fill.number + 1, fill.number + 2] == [credit.number, mistake.number]
    report = cashier.request.get(
        f"/console/venues/{venue.pk}/slip-report/?day={session.shift.gaming_date.isoformat()}"
    )
    assert report.ok and mistake.label in report.text() and "asked twice" in report.text()

    # -- the round, settled through the services (the round screen has tests of its own) --
    round_, _result = round_create(
        session=session,
        user=floor.dealer,
        dealer_cards=NIU_8,
        boxes=[BoxInput(position=1, cards=NO_NIU, stakes={"single": D("100000")})],
    )
    round_settle(round_=round_, user=floor.dealer, key="day-round-1")

    # -- the closer: the dealer counts 45, a supervisor confirms ----------------------------
    page.goto(f"/console/sessions/{session.pk}/close/")
    page.fill("#chips-100000", "45")
    sign_as_supervisor(page, "dealer")  # the dealer does not confirm their own count
    page.get_by_label("Reason for the variance").fill("cash bought 1,000,000 of chips")
    page.get_by_role("button", name="Close table").click()
    page.get_by_role("alert").filter(has_text="dealer is not a supervisor").wait_for()
    assert TableSession.objects.get(pk=session.pk).status == "open"
    page.fill("#chips-100000", "45")
    page.get_by_label("Reason for the variance").fill("cash bought 1,000,000 of chips")
    sign_as_supervisor(page, "supervisor")
    page.get_by_role("button", name="Close table").click()
    page.wait_for_selector("#summary")
    session.refresh_from_db()
    assert (session.status, session.closing_total) == ("closed", CLOSER)
    assert (session.closing_counted_by, session.closed_by) == (floor.dealer, floor.supervisor)
    assert (session.fills_total, session.credits_total) == (FILL, CREDIT)
    assert session.win_by_ledger == HOUSE_WIN
    assert session.variance == CLOSER - OPENER + CREDIT - FILL - HOUSE_WIN  # the cash's
    shot(page, "day-03-closed")

    # -- the count: a supervisor may not count, two counters do, the second disagrees -----
    box = DropBox.objects.get(box_sessions__session=session)
    date = box.gaming_date.isoformat()
    assert box.gaming_date == session.shift.gaming_date
    count_url = f"/console/count/{venue.pk}/{date}/"
    assert supervisor.goto(count_url).status == 403
    first = person("counter")
    first.goto(count_url)
    first.get_by_role("region", name=f"Drop boxes of {date}").get_by_role(
        "link", name=f"Count box {box.label}"
    ).click()
    form = first.get_by_role("region", name=f"First count of box {box.label}")
    form.get_by_label("Notes of 500,000").fill("1")
    form.get_by_label("Notes of 100,000").fill("4")  # one note short
    form.get_by_role("button", name="Record the first count").click()
    boxes = first.get_by_role("region", name=f"Drop boxes of {date}")
    boxes.get_by_role("status").filter(has_text="First count of box").wait_for()
    # the first counter is not offered the second count, and a forged one is refused
    assert boxes.get_by_role("link", name=f"Count box {box.label}").count() == 0
    box_url = f"/console/count/{venue.pk}/{date}/boxes/{box.pk}/"
    assert forged_post(first, box_url, {"notes-500000": "1", "notes-100000": "5"}) == 403
    assert BoxCount.objects.filter(box=box).count() == 1

    counter2 = person("counter2")
    counter2.goto(count_url)
    counter2.get_by_role("link", name=f"Count box {box.label}").click()
    form = counter2.get_by_role("region", name=f"Second count of box {box.label}")
    form.get_by_label("Notes of 500,000").fill("1")
    form.get_by_label("Notes of 100,000").fill("5")
    form.get_by_role("button", name="Record the second count").click()
    differences = counter2.get_by_role("region", name="Difference from the first count")
    assert "+100,000" in differences.inner_text()
    counter2.get_by_label("Reason for a difference from the first count").fill(
        "a note folded inside another"
    )
    counter2.get_by_role("button", name="Record the second count").click()
    boxes = counter2.get_by_role("region", name=f"Drop boxes of {date}")
    boxes.get_by_role("status").filter(has_text="posted as its drop").wait_for()
    assert Drop.objects.get(drop_box=box).amount == CASH
    second_count = BoxCount.objects.get(box=box, ordinal=2)
    assert second_count.reason == "a note folded inside another"
    close_count = f"/console/count/{venue.pk}/{date}/close/"
    supervisor.goto(slips_url)  # a page of theirs, with its CSRF token
    assert forged_post(supervisor, close_count) == 403  # the pit does not close the count
    end_gaming_day(box.venue, box.gaming_date)
    boxes.get_by_role("button", name="Close the count").click()
    confirm = counter2.get_by_role("group", name="Confirm the close of the count")
    confirm.get_by_label("Second counter").fill("counter")
    confirm.get_by_label("Password").fill(PASSWORD)
    confirm.get_by_role("button", name="Confirm and close the count").click()
    counter2.get_by_role("status", name="State of the count").filter(
        has_text="The count is closed"
    ).wait_for()
    assert CountDay.objects.get(venue=venue, gaming_date=box.gaming_date).status == "closed"
    shot(counter2, "day-04-count-closed")

    # -- the day's win, as worked out above ------------------------------------------------
    counter2.get_by_role("link", name="Win per table of this day").click()
    figures = counter2.get_by_role("region", name=f"Win per table, {date}")
    line = figures.get_by_role("row").filter(has_text=floor.table.code).first.inner_text()
    for amount in ("4,900,000", "4,500,000", "500,000", "1,000,000", f"+{WIN:,.0f}"):
        assert amount in line, (amount, line)
    assert f"{HOLD}%" in line and f"{WIN_DROP}%" in line
    assert WIN == HOUSE_WIN  # the count's drop closes the gap the cash left in the tray
    # nothing was lost: every money movement of the day balances
    entries = LedgerEntry.objects.filter(session=session)
    assert sum(entry.amount for entry in entries) == 0
    opened = AuditEvent.objects.filter(action="session.open").latest("pk")
    assert opened.after["discrepancy_reason"] == "one chip sent to the cage last night"
