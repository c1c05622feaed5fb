"""A gaming day at one table through the services, its figures worked by hand and read on
every surface that shows them (casino.floor.figures defines each once).

The day at NN1 (chips of 1,000,000):
- opener 150 x 1,000,000 = 150,000,000
- a fill of 5,000,000 and a credit of 2,000,000 through the cage
- two settled rounds of 1,000,000 on the single bet: the box's Niu 9 beats the dealer's
  Niu 8, then the dealer's Niu 9 beats the box's Niu 8; a third round settled and voided
  (its entries reversed: it moves nothing). The house's net from settled rounds:
  H = -950,000 (the box's 1,000,000 less 5% commission) + 1,000,000 = 50,000.
- cash buy-ins 100,000,000 and 10,000,000 (chips sold at the table: 110,000,000), a
  third of 7,000,000 voided; a cash-out of 3,000,000 (chips bought back)
- tray expected = 150,000,000 + 5,000,000 - 2,000,000 + H - 110,000,000 + 3,000,000
  = 46,000,000 + H = 46,050,000; the closer is counted as the tray stands, no drop entered
- at close: win by count = closer - opener + credits - fills + drop(0)
  = 46,050,000 - 150,000,000 + 2,000,000 - 5,000,000 = -106,950,000;
  variance = win by count - H = -107,000,000 (the drop is not counted yet)
- the count: two counters find 214 notes of 500,000 = 107,000,000 (cash in 110,000,000,
  cash out 3,000,000); with it: drop 107,000,000, win by count 50,000 = H, variance 0,
  win/drop 0.05%
"""

from __future__ import annotations

from decimal import Decimal as D

import pytest
from django.conf import settings
from django.db.models import Sum
from django.test import Client
from django.urls import reverse

from casino.cage.models import CashKind
from casino.cage.services.cash import cash_record, cash_void
from casino.cage.services.slips import slip_request
from casino.count.selectors import win_figures
from casino.count.services import count_close, count_record
from casino.floor import figures
from casino.floor.models import Round, TableSession
from casino.floor.services.closing import session_close
from casino.floor.services.rounds import round_create
from casino.floor.services.sessions import session_open
from casino.floor.services.settlement import round_settle
from casino.floor.services.voids import round_void
from casino.games import BoxInput
from casino.reports import outputs
from casino.reports.models import ShiftReport
from casino.reports.services import report_build, report_request
from casino.simulation import chips_for
from casino.staff.roles import COUNT
from casino.templatetags.console_tags import money, signed_money
from tests.casino.api import NIU_8, NIU_9, client_for
from tests.casino.days import end_gaming_day
from tests.casino.slips import slip_post
from tests.factories import staff

pytestmark = pytest.mark.django_db

M = D("1000000")
OPENER = 150 * M
FILLS, CREDITS = 5 * M, 2 * M
SOLD, BOUGHT_BACK = 110 * M, 3 * M
DROP = 107 * M


def settle(session, dealer, box_cards, dealer_cards):
    round_, _result = round_create(
        session=session,
        user=dealer,
        dealer_cards=dealer_cards,
        boxes=[BoxInput(position=1, cards=box_cards, stakes={"single": M})],
    )
    round_settle(round_=round_, user=dealer, key=f"settle-{round_.pk}")
    return Round.objects.get(pk=round_.pk)


@pytest.fixture
def day(floor, cashier):
    """The day played up to the closing count's screen (the table still open)."""
    floor.venue.note_denominations = ["500000", "200000", "100000"]
    floor.venue.save()
    session = session_open(
        table=floor.table,
        counted_by=floor.dealer,
        confirmed_by=floor.supervisor,
        opening_chips={"1000000": 150},
    )
    fill = slip_request(session=session, user=floor.dealer, kind="fill", chips={"1000000": 5})
    slip_post(fill, dealer=floor.dealer, supervisor=floor.supervisor2, cashier=cashier)
    credit = slip_request(session=session, user=floor.dealer, kind="credit", chips={"1000000": 2})
    slip_post(credit, dealer=floor.dealer, supervisor=floor.supervisor2, cashier=cashier)
    settle(session, floor.dealer, NIU_9, NIU_8)
    settle(session, floor.dealer, NIU_8, NIU_9)
    voided = settle(session, floor.dealer, NIU_9, NIU_8)
    round_void(
        round_=voided, requested_by=floor.dealer, approved_by=floor.supervisor, reason="misdeal"
    )
    for amount in ("100000000", "10000000"):
        cash_record(session=session, user=floor.dealer, amount=amount)
    mistaken = cash_record(session=session, user=floor.dealer, amount="7000000")
    cash_void(tx=mistaken, user=floor.supervisor, reason="typed at the wrong table")
    cash_record(session=session, user=floor.dealer, amount="3000000", kind=CashKind.CASH_OUT)
    floor.session = session
    floor.house = Round.objects.filter(session=session, status="settled").aggregate(
        h=Sum("house_net")
    )["h"]
    return floor


def test_the_tray_expected_takes_the_chips_sold_and_bought_back_line_by_line(day, client):
    tray = figures.tray_expected(opener=OPENER, sums=figures.session_sums(day.session))
    assert tray.total == OPENER + FILLS - CREDITS + day.house - SOLD + BOUGHT_BACK
    assert [(key, amount) for key, _label, amount in tray.lines()] == [
        ("opener", OPENER),
        ("fills", FILLS),
        ("credits", -CREDITS),
        ("house_net", day.house),
        ("chips_sold", -SOLD),
        ("chips_bought_back", BOUGHT_BACK),
    ]
    client.force_login(day.dealer)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    page = client.get(reverse("console:close", args=[day.session.pk])).content.decode()
    assert 'data-tray-line="chips_sold"' in page and "Chips sold at the table" in page
    assert f'data-figure="tray_expected">{money(tray.total, day.venue)}<' in page
    # By hand: 46,050,000, the tray as it stands. The screen suggested 153,050,000 before
    # (opener + house + fills - credits - drop entered: the chips sold left out).
    assert tray.total == D("46050000")


def test_the_count_completes_the_day_on_every_surface(day, client):
    closer = 46 * M + day.house
    session = session_close(
        session=day.session,
        counted_by=day.dealer,
        confirmed_by=day.supervisor,
        closing_chips=chips_for(closer, day.table.chip_denominations),
        variance_reason="the drop is counted in the count room",
    )
    win_at_close = day.house - 107 * M
    assert (session.closing_total, session.drop_total) == (closer, 0)
    assert win_at_close == D("-106950000")
    assert (session.win_by_count, session.win_by_ledger, session.variance) == (
        win_at_close,
        day.house,
        -107 * M,
    )
    end_gaming_day(day.venue, session.shift.gaming_date)

    # A report built before the count: "drop not counted yet", never 0.
    report = report_request(shift_id=session.shift_id, send=False)
    before = report_build(report_id=report.pk, email=False)
    assert before.status == ShiftReport.Status.DONE, before.error
    (line,) = before.figures["count"]["sessions"]
    assert (line["counted"], line["win_with_count"], line["variance_with_count"]) == (
        False,
        None,
        None,
    )
    sheet = outputs.render_csv(before.figures).decode()
    assert "drop not counted yet" in sheet
    assert "Sessions whose drop is not counted yet,1" in sheet
    assert line["flagged"] is True  # -107,000,000 until the count explains it
    api = client_for(day.supervisor)
    answer = api.get(f"/api/v1/sessions/{session.pk}/").json()["reconciliation"]
    assert answer["with_count"] == {
        "counted": False,
        "counted_drop": None,
        "drop": None,
        "win_by_count": None,
        "variance": None,
    }

    client.force_login(day.supervisor)

    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    page = client.get(reverse("console:close", args=[session.pk])).content.decode()
    assert "Drop not counted yet" in page

    counter, counter2 = staff("counter", COUNT, day.venue), staff("counter2", COUNT, day.venue)
    box = session.drop_box_link.box
    for who in (counter, counter2):
        count_record(box=box, user=who, notes={"500000": 214})
    count_close(venue=day.venue, gaming_date=box.gaming_date, user=counter, confirmed_by=counter2)
    # The day's count closed asks for the shift's report again.
    before.refresh_from_db()
    assert before.status == ShiftReport.Status.PENDING

    # The stored figures stay as at close; those with the count stand beside them.
    session.refresh_from_db()
    assert (session.drop_total, session.variance) == (0, -107 * M)
    counted = figures.session_counted(session)
    assert (counted.counted, counted.drop, counted.win_by_count, counted.variance) == (
        True,
        DROP,
        day.house,
        0,
    )
    # API session figures
    answer = api.get(f"/api/v1/sessions/{session.pk}/").json()["reconciliation"]
    assert D(answer["drop"]) == 0 and D(answer["variance"]) == -107 * M
    assert answer["with_count"]["counted"] is True
    assert D(answer["with_count"]["counted_drop"]) == DROP
    assert D(answer["with_count"]["win_by_count"]) == day.house
    assert D(answer["with_count"]["variance"]) == 0
    # The console's closed-session summary
    client.force_login(day.supervisor)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    page = client.get(reverse("console:close", args=[session.pk])).content.decode()
    assert f'data-figure="counted_drop">{money(DROP, day.venue)}<' in page
    assert f'data-figure="counted_variance">{signed_money(D(0), day.venue)}<' in page
    assert f'data-figure="variance">{signed_money(-107 * M, day.venue)}<' in page
    # The count's win per table and day
    (row,) = win_figures(day.venue, box.gaming_date)["rows"]
    assert (row["drop"], row["win"]) == (DROP, counted.win_by_count)
    assert row["win_drop_pct"] == figures.win_drop_pct(day.house, DROP) == D("0.05")
    count_room = Client()
    count_room.force_login(counter)
    count_room.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    shown = count_room.get(
        reverse("console:count-figures", args=[day.venue.pk, box.gaming_date.isoformat()])
    ).content.decode()
    assert signed_money(day.house, day.venue) in shown and "0.05%" in shown
    assert str(figures.DEFINITIONS["win_by_count"]) in shown

    # The report rebuilt after the count: its count-against-ledger rows take the drop.
    after = report_build(report_id=before.pk, email=False)
    assert after.status == ShiftReport.Status.DONE, after.error
    (line,) = after.figures["count"]["sessions"]
    assert line["counted"] is True
    assert (D(line["counted_drop"]), D(line["win_with_count"]), D(line["variance_with_count"])) == (
        DROP,
        day.house,
        0,
    )
    assert D(line["variance"]) == -107 * M  # as at close
    assert line["flagged"] is False and after.figures["count"]["flagged_sessions"] == 0
    sheet = outputs.render_csv(after.figures).decode()
    assert "drop not counted yet" not in sheet
    assert "Sessions whose drop is not counted yet,0" in sheet
    client.force_login(day.manager)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    html = client.get(reverse("reports:report", args=[after.pk])).content.decode()
    shown = outputs.present(after.figures)["count"]["sessions"][0]
    assert f'data-figure="counted_drop">{shown["counted_drop"]}<' in html
    assert f'data-figure="variance_with_count">{shown["variance_with_count"]}<' in html
    assert str(figures.DEFINITIONS["win_by_count"]) in html  # which definition it uses
    assert TableSession.objects.get(pk=session.pk).win_by_count == win_at_close


def test_a_players_average_bet_and_actual_win_as_defined():
    assert figures.average_bet(D("250000"), 3) == D("83333.33")
    assert figures.average_bet(D("0"), 0) is None
    # Totals over a line rated from bets (30 minutes at 80,000) and one rated by hand (an
    # hour at 100,000): weighted by the minutes; a line without an average bet is left out.
    lines = [(D("80000"), 30), (D("100000"), 60), (None, 15)]
    assert figures.average_bet_over_time(lines) == D("93333.33")
    assert figures.average_bet_over_time([(None, 10)]) is None
    # The house's from a player who lost 455,000 where it banks and paid 30,000 in fees
    # where players play each other (what they lost there to the others is not the house's).
    assert figures.actual_win(banked_result=D("-455000"), fees=D("30000")) == D("485000")
    assert figures.actual_win(banked_result=None, fees=None) == 0
