"""In the browser: a close at a venue that writes amounts with points (1.000.000), as the
Hà Nội demo venue does: the count totalled, the drop typed and the variance written in the
venue's grouping, a drop in another grouping left out of the variance, and the close done.
The floor's venue speaks Vietnamese (tests/factories.py), so the console does too.
"""

from __future__ import annotations

from decimal import Decimal as D

import pytest

from casino.floor.models import TableSession
from casino.floor.services.sessions import session_open
from tests.browser.conftest import log_in, shot

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_close_is_counted_and_typed_as_the_venue_writes_amounts(page, floor):
    floor.venue.amount_grouping = "dot"
    floor.venue.save(update_fields=["amount_grouping"])
    session = session_open(
        table=floor.table,
        counted_by=floor.dealer,
        confirmed_by=floor.supervisor,
        opening_chips={"1000000": 5},
    )
    said: list[str] = []
    page.on("console", lambda m: said.append(m.text) if m.type == "error" else None)
    log_in(page, "dealer")
    page.goto(f"/console/sessions/{session.pk}/close/")
    assert page.get_by_text("5.000.000").count() >= 1  # the opening count and the tray
    page.fill("#chips-1000000", "3")
    page.fill("#chips-100000", "5")
    assert page.text_content("[data-total]") == "3.500.000"
    assert page.text_content("[data-variance]") == "-1.500.000"
    drop = page.get_by_label("Tiền hộp đã đếm (không bắt buộc)")
    drop.fill("1,500,000")  # another grouping's amount: no variance is made of it
    assert page.text_content("[data-variance]") == ""
    drop.fill("1.500.000")
    assert page.text_content("[data-variance]") == "0"
    page.fill("input[name=supervisor]", "supervisor")
    page.fill("input[name=password]", "pw-for-tests")
    shot(page, "27-close-in-the-venues-grouping")
    page.get_by_role("button", name="Đóng bàn").click()
    page.wait_for_selector("#summary")
    assert page.text_content("[data-figure=variance]") == "0"
    assert page.get_by_text("1.500.000", exact=True).count() == 1  # the drop
    session.refresh_from_db()
    assert (session.status, session.closing_total, session.drop_total) == (
        TableSession.Status.CLOSED,
        D("3500000"),
        D("1500000"),
    )
    assert said == []
