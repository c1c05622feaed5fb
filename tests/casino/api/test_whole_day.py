"""A whole gaming day through the API alone, at a dealt table and an accounting-only one,
its figures worked by hand and read back, equal, from every read of the API that shows
them (the steps: tests/casino/api/whole_day.py).

NN1, Niu Niu (the day of tests/casino/test_figures.py):
- opener 150 x 1,000,000 = 150,000,000, counted by the dealer, confirmed by a supervisor;
- a fill of 5,000,000 and a credit of 2,000,000 through the cage;
- two settled rounds of 1,000,000 on the single bet: the box's Niu 9 beats the dealer's
  Niu 8 (the house pays 1,000,000 less 5% commission: -950,000), then the dealer's Niu 9
  beats the box's Niu 8 (+1,000,000); a third settled and voided (it moves nothing).
  Win by ledger H = 50,000 of a handle of 2,000,000: hold 2.5%;
- cash buy-ins: Lan 100,000,000 (the reporting threshold, 100,000,000: a passport shown;
  a cash alert), a patron nobody knows 10,000,000 (under the logging threshold,
  20,000,000), 7,000,000 for Minh typed by mistake and voided; Lan cashes out 3,000,000;
- the tray at close = 150,000,000 + 5,000,000 - 2,000,000 + 50,000 - 110,000,000 +
  3,000,000 = 46,050,000, counted so;
- at close (no drop yet): win by count = 46,050,000 - 150,000,000 + 2,000,000 - 5,000,000
  = -106,950,000, variance -107,000,000 (a reason given);
- the count: two counters find 214 notes of 500,000 = 107,000,000 (= 110,000,000 in -
  3,000,000 out): drop 107,000,000, win by count 50,000 = H, variance 0, win/drop 0.05%.

BJ1, blackjack kept for its accounting (2% edge, 60 hands an hour):
- opener 10 x 1,000,000 = 10,000,000; Minh buys in 3,000,000 in cash;
- Lan rated for 30 minutes at an average bet of 100,000: 30 decisions, theoretical win
  100,000 x 30 x 2% = 60,000; the house won 600,000 from Lan;
- closer 8 x 1,000,000 = 8,000,000; the count: 6 notes of 500,000 = 3,000,000;
- win by count = 8,000,000 - 10,000,000 + 0 - 0 + 3,000,000 = 1,000,000; win/drop
  33.33%; no variance (a game that settles no rounds has no ledger to explain).

The day: drop 110,000,000, win by count 1,050,000; the settled bets' house win 50,000
(the rated table's win stands apart, never added to it).
"""

from __future__ import annotations

from decimal import Decimal as D

import pytest

from tests.casino.api.whole_day import (
    count_the_boxes,
    end_the_day,
    ok,
    play_bj1,
    play_nn1,
    set_up,
)

pytestmark = pytest.mark.django_db

M = D("1000000")
H = D("50000")
NN1_DROP, BJ1_DROP = 107 * M, 3 * M
BJ1_WIN = M


def money(text: str | None) -> D | None:
    return None if text is None else D(text)


@pytest.fixture
def day(floor):
    return set_up(floor)


def build_report(day, django_capture_on_commit_callbacks) -> dict:
    """The manager asks for the shift's report; it is built (the worker runs here)."""
    with django_capture_on_commit_callbacks(execute=True):
        asked = ok(
            day.manager.post(f"/api/v1/shifts/{day.ids['shift']}/report/", format="json"), 202
        )
    return ok(day.auditor.get(f"/api/v1/shift-reports/{asked['id']}/"))


def test_the_day_through_the_api(day, celery_eager, django_capture_on_commit_callbacks):
    nn1 = play_nn1(day)
    closed = nn1["reconciliation"]
    assert (money(closed["win_by_count"]), money(closed["win_by_ledger"])) == (
        -106_950_000,
        H,
    )
    assert (money(closed["drop"]), money(closed["variance"])) == (0, -107 * M)
    assert nn1["reconciliation"]["with_count"]["counted"] is False
    bj1 = play_bj1(day)
    assert money(bj1["closing_total"]) == 8 * M
    gaming_date = nn1["shift"]["gaming_date"]
    end_the_day(day, gaming_date)

    # The report built before the count: the drop is not counted yet, never 0.
    before = build_report(day, django_capture_on_commit_callbacks)
    assert before["status"] == "done", before["error"]
    lines = {line["table"]: line for line in before["figures"]["count"]["sessions"]}
    assert lines["NN1"]["counted"] is False and lines["NN1"]["win_with_count"] is None

    with django_capture_on_commit_callbacks(execute=True):
        count = count_the_boxes(day, gaming_date)
    assert count["status"] == "closed"
    # The count's close rebuilt the report; the manager rebuilds it once more.
    rebuilt = ok(day.auditor.get(f"/api/v1/shift-reports/{before['id']}/"))
    assert rebuilt["status"] == "done" and rebuilt["finished_at"] > before["finished_at"]
    lines = {line["table"]: line for line in rebuilt["figures"]["count"]["sessions"]}
    assert money(lines["NN1"]["counted_drop"]) == NN1_DROP
    after = build_report(day, django_capture_on_commit_callbacks)
    assert after["id"] == before["id"] and after["status"] == "done", after["error"]
    report_figures_are_the_days(after["figures"])
    session_figures_take_the_counted_drop(day)
    days_figures_are_the_counts(day, gaming_date)
    periods_are_the_days(day, gaming_date)
    cash_records_are_the_days(day, gaming_date)
    ratings_are_the_days(day, gaming_date)
    the_players_history_is_the_days(day, gaming_date)


def report_figures_are_the_days(figures: dict) -> None:
    lines = {line["table"]: line for line in figures["count"]["sessions"]}
    nn1, bj1 = lines["NN1"], lines["BJ1"]
    assert nn1["counted"] is True and nn1["flagged"] is False
    assert (money(nn1["counted_drop"]), money(nn1["win_with_count"])) == (NN1_DROP, H)
    assert money(nn1["variance_with_count"]) == 0
    assert money(nn1["variance"]) == -107 * M  # as at close
    assert (money(bj1["counted_drop"]), money(bj1["win_with_count"])) == (BJ1_DROP, BJ1_WIN)
    # The settled bets' house win leaves the rated table out; its win stands apart.
    assert money(figures["total"]["house_win"]) == H
    assert money(figures["total"]["handle"]) == 2 * M
    assert money(figures["rated_total"]["house_win"]) == BJ1_WIN
    assert money(figures["rated_total"]["theoretical_win"]) == D("60000")
    players = {line["key"]: line for line in figures["players"]}
    assert money(players["A-1"]["theoretical_win"]) == D("60000")
    assert (players["A-1"]["minutes"], players["A-1"]["hands"]) == (30, 30)


def session_figures_take_the_counted_drop(day) -> None:
    nn1 = ok(day.supervisor.get(f"/api/v1/sessions/{day.ids['nn1']}/"))["reconciliation"]
    assert (money(nn1["drop"]), money(nn1["variance"])) == (0, -107 * M)  # as at close
    counted = nn1["with_count"]
    assert counted["counted"] is True
    assert (money(counted["counted_drop"]), money(counted["drop"])) == (NN1_DROP, NN1_DROP)
    assert (money(counted["win_by_count"]), money(counted["variance"])) == (H, 0)
    bj1 = ok(day.supervisor.get(f"/api/v1/sessions/{day.ids['bj1']}/"))["reconciliation"]
    counted = bj1["with_count"]
    assert (money(counted["counted_drop"]), money(counted["win_by_count"])) == (
        BJ1_DROP,
        BJ1_WIN,
    )
    assert money(counted["variance"]) == 0


def days_figures_are_the_counts(day, gaming_date: str) -> None:
    figures = ok(day.auditor.get(day.venue_url(f"figures/{gaming_date}")))
    assert figures["count_closed"] is True
    rows = {row["table"]["code"]: row for row in figures["rows"]}
    nn1, bj1 = rows["NN1"], rows["BJ1"]
    assert [money(nn1[k]) for k in ("opener", "closer", "fills", "credits", "drop")] == [
        150 * M,
        D("46050000"),
        5 * M,
        2 * M,
        NN1_DROP,
    ]
    assert (money(nn1["win_by_count"]), money(nn1["win_by_ledger"])) == (H, H)
    assert (money(nn1["handle"]), D(nn1["hold_pct"]), D(nn1["win_drop_pct"])) == (
        2 * M,
        D("2.5"),
        D("0.05"),
    )
    assert [money(bj1[k]) for k in ("opener", "closer", "drop", "win_by_count")] == [
        10 * M,
        8 * M,
        BJ1_DROP,
        BJ1_WIN,
    ]
    assert D(bj1["win_drop_pct"]).quantize(D("0.01")) == D("33.33")
    total = figures["total"]
    assert (money(total["drop"]), money(total["win_by_count"])) == (110 * M, H + BJ1_WIN)
    # The count's own figures per table say the same.
    count = ok(day.auditor.get(day.venue_url(f"count/{gaming_date}/figures")))
    assert {row["table"]["code"]: money(row["win"]) for row in count["rows"]} == {
        "NN1": H,
        "BJ1": BJ1_WIN,
    }
    assert money(count["total"]["win"]) == H + BJ1_WIN


def periods_are_the_days(day, gaming_date: str) -> None:
    asked = {"kind": "day", "day": gaming_date, "dimension": "table"}
    period = ok(day.auditor.get(day.venue_url("periods"), asked))
    (line,) = period["lines"]
    assert (line["key"], money(line["handle"]), money(line["house_win"])) == ("NN1", 2 * M, H)
    assert D(line["hold_pct"]) == D("2.5") and money(period["total"]["house_win"]) == H
    (rated,) = period["accounting"]
    assert (rated["key"], money(rated["drop"]), money(rated["win_by_count"])) == (
        "BJ1",
        BJ1_DROP,
        BJ1_WIN,
    )
    assert D(rated["win_drop_pct"]).quantize(D("0.01")) == D("33.33")
    assert money(period["accounting_total"]["win_by_count"]) == BJ1_WIN
    mtd = ok(day.auditor.get(day.venue_url("periods"), {**asked, "kind": "mtd"}))
    assert money(mtd["total"]["house_win"]) == H
    assert money(mtd["accounting_total"]["win_by_count"]) == BJ1_WIN


def cash_records_are_the_days(day, gaming_date: str) -> None:
    listed = ok(day.auditor.get(day.venue_url("cash-transactions"), {"gaming_date": gaming_date}))
    rows = {row["id"]: row for row in listed["results"]}
    assert listed["count"] == 5
    lan_in = rows[day.ids["lan_in"]["id"]]
    assert (lan_in["threshold_reached"], money(lan_in["amount"])) == ("reporting", 100 * M)
    assert rows[day.ids["mistake"]["id"]]["voided"] is True
    live = [row for row in listed["results"] if not row["voided"]]
    sold = sum(money(r["amount"]) for r in live if r["kind"] == "buy_in")
    bought_back = sum(money(r["amount"]) for r in live if r["kind"] == "cash_out")
    assert sold - bought_back == NN1_DROP + BJ1_DROP  # the drop counted
    span = {"date_from": gaming_date, "date_to": gaming_date}
    report = ok(day.auditor.get(day.venue_url("cash-report"), span))
    assert [row["source_id"] for row in report["log"]] == [day.ids["lan_in"]["id"]]
    (candidate,) = report["candidates"]
    assert (candidate["membership_number"], money(candidate["total"])) == ("A-1", 100 * M)
    (alert,) = ok(day.auditor.get(day.venue_url("cash-alerts"), span))["results"]
    assert (alert["player"], alert["transaction"]) == (day.lan.pk, day.ids["lan_in"]["id"])


def ratings_are_the_days(day, gaming_date: str) -> None:
    span = {"date_from": gaming_date, "date_to": gaming_date}
    (rating,) = ok(day.auditor.get(day.venue_url("ratings"), span))["results"]
    assert (rating["player"], rating["table_code"], rating["decisions"]) == (day.lan.pk, "BJ1", 30)
    assert (money(rating["theoretical_win"]), money(rating["actual_win"])) == (
        D("60000"),
        D("600000"),
    )
    assert money(day.ids["rating"]["theoretical_win"]) == D("60000")


def the_players_history_is_the_days(day, gaming_date: str) -> None:
    span = {"date_from": gaming_date, "date_to": gaming_date}
    history = ok(day.auditor.get(f"/api/v1/players/{day.lan.pk}/history/", span))
    (line,) = history["lines"]
    assert (line["table_code"], line["minutes"], line["decisions"]) == ("BJ1", 30, 30)
    assert (money(line["theoretical_win"]), money(line["actual_win"])) == (
        D("60000"),
        D("600000"),
    )
    assert money(history["totals"]["theoretical_win"]) == D("60000")
    assert sorted((c["table"], c["kind"], money(c["amount"])) for c in history["cash"]) == [
        ("NN1", "buy_in", 100 * M),
        ("NN1", "cash_out", 3 * M),
    ]
