"""A report's GROUP BY over the tallies is planned for its own values every time, never by a
prepared statement's generic plan (``casino.kernel.plans``)."""

from __future__ import annotations

from datetime import date

import pytest
from django.db import connection
from django.db.models import F
from django.test.utils import CaptureQueriesContext

from casino.kernel.plans import custom_plans
from casino.reports.period_sums import grouped, tallies_in
from tests.factories import VenueFactory

pytestmark = pytest.mark.django_db


def test_within_the_block_statements_get_custom_plans():
    with custom_plans("default"), connection.cursor() as cursor:
        cursor.execute("SHOW plan_cache_mode")
        assert cursor.fetchone()[0] == "force_custom_plan"


def test_the_tallies_group_by_runs_in_the_block():
    venue = VenueFactory(code="plans", name="Plans")
    tallies = tallies_in(venue, [(date(2026, 11, 1), date(2026, 11, 30))])
    with CaptureQueriesContext(connection) as captured:
        assert grouped(tallies, F("shift__gaming_date"), ()) == []
    statements = [query["sql"] for query in captured.captured_queries]
    setting = next(n for n, sql in enumerate(statements) if "plan_cache_mode" in sql)
    summing = next(n for n, sql in enumerate(statements) if "GROUP BY" in sql)
    assert setting < summing
