"""A system-down period at NN1 played on paper, entered afterwards and reconciled with the
count (casino.cage.services.manual; N.J.A.C. 13:69D-1.22(c)).

The day at NN1 (chips of 1,000,000 down to 1,000), worked by hand:
- opener 150 x 1,000,000 = 150,000,000; a cash buy-in of 100,000,000 (chips sold at the
  table: 100,000,000); a live round of 1,000,000 on the single bet: the box's Niu 9 beats
  the dealer's Niu 8, house -950,000 (the box's 1,000,000 less 5% commission).
- the system goes down. The table writes on its round sheets R-NN1-0001 to 0004 and fill
  slip F-NN1-0001:
  - R-NN1-0001: the dealer's Niu 9 beats the box's Niu 8, stake 1,000,000: house +1,000,000
  - R-NN1-0002: the box's Niu 9 beats the dealer's Niu 8, stake 2,000,000: house -1,900,000
  - R-NN1-0003: written over and torn up (found missing when the count closes)
  - R-NN1-0004: the dealer's Niu 9 beats the box's Niu 8, stake 2,000,000: house +2,000,000
  - F-NN1-0001: a fill of 10 x 1,000,000 = 10,000,000, signed by the cashier, the dealer
    and the second supervisor
  the paper's house net: 1,000,000 - 1,900,000 + 2,000,000 = +1,100,000.
- entered afterwards by the supervisor, each flagged late; the house's net from the
  settled rounds H = -950,000 + 1,100,000 = 150,000.
- tray expected = 150,000,000 + 10,000,000 - 0 + 150,000 - 100,000,000 + 0 = 60,150,000,
  the closer as counted; at close: win by count = 60,150,000 - 150,000,000 + 0 -
  10,000,000 + drop 0 = -99,850,000; win by ledger 150,000; variance -100,000,000 (the
  drop is counted in the count room).
- the count: 200 notes of 500,000 = 100,000,000; win by count with it = 150,000 = H,
  variance 0: the paper agrees with the count.
- the count's close is refused while R-NN1-0003 is a gap (0004 is used), and allowed once
  it is recorded as spoiled with the reason.
"""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal as D

import pytest
from django.db import DatabaseError, IntegrityError, connection, transaction
from django.utils import timezone

from casino.audit.models import AuditAction, AuditEvent
from casino.cage.manual import ManualPaper, PaperStatus
from casino.cage.manual_selectors import (
    day_gaps,
    late_entries,
    numbers_written,
    paper_reconciliation,
    series_gaps,
)
from casino.cage.models import Slip, SlipStatus
from casino.cage.services.cash import cash_record
from casino.cage.services.manual import (
    manual_paper_spoil,
    manual_round_enter,
    manual_series_issue,
    manual_slip_enter,
)
from casino.count.models import CountDay
from casino.count.services import count_close, count_record
from casino.floor import figures
from casino.floor.models import Round, TableSession
from casino.floor.services.closing import session_close
from casino.floor.services.rounds import round_create
from casino.floor.services.sessions import session_open
from casino.floor.services.settlement import round_settle
from casino.games import BoxInput
from casino.kernel.errors import Conflict, Forbidden, InvalidInput
from casino.ledger.models import LedgerEntry
from casino.simulation import chips_for
from casino.staff.roles import COUNT
from tests.casino.api import NIU_8, NIU_9
from tests.casino.days import end_gaming_day
from tests.factories import staff

pytestmark = pytest.mark.django_db

M = D("1000000")
OPENER, SOLD, FILL, DROP = 150 * M, 100 * M, 10 * M, 100 * M
LIVE_HOUSE = D("-950000")
PAPER_HOUSE = D("1100000")
H = D("150000")
CLOSER = D("60150000")
#: The paper reconciliation's reads: the papers, the sessions, their counted drops and boxes,
#: their wins by ledger.
QUERIES_RECONCILED = 5


def _box(cards, stake):
    return [BoxInput(position=1, cards=cards, stakes={"single": stake})]


@pytest.fixture
def outage(floor, cashier):
    """NN1 open, a live round and a buy-in, then its series issued for the outage."""
    floor.venue.note_denominations = ["500000", "200000", "100000"]
    floor.venue.save()
    session = session_open(
        table=floor.table,
        counted_by=floor.dealer,
        confirmed_by=floor.supervisor,
        opening_chips={"1000000": 150},
    )
    cash_record(session=session, user=floor.dealer, amount="100000000")
    live, _result = round_create(
        session=session, user=floor.dealer, dealer_cards=NIU_8, boxes=_box(NIU_9, M)
    )
    round_settle(round_=live, user=floor.dealer, key="live-1")
    floor.session = session
    floor.cashier = cashier
    floor.down = timezone.now()  # the system goes down
    floor.rounds = manual_series_issue(
        table=floor.table, user=floor.manager, kind="round", prefix="R-NN1-", first=1, last=50
    )
    floor.fills = manual_series_issue(
        table=floor.table, user=cashier, kind="fill", prefix="F-NN1-", first=1, last=25
    )
    return floor


def _enter_the_paper(outage):
    """The supervisor enters what the table wrote while the system was down."""
    down = outage.down
    sheets = [(1, NIU_9, NIU_8, M), (2, NIU_8, NIU_9, 2 * M), (4, NIU_9, NIU_8, 2 * M)]
    for minutes, (number, dealer_cards, box_cards, stake) in enumerate(sheets):
        manual_round_enter(
            series=outage.rounds,
            user=outage.supervisor,
            number=number,
            session=outage.session,
            dealer_cards=dealer_cards,
            boxes=_box(box_cards, stake),
            written_at=down + timedelta(microseconds=minutes),
        )
    return manual_slip_enter(
        series=outage.fills,
        user=outage.supervisor,
        number=1,
        session=outage.session,
        chips={"1000000": 10},
        written_at=down + timedelta(microseconds=10),
        cashier=outage.cashier,
        dealer=outage.dealer,
        supervisor=outage.supervisor2,
    )


def test_a_system_down_period_entered_afterwards_and_reconciled(outage):
    venue = outage.venue
    fill_paper = _enter_the_paper(outage)

    # Flagged late: who entered it, when, the paper's number and time.
    entered = ManualPaper.objects.filter(status=PaperStatus.ENTERED).order_by("pk")
    assert [p.label for p in entered] == ["R-NN1-0001", "R-NN1-0002", "R-NN1-0004", "F-NN1-0001"]
    assert {p.recorded_by for p in entered} == {outage.supervisor}
    # The rounds are the session's next, settled like live ones; the fill is posted.
    late_rounds = Round.objects.filter(paper__isnull=False).order_by("number")
    assert [(r.number, r.status, r.house_net) for r in late_rounds] == [
        (2, "settled", M),
        (3, "settled", D("-1900000")),
        (4, "settled", 2 * M),
    ]
    slip = Slip.objects.get(pk=fill_paper.slip_id)
    assert (slip.status, slip.amount, slip.kind) == (SlipStatus.VERIFIED, FILL, "fill")
    assert (slip.issued_by, slip.dealer_confirmed_by, slip.supervisor_confirmed_by) == (
        outage.cashier,
        outage.dealer,
        outage.supervisor2,
    )
    assert slip.issued_at == fill_paper.written_at
    assert sum(e.amount for e in LedgerEntry.objects.filter(slip=slip)) == 0
    actions = set(AuditEvent.objects.values_list("action", flat=True))
    assert {AuditAction.MANUAL_ROUND_ENTER, AuditAction.MANUAL_SLIP_ENTER} <= actions
    assert AuditAction.MANUAL_SERIES_ISSUE in actions

    # The session's figures with the paper: H = -950,000 + 1,100,000.
    sums = figures.session_sums(outage.session)
    assert (sums["win_by_ledger"], sums["fills"]) == (H, FILL)
    tray = figures.tray_expected(opener=OPENER, sums=sums)
    assert tray.total == CLOSER == OPENER + FILL + H - SOLD

    session = session_close(
        session=outage.session,
        counted_by=outage.dealer,
        confirmed_by=outage.supervisor,
        closing_chips=chips_for(CLOSER, outage.table.chip_denominations),
        variance_reason="the drop is counted in the count room",
    )
    assert (session.win_by_count, session.win_by_ledger, session.variance) == (
        D("-99850000"),
        H,
        -DROP,
    )
    gaming_date = session.shift.gaming_date
    assert [p.label for p in late_entries(venue=venue, gaming_date=gaming_date)] == [
        "R-NN1-0001",
        "R-NN1-0002",
        "R-NN1-0004",
        "F-NN1-0001",
    ]
    end_gaming_day(venue, gaming_date)
    counters = [staff(name, COUNT, venue) for name in ("counter", "counter2")]
    box = session.drop_box_link.box
    for who in counters:
        count_record(box=box, user=who, notes={"500000": 200})

    (line,) = paper_reconciliation(venue=venue, gaming_date=gaming_date)
    assert (line.late_rounds, line.late_house, line.late_fills, line.late_credits) == (
        3,
        PAPER_HOUSE,
        FILL,
        0,
    )
    assert line.win_by_ledger == H == LIVE_HOUSE + PAPER_HOUSE
    assert (line.counted.drop, line.counted.win_by_count, line.counted.variance) == (DROP, H, 0)
    assert line.agrees

    # R-NN1-0003 is a gap below 0004: the count does not close, and says what to do.
    assert [(g.series.prefix, g.gaps) for g in day_gaps(venue=venue, gaming_date=gaming_date)] == [
        ("R-NN1-", [3])
    ]
    with pytest.raises(Conflict) as refused:
        count_close(
            venue=venue, gaming_date=gaming_date, user=counters[0], confirmed_by=counters[1]
        )
    assert refused.value.reason == "manual_series_gap"
    assert "series R-NN1-0001–0050 of table NN1: 3" in refused.value.message
    assert "records it as spoiled with the reason" in refused.value.message
    assert CountDay.objects.get(venue=venue, gaming_date=gaming_date).status == "open"

    manual_paper_spoil(
        series=outage.rounds,
        user=outage.supervisor2,
        number=3,
        reason="written over and torn up at the table",
    )
    assert series_gaps(outage.rounds) == []
    day = count_close(
        venue=venue, gaming_date=gaming_date, user=counters[0], confirmed_by=counters[1]
    )
    assert day.status == CountDay.Status.CLOSED
    assert AuditEvent.objects.filter(action=AuditAction.MANUAL_PAPER_SPOIL).count() == 1


def test_a_paper_number_is_used_once(outage):
    written = outage.down
    manual_paper_spoil(series=outage.rounds, user=outage.supervisor, number=7, reason="torn")
    with pytest.raises(Conflict) as refused:
        manual_round_enter(
            series=outage.rounds,
            user=outage.supervisor,
            number=7,
            session=outage.session,
            dealer_cards=NIU_9,
            boxes=_box(NIU_8, M),
            written_at=written,
        )
    assert refused.value.reason == "paper_used"
    assert "R-NN1-0007 was recorded as spoiled: torn" in refused.value.message
    # The database holds the rule too, and never changes a paper.
    paper = ManualPaper.objects.get()
    with pytest.raises(IntegrityError), transaction.atomic():
        ManualPaper.objects.create(
            series=outage.rounds,
            number=7,
            status=PaperStatus.SPOILED,
            recorded_by=outage.supervisor,
            recorded_at=timezone.now(),
            reason="again",
        )
    with pytest.raises(DatabaseError), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("UPDATE cage_manualpaper SET reason = 'x' WHERE id = %s", [paper.pk])


def test_the_refusals_say_what_is_wrong(outage):
    written = outage.down
    with pytest.raises(Forbidden):
        manual_series_issue(
            table=outage.table, user=outage.dealer, kind="fill", prefix="X-", first=1, last=5
        )
    with pytest.raises(Conflict) as taken:
        manual_series_issue(
            table=outage.table, user=outage.manager, kind="fill", prefix="F-NN1-", first=1, last=5
        )
    assert taken.value.reason == "series_prefix_taken"
    with pytest.raises(InvalidInput) as outside:
        manual_paper_spoil(series=outage.rounds, user=outage.supervisor, number=51, reason="x")
    assert outside.value.reason == "paper_not_in_series"
    with pytest.raises(Forbidden):
        manual_paper_spoil(series=outage.rounds, user=outage.dealer, number=1, reason="x")
    with pytest.raises(InvalidInput) as kind:
        manual_round_enter(
            series=outage.fills,
            user=outage.supervisor,
            number=1,
            session=outage.session,
            dealer_cards=NIU_9,
            boxes=_box(NIU_8, M),
            written_at=written,
        )
    assert kind.value.reason == "paper_wrong_kind"
    with pytest.raises(InvalidInput) as signers:
        manual_slip_enter(
            series=outage.fills,
            user=outage.supervisor,
            number=1,
            session=outage.session,
            chips={"1000000": 1},
            written_at=written,
            cashier=outage.cashier,
            dealer=outage.dealer,
            supervisor=outage.dealer,
        )
    assert signers.value.reason in ("paper_signer", "paper_signers_differ")
    with pytest.raises(InvalidInput) as future:
        manual_round_enter(
            series=outage.rounds,
            user=outage.supervisor,
            number=1,
            session=outage.session,
            dealer_cards=NIU_9,
            boxes=_box(NIU_8, M),
            written_at=timezone.now() + timedelta(hours=1),
        )
    assert future.value.reason == "paper_time"
    assert not ManualPaper.objects.exists()
    assert TableSession.objects.get(pk=outage.session.pk).next_round_number == 2


def test_the_day_is_read_in_a_fixed_number_of_queries(outage, django_assert_num_queries):
    _enter_the_paper(outage)
    venue, on = outage.venue, outage.session.shift.gaming_date
    with django_assert_num_queries(1):
        assert len(late_entries(venue=venue, gaming_date=on)) == 4
    with django_assert_num_queries(2):
        assert [line.gaps for line in day_gaps(venue=venue, gaming_date=on)] == [[3]]
    with django_assert_num_queries(QUERIES_RECONCILED):
        (line,) = paper_reconciliation(venue=venue, gaming_date=on)
    assert line.late_rounds == 3


def test_numbers_are_written_in_runs():
    assert numbers_written([9, 3, 5, 6, 7]) == "3, 5–7, 9"
    assert numbers_written([]) == ""


def test_a_late_fill_is_flagged_in_the_cage_shift_report(outage, client):
    """The fill written on paper moved the cage at the time on the paper; the cage shift's
    report (page and CSV) says it is a late entry and names its paper."""
    from django.urls import reverse

    from casino.cage.inventory_selectors import cage_shift_report, late_paper
    from casino.cage.services.inventory import cage_count_record, cage_count_sign

    opening = cage_count_record(
        venue=outage.venue,
        user=outage.cashier,
        kind="opening",
        counted={"notes": {}, "chips": {"1000000": 100}},
    )
    shift = cage_count_sign(count=opening, user=outage.manager).shift
    _enter_the_paper(outage)
    report = cage_shift_report(shift=shift)
    (fill,) = report.movements
    assert (fill.kind, getattr(late_paper(fill), "label", None)) == ("fill", "F-NN1-0001")
    assert [(line.denomination, line.expected) for line in report.lines] == [("1000000", 90)]

    client.force_login(outage.manager)
    page = client.get(reverse("reports:cage_shift", args=[shift.pk])).content.decode()
    assert 'data-late="F-NN1-0001"' in page  # the badge, in the venue's language
    csv = client.get(reverse("reports:cage_shift_csv", args=[shift.pk])).content.decode()
    (row,) = [line for line in csv.splitlines() if "F-NN1-0001" in line]
    assert f",{fill.reference},F-NN1-0001,-10000000," in row  # its reference, paper, value
