"""Buy-ins and cash-outs, and the cash transaction records kept of them
(casino.cage.services.cash)."""

from __future__ import annotations

import logging
from datetime import timedelta
from decimal import Decimal as D

import pytest
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from casino.audit.models import AuditEvent
from casino.cage.models import CashAlert, CashTransaction
from casino.cage.selectors import cash_report, player_cash
from casino.cage.services.cash import cash_record, cash_void
from casino.cage.services.thresholds import gaming_date_at, thresholds_approve, thresholds_propose
from casino.floor.services.sessions import session_open
from casino.kernel.errors import Conflict, Forbidden, InvalidInput
from tests.factories import PlayerFactory, niuniu_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def approver(floor):
    from casino.staff.roles import MANAGER
    from tests.factories import staff

    return staff("second-manager", MANAGER, floor.venue)


@pytest.fixture
def second(floor):
    """An open session at a second table of the venue."""
    return session_open(
        table=niuniu_table(floor.venue, code="NN2"),
        counted_by=floor.dealer,
        confirmed_by=floor.supervisor,
        opening_chips={"100000": 50},
    )


@pytest.fixture
def player(floor):
    return PlayerFactory(
        venue=floor.venue,
        membership_number="VIP-7",
        name="Tran Van A",
        # On record: a reporting threshold reached asks for no document at the table.
        id_document_type="passport",
        id_document_number="B1234567",
    )


def buy_in(session, user, player, amount, **extra):
    return cash_record(session=session, user=user, player=player, amount=D(amount), **extra)


def test_buy_ins_at_two_tables_cross_both_thresholds_in_one_gaming_day(
    floor, session, second, player, thresholds, caplog
):
    first = buy_in(session, floor.dealer, player, "20000000")
    assert first.gaming_date == gaming_date_at(floor.venue, first.recorded_at)
    assert (
        cash_report(venue=floor.venue, date_from=first.gaming_date, date_to=first.gaming_date).log
        == []
    )
    buy_in(second, floor.dealer, player, "15000000")  # 35m: logged, both of them
    # Chips and cash-outs are apart from the cash in.
    buy_in(second, floor.dealer, player, "90000000", instrument="chips")
    buy_in(session, floor.dealer, player, "90000000", kind="cash_out")
    assert not CashAlert.objects.exists()
    with caplog.at_level(logging.WARNING, logger="casino.security"):
        buy_in(session, floor.dealer, player, "70000000")  # 105m: reported
        buy_in(second, floor.dealer, player, "5000000")  # further: logged, no second alert
    report = cash_report(venue=floor.venue, date_from=first.gaming_date, date_to=first.gaming_date)
    assert [line.row.amount for line in report.log] == [
        D("20000000"),
        D("15000000"),
        D("90000000"),  # the cash-out day's total reached the log on its own
        D("70000000"),
        D("5000000"),
    ]
    assert [line.day_total for line in report.log if line.row.kind == "buy_in"][-1] == D(
        "110000000"
    )
    (alert,) = CashAlert.objects.all()
    assert (alert.player, alert.direction, alert.total) == (player, "buy_in", D("105000000"))
    (candidate,) = report.candidates
    assert (candidate.total, candidate.alert) == (D("110000000"), alert)
    assert "VIP-7" in caplog.text and "reporting threshold" in caplog.text
    assert AuditEvent.objects.filter(action="cash.alert").count() == 1
    assert player_cash(player=player)[0].amount == D("5000000")


def test_the_same_amounts_across_two_gaming_days_cross_only_what_they_should(
    floor, session, second, player, thresholds
):
    yesterday = timezone.now() - timedelta(days=1)
    # In force since before yesterday's gaming day ended.
    type(thresholds).objects.filter(pk=thresholds.pk).update(approved_at=yesterday)
    buy_in(session, floor.dealer, player, "20000000", at=yesterday)
    buy_in(second, floor.dealer, player, "15000000", at=yesterday)  # 35m: logged
    buy_in(session, floor.dealer, player, "70000000")  # today 70m + 5m: logged, not reported
    buy_in(second, floor.dealer, player, "5000000")
    days = sorted({tx.gaming_date for tx in CashTransaction.objects.all()})
    assert len(days) == 2
    report = cash_report(venue=floor.venue, date_from=days[0], date_to=days[1])
    assert [(line.row.gaming_date, line.day_total) for line in report.log] == [
        (days[0], D("20000000")),
        (days[0], D("35000000")),
        (days[1], D("70000000")),
        (days[1], D("75000000")),
    ]
    assert report.candidates == []
    assert not CashAlert.objects.exists()


def test_a_voided_transaction_leaves_the_aggregation(floor, session, player, thresholds):
    wrong = buy_in(session, floor.dealer, player, "90000000")
    with pytest.raises(Forbidden):
        cash_void(tx=wrong, user=floor.dealer, reason="typed twice")
    with pytest.raises(InvalidInput):
        cash_void(tx=wrong, user=floor.supervisor, reason=" ")
    cash_void(tx=wrong, user=floor.supervisor, reason="a zero too many")
    buy_in(session, floor.dealer, player, "9000000")
    buy_in(session, floor.dealer, player, "20000000")  # 29m without the void: nothing
    day = wrong.gaming_date
    report = cash_report(venue=floor.venue, date_from=day, date_to=day)
    assert report.log == [] and report.candidates == []
    assert CashTransaction.objects.count() == 3  # nothing deleted
    buy_in(session, floor.dealer, player, "1000000")  # 30m: logged
    assert len(cash_report(venue=floor.venue, date_from=day, date_to=day).log) == 3
    # the player's history in the API lists all four, the voided one said to be
    api = APIClient()
    api.force_authenticate(floor.auditor)
    day_range = {"date_from": day.isoformat(), "date_to": day.isoformat()}
    history = api.get(reverse("api:player-history", args=[player.pk]), day_range).json()
    assert [(line["amount"], line["voided"]) for line in history["cash"]] == [
        ("1000000.00", False),
        ("20000000.00", False),
        ("9000000.00", False),
        ("90000000.00", True),
    ]


def test_refusals(floor, session, player, thresholds, approver):
    for amount, field in (("0", "amount"), ("-5", "amount"), ("100.5", "amount")):
        with pytest.raises(InvalidInput) as refused:
            buy_in(session, floor.dealer, player, amount)
        assert refused.value.field == field
    stranger = PlayerFactory(venue=floor.other_venue, membership_number="VIP-7")
    with pytest.raises(InvalidInput, match="No player"):
        buy_in(session, floor.dealer, stranger, "1000")
    with pytest.raises(Forbidden):
        buy_in(session, floor.other_dealer, player, "1000")
    with pytest.raises(InvalidInput):
        buy_in(session, floor.dealer, player, "1000", kind="refund")
    once = buy_in(session, floor.dealer, None, "1000", key="k" * 16)
    assert buy_in(session, floor.dealer, None, "1000", key="k" * 16) == once
    with pytest.raises(InvalidInput):
        thresholds_propose(
            venue=floor.venue, user=floor.manager, logging_threshold=D(9), reporting_threshold=D(5)
        )
    version = thresholds_propose(
        venue=floor.venue, user=floor.manager, logging_threshold=D(5), reporting_threshold=D(9)
    )
    with pytest.raises(Forbidden):
        thresholds_approve(version=version, user=floor.manager)  # the proposer
    with pytest.raises(Forbidden):
        thresholds_approve(version=version, user=floor.supervisor)
    player.status = "barred"
    player.save(update_fields=["status"])
    with pytest.raises(Conflict, match="barred"):
        buy_in(session, floor.dealer, player, "1000")
    assert buy_in(session, floor.dealer, player, "1000", kind="cash_out").kind == "cash_out"
    session.status = "closed"
    session.save(update_fields=["status"])
    with pytest.raises(Conflict):
        buy_in(session, floor.dealer, player, "1000")


def test_report_page_and_csv(client, floor, session, player, thresholds, cashier):
    tx = buy_in(session, floor.dealer, player, "120000000")
    client.force_login(floor.auditor)
    day = tx.gaming_date.isoformat()
    query = f"?venue={floor.venue.code}&from={day}&to={day}"
    page = client.get(reverse("reports:cash") + query)
    assert page.status_code == 200
    text = page.content.decode()
    assert "VIP-7" in text and "120,000,000" in text and 'id="cash-candidates-title"' in text
    csv = client.get(reverse("reports:cash_csv") + query)
    assert csv.status_code == 200
    lines = csv.content.decode("utf-8-sig").splitlines()
    assert any(line.startswith(f"{day},") and "VIP-7,Tran Van A" in line for line in lines)
    assert sum("VIP-7" in line for line in lines) == 2  # a log entry and a candidate
    # The dashboard and the cage show the alert.
    dashboard = client.get(reverse("reports:dashboard") + f"?venue={floor.venue.code}")
    assert 'id="cash-alerts-title"' in dashboard.content.decode()
    assert "Tran Van A" in dashboard.content.decode()
    client.force_login(cashier)
    cage = client.get(reverse("console:cage", args=[floor.venue.pk])).content.decode()
    assert 'id="cash-alerts-title"' in cage and "Tran Van A" in cage


def test_console_records_a_buy_in_by_membership_number(dealer, floor, session, player):
    url = reverse("console:cash", args=[session.pk])
    answer = dealer.post(url, {"player": "vip-7", "amount": "1,500,000", "key": "a" * 32})
    assert answer.status_code == 200
    (tx,) = CashTransaction.objects.all()
    assert (tx.player, tx.amount, tx.kind, tx.instrument) == (
        player,
        D("1500000"),
        "buy_in",
        "cash",
    )
    assert "Tran Van A" in answer.content.decode()
    wrong = dealer.post(url, {"player": "NOBODY", "amount": "12.5.0", "key": "b" * 32})
    assert wrong.status_code == 422
    assert "No player with membership number NOBODY" in wrong.content.decode()
    assert CashTransaction.objects.count() == 1


def test_a_supervisor_voids_from_the_console_a_dealer_is_not_offered_it(
    client, floor, session, player
):
    tx = buy_in(session, floor.dealer, player, "1000000")
    page = reverse("console:cash", args=[session.pk])
    void = reverse("console:cash-void", args=[session.pk, tx.pk])
    client.force_login(floor.dealer)
    assert void not in client.get(page).content.decode()
    assert client.post(void, {"reason": "typed twice"}).status_code == 403
    client.force_login(floor.supervisor)
    assert void in client.get(page).content.decode()
    assert client.post(void, {"reason": ""}).status_code == 422
    assert client.post(void, {"reason": "typed twice"}).status_code == 200
    tx.refresh_from_db()
    assert (tx.voided_by, tx.void_reason) == (floor.supervisor, "typed twice")


def test_a_marker_is_not_recorded_as_a_buy_in(client, floor, session, player):
    """A marker's chips count in the table's figures from the marker itself: a buy-in
    recorded with the marker instrument would count them twice, so it is refused, and the
    console's form does not offer it."""
    with pytest.raises(InvalidInput) as refused:
        cash_record(
            session=session, user=floor.dealer, player=player, amount=D("1000"), instrument="marker"
        )
    assert refused.value.field == "instrument"
    assert "issued on the Markers page" in refused.value.message
    client.force_login(floor.dealer)
    page = client.get(reverse("console:cash", args=[session.pk])).content.decode()
    assert '<option value="chips"' in page and '<option value="marker"' not in page
    assert not CashTransaction.objects.exists()
