"""In the browser: a fill from the dealer's request to a close that counts it.

The dealer requests a fill; the cage's cashier finds it on the cage's screen and issues it
to a runner (a dealer's forged Issue is refused); the dealer and a supervisor each confirm
receipt at the table, which posts it; then the table closes:
first with a count off the ledger and no reason, refused with the count still on screen,
then with the reason. Each person works in their own browser; the venue speaks Vietnamese.
"""

from __future__ import annotations

import re
from decimal import Decimal as D

import pytest

from casino.audit.models import AuditEvent
from casino.cage.models import Slip
from casino.floor.models import TableSession
from casino.floor.services.sessions import session_open
from casino.ledger.models import LedgerEntry
from casino.staff.roles import CAGE
from tests.browser.conftest import forged_post, log_in, shot
from tests.factories import staff

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_fill_goes_through_the_cage_to_the_table_and_the_table_closes(page, person, floor):
    staff("cashier", CAGE, floor.venue)
    session = session_open(
        table=floor.table,
        counted_by=floor.dealer,
        confirmed_by=floor.supervisor,
        opening_chips={"100000": 50},
    )
    slips = f"/console/sessions/{session.pk}/slips/"

    # the dealer requests a fill of 1,000,000
    log_in(page, "dealer")
    page.goto(slips)
    page.fill("#chips-100000", "10")
    page.get_by_role("button", name="Gửi yêu cầu").click()
    page.get_by_role("status").wait_for()
    slip = Slip.objects.get(session=session)
    listing = page.get_by_role("region", name="Các phiếu của phiên này")
    assert slip.label in listing.text_content()
    assert "Tại quầy thu ngân: đang chờ xuất." in listing.text_content()
    # ... and is offered nothing to sign yet; a forged issue is refused
    assert listing.get_by_role("button").count() == 0
    issue_url = f"/console/cage/{floor.venue.pk}/slips/{slip.pk}/issue/"
    assert forged_post(page, issue_url) == 403
    shot(page, "23-slip-requested")

    # the cashier finds the request on the cage's screen and issues it to a runner
    cashier = person("cashier")
    cashier.get_by_role("link", name=f"Quầy thu ngân của {floor.venue.name}").click()
    waiting = cashier.get_by_role("region", name="Yêu cầu đang chờ xuất")
    row = waiting.get_by_role("row", name=f"Bổ sung phỉnh {slip.label} cho bàn NN1")
    assert "100,000 × 10 = 1,000,000" in row.text_content()
    row.get_by_label(f"Người vận chuyển phiếu {slip.label}").fill("Minh")
    row.get_by_role("button", name=f"Xuất phiếu {slip.label}").click()
    notice = cashier.get_by_role("status")
    notice.wait_for()
    assert f"Đã xuất Bổ sung phỉnh {slip.label}" in notice.text_content()
    out = cashier.get_by_role("region", name="Đã xuất: phỉnh đang chuyển hoặc đang được ký nhận")
    assert slip.label in out.text_content()
    shot(cashier, "24-slip-issued-at-the-cage")
    # the printable slip
    pdf = cashier.request.get(f"/console/slips/{slip.pk}/pdf/")
    assert pdf.ok and pdf.body().startswith(b"%PDF")

    # the chips arrive: the dealer confirms receipt ...
    page.goto(slips)
    page.get_by_role(
        "button", name=f"Xác nhận đã nhận phiếu {slip.label} với tư cách người chia bài"
    ).click()
    page.get_by_role("status").wait_for()
    assert LedgerEntry.objects.filter(slip=slip).count() == 0
    # ... and a supervisor, from their own login: posted
    supervisor = person("supervisor")
    supervisor.goto(slips)
    supervisor.get_by_role(
        "button", name=f"Xác nhận đã nhận phiếu {slip.label} với tư cách giám sát"
    ).click()
    supervisor.get_by_role("status").wait_for()
    slip.refresh_from_db()
    assert (slip.status, slip.issued_by.username, slip.runner) == ("verified", "cashier", "Minh")
    assert (slip.dealer_confirmed_by, slip.supervisor_confirmed_by) == (
        floor.dealer,
        floor.supervisor,
    )
    assert LedgerEntry.objects.filter(slip=slip).count() == 2
    shot(supervisor, "25-slip-received-at-the-table")

    # the cage sees it among the day's posted slips
    cashier.get_by_role("link", name="Làm mới các danh sách").click()
    done = cashier.get_by_role("region", name=re.compile("Đã ghi sổ và đã hủy"))
    assert slip.label in done.text_content()

    # the dealer closes: 6,000,000 expected in the tray, 5,900,000 counted
    page.goto(f"/console/sessions/{session.pk}/close/")
    assert page.get_by_text("Các phiếu chưa được xác nhận").count() == 0
    page.fill("#chips-1000000", "1")
    page.fill("#chips-100000", "49")
    assert page.text_content("[data-variance]") == "-100,000"
    page.fill("input[name=supervisor]", "supervisor")
    page.fill("input[name=password]", "pw-for-tests")
    page.get_by_role("button", name="Đóng bàn").click()
    # refused without a reason: what was typed, its total and its variance stay on screen
    page.get_by_role("alert").wait_for()
    assert "chênh -100,000 so với sổ cái" in page.get_by_role("alert").text_content()
    assert page.input_value("#chips-100000") == "49"
    assert page.text_content("[data-total]") == "5,900,000"
    assert page.text_content("[data-variance]") == "-100,000"
    shot(page, "26-close-needs-a-reason")
    assert TableSession.objects.get(pk=session.pk).status == "open"
    page.get_by_label("Lý do chênh lệch").fill("một phỉnh 100,000 trả nhầm")
    page.fill("input[name=supervisor]", "supervisor")
    page.fill("input[name=password]", "pw-for-tests")
    page.get_by_role("button", name="Đóng bàn").click()
    page.wait_for_selector("#summary")
    assert page.text_content("[data-figure=variance]") == "-100,000"
    session.refresh_from_db()
    assert (session.status, session.fills_total, session.variance) == (
        TableSession.Status.CLOSED,
        D("1000000"),
        D("-100000"),
    )
    event = AuditEvent.objects.get(action="session.close")
    assert event.after["variance_reason"] == "một phỉnh 100,000 trả nhầm"
