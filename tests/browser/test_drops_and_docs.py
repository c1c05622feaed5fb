"""In the browser: a mistaken drop reversed on the close page; the API's Swagger page.

The floor's venue speaks Vietnamese (tests/factories.py), so the console does too.
"""

from __future__ import annotations

from decimal import Decimal as D

import pytest

from casino.floor.services.sessions import drop_record, session_open
from casino.ledger.models import Drop, LedgerEntry
from tests.browser.conftest import log_in, shot

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_supervisor_reverses_a_mistaken_drop_on_the_close_page(page, floor):
    session = session_open(
        table=floor.table,
        counted_by=floor.dealer,
        confirmed_by=floor.supervisor,
        opening_chips={"100000": 50},
    )
    drop = drop_record(session=session, user=floor.supervisor, amount=D("5000000"))
    log_in(page, "dealer")
    page.goto(f"/console/sessions/{session.pk}/close/")
    # the drops entered, each with its reversal form; named for a screen reader
    table = page.get_by_role("table", name="Các lần nhập tiền hộp")
    assert "5,000,000" in table.text_content()
    form = page.locator(f"#drop-{drop.pk} form")
    form.get_by_label("Lý do").fill("đếm nhầm hộp của bàn 2")
    form.get_by_label("Giám sát").fill("supervisor")
    form.get_by_label("Mật khẩu").fill("wrong")
    form.get_by_role("button", name="Đảo tiền hộp").click()
    page.wait_for_selector(f"#drop-{drop.pk} .error")
    assert not Drop.objects.filter(reverses=drop).exists()
    form = page.locator(f"#drop-{drop.pk} form")
    form.get_by_label("Giám sát").fill("supervisor")
    form.get_by_label("Mật khẩu").fill("pw-for-tests")
    form.get_by_role("button", name="Đảo tiền hộp").click()
    notice = page.get_by_role("status")
    notice.wait_for()
    assert f"Đã đảo tiền hộp số {drop.pk}" in notice.text_content()
    shot(page, "21-drop-reversed")
    reversal = Drop.objects.get(reverses=drop)
    assert (reversal.amount, reversal.reason) == (D("-5000000"), "đếm nhầm hộp của bàn 2")
    assert page.locator(f"#drop-{drop.pk} form").count() == 0
    assert "đếm nhầm hộp của bàn 2" in page.locator(f"#drop-{reversal.pk}").text_content()
    assert sum(e.amount for e in LedgerEntry.objects.filter(session=session)) == 0


def test_the_swagger_page_needs_a_login_and_loads_from_the_app(page, floor, live_server):
    requested: list[str] = []
    page.on("request", lambda request: requested.append(request.url))
    page.goto("/api/docs/")
    assert "/accounts/login/" in page.url
    log_in(page, "auditor")
    page.goto("/api/docs/")
    page.wait_for_selector(".swagger-ui .information-container")
    page.get_by_text("/api/v1/sessions/{id}/drop/{drop_id}/reverse/").first.wait_for()
    shot(page, "22-api-docs")
    outside = [url for url in requested if not url.startswith(live_server.url)]
    assert outside == [], outside
