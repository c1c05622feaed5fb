"""In the browser: a manager reads the reconciliation of a gaming day found from its date,
first before its box is counted (the day does not reconcile: the variance at close, its
reason and the box not counted yet explain the difference), then once the count has posted
its drop (the day reconciles, every other surface shows the same figures), and takes its
files. The day is tests/casino/test_figures.py's, closed as tests/casino/reports/
test_reconciliation.py closes it."""

from __future__ import annotations

import pytest

from casino.templatetags.console_tags import signed_money
from casino.venues.models import Venue
from tests.browser.conftest import shot
from tests.casino.reports.test_reconciliation import REASON, _counted, closed  # noqa: F401
from tests.casino.test_figures import M, day  # noqa: F401

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_manager_reads_a_day_that_does_not_reconcile_then_one_that_does(
    closed,  # noqa: F811 (the imported fixture)
    person,
):
    from playwright.sync_api import expect

    Venue.objects.filter(pk=closed.venue.pk).update(language="en")
    venue, code = closed.venue, closed.table.code
    page = person(closed.manager.username)
    page.goto(f"/reports/reconciliation/?venue={venue.code}")
    form = page.get_by_role("form", name="Gaming date to reconcile")
    form.get_by_label("Gaming date", exact=True).fill(closed.date.isoformat())
    form.get_by_role("button", name="Show").click()

    verdict = page.get_by_role("status").filter(has_text="The day does not reconcile")
    expect(verdict).to_be_visible()
    tables = page.get_by_role("table", name="Win by ledger and win by count per table")
    row = tables.get_by_role("row", name=code)
    expect(row).to_contain_text(signed_money(-107 * M, venue))
    expect(row).to_contain_text(f"Reason given: {REASON}")
    expect(row).to_contain_text("Box not counted yet")
    shot(page, "reconciliation-not-reconciled")

    _counted(closed)
    page.reload()
    expect(page.get_by_role("status").filter(has_text="The day reconciles")).to_be_visible()
    expect(row).to_contain_text("Reconciles.")
    surfaces = page.get_by_role("region", name="The same figures elsewhere")
    expect(
        surfaces.get_by_role("status").filter(has_text="Every other page, file and endpoint")
    ).to_be_visible()
    count = surfaces.get_by_role("row", name="The count's win per table")
    expect(count).to_contain_text(signed_money(closed.house, venue))
    expect(count).to_contain_text("Agrees")
    expect(surfaces.get_by_text("Disagrees")).to_have_count(0)
    shot(page, "reconciliation")

    with page.expect_download() as download:
        page.get_by_role("link", name="Download (CSV)").click()
    assert download.value.suggested_filename == f"{venue.code}-reconciliation-{closed.date}.csv"
