"""In the browser: an auditor reads the accounting-only tables on the dashboard, then the
regulators' statistical report of a gaming date, found from the reports' menu, and takes
its CSV. The venue and its figures are tests/casino/reports/test_statistical.py's."""

from __future__ import annotations

from decimal import Decimal as D

import pytest

from casino.kernel.money import venue_money
from casino.venues.models import Venue
from tests.browser.conftest import shot
from tests.casino.reports.test_statistical import DAY, build_world

pytestmark = pytest.mark.django_db(transaction=True)


def test_an_auditor_reads_the_accounting_tables_and_the_statistical_report(person):
    from playwright.sync_api import expect

    world = build_world()
    Venue.objects.filter(pk=world.venue.pk).update(language="en")
    page = person("st-auditor")
    page.goto(f"/reports/?venue=st&from=2026-11-01&to={DAY}")
    accounting = page.get_by_role("region", name="Accounting-only tables: win by count")
    bj1 = accounting.get_by_role("row", name="BJ1")
    expect(bj1).to_contain_text(venue_money(D(800000), world.venue))
    expect(accounting.get_by_role("row", name="NN1")).to_have_count(0)

    page.get_by_role("link", name="Statistical report").click()
    page.get_by_label("Gaming date", exact=True).fill(DAY.isoformat())
    page.get_by_role("button", name="Show").click()
    day = page.get_by_role("region", name="Gaming day")
    expect(day.get_by_role("heading", name="Gaming day")).to_be_visible()
    nn1 = day.get_by_role("row", name="Table NN1")
    expect(nn1).to_contain_text(venue_money(D(200000), world.venue))
    expect(nn1).to_contain_text("40.00%")
    expect(page.get_by_text("Win is the win by count, as the regulators define it")).to_be_visible()
    year = page.get_by_role("region", name="Year to date")
    expect(year.get_by_role("row", name="Total")).to_contain_text(
        venue_money(D(1100000), world.venue)
    )
    shot(page, "statistical-report")

    with page.expect_download() as download:
        page.get_by_role("link", name="Download (CSV)").click()
    assert download.value.suggested_filename == f"st-statistical-{DAY}.csv"
