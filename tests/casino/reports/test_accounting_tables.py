"""The tables kept for their accounting only, in every figure that covers their venue: the
dashboard, the periods, the trend and the pit's floor, on lines of their own (the count's
drop, win by count and win/drop %), never added to the house win of settled bets.

The venue and its table-days are those of test_statistical.py (worked out in its
docstring); BJ1 is the accounting-only table:

  2026-11-28 drop 400,000 win 800,000; 2026-11-27 open, drop 50,000 (no win yet);
  2026-03-05 drop 200,000 win -300,000; 2025-11-02 drop 100,000 win 200,000.

  November 2026 (1-28): drop 450,000, win 800,000 (over the closed days' drop 400,000:
  200.00%), one open day. Year to date: drop 650,000, win 500,000 (83.33%), beside
  2025-01-01..2025-11-28: drop 100,000, win 200,000; change +300,000 (+150.00%).
"""

from __future__ import annotations

import csv
import io
from datetime import date
from decimal import Decimal as D

import pytest
from django.db import transaction
from django.test import Client
from django.urls import reverse
from django.utils import translation

from casino.floor.console.floor_selectors import IDLE, pit_floor
from casino.kernel.money import venue_money
from casino.reports import periods, selectors, trends
from casino.venues.models import Pit, Table
from tests.casino.reports.test_statistical import DAY, build_world

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock(), transaction.atomic():
        world = build_world()
        world.pit = Pit.objects.create(venue=world.venue, code="main", name="Main pit")
        Table.objects.filter(venue=world.venue).update(pit=world.pit)
        yield world
        transaction.set_rollback(True)


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    client.cookies["django_language"] = "en"
    return client


def test_the_dashboard_shows_them_apart_from_the_settled_bets(world):
    board = selectors.dashboard(venue=world.venue, date_from=date(2026, 11, 1), date_to=DAY)
    assert board.accounting["tables"] == [
        {
            "key": "BJ1",
            "label": "BJ1",
            "drop": D(450000),
            "win_by_count": D(800000),
            "win_drop_pct": D("200.00"),
            "open_days": 1,
        }
    ]
    assert board.accounting["total"]["win_by_count"] == D(800000)
    assert board.total["house_win"] == 0  # no bets: not added to the settled bets' win

    with translation.override("en"):
        page = (
            _client(world.auditor)
            .get(f"{reverse('reports:dashboard')}?venue=st&from=2026-11-01&to={DAY}")
            .content.decode()
        )
        assert "Accounting-only tables: win by count" in page
        section = page.split('id="accounting-tables"')[1].split("</section>")[0]
        assert "BJ1" in section and venue_money(D(800000), world.venue) in section
        assert "NN1" not in section


def test_the_periods_give_them_lines_of_their_own_beside_the_previous_period(world):
    figures = periods.period_figures(
        venue=world.venue, period=periods.period_of(periods.YEAR, DAY), dimension="table"
    )
    (line,) = figures.accounting
    assert (line["key"], line["drop"], line["win_by_count"], line["win_drop_pct"]) == (
        "BJ1",
        D(650000),
        D(500000),
        D("83.33"),
    )
    assert (line["previous_drop"], line["previous_win_by_count"]) == (D(100000), D(200000))
    assert (line["win_by_count_change"], line["win_by_count_change_pct"]) == (
        D(300000),
        D("150.00"),
    )
    assert figures.total["house_win"] == 0 and "BJ1" not in [x["key"] for x in figures.lines]

    by_pit = periods.period_figures(
        venue=world.venue, period=periods.period_of(periods.YEAR, DAY), dimension="pit"
    )
    assert [(x["key"], x["win_by_count"]) for x in by_pit.accounting] == [("main", D(500000))]
    by_dealer = periods.period_figures(
        venue=world.venue, period=periods.period_of(periods.YEAR, DAY), dimension="dealer"
    )
    assert [(x["label"], x["drop"]) for x in by_dealer.accounting] == [
        ("Statistical Hall", D(650000))
    ]


def test_the_periods_page_and_its_csv_show_them(world):
    client = _client(world.manager)
    query = f"?venue=st&kind=ytd&date={DAY}&dimension=game"
    with translation.override("en"):
        page = client.get(reverse("reports:periods") + query).content.decode()
        section = page.split('id="period-accounting"')[1].split("</section>")[0]
        assert venue_money(D(500000), world.venue) in section
        raw = client.get(reverse("reports:periods_csv") + query).content.decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(raw)))
    start = rows.index(["[Accounting-only tables: win by count]"])
    assert rows[start + 1][:5] == ["Key", "Game", "Drop", "Win by count", "Win/drop %"]
    assert rows[start + 2][2:5] == ["650000", "500000", "83.33"]


def test_the_trend_has_their_drop_and_win_each_month(world):
    months = {line["key"]: line for line in trends.trend(venue=world.venue, day=DAY)}
    assert (months["2026-11"]["accounting_drop"], months["2026-11"]["accounting_win_by_count"]) == (
        D(450000),
        D(800000),
    )
    assert months["2026-03"]["accounting_win_by_count"] == D(-300000)
    assert months["2026-11"]["house_win"] == 0
    dealt = {line["key"]: line for line in trends.trend(venue=world.venue, day=DAY, game="niuniu")}
    assert dealt["2026-11"]["accounting_drop"] == 0
    of_nn1 = trends.trend(venue=world.venue, day=DAY, table_id=world.nn1.pk)
    assert all(line["accounting_drop"] == 0 for line in of_nn1)
    of_bj1 = trends.trend(venue=world.venue, day=DAY, table_id=world.bj1.pk)
    assert of_bj1[-1]["accounting_drop"] == D(450000)


def test_the_pit_shows_the_drop_so_far_and_never_calls_it_idle(world):
    floor = pit_floor(pit=world.pit)
    bj1 = next(row for row in floor.tables if row.table.code == "BJ1")
    assert bj1.is_open and not bj1.deals_rounds
    assert bj1.drop == D(50000)
    assert IDLE not in bj1.alerts  # opened hours ago, and no round is ever dealt there
    with translation.override("en"):
        page = (
            _client(world.manager).get(reverse("console:pit", args=[world.pit.pk])).content.decode()
        )
        table = page.split(f'id="floor-table-{world.bj1.pk}"')[1].split("</article>")[0]
        assert "Drop so far" in table and venue_money(D(50000), world.venue) in table
        assert "Win by ledger" not in table
