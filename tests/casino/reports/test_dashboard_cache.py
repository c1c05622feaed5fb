"""The dashboard's trend chart is drawn once per venue and range, until a report lands."""

from __future__ import annotations

from datetime import date

import pytest
from django.core.cache import cache
from django.urls import reverse
from django.utils import translation

from casino.kernel import charts
from casino.reports import selectors, services
from casino.reports.views import trend_cache_key

pytestmark = pytest.mark.django_db
URL = reverse("reports:dashboard") + "?venue=hanoi&from=2026-11-28&to=2026-11-28"


def _key(venue) -> str:
    board = selectors.dashboard(
        venue=venue, date_from=date(2026, 11, 28), date_to=date(2026, 11, 28)
    )
    with translation.override("en"):
        return trend_cache_key(board)


def test_the_trend_is_drawn_once_then_read_from_the_cache(
    client, night, report, quick_pdf, monkeypatch
):
    services.report_build(report_id=report.pk, email=False)
    client.force_login(night.floor.manager)
    first = client.get(URL).content.decode()
    key = _key(night.venue)
    cached = cache.get(key)
    assert cached and "<svg" in cached
    assert cached in first

    # when the dashboard renders again, nothing is drawn: the chart comes from the cache
    def no_drawing(*args, **kwargs):
        raise AssertionError("drawn again")

    monkeypatch.setattr(charts, "trend", no_drawing)
    assert cached in client.get(URL).content.decode()

    # another language is another entry (its labels differ)
    assert cache.get(key.replace(":en:", ":vi:")) is None


def test_a_report_that_finishes_changes_the_chart_shown(client, night, report, quick_pdf):
    services.report_build(report_id=report.pk, email=False)
    client.force_login(night.floor.manager)
    old = _key(night.venue)
    cache.set(old, "<svg><title>stale chart</title></svg>")
    assert "stale chart" in client.get(URL).content.decode()

    # when the report is built again (a new one of the range finishes)
    services.report_request(shift_id=night.shift.pk, send=False)
    services.report_build(report_id=report.pk, email=False)

    # then the dashboard draws the chart anew, under a new key
    page = client.get(URL).content.decode()
    new = _key(night.venue)
    assert new != old and "stale chart" not in page
    assert cache.get(new) in page
