"""The cash records page (/reports/cash/), its CSV and its API read the multiple transaction
log (casino.cage.cash_log), as the cash log page and the thresholds' alerts do: one
definition of a person's cash of a day, whatever surface shows it.

Worked by hand (venue in VND; logging threshold 30,000,000, reporting 100,000,000):

    where  what                                          VIP-5 in   out     U-…-1 in
    NN1    buy-in, cash (VIP-5)             40,000,000   40,000,000
    cage   chip purchase (VIP-5)            30,000,000   70,000,000
    cage   front money deposit (VIP-5)      20,000,000   90,000,000
    cage   its reversal                    -20,000,000   70,000,000
    cage   marker paid in cash (VIP-5)      10,000,000   80,000,000
    cage   front money deposit (VIP-5)      25,000,000  105,000,000 -> alert (in)
    cage   chip redemption (VIP-5)           8,000,000               8,000,000
    NN1    buy-in, cash, described          40,000,000                         40,000,000
    cage   chip purchase (U-…-1)            70,000,000                        110,000,000
                                                                                -> alert

VIP-5: in 105,000,000 (6 rows, a report candidate), out 8,000,000 (under the logging
threshold: not in the records); U-…-1: in 110,000,000 (2 rows, a candidate).
"""

from __future__ import annotations

import csv
import io
import re
from decimal import Decimal as D

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import timezone

from casino.cage.models import CashAlert
from casino.cage.selectors import cash_report
from casino.cage.services.cash import cash_record
from casino.cage.services.credit_lines import credit_line_approve, credit_line_propose
from casino.cage.services.front_money import front_money_deposit, front_money_reverse
from casino.cage.services.inventory import chip_purchase, chip_redemption
from casino.cage.services.markers import marker_issue_at_cage, marker_pay
from casino.cage.services.patrons import WindowPatron
from casino.cage.services.thresholds import day_total, gaming_date_at
from tests.casino.api import client_for
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db

M = D("1000000")


def _purchase(venue, cashier, millions, patron):
    return chip_purchase(
        venue=venue,
        user=cashier,
        chips={"1000000": millions},
        notes={"500000": millions * 2},
        patron=patron,
    )


@pytest.fixture
def day(floor, session, cashier, thresholds, approver):
    venue = floor.venue
    venue.note_denominations = ["500000"]
    venue.save(update_fields=["note_denominations"])
    member = PlayerFactory(venue=venue, membership_number="VIP-5", id_document_number="P55")
    mine = WindowPatron(player=member)
    cash_record(session=session, user=floor.dealer, player=member, amount=40 * M)
    _purchase(venue, cashier, 30, mine)
    deposit = front_money_deposit(venue=venue, player=member, user=cashier, amount=20 * M)
    front_money_reverse(movement=deposit, user=floor.manager, reason="typed twice")
    line = credit_line_propose(venue=venue, player=member, user=floor.manager, limit=50 * M)
    credit_line_approve(line=line, user=approver)
    marker = marker_issue_at_cage(
        venue=venue,
        player=member,
        user=cashier,
        supervisor=floor.supervisor,
        amount=20 * M,
        player_signed=True,
    )
    marker_pay(marker=marker, user=cashier, amount=10 * M, method="cash")
    front_money_deposit(venue=venue, player=member, user=cashier, amount=25 * M)
    chip_redemption(
        venue=venue, user=cashier, chips={"1000000": 8}, notes={"500000": 16}, patron=mine
    )
    described = cash_record(
        session=session, user=floor.dealer, amount=40 * M, patron_description="a man, blue tie"
    )
    patron = described.unknown_patron
    _purchase(venue, cashier, 70, WindowPatron(unknown_patron=patron))
    return {
        "date": gaming_date_at(venue, timezone.now()),
        "member": member,
        "patron": patron,
    }


def _expected(day):
    return {
        ("VIP-5", "buy_in"): 105 * M,
        (day["patron"].code, "buy_in"): 110 * M,
    }


def test_the_records_are_the_log_and_the_total_is_day_total(floor, day):
    report = cash_report(venue=floor.venue, date_from=day["date"], date_to=day["date"])
    found = {(c.person, c.kind): c.total for c in report.candidates}
    assert found == _expected(day)
    totals = {
        ("VIP-5", "buy_in"): day_total(
            player=day["member"], gaming_date=day["date"], kind="buy_in"
        ),
        (day["patron"].code, "buy_in"): day_total(
            unknown_patron=day["patron"], gaming_date=day["date"], kind="buy_in"
        ),
    }
    assert found == totals
    # every row of the two days in, each with the person's running total; the member's
    # cash out (8,000,000) is under the logging threshold
    assert [(line.row.person, line.row.kind, line.day_total) for line in report.log][:7] == [
        ("VIP-5", "buy_in", 40 * M),
        ("VIP-5", "chip_purchase", 70 * M),
        ("VIP-5", "front_money_deposit", 90 * M),
        ("VIP-5", "front_money_deposit", 70 * M),
        ("VIP-5", "marker_payment", 80 * M),
        ("VIP-5", "front_money_deposit", 105 * M),
        (day["patron"].code, "buy_in", 40 * M),
    ]
    assert len(report.log) == 8
    alerts = {(c.person, c.alert.total) for c in report.candidates}
    assert alerts == {("VIP-5", 105 * M), (day["patron"].code, 110 * M)}
    assert CashAlert.objects.count() == 2


def test_the_page_its_csv_its_api_and_the_cash_log_page_agree(floor, day, client):
    client.force_login(floor.supervisor)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    span = {"venue": floor.venue.code, "from": day["date"].isoformat()}
    span["to"] = span["from"]
    page = client.get(reverse("reports:cash"), span).content.decode()
    on_page = {
        (person, kind): D(total)
        for person, kind, total in re.findall(
            r'data-person="([^"]+)" data-kind="([^"]+)" data-total="([^"]+)"', page
        )
    }
    assert on_page == _expected(day)
    assert "a man, blue tie" in page and "Front money deposit" in page

    text = client.get(reverse("reports:cash_csv"), span).content.decode("utf-8-sig")
    lines = list(csv.reader(io.StringIO(text)))
    start = lines.index(next(line for line in lines if line[:1] == ["[Report candidates]"]))
    header = lines[start + 1]
    rows = [dict(zip(header, line, strict=True)) for line in lines[start + 2 :] if line]
    in_csv = {(r["Person"], "buy_in"): D(r["Total"]) for r in rows}
    assert {r["Direction"] for r in rows} == {"Cash in"}
    assert in_csv == _expected(day)

    api = client_for(floor.supervisor)
    dates = {"date_from": span["from"], "date_to": span["to"]}
    body = api.get(f"/api/v1/venues/{floor.venue.pk}/cash-report/", dates).json()
    in_api = {(c["person"], c["kind"]): D(c["total"]) for c in body["candidates"]}
    assert in_api == _expected(day)
    patron_row = next(c for c in body["candidates"] if c["unknown_patron"])
    assert (patron_row["player"], patron_row["name"]) == (None, "a man, blue tie")
    assert {r["source"] for r in body["log"]} == {
        "cash_transaction",
        "cage_movement",
        "front_money",
        "marker_payment",
    }

    log_page = client.get(
        reverse("console:cash-log", args=[floor.venue.pk]), {"day": span["from"]}
    ).content.decode()
    on_log = {
        (person, "buy_in"): D(cash_in)
        for person, cash_in in re.findall(r'data-person="([^"]+)" data-cash-in="([^"]+)"', log_page)
    }
    assert on_log == _expected(day)


def test_a_patron_linked_since_shows_their_alert_under_the_member(floor, day):
    """The patron's 110,000,000 raised its alert as U-…-1; linked to a member since, the
    records list the rows under the member, with that alert beside them."""
    from casino.cage.services.patrons import unknown_patron_link

    member = PlayerFactory(venue=floor.venue, membership_number="VIP-6", id_document_number="P6")
    unknown_patron_link(patron=day["patron"], member=member, user=floor.supervisor)
    report = cash_report(venue=floor.venue, date_from=day["date"], date_to=day["date"])
    found = {c.person: (c.total, c.alert) for c in report.candidates}
    total, alert = found["VIP-6"]
    assert total == 110 * M and alert is not None
    assert (alert.unknown_patron, alert.total) == (day["patron"], 110 * M)
    assert found["VIP-5"][1].player == day["member"]
