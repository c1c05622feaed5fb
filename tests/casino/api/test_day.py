"""What the day's screens read, through the API: a venue's buy-ins and cash-outs, its cash
alerts, the day's figures per table and the periods; the venue's report readers only.

The day at the floor's table (hand-worked), a day that reconciles:
- opener 5,000,000; a cash buy-in of 1,000,000 by player A (its chips leave the tray, the
  cash goes into the drop box), one of 200,000 by a patron nobody knows, a cash-out of
  300,000 by A (the table buys the chips back into its tray with the buy-ins' cash, so
  that cash never reaches the drop box), and a buy-in of 50,000 entered by mistake and
  voided;
- one round settled: a box of 100,000 with no niu loses to the dealer's niu 8, so the
  house wins 100,000 of a handle of 100,000 (win by ledger 100,000, hold 100%);
- the tray at close = 5,000,000 - 1,200,000 of chips sold for cash + 300,000 bought back
  + 100,000 the house won = 4,200,000, counted so; the pit's drop 1,200,000 - 300,000 =
  900,000;
- win by count = 4,200,000 - 5,000,000 + 0 - 0 + 900,000 = 100,000 = win by ledger (the
  cash-out moves the tray and the drop by as much, not the win);
  win/drop = 100,000 / 900,000 = 11.11%.
"""

from __future__ import annotations

from decimal import Decimal as D

import pytest
from django.utils import timezone

from casino.cage.models import CashAlert, CashKind
from casino.cage.services.cash import cash_record, cash_void
from casino.cage.services.thresholds import thresholds_approve, thresholds_propose
from casino.floor.services.closing import session_close
from casino.floor.services.sessions import drop_record, session_open
from casino.kernel.timezones import venue_zone
from casino.reports.reconciliation import reconciliation
from casino.staff.roles import CAGE, COUNT, MANAGER
from tests.casino.api import NO_NIU, box, client_for, deal, error_of, settle
from tests.factories import PlayerFactory, staff

pytestmark = pytest.mark.django_db


@pytest.fixture
def day(floor):
    session = session_open(
        table=floor.table,
        counted_by=floor.dealer,
        confirmed_by=floor.supervisor,
        opening_chips={"100000": 50},
    )
    player = PlayerFactory(venue=floor.venue, membership_number="A-1", name="Lan")
    buy_in = cash_record(session=session, user=floor.dealer, player=player, amount="1000000")
    cash_record(session=session, user=floor.dealer, amount="200000")
    cash_out = cash_record(
        session=session,
        user=floor.dealer,
        player=player,
        amount="300000",
        kind=CashKind.CASH_OUT,
    )
    mistake = cash_record(session=session, user=floor.dealer, player=player, amount="50000")
    cash_void(tx=mistake, user=floor.supervisor, reason="typed twice")
    dealt = deal(client_for(floor.dealer), session.pk, box(1, NO_NIU, single="100000"))
    assert settle(client_for(floor.dealer), dealt["id"], "day-1").status_code == 200
    drop_record(session=session, user=floor.supervisor, amount=D("900000"))
    session_close(
        session=session,
        counted_by=floor.dealer,
        confirmed_by=floor.supervisor,
        closing_chips={"100000": 42},
    )
    alert = CashAlert.objects.create(
        venue=floor.venue,
        player=player,
        gaming_date=buy_in.gaming_date,
        direction=CashKind.BUY_IN,
        total=D("1000000"),
        threshold=D("1000000"),
        transaction=buy_in,
        raised_at=buy_in.recorded_at,
    )
    # Another venue's buy-in, never shown here.
    other = session_open(
        table=floor.other_table,
        counted_by=floor.other_dealer,
        confirmed_by=floor.other_supervisor,
        opening_chips={"100000": 5},
    )
    cash_record(session=other, user=floor.other_dealer, amount="100000")
    session.refresh_from_db()
    return {
        "session": session,
        "player": player,
        "buy_in": buy_in,
        "cash_out": cash_out,
        "mistake": mistake,
        "alert": alert,
        "date": buy_in.gaming_date,
    }


def url(floor, what: str) -> str:
    return f"/api/v1/venues/{floor.venue.pk}/{what}/"


def test_the_buy_ins_and_cash_outs_with_their_filters(floor, day, django_assert_num_queries):
    reader = client_for(floor.auditor)
    with django_assert_num_queries(4):
        listed = reader.get(url(floor, "cash-transactions")).json()
    assert listed["count"] == 4
    rows = {row["id"]: row for row in listed["results"]}
    assert listed["results"][0]["id"] == day["mistake"].pk  # newest first
    buy_in = rows[day["buy_in"].pk]
    assert (buy_in["kind"], buy_in["instrument"], buy_in["amount"]) == (
        "buy_in",
        "cash",
        "1000000.00",
    )
    assert (buy_in["table"]["code"], buy_in["session"], buy_in["player"]) == (
        floor.table.code,
        day["session"].pk,
        day["player"].pk,
    )
    assert buy_in["recorded_by"] == floor.dealer.username and buy_in["voided"] is False
    # the time is written in the venue's zone, with its offset
    local = timezone.localtime(day["buy_in"].recorded_at, venue_zone(floor.venue))
    assert buy_in["recorded_at"] == local.isoformat()
    mistake = rows[day["mistake"].pk]
    assert (mistake["voided"], mistake["voided_by"], mistake["void_reason"]) == (
        True,
        floor.supervisor.username,
        "typed twice",
    )
    assert rows[day["cash_out"].pk]["kind"] == "cash_out"
    by_player = reader.get(url(floor, "cash-transactions"), {"player": day["player"].pk}).json()
    assert by_player["count"] == 3
    by_date = reader.get(
        url(floor, "cash-transactions"),
        {"gaming_date": day["date"].isoformat(), "session": day["session"].pk},
    ).json()
    assert by_date["count"] == 4
    other_day = reader.get(url(floor, "cash-transactions"), {"gaming_date": "2001-01-01"}).json()
    assert other_day["count"] == 0
    # another venue's table lists nothing of it here
    assert (
        reader.get(url(floor, "cash-transactions"), {"table": floor.other_table.pk}).json()["count"]
        == 0
    )
    assert error_of(reader.get(url(floor, "cash-transactions"), {"player": "x"}))[:2] == (
        400,
        "invalid",
    )


def test_the_cash_alerts(floor, day, django_assert_num_queries):
    reader = client_for(floor.manager)
    with django_assert_num_queries(4):
        listed = reader.get(url(floor, "cash-alerts"), {"date_from": day["date"].isoformat()})
    (alert,) = listed.json()["results"]
    assert (alert["id"], alert["membership_number"], alert["direction"], alert["total"]) == (
        day["alert"].pk,
        "A-1",
        "buy_in",
        "1000000.00",
    )
    assert alert["transaction"] == day["buy_in"].pk
    earlier = reader.get(url(floor, "cash-alerts"), {"date_to": "2001-01-01"})
    assert earlier.json()["count"] == 0
    backwards = {"date_from": "2001-01-02", "date_to": "2001-01-01"}
    assert error_of(reader.get(url(floor, "cash-alerts"), backwards)) == (
        400,
        "invalid",
        "date_from",
    )


def test_the_cash_records_are_the_pages(floor, day, django_assert_num_queries):
    path = url(floor, "cash-report")
    reader = client_for(floor.supervisor)
    # no thresholds approved yet: the day is not judged
    unjudged = reader.get(path).json()
    assert (unjudged["log"], unjudged["candidates"]) == ([], [])
    assert unjudged["unjudged"] == [day["date"].isoformat()]
    version = thresholds_propose(
        venue=floor.venue,
        user=floor.manager,
        logging_threshold="500000",
        reporting_threshold="1000000",
    )
    thresholds_approve(version=version, user=staff("manager2", MANAGER, floor.venue))
    # 7, whatever the rows: the venue, the log's four sources, the thresholds, the alerts
    with django_assert_num_queries(7):
        report = reader.get(path, {"date_from": day["date"], "date_to": day["date"]}).json()
    # A's cash in: 1,000,000 (the 50,000 voided left out), at the reporting threshold; A's
    # cash out of 300,000 is under the logging threshold; the unknown patron is in no total
    (logged,) = report["log"]
    assert (logged["source"], logged["source_id"], logged["day_total"]) == (
        "cash_transaction",
        day["buy_in"].pk,
        "1000000.00",
    )
    (candidate,) = report["candidates"]
    assert (candidate["membership_number"], candidate["kind"], candidate["total"]) == (
        "A-1",
        "buy_in",
        "1000000.00",
    )
    assert (candidate["movements"], candidate["reporting_threshold"]) == (1, "1000000.00")
    local = timezone.localtime(day["alert"].raised_at, venue_zone(floor.venue))
    assert candidate["alert_raised_at"] == local.isoformat()
    assert report["unjudged"] == []
    too_long = {"date_from": "2020-01-01", "date_to": "2020-12-31"}
    assert error_of(reader.get(path, too_long)) == (400, "invalid", "date_from")


def test_the_days_figures_are_the_counts(floor, day, django_assert_num_queries):
    path = url(floor, f"figures/{day['date'].isoformat()}")
    reader = client_for(floor.supervisor)
    # 11: the markers the cage took on a table's account are one GROUP BY (docs/MARKERS.md)
    with django_assert_num_queries(11):
        figures = reader.get(path).json()
    (row,) = figures["rows"]
    assert row["table"]["code"] == floor.table.code
    assert (row["opener"], row["closer"], row["drop"]) == ("5000000.00", "4200000.00", "900000.00")
    assert (row["win_by_count"], row["win_by_ledger"], row["handle"], row["hold_pct"]) == (
        "100000.00",
        "100000.00",
        "100000.00",
        "100",
    )
    assert D(row["win_drop_pct"]).quantize(D("0.01")) == D("11.11")
    assert figures["total"]["win_by_count"] == "100000.00"
    # the tray counted as the definition expects (chips bought back included): no variance
    assert day["session"].win_by_count - day["session"].win_by_ledger == 0
    assert figures["count_closed"] is False
    # the same figures the count's endpoint gives, under their names
    count = reader.get(f"/api/v1/venues/{floor.venue.pk}/count/{day['date']}/figures/").json()
    assert count["rows"][0]["win"] == row["win_by_count"]
    assert count["rows"][0]["house_win"] == row["win_by_ledger"]
    assert error_of(reader.get(url(floor, "figures/not-a-date")))[:2] == (404, "not_found")


def test_the_reconciliation_is_the_pages(floor, day, django_assert_num_queries):
    """The day reconciles at the table (no variance at close, win by count = win by ledger
    = 100,000) but its box is not counted yet: the day does not reconcile."""
    path = url(floor, f"reconciliation/{day['date'].isoformat()}")
    reader = client_for(floor.auditor)
    # 16: the markers the cage took on a table's account are one GROUP BY (docs/MARKERS.md)
    with django_assert_num_queries(16):
        found = reader.get(path).json()
    assert (found["venue"], found["gaming_date"]) == (floor.venue.pk, day["date"].isoformat())
    (row,) = found["rows"]
    assert row["table"] == {"id": floor.table.pk, "code": floor.table.code}
    assert (row["win_by_ledger"], row["win_by_count"], row["difference"]) == (
        "100000.00",
        "100000.00",
        "0.00",
    )
    assert (row["drop"], row["settles"], row["uncounted"], row["still_open"]) == (
        "900000.00",
        True,
        1,
        0,
    )
    assert row["reconciles"] is False  # its box is not counted yet
    (line,) = row["lines"]
    assert (line["session"], line["open"], line["variance"], line["reason"]) == (
        day["session"].pk,
        False,
        "0.00",
        "",
    )
    assert line["counted"]["counted"] is False and line["counted"]["counted_drop"] == "0.00"
    assert (line["voids"], line["late"]) == (None, None)
    assert found["total"] == {
        "drop": "900000.00",
        "win_by_count": "100000.00",
        "win_by_ledger": "100000.00",
        "difference": "0.00",
        "reconciles": False,
    }
    # the page's figures, from the same function
    page = reconciliation(floor.venue, day["date"])
    assert D(row["difference"]) == page["rows"][0]["difference"]
    assert found["total"]["reconciles"] is page["total"]["reconciles"]
    assert error_of(reader.get(url(floor, "reconciliation/2026-13-01")))[:2] == (404, "not_found")


def test_the_period_is_the_periods_page(floor, day, django_assert_num_queries):
    reader = client_for(floor.auditor)
    # The periods read the settled bets and, apart, the accounting-only tables by count; the
    # bets' GROUP BY is planned for its own range (casino.kernel.plans.custom_plans: in a
    # test's transaction, a savepoint, its SET LOCAL and the savepoint's release).
    with django_assert_num_queries(8):
        period = reader.get(
            url(floor, "periods"),
            {"kind": "mtd", "day": day["date"].isoformat(), "dimension": "venue"},
        ).json()
    assert (period["kind"], period["end"], period["dimension"]) == (
        "mtd",
        str(day["date"]),
        "venue",
    )
    assert period["start"] == day["date"].replace(day=1).isoformat()
    assert period["total"]["key"] == floor.venue.code
    total = period["total"]
    assert (total["handle"], total["house_win"], total["hold_pct"]) == (
        "100000.00",
        "100000.00",
        "100",
    )
    assert (total["bet_count"], total["previous_handle"], total["handle_change"]) == (
        1,
        "0.00",
        "100000.00",
    )
    by_table = reader.get(
        url(floor, "periods"), {"kind": "day", "day": day["date"], "dimension": "table"}
    ).json()
    assert [(line["key"], line["house_win"]) for line in by_table["lines"]] == [
        (floor.table.code, "100000.00")
    ]
    ranged = {"kind": "range", "day": "2020-01-01", "to": "2021-12-31"}
    assert error_of(reader.get(url(floor, "periods"), ranged)) == (400, "invalid", "to")
    assert error_of(reader.get(url(floor, "periods"), {"kind": "decade"}))[:3] == (
        400,
        "invalid",
        "kind",
    )


@pytest.mark.parametrize(
    "what",
    [
        "cash-transactions",
        "cash-report",
        "cash-alerts",
        "ratings",
        "periods",
        "figures/2026-01-01",
        "reconciliation/2026-01-01",
    ],
)
def test_only_the_venues_report_readers(floor, what):
    # the role before any lookup: a dealer, a cashier and a counter are refused
    for role in (floor.dealer, staff("cashier", CAGE, floor.venue), staff("c", COUNT, floor.venue)):
        assert error_of(client_for(role).get(url(floor, what)))[:2] == (403, "forbidden")
    # a reader at another venue: this one is not found
    other = client_for(floor.other_supervisor)
    assert error_of(other.get(url(floor, what)))[:2] == (404, "not_found")
    assert error_of(client_for().get(url(floor, what)))[:2] == (401, "not_authenticated")
    assert client_for(floor.supervisor).get(url(floor, what)).status_code == 200
