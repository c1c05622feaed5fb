"""The regulators' statistical report and the accounting-only tables' figures, worked by hand.

Venue "st" (VND, Hanoi's clock), two tables of two games: NN1 (Niu Niu, dealt) and BJ1
(blackjack, kept for its accounting only: its game is named by its ruleset's version, and
its line per game is "Blackjack"). Win by count per table-day = closer - opener + credits -
fills + drop (the day's first opener, its last closer):

  2026-11-28  NN1  sessions 1,000,000 -> 950,000 and 950,000 -> 900,000, a fill of 200,000
                   on the second, drop 500,000: win 900,000 - 1,000,000 - 200,000 + 500,000
                   = 200,000; win/drop 40.00%
              BJ1  2,000,000 -> 2,300,000, a credit of 100,000, drop 400,000: win 800,000
  2026-11-10  NN1  1,000,000 -> 1,100,000, drop 300,000: win 400,000
  2026-03-05  BJ1  2,000,000 -> 1,500,000, drop 200,000: win -300,000
  2025-11-28  NN1  1,000,000 -> 1,000,000, drop 250,000: win 250,000
  2025-11-29  NN1  1,000,000 -> 1,999,000, drop 1,000,000: after the same dates last year
  2025-11-02  BJ1  2,000,000 -> 2,100,000, drop 100,000: win 200,000
  2026-11-27  BJ1  opened 2,000,000, still open, drop 50,000: no win yet (an open day)

For the gaming date 2026-11-28:
  day  NN1 drop 500,000 win 200,000 (40.00%), last year 250,000 / 250,000 (100.00%)
       BJ1 drop 400,000 win 800,000 (200.00%), last year nothing
       total drop 900,000 win 1,000,000 (111.11%), last year 250,000 / 250,000
  MTD  NN1 800,000 / 600,000 (75.00%); BJ1 450,000 / 800,000 (win/drop over the
       closed days' drop 400,000: 200.00%), one open day; last year NN1 250,000 / 250,000,
       BJ1 100,000 / 200,000; total drop 1,250,000, win 1,400,000; last year 350,000 / 450,000
  YTD  NN1 800,000 / 600,000; BJ1 650,000 / 500,000 (over 600,000: 83.33%); total drop
       1,450,000, win 1,100,000 (over 1,400,000: 78.57%); last year 350,000 / 450,000
"""

from __future__ import annotations

import csv
import io
from datetime import date, datetime, time, timedelta
from decimal import Decimal as D
from zoneinfo import ZoneInfo

import pytest
from django.db import transaction
from django.test import Client
from django.urls import reverse
from django.utils import translation
from openpyxl import load_workbook
from pypdf import PdfReader

from casino.cage.models import Slip, SlipStatus
from casino.floor.kinds import accounting_games
from casino.floor.models import TableSession
from casino.kernel.money import venue_money
from casino.ledger.models import Drop
from casino.reports.by_count import table_days
from casino.reports.statistical import statistical_report
from casino.staff.roles import AUDITOR, DEALER, MANAGER
from casino.venues.models import Shift, Table
from tablegames.services import venue_ruleset_from_preset
from tests.factories import VenueFactory, niuniu_table, staff

pytestmark = pytest.mark.django_db
DAY = date(2026, 11, 28)
HANOI = ZoneInfo("Asia/Ho_Chi_Minh")


class World:
    pass


def _session(world, table, gaming_date, opener, closer, *, fills=(), credits=(), drop=None):
    shift, _new = Shift.objects.get_or_create(
        venue=world.venue,
        gaming_date=gaming_date,
        name="day",
        defaults={
            "starts_at": datetime.combine(gaming_date, time(8), HANOI),
            "ends_at": datetime.combine(gaming_date + timedelta(days=1), time(6), HANOI),
        },
    )
    opened = datetime.combine(gaming_date, time(9), HANOI) + timedelta(
        minutes=TableSession.objects.filter(table=table, shift=shift).count()
    )
    session = TableSession.objects.create(
        table=table,
        shift=shift,
        dealer=world.dealer,
        opened_by=world.dealer,
        opened_at=opened,
        opening_chips={},
        opening_total=D(opener),
        status=TableSession.Status.OPEN if closer is None else TableSession.Status.CLOSED,
        closing_total=None if closer is None else D(closer),
        closed_at=None if closer is None else opened + timedelta(hours=1),
    )
    for kind, amounts in ((Slip.Kind.FILL, fills), (Slip.Kind.CREDIT, credits)):
        for amount in amounts:
            world.slips += 1
            Slip.objects.create(
                venue=world.venue,
                session=session,
                kind=kind,
                year=gaming_date.year,
                number=world.slips,
                amount=D(amount),
                status=SlipStatus.VERIFIED,
                requested_by=world.dealer,
                requested_at=opened,
            )
    if drop:
        Drop.objects.create(
            session=session, amount=D(drop), counted_by=world.manager, counted_at=opened
        )
    return session


def build_world() -> World:
    world = World()
    world.slips = 0
    world.venue = VenueFactory(code="st", name="Statistical Hall", timezone="Asia/Ho_Chi_Minh")
    world.manager = staff("st-manager", MANAGER, world.venue)
    world.auditor = staff("st-auditor", AUDITOR, world.venue)
    world.dealer = staff("st-dealer", DEALER, world.venue)
    world.nn1 = niuniu_table(world.venue, code="NN1")
    (game,) = accounting_games()
    blackjack = venue_ruleset_from_preset(
        venue=world.venue,
        preset_code="blackjack-6deck",
        editor=world.manager,
        approver=staff("st-approver", MANAGER, world.venue),
    )
    world.bj1 = Table.objects.create(
        venue=world.venue, code="BJ1", game=game, ruleset=blackjack.ruleset, seats=7
    )
    s = _session
    s(world, world.nn1, DAY, "1000000", "950000")
    s(world, world.nn1, DAY, "950000", "900000", fills=["200000"], drop="500000")
    s(world, world.bj1, DAY, "2000000", "2300000", credits=["100000"], drop="400000")
    s(world, world.nn1, date(2026, 11, 10), "1000000", "1100000", drop="300000")
    s(world, world.bj1, date(2026, 3, 5), "2000000", "1500000", drop="200000")
    s(world, world.nn1, date(2025, 11, 28), "1000000", "1000000", drop="250000")
    s(world, world.nn1, date(2025, 11, 29), "1000000", "1999000", drop="1000000")
    s(world, world.bj1, date(2025, 11, 2), "2000000", "2100000", drop="100000")
    s(world, world.bj1, date(2026, 11, 27), "2000000", None, drop="50000")
    return world


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock(), transaction.atomic():
        yield build_world()
        transaction.set_rollback(True)


def figures(line):
    return (
        line["drop"],
        line["win_by_count"],
        line["win_drop_pct"],
        line["last_drop"],
        line["last_win_by_count"],
        line["last_win_drop_pct"],
    )


def test_the_day_month_and_year_to_date_beside_last_year_worked_by_hand(world):
    report = statistical_report(venue=world.venue, day=DAY)
    day, month, year = report.spans
    assert (day.start, day.last_start, day.last_end) == (DAY, date(2025, 11, 28), DAY.replace(2025))
    tables = {line["key"]: figures(line) for line in day.tables}
    assert tables == {
        "NN1": (D(500000), D(200000), D("40.00"), D(250000), D(250000), D("100.00")),
        "BJ1": (D(400000), D(800000), D("200.00"), D(0), D(0), None),
    }
    assert figures(day.total) == (
        D(900000),
        D(1000000),
        D("111.11"),
        D(250000),
        D(250000),
        D("100.00"),
    )
    # per type of game: blackjack as the table's ruleset names it (not "other table games")
    assert {line["label"]: figures(line)[:2] for line in day.games} == {
        "Niu Niu": (D(500000), D(200000)),
        "Blackjack": (D(400000), D(800000)),
    }
    assert {line["game"] for line in day.tables} == {"Niu Niu", "Blackjack"}
    assert {line["key"]: figures(line) for line in month.tables} == {
        "NN1": (D(800000), D(600000), D("75.00"), D(250000), D(250000), D("100.00")),
        "BJ1": (D(450000), D(800000), D("200.00"), D(100000), D(200000), D("200.00")),
    }
    assert month.total["open_days"] == 1
    assert figures(month.total)[:2] == (D(1250000), D(1400000))
    assert figures(month.total)[3:5] == (D(350000), D(450000))
    assert {line["key"]: figures(line)[:3] for line in year.tables} == {
        "NN1": (D(800000), D(600000), D("75.00")),
        "BJ1": (D(650000), D(500000), D("83.33")),
    }
    assert figures(year.total) == (
        D(1450000),
        D(1100000),
        D("78.57"),
        D(350000),
        D(450000),
        D("128.57"),
    )
    games = {line["key"]: figures(line) for line in year.games}
    assert games["niuniu"] == (D(800000), D(600000), D("75.00"), D(250000), D(250000), D("100.00"))


def test_the_table_days_are_read_in_four_queries(world, django_assert_num_queries):
    # the sessions, their verified slips, their drops and the markers taken on their account
    with django_assert_num_queries(4):
        days = table_days(venue=world.venue, ranges=[(date(2025, 1, 1), DAY)])
    assert len(days) == 8  # every table-day of the module docstring


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.mark.parametrize("language", ["en", "vi", "ko", "pt"])
def test_the_page_renders_in_each_language(world, language):
    client = _client(world.auditor)
    client.cookies["django_language"] = language
    url = f"{reverse('reports:statistical')}?venue=st&date={DAY}"
    response = client.get(url)
    assert response.status_code == 200
    page = response.content.decode()
    assert f'lang="{language}"' in page
    with translation.override(language):
        for text in ("Statistical report", "Win by count", "Month to date", "Year to date"):
            assert translation.gettext(text) in page
    # the figures worked by hand, in the venue's money
    assert venue_money(D(1000000), world.venue) in page  # the day's win
    assert "111.11%" in page or "111,11%" in page


def test_the_csv_xlsx_and_pdf_read_back(world):
    client = _client(world.manager)
    query = f"?venue=st&date={DAY}"
    with translation.override("en"):
        client.cookies["django_language"] = "en"
        raw = client.get(reverse("reports:statistical_file", args=["csv"]) + query)
        assert raw["Content-Type"].startswith("text/csv")
        rows = list(csv.reader(io.StringIO(raw.content.decode("utf-8-sig"))))
        header = rows.index(
            [
                "Line",
                "Table or game",
                "Game",
                "Drop",
                "Win by count",
                "Win/drop %",
                "Drop, same period last year",
                "Win by count, same period last year",
                "Win/drop %, same period last year",
            ]
        )
        nn1 = next(row for row in rows[header:] if row[1] == "NN1")
        assert nn1[3:] == ["500000", "200000", "40.00", "250000", "250000", "100.00"]
        assert next(row[:3] for row in rows[header:] if row[0] == "Total") == [
            "Total",
            "Statistical Hall",
            "",
        ]

        raw = client.get(reverse("reports:statistical_file", args=["xlsx"]) + query)
        book = load_workbook(io.BytesIO(raw.content))
        assert book.sheetnames == ["Gaming day", "Month to date", "Year to date"]
        values = [[c.value for c in row] for row in book["Year to date"].iter_rows()]
        bj1 = next(row for row in values if row[1] == "BJ1")
        assert bj1[3:6] == [650000, 500000, 83.33]

        raw = client.get(reverse("reports:statistical_file", args=["pdf"]) + query)
        assert raw["Content-Type"] == "application/pdf"
        text = "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(raw.content)).pages)
        assert "Statistical report" in text and "NN1" in text and "1,000,000" in text


def test_an_unknown_file_is_not_found(world):
    url = reverse("reports:statistical_file", args=["doc"]) + "?venue=st"
    assert _client(world.manager).get(url).status_code == 404


def test_a_date_that_is_no_date_is_said_and_today_shown(world):
    client = _client(world.manager)
    client.cookies["django_language"] = "en"
    response = client.get(f"{reverse('reports:statistical')}?venue=st&date=28/11/2026")
    assert response.status_code == 200
    assert "28/11/2026 is not a date (write it YYYY-MM-DD)" in response.content.decode()
