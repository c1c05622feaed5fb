"""The multiple transaction log (casino.cage.cash_log): every cash movement of a gaming day, at
the tables and at the cage, added up per person for the thresholds; unknown patrons; and two
tables crossing the reporting threshold at once raising one alert.

Worked by hand (venue in VND; logging threshold 30,000,000, reporting 100,000,000):

A member's day (VIP-1, identity document on record), cash in / cash out:

    time   where  what                                   counts    in total     out total
    10:00  NN1    buy-in, cash          40,000,000        yes      40,000,000
    10:30  NN2    buy-in, cash          35,000,000        yes      75,000,000
    10:45  NN1    buy-in, chips         50,000,000        no       75,000,000
    11:00  cage   chip purchase: 60 x 500k notes          yes     105,000,000  -> the alert
                  for 30 x 1M chips     30,000,000                (cage_movement)
    11:15  cage   front money deposit   20,000,000        yes     125,000,000
    11:20  cage   its reversal         -20,000,000        yes     105,000,000
    11:30  cage   marker paid in cash   10,000,000        yes     115,000,000
    11:35  cage   marker paid in chips   5,000,000        not in the log
    11:40  cage   chip redemption: 8 x 1M chips for
                  16 x 500k notes        8,000,000        yes                    8,000,000
    11:45  cage   front money deposit    5,000,000        yes     120,000,000
    11:50  cage   front money return     5,000,000        yes                   13,000,000

    in: 40 + 35 + 30 + 20 - 20 + 10 + 5 = 120,000,000; out: 8 + 5 = 13,000,000; one alert
    (in). The log holds 10 rows (the chips buy-in listed, not counted; the chips payment
    not listed).

An unknown patron's day (a woman about 30, red dress):

    10:00  NN1    buy-in, cash          40,000,000  reaches the logging threshold: she is
                  described, and recorded as U-<gaming date>-1           40,000,000
    10:30  cage   chip purchase by U-…-1 70,000,000                     110,000,000 -> alert
                  (of the unknown patron)
    10:40  cage   chip purchase by nobody, 35,000,000, no description: refused
    later  a supervisor links U-…-1 to member M-9 (no cash of their own yet)
    11:00  NN2    buy-in by M-9, cash    5,000,000: M-9's day is 115,000,000, the patron's
                  cash included; no second alert (the patron's was theirs).

The race: a member with 60,000,000 of cash in, then 50,000,000 at NN1 and 50,000,000 at
NN2 at the same moment: 110,000,000 and 160,000,000 one after the other, one alert.
"""

from __future__ import annotations

import threading
import time
from decimal import Decimal as D

import pytest
from django.contrib.auth import get_user_model
from django.db import DatabaseError, connection, transaction
from django.utils import timezone

from casino.audit.models import AuditAction, AuditEvent
from casino.cage.cash_log import LogKind, Source, cash_log, cash_people
from casino.cage.models import CashAlert, UnknownPatron
from casino.cage.services import cash
from casino.cage.services.cash import cash_record
from casino.cage.services.credit_lines import credit_line_approve, credit_line_propose
from casino.cage.services.front_money import (
    front_money_deposit,
    front_money_return,
    front_money_reverse,
)
from casino.cage.services.inventory import chip_purchase, chip_redemption
from casino.cage.services.markers import marker_issue_at_cage, marker_pay
from casino.cage.services.patrons import WindowPatron, unknown_patron_link
from casino.cage.services.thresholds import day_total, gaming_date_at
from casino.floor.models import TableSession
from casino.floor.services.sessions import session_open
from casino.kernel.errors import Conflict, Forbidden, InvalidInput
from tests.factories import PlayerFactory, niuniu_table

pytestmark = pytest.mark.django_db

M = D("1000000")


def _open(floor, table):
    return session_open(
        table=table, counted_by=floor.dealer, confirmed_by=floor.supervisor, opening_chips={}
    )


@pytest.fixture
def venue(floor):
    venue = floor.venue
    venue.note_denominations = ["500000", "200000", "100000"]
    venue.save(update_fields=["note_denominations"])
    return venue


@pytest.fixture
def tables(floor, venue):
    return _open(floor, floor.table), _open(floor, niuniu_table(venue, code="NN2"))


@pytest.fixture
def today(venue):
    return gaming_date_at(venue, timezone.now())


def _buy(session, user, amount, **extra):
    return cash_record(session=session, user=user, amount=amount, **extra)


def _purchase(venue, cashier, millions, **extra):
    return chip_purchase(
        venue=venue,
        user=cashier,
        chips={"1000000": millions},
        notes={"500000": millions * 2},
        **extra,
    )


def test_a_members_day_across_two_tables_and_the_cage(
    floor, venue, tables, today, cashier, thresholds, approver
):
    nn1, nn2 = tables
    member = PlayerFactory(venue=venue, membership_number="VIP-1", id_document_number="B123")
    _buy(nn1, floor.dealer, 40 * M, player=member)
    _buy(nn2, floor.dealer, 35 * M, player=member)
    _buy(nn1, floor.dealer, 50 * M, player=member, instrument="chips")
    assert day_total(player=member, gaming_date=today, kind="buy_in") == 75 * M
    assert not CashAlert.objects.exists()

    purchase = _purchase(venue, cashier, 30, patron=WindowPatron(player=member))
    alert = CashAlert.objects.get()
    assert (alert.player, alert.direction, alert.total) == (member, "buy_in", 105 * M)
    assert (alert.source, alert.source_id, alert.transaction) == (Source.WINDOW, purchase.pk, None)

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
    marker_pay(marker=marker, user=cashier, amount=5 * M, method="chips")
    chip_redemption(
        venue=venue,
        user=cashier,
        chips={"1000000": 8},
        notes={"500000": 16},
        patron=WindowPatron(player=member),
    )
    front_money_deposit(venue=venue, player=member, user=cashier, amount=5 * M)
    front_money_return(venue=venue, player=member, user=cashier, amount=5 * M)

    assert day_total(player=member, gaming_date=today, kind="buy_in") == 120 * M
    assert day_total(player=member, gaming_date=today, kind="cash_out") == 13 * M
    assert CashAlert.objects.count() == 1
    rows = cash_log(gaming_date=today, venue=venue)
    assert [(r.kind, r.table, r.amount, r.counts) for r in rows] == [
        (LogKind.BUY_IN, "NN1", 40 * M, True),
        (LogKind.BUY_IN, "NN2", 35 * M, True),
        (LogKind.BUY_IN, "NN1", 50 * M, False),
        (LogKind.CHIP_PURCHASE, "", 30 * M, True),
        (LogKind.FRONT_MONEY_DEPOSIT, "", 20 * M, True),
        (LogKind.FRONT_MONEY_DEPOSIT, "", -20 * M, True),
        (LogKind.MARKER_PAYMENT, "", 10 * M, True),
        (LogKind.CHIP_REDEMPTION, "", 8 * M, True),
        (LogKind.FRONT_MONEY_DEPOSIT, "", 5 * M, True),
        (LogKind.FRONT_MONEY_RETURN, "", 5 * M, True),
    ]
    assert {r.person for r in rows} == {"VIP-1"}
    assert rows[3].where == "Cage" and rows[0].where == "NN1"
    assert rows[7].direction == "cash_out" and rows[7].recorded_by == cashier


def test_an_unknown_patron_across_a_table_and_the_cage_later_a_member(
    floor, venue, tables, today, cashier, thresholds
):
    nn1, nn2 = tables
    with pytest.raises(InvalidInput) as refused:
        _buy(nn1, floor.dealer, 40 * M)
    assert refused.value.field == "patron_description"
    tx = _buy(nn1, floor.dealer, 40 * M, patron_description="a woman about 30, red dress")
    patron = tx.unknown_patron
    assert patron.code == f"U-{today:%Y%m%d}-1"
    assert (patron.description, tx.patron_description) == ("a woman about 30, red dress",) * 2
    assert AuditEvent.objects.filter(action=AuditAction.CASH_UNKNOWN_PATRON).count() == 1

    purchase = _purchase(venue, cashier, 70, patron=WindowPatron(unknown_patron=patron))
    alert = CashAlert.objects.get()
    assert (alert.player, alert.unknown_patron, alert.total) == (None, patron, 110 * M)
    assert (alert.source, alert.source_id) == (Source.WINDOW, purchase.pk)
    with pytest.raises(InvalidInput) as refused:
        _purchase(venue, cashier, 35)
    assert refused.value.reason == "identification_required"
    assert _purchase(venue, cashier, 10).player is None  # below the thresholds: nobody is fine

    member = PlayerFactory(venue=venue, membership_number="M-9", id_document_number="C77")
    with pytest.raises(Forbidden):
        unknown_patron_link(patron=patron, member=member, user=floor.dealer)
    unknown_patron_link(patron=patron, member=member, user=floor.supervisor)
    assert unknown_patron_link(patron=patron, member=member, user=floor.supervisor)
    with pytest.raises(Conflict):
        unknown_patron_link(patron=patron, member=PlayerFactory(venue=venue), user=floor.manager)
    assert AuditEvent.objects.filter(action=AuditAction.CASH_UNKNOWN_PATRON_LINK).count() == 1

    _buy(nn2, floor.dealer, 5 * M, player=member)
    assert day_total(player=member, gaming_date=today, kind="buy_in") == 115 * M
    patron.refresh_from_db()
    assert day_total(unknown_patron=patron, gaming_date=today, kind="buy_in") == 115 * M
    assert CashAlert.objects.count() == 1
    people = cash_people(player=member)
    mine = cash_log(gaming_date=today, people=people)
    assert [(r.source, r.amount, r.person) for r in mine] == [
        (Source.TABLE, 40 * M, "M-9"),
        (Source.WINDOW, 70 * M, "M-9"),
        (Source.TABLE, 5 * M, "M-9"),
    ]
    assert mine[0].unknown_patron == patron


def test_an_unknown_patron_is_linked_once_and_never_deleted(floor, venue, today):
    from casino.cage.services.patrons import unknown_patron_create

    patron = unknown_patron_create(venue=venue, user=floor.dealer, description="grey jacket")
    for sql in (
        "UPDATE cage_unknownpatron SET description = 'someone else' WHERE id = %s",
        "DELETE FROM cage_unknownpatron WHERE id = %s",
    ):
        with (
            pytest.raises(DatabaseError, match="append-only"),
            transaction.atomic(),
            connection.cursor() as cursor,
        ):
            cursor.execute(sql, [patron.pk])
    second = unknown_patron_create(venue=venue, user=floor.dealer, description="blue cap")
    assert (patron.code, second.code) == (f"U-{today:%Y%m%d}-1", f"U-{today:%Y%m%d}-2")
    with pytest.raises(Forbidden):
        unknown_patron_create(venue=venue, user=floor.auditor, description="nobody")
    assert UnknownPatron.objects.count() == 2


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("who", ["member", "unknown patron"])
def test_two_tables_crossing_the_reporting_threshold_at_once_raise_one_alert(
    floor, venue, thresholds, who, monkeypatch
):
    sessions = [_open(floor, floor.table), _open(floor, niuniu_table(venue, code="NN2"))]
    if who == "member":
        person = {"player": PlayerFactory(venue=venue, id_document_number="D1")}
        _buy(sessions[0], floor.dealer, 60 * M, **person)
    else:
        tx = _buy(sessions[0], floor.dealer, 60 * M, patron_description="tall, green scarf")
        person = {"unknown_patron": tx.unknown_patron}
    real = cash.alert_if_reached

    def slow(tx, at):
        # Each table dwells between writing its buy-in and asking for the alert: without the
        # person's lock both would find no alert yet and write one each (the second refused
        # by the constraint, its buy-in lost with it).
        time.sleep(0.5)
        return real(tx, at)

    monkeypatch.setattr(cash, "alert_if_reached", slow)
    start = threading.Barrier(2)
    recorded: list[D] = []
    errors: list[BaseException] = []

    def buy(session_id: int) -> None:
        try:
            user = get_user_model().objects.get(pk=floor.dealer.pk)  # this thread's own
            session = TableSession.objects.get(pk=session_id)
            mine = {k: type(v).objects.get(pk=v.pk) for k, v in person.items()}
            start.wait(timeout=30)
            recorded.append(_buy(session, user, 50 * M, **mine).amount)
        except BaseException as error:  # reported below
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=buy, args=(s.pk,)) for s in sessions]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)

    assert errors == []
    assert recorded == [50 * M, 50 * M]
    alert = CashAlert.objects.get()
    assert alert.total == 110 * M  # the first to cross; the second saw it and raised none
    today = gaming_date_at(venue, timezone.now())
    assert day_total(gaming_date=today, kind="buy_in", **person) == 160 * M


@pytest.mark.parametrize(("jurisdiction", "counted"), [("VN", 50 * M), ("MO", 110 * M)])
def test_the_venues_law_says_which_instruments_count(
    floor, venue, tables, today, thresholds, jurisdiction, counted
):
    """A member buys in 60,000,000 in chips and 50,000,000 in cash: Vietnam's law counts
    the cash alone (50,000,000, under the reporting threshold of 100,000,000); Macau's
    counts chips too (110,000,000: an alert)."""
    venue.jurisdiction = jurisdiction
    venue.save(update_fields=["jurisdiction"])
    nn1, nn2 = tables
    member = PlayerFactory(venue=venue, membership_number="INS-1", id_document_number="C9")
    _buy(nn1, floor.dealer, 60 * M, player=member, instrument="chips")
    _buy(nn2, floor.dealer, 50 * M, player=member)
    assert day_total(player=member, gaming_date=today, kind="buy_in") == counted
    rows = cash_log(gaming_date=today, venue=venue)
    assert [row.counts for row in rows] == [jurisdiction == "MO", True]
    assert CashAlert.objects.filter(player=member).exists() == (jurisdiction == "MO")


def test_linking_an_unknown_patron_judges_the_members_day_again(
    floor, venue, tables, today, thresholds
):
    """The patron bought in 60,000,000 and the member 50,000,000 at the tables, each under
    the reporting threshold of 100,000,000; linked, the member's day is 110,000,000: the
    link raises the member's alert (its source: the link), once."""
    nn1, nn2 = tables
    patron = _buy(nn1, floor.dealer, 60 * M, patron_description="a man, grey coat").unknown_patron
    member = PlayerFactory(venue=venue, membership_number="M-10", id_document_number="C78")
    _buy(nn2, floor.dealer, 50 * M, player=member)
    assert not CashAlert.objects.exists()
    unknown_patron_link(patron=patron, member=member, user=floor.supervisor)
    alert = CashAlert.objects.get()
    assert (alert.player, alert.total, alert.direction) == (member, 110 * M, "buy_in")
    assert (alert.source, alert.source_id) == (Source.PATRON_LINK, patron.pk)
    unknown_patron_link(patron=patron, member=member, user=floor.supervisor)  # again: nothing
    assert CashAlert.objects.count() == 1


def test_the_window_asks_a_member_at_the_reporting_threshold_for_a_document(
    floor, venue, today, cashier, thresholds
):
    """As the table does: 120,000,000 of chips bought by a member whose record holds no
    identity document reaches the reporting threshold of 100,000,000: refused, saying so;
    with the document seen, recorded, the movement keeping it, with its alert; once the
    document is on their record, nothing more is asked."""
    member = PlayerFactory(venue=venue, membership_number="DOC-1", id_document_number="")
    with pytest.raises(InvalidInput) as refused:
        _purchase(venue, cashier, 120, patron=WindowPatron(player=member))
    assert (refused.value.field, refused.value.reason) == (
        "id_document_type",
        "identification_required",
    )
    assert "ask for an identity document" in refused.value.message
    assert not CashAlert.objects.exists()
    _purchase(venue, cashier, 20, patron=WindowPatron(player=member))  # under it: fine
    seen = WindowPatron(player=member, id_document_type="passport", id_document_number="P-9")
    movement = _purchase(venue, cashier, 100, patron=seen)
    assert (movement.id_document_type, movement.id_document_number) == ("passport", "P-9")
    assert CashAlert.objects.get().total == 120 * M
    member.id_document_number = "P-123"
    member.save(update_fields=["id_document_number"])
    again = _purchase(venue, cashier, 10, patron=WindowPatron(player=member))
    assert again.id_document_number == ""
