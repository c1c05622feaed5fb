"""Report periods: their bounds, a comparison worked out by hand, the page and its CSV.

The current gaming day is the night shift of conftest.py (28 November 2026, its figures
worked out there); the day before gets a shift of its own with two tallies written here:

  27 Nov, NN1, 22:00: P1 single, 4 bets, handle 400,000, players -150,000, commission 10,000
                      anonymous double, 1 bet, handle 200,000, players +190,000,
                      commission 10,000
  handle 600,000, house win -40,000, theoretical 400,000 x 2.5% + 200,000 x 3% = 16,000.
"""

from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext

from casino.floor.models import BetTally
from casino.reports import trends
from casino.reports.periods import period_figures, period_of
from casino.venues.models import Shift
from tests.casino.charts import bars_in, chart_of

D = Decimal
pytestmark = pytest.mark.django_db
NIGHT = date(2026, 11, 28)  # a Saturday


def d(text: str) -> date:
    return date.fromisoformat(text)


@pytest.mark.parametrize(
    ("kind", "day", "end", "expected"),
    [
        ("day", "2026-03-01", None, "2026-03-01 2026-03-01 2026-02-28 2026-02-28"),
        ("week", "2026-11-28", None, "2026-11-23 2026-11-28 2026-11-16 2026-11-21"),
        ("week", "2026-11-23", None, "2026-11-23 2026-11-23 2026-11-16 2026-11-16"),
        ("mtd", "2026-03-31", None, "2026-03-01 2026-03-31 2026-02-01 2026-02-28"),
        ("mtd", "2024-03-31", None, "2024-03-01 2024-03-31 2024-02-01 2024-02-29"),
        ("mtd", "2026-01-15", None, "2026-01-01 2026-01-15 2025-12-01 2025-12-15"),
        ("ytd", "2024-02-29", None, "2024-01-01 2024-02-29 2023-01-01 2023-02-28"),
        ("ytd", "2026-11-28", None, "2026-01-01 2026-11-28 2025-01-01 2025-11-28"),
        ("range", "2026-11-10", "2026-11-01", "2026-11-01 2026-11-10 2026-10-22 2026-10-31"),
    ],
)
def test_each_period_and_the_one_before(kind, day, end, expected):
    period = period_of(kind, d(day), d(end) if end else None)
    bounds = (period.start, period.end, period.previous_start, period.previous_end)
    assert bounds == tuple(d(text) for text in expected.split())


@pytest.fixture
def day_before(night):
    """The shift of 27 November with two tallies at NN1 (module docstring)."""
    session = night.sessions["NN1"]
    version_id = BetTally.objects.filter(table=night.nn1).values_list(
        "ruleset_version_id", flat=True
    )[0]
    shift = Shift.objects.create(
        venue=night.venue,
        gaming_date=date(2026, 11, 27),
        name="night",
        starts_at=datetime(2026, 11, 27, 15, tzinfo=night.shift.starts_at.tzinfo),
        ends_at=datetime(2026, 11, 27, 23, tzinfo=night.shift.starts_at.tzinfo),
    )
    common = {
        "venue": night.venue,
        "shift": shift,
        "session": session,
        "table": night.nn1,
        "dealer": session.dealer,
        "hour": datetime.fromisoformat("2026-11-27T15:00:00+00:00"),
        "game": "niuniu",
        "ruleset_version_id": version_id,
    }
    BetTally.objects.bulk_create(
        [
            BetTally(
                **common,
                player=night.p1,
                bet_type="single",
                bets=4,
                handle=D("400000"),
                stake_squared=D("40000000000"),
                player_result=D("-150000"),
                commission=D("10000"),
                volume=D("200000"),
                max_net=D("95000"),
            ),
            BetTally(
                **common,
                player=None,
                bet_type="double",
                bets=1,
                handle=D("200000"),
                stake_squared=D("40000000000"),
                player_result=D("190000"),
                commission=D("10000"),
                volume=D("400000"),
                max_net=D("190000"),
            ),
        ]
    )
    return shift


def test_a_day_beside_the_day_before_worked_out_by_hand(night, day_before):
    figures = period_figures(venue=night.venue, period=period_of("day", NIGHT), dimension="table")
    total = figures.total
    # the night: handle 850,000 + 1,500,000 + 500,000; players +1,385,000 (conftest.py)
    assert (total["handle"], total["house_win"], total["bets"]) == (
        D("2850000"),
        D("-1385000"),
        13,
    )
    assert total["hold_pct"] == D("-48.60")
    assert (total["previous_handle"], total["previous_house_win"]) == (D("600000"), D("-40000"))
    assert total["previous_hold_pct"] == D("-6.67")
    assert total["handle_change"] == D("2250000")
    assert total["handle_change_pct"] == D("375.00")
    assert total["house_win_change"] == D("-1345000")
    assert total["house_win_change_pct"] == D("-3362.50")
    assert total["hold_change_pts"] == D("-41.93")
    lines = {line["key"]: line for line in figures.lines}
    assert list(lines) == ["MB1", "NN1", "NN2"]
    nn1, nn2, mb1 = lines["NN1"], lines["NN2"], lines["MB1"]
    assert (nn1["handle"], nn1["house_win"]) == (D("850000"), D("470000"))
    assert (nn1["previous_handle"], nn1["previous_house_win"]) == (D("600000"), D("-40000"))
    assert nn1["house_win_change"] == D("510000") and nn1["house_win_change_pct"] == D("1275.00")
    # a table that did not play the day before: nothing to compare a percentage with
    assert (nn2["previous_handle"], nn2["handle_change_pct"]) == (D("0"), None)
    assert nn2["previous_hold_pct"] is None and nn2["hold_change_pts"] is None
    assert (mb1["house_win"], mb1["theoretical_win"]) == (D("45000"), D("45000.00"))
    assert sum(line["handle"] for line in figures.lines) == total["handle"]


def test_theoretical_win_from_the_versions_house_edge(night, day_before):
    """single 2.5%, double 3%, super 14% (conftest.py); Mau Binh's is its fee."""
    month = period_figures(venue=night.venue, period=period_of("mtd", NIGHT), dimension="bet_type")
    lines = {line["key"]: line for line in month.lines}
    # the night's single 1,700,000 and the day before's 400,000
    assert lines["niuniu:single"]["theoretical_win"] == D("52500.00")
    assert lines["niuniu:double"]["theoretical_win"] == D("24000.00")  # 800,000 x 3%
    assert lines["niuniu:super"]["theoretical_win"] == D("7000.00")
    assert lines["maubinh:stake"]["theoretical_win"] == D("45000.00")
    total = month.total
    assert total["theoretical_win"] == D("128500.00")
    assert total["actual_minus_theoretical"] == D("-1425000") - D("128500.00")
    assert total["theoretical_hold_pct"] == D("3.72")  # 128,500 / 3,450,000
    assert total["flagged"] is False and total["hold_low_pct"] < total["hold_pct"]
    assert month.total["previous_handle"] == D("0")  # nothing in October
    players = period_figures(venue=night.venue, period=period_of("mtd", NIGHT), dimension="player")
    assert players.lines[0]["handle"] >= players.lines[-1]["handle"]
    assert {line["label"] for line in players.lines} >= {"An", "Binh", "Anonymous boxes"}
    trend = trends.trend(venue=night.venue, day=NIGHT, table_id=night.nn1.pk)
    assert [line["key"] for line in trend][-2:] == ["2026-10", "2026-11"] and len(trend) == 12
    assert trend[-1]["handle"] == D("1450000") and trend[-2]["handle"] == D("0")


def test_the_page_for_the_venues_readers_and_its_csv(client, night, day_before):
    url = reverse("reports:periods")
    query = {"venue": "hanoi", "kind": "day", "date": "2026-11-28", "dimension": "table"}
    for user, status in [
        (night.floor.manager, 200),
        (night.floor.auditor, 200),
        (night.floor.supervisor, 200),
        (night.floor.dealer, 403),
        (night.floor.other_manager, 404),
    ]:
        client.force_login(user)
        assert client.get(url, query).status_code == status, user
        assert client.get(reverse("reports:periods_csv"), query).status_code == status, user
    client.force_login(night.floor.auditor)
    page = client.get(url, query).content.decode()
    assert "2026-11-27" in page and "<caption>" in page and 'aria-label="Period to show"' in page
    assert "2.850.000" not in page and "2,850,000" in page  # the venue's grouping
    assert "-1,345,000" in page and "-3,362.50%" in page
    partial = client.get(url, {**query, "trend": "table:NN1"}, HTTP_HX_REQUEST="true")
    assert partial.content.decode().lstrip().startswith('<div id="periods">')
    assert "2026-10" in partial.content.decode()
    bad = client.get(url, {**query, "date": "28/11/2026"}).content.decode()
    assert "is not a date" in bad

    night.p1.name = "=HYPERLINK(1)"
    night.p1.save()
    csv = client.get(reverse("reports:periods_csv"), {**query, "dimension": "player"})
    assert csv["Content-Type"].startswith("text/csv")
    body = csv.content
    assert body.startswith(b"\xef\xbb\xbf")
    text = body.decode("utf-8-sig")
    assert "'=HYPERLINK(1)" in text and ",=HYPERLINK" not in text
    rows = [row.split(",") for row in text.splitlines()]
    total = next(row for row in rows if row[:2] == ["hanoi", "Total"])
    assert total[2:4] == ["13", "2850000"] and "-1345000" in total  # VND: no decimals


def test_a_pit_is_one_line_and_tables_in_no_pit_another(night, day_before):
    from casino.venues.models import Table
    from casino.venues.services.pits import pit_create

    tables = Table.objects.filter(venue=night.venue, code__in=["NN1", "NN2"])
    pit_create(user=None, venue=night.venue, code="P1", name="Main pit", tables=tables)
    figures = period_figures(venue=night.venue, period=period_of("day", NIGHT), dimension="pit")
    lines = {line["key"]: line for line in figures.lines}
    assert set(lines) == {"P1", ""}
    # NN1 850,000 + NN2 1,500,000 in the pit; MB1's 500,000 in no pit
    assert lines["P1"]["handle"] == D("2350000") and lines[""]["handle"] == D("500000")
    assert lines["P1"]["previous_handle"] == D("600000")


def test_the_page_speaks_the_venues_language(client, night):
    type(night.venue).objects.filter(pk=night.venue.pk).update(language="ko")
    client.force_login(night.floor.manager)
    page = client.get(reverse("reports:periods"), {"venue": "hanoi"}).content.decode()
    with translation.override("ko"):
        heading = gettext("Periods and comparisons")
    assert heading != "Periods and comparisons" and heading in page


def test_the_monthly_trend_is_drawn_above_its_table(client, night):
    client.force_login(night.floor.manager)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    page = client.get(reverse("reports:periods"), {"venue": "hanoi", "date": "2026-11-28"})
    text = page.content.decode()
    svg = chart_of(text, "period-trend-chart")
    assert "House win and hold by month (VND)" in svg
    assert text.index("period-trend-chart") < text.index("Monthly lines up to the gaming date")
    months = len(page.context["trend_lines"])
    assert months and bars_in(svg) >= months  # a bar a month (and the axes' own patches)
