"""Drop boxes and the count: two counters, segregation of duties, the posting, the day's
close, and the win per table and gaming day worked by hand."""

from __future__ import annotations

from decimal import Decimal as D

import pytest
from django.db.models import Sum

from casino.audit.models import AuditEvent
from casino.cage.services.slips import slip_request
from casino.count.models import BoxCount, CountDay, DropBox
from casino.count.reopening import count_reopen
from casino.count.selectors import win_figures
from casino.count.services import count_close, count_record
from casino.floor.models import TableSession
from casino.floor.services.closing import session_close, session_figures
from casino.floor.services.rounds import round_create
from casino.floor.services.sessions import drop_record, drop_reverse, session_open
from casino.floor.services.settlement import round_settle
from casino.games import BoxInput
from casino.kernel.errors import Conflict, Forbidden, InvalidInput, NotFound
from casino.ledger.models import Account, Drop, LedgerEntry
from casino.simulation import chips_for
from casino.staff.roles import COUNT, DEALER, SUPERVISOR, forget
from casino.venues.services.venues import venue_update
from tests.casino.api import NIU_8, NIU_9
from tests.casino.days import end_gaming_day
from tests.casino.slips import slip_post
from tests.factories import staff

pytestmark = pytest.mark.django_db

NOTES = ["500000", "200000", "100000"]
FIRST = {
    "notes": {"500000": 2, "100000": 3},  # 1,300,000
    "chips": {"10000": 5},  # 50,000
    "others": [{"what": "cheque 0042", "amount": "200000"}],
}
FIRST_TOTAL = D("1550000")


@pytest.fixture
def count(floor):
    """The floor's venue counts by note; two counters of its count team."""
    floor.venue.note_denominations = NOTES
    floor.venue.save()
    floor.counter = staff("counter", COUNT, floor.venue)
    floor.counter2 = staff("counter2", COUNT, floor.venue)
    return floor


def open_table(floor, table=None):
    return session_open(
        table=table or floor.table,
        counted_by=floor.dealer,
        confirmed_by=floor.supervisor,
        opening_chips={"100000": 50},
        discrepancy_reason="the tray made up again for the test",
    )


def settle_round(session, dealer):
    round_, _result = round_create(
        session=session,
        user=dealer,
        dealer_cards=NIU_8,
        boxes=[BoxInput(position=1, cards=NIU_9, stakes={"single": D("100000")})],
    )
    round_settle(round_=round_, user=dealer, key=f"settle-{round_.pk}")


def close(session, supervisor):
    figures = session_figures(session)
    tray = (
        session.opening_total
        + figures["fills"]
        - figures["credits"]
        + figures["win_by_ledger"]
        - figures["drop"]
    )
    return session_close(
        session=session,
        counted_by=session.dealer,
        confirmed_by=supervisor,
        closing_chips=chips_for(tray, session.table.chip_denominations),
    )


def box_of(session) -> DropBox:
    return DropBox.objects.get(box_sessions__session=session)


def closed_box(floor):
    session = open_table(floor)
    close(session, floor.supervisor)
    return box_of(session)


def test_a_box_per_table_and_gaming_day_holds_each_session_of_the_day(count):
    first = open_table(count)
    close(first, count.supervisor)
    second = open_table(count)
    other = open_table(
        count,
        count.other_table.__class__.objects.create(
            venue=count.venue,
            code="NN2",
            game="niuniu",
            ruleset=count.table.ruleset,
            seats=5,
            chip_denominations=count.table.chip_denominations,
        ),
    )
    box = box_of(first)
    assert box_of(second) == box
    assert (box.number, box.gaming_date, box.status) == (1, first.shift.gaming_date, "in_use")
    assert box_of(other) != box
    assert box.label == f"NN1 {first.shift.gaming_date:%Y-%m-%d} #1"


def test_where_the_venue_drops_at_each_close_each_session_has_its_box(count):
    venue_update(venue=count.venue, user=count.manager, drop_each_close=True)
    first = open_table(count)
    close(first, count.supervisor)
    second = open_table(count)
    assert [box_of(first).number, box_of(second).number] == [1, 2]
    assert box_of(second).per_session
    event = AuditEvent.objects.filter(action="venue.update").latest("pk")
    assert (event.before["drop_each_close"], event.after["drop_each_close"]) == ("false", "true")


def test_a_box_taken_to_the_count_is_not_used_again(count):
    box = closed_box(count)
    count_record(box=box, user=count.counter, **FIRST)
    later = open_table(count)
    assert box_of(later).number == 2
    assert box_of(later).status == "in_use"


def test_two_counts_that_agree_post_the_drop_to_the_boxs_last_session(count):
    first = open_table(count)
    close(first, count.supervisor)
    last = open_table(count)
    close(last, count.supervisor)
    box = box_of(first)
    one = count_record(box=box, user=count.counter, **FIRST)
    box.refresh_from_db()
    assert (one.ordinal, one.total, box.status) == (1, FIRST_TOTAL, "removed")
    assert not Drop.objects.filter(drop_box=box).exists()  # nothing posted on the first

    two = count_record(box=box, user=count.counter2, **FIRST)
    box.refresh_from_db()
    assert (two.ordinal, two.difference, two.reason, box.status) == (2, 0, "", "counted")
    drop = Drop.objects.get(drop_box=box)
    assert (drop.session, drop.amount, drop.counted_by) == (last, FIRST_TOTAL, count.counter2)
    entries = LedgerEntry.objects.filter(drop=drop)
    assert {(e.account, e.amount) for e in entries} == {
        (Account.DROP, FIRST_TOTAL),
        (Account.PLAYER, -FIRST_TOTAL),
    }
    assert LedgerEntry.objects.filter(venue=count.venue).aggregate(t=Sum("amount"))["t"] == 0
    # The closed session's stored figures are what its close computed.
    last.refresh_from_db()
    assert (last.status, last.drop_total) == ("closed", D(0))


def test_a_second_count_that_differs_needs_a_reason_and_posts_the_second_count(count):
    box = closed_box(count)
    count_record(box=box, user=count.counter, **FIRST)
    second = {**FIRST, "notes": {"500000": 2, "100000": 2}}  # one 100,000 note fewer
    with pytest.raises(InvalidInput) as refused:
        count_record(box=box, user=count.counter2, **second)
    assert (refused.value.field, refused.value.reason) == (
        "reason",
        "count_difference_reason_required",
    )
    assert not BoxCount.objects.filter(box=box, ordinal=2).exists()
    two = count_record(box=box, user=count.counter2, reason="a note stuck to the box", **second)
    assert (two.total, two.difference, two.reason) == (
        D("1450000"),
        D("-100000"),
        "a note stuck to the box",
    )
    assert Drop.objects.get(drop_box=box).amount == D("1450000")
    event = AuditEvent.objects.get(action="count.second")
    assert event.after["reason"] == "a note stuck to the box"


def test_an_empty_box_is_counted_and_posts_nothing(count):
    box = closed_box(count)
    count_record(box=box, user=count.counter)
    count_record(box=box, user=count.counter2)
    box.refresh_from_db()
    assert (box.status, box.total) == ("counted", 0)
    assert not Drop.objects.filter(drop_box=box).exists()


@pytest.mark.parametrize("who", ["dealer", "supervisor", "manager", "auditor"])
def test_only_the_count_team_counts(count, who):
    box = closed_box(count)
    with pytest.raises(Forbidden) as refused:
        count_record(box=box, user=getattr(count, who), **FIRST)
    assert refused.value.reason == "not_counter"


def test_a_counter_of_another_venue_does_not_find_the_box(count):
    box = closed_box(count)
    outsider = staff("outsider", COUNT, count.other_venue)
    with pytest.raises(NotFound):
        count_record(box=box, user=outsider, **FIRST)
    with pytest.raises(NotFound):
        count_close(
            venue=count.venue,
            gaming_date=box.gaming_date,
            user=outsider,
            confirmed_by=count.counter,
        )


def test_a_counter_who_supervises_at_the_venue_does_not_count(count):
    box = closed_box(count)
    both = staff("both", COUNT, count.venue)
    staff("both", SUPERVISOR, count.venue)
    with pytest.raises(Forbidden) as refused:
        count_record(box=box, user=both, **FIRST)
    assert refused.value.reason == "counter_supervises"


def test_the_tables_dealer_does_not_count_its_box(count):
    box = closed_box(count)
    staff("dealer", COUNT, count.venue)  # the floor's dealer, also on the count team
    forget(count.dealer)
    with pytest.raises(Forbidden) as refused:
        count_record(box=box, user=count.dealer, **FIRST)
    assert refused.value.reason == "counter_at_table"


def test_who_opened_the_table_that_day_does_not_count_its_box(count):
    opener = staff("opener", DEALER, count.venue)
    session = session_open(
        table=count.table,
        counted_by=opener,
        confirmed_by=count.supervisor,
        dealer=count.dealer,
        opening_chips={"100000": 50},
    )
    close(session, count.supervisor)
    staff("opener", COUNT, count.venue)
    forget(opener)
    with pytest.raises(Forbidden) as refused:
        count_record(box=box_of(session), user=opener, **FIRST)
    assert refused.value.reason == "counter_at_table"


def test_the_same_counter_does_not_count_a_box_twice(count):
    box = closed_box(count)
    count_record(box=box, user=count.counter, **FIRST)
    with pytest.raises(Forbidden) as refused:
        count_record(box=box, user=count.counter, **FIRST)
    assert refused.value.reason == "same_counter"


def test_a_box_is_counted_once_its_sessions_are_closed(count):
    session = open_table(count)
    with pytest.raises(Conflict) as refused:
        count_record(box=box_of(session), user=count.counter, **FIRST)
    assert refused.value.reason == "session_open"
    assert not BoxCount.objects.exists()


def test_a_box_counted_twice_takes_no_third_count(count):
    box = closed_box(count)
    count_record(box=box, user=count.counter, **FIRST)
    count_record(box=box, user=count.counter2, **FIRST)
    third = staff("counter3", COUNT, count.venue)
    with pytest.raises(Conflict) as refused:
        count_record(box=box, user=third, **FIRST)
    assert refused.value.reason == "box_counted"


@pytest.mark.parametrize(
    ("given", "field"),
    [
        ({"notes": {"50000": 1}}, "notes.50000"),
        ({"notes": {"500000": -1}}, "notes.500000"),
        ({"notes": ["500000"]}, "notes"),
        ({"chips": {"7000": 1}}, "chips.7000"),
        ({"others": [{"what": "", "amount": "1000"}]}, "others[0].what"),
        ({"others": [{"what": "voucher", "amount": "-5"}]}, "others[0].amount"),
        ({"others": {"what": "voucher"}}, "others"),
    ],
)
def test_a_bad_count_is_refused_naming_the_field(count, given, field):
    box = closed_box(count)
    with pytest.raises(InvalidInput) as refused:
        count_record(box=box, user=count.counter, **given)
    assert refused.value.field == field


def test_the_days_count_closes_once_every_box_is_counted_and_then_takes_no_more(count):
    box = closed_box(count)
    day = box.gaming_date
    end_gaming_day(count.venue, day)
    with pytest.raises(Conflict) as refused:
        count_close(
            venue=count.venue, gaming_date=day, user=count.counter, confirmed_by=count.counter2
        )
    assert refused.value.reason == "boxes_not_counted"
    assert box.label in refused.value.message
    count_record(box=box, user=count.counter, **FIRST)
    count_record(box=box, user=count.counter2, **FIRST)
    closed = count_close(
        venue=count.venue, gaming_date=day, user=count.counter2, confirmed_by=count.counter
    )
    assert (closed.status, closed.closed_by) == ("closed", count.counter2)
    with pytest.raises(Conflict) as refused:
        count_close(
            venue=count.venue, gaming_date=day, user=count.counter, confirmed_by=count.counter2
        )
    assert refused.value.reason == "count_closed"
    # A table opened after the day ended plays the next gaming day: its box is that day's.
    late = open_table(count)
    close(late, count.supervisor)
    assert box_of(late).gaming_date > day
    count_record(box=box_of(late), user=count.counter, **FIRST)


def test_a_day_without_boxes_and_the_wrong_people_do_not_close_a_count(count):
    box = closed_box(count)
    with pytest.raises(Conflict) as refused:
        count_close(
            venue=count.venue,
            gaming_date=box.gaming_date.replace(year=2001),
            user=count.counter,
            confirmed_by=count.counter2,
        )
    assert refused.value.reason == "no_boxes"
    with pytest.raises(Forbidden):
        count_close(
            venue=count.venue,
            gaming_date=box.gaming_date,
            user=count.supervisor,
            confirmed_by=count.counter,
        )
    assert not CountDay.objects.filter(status="closed").exists()


def test_the_pits_drops_still_work_and_count_in_the_days_drop(count):
    """Two sessions, a fill, a settled round, a pit drop (one reversed) and the count's:
    win = closer - opener + credits - fills + drop, by hand."""
    first = open_table(count)  # opener 5,000,000
    slip = slip_request(session=first, user=count.dealer, kind="fill", chips={"100000": 5})
    slip_post(slip, dealer=count.dealer, supervisor=count.supervisor2)  # fills 500,000
    settle_round(first, count.dealer)  # handle 100,000
    mistaken = drop_record(session=first, user=count.supervisor, amount=D("70000"))
    drop_reverse(drop=mistaken, user=count.supervisor, reason="wrong table")
    close(first, count.supervisor)
    last = open_table(count)
    drop_record(session=last, user=count.supervisor, amount=D("50000"))  # pit drop 50,000
    last = close(last, count.supervisor)
    box = box_of(first)
    count_record(box=box, user=count.counter, **FIRST)
    count_record(box=box, user=count.counter2, **FIRST)  # counted drop 1,550,000

    house_win = -LedgerEntry.objects.filter(
        session__in=[first, last], round__isnull=False, account=Account.PLAYER
    ).aggregate(t=Sum("amount"))["t"]
    closer = last.closing_total
    drop = D("50000") + D("1550000")
    win = closer - D("5000000") + 0 - D("500000") + drop
    (row,) = win_figures(count.venue, box.gaming_date)["rows"]
    assert row["table"] == count.table
    assert (row["opener"], row["closer"], row["fills"], row["credits"]) == (
        D("5000000"),
        closer,
        D("500000"),
        0,
    )
    assert (row["drop"], row["counted_drop"], row["win"]) == (drop, D("1550000"), win)
    assert (row["handle"], row["house_win"]) == (D("100000"), house_win)
    assert row["hold_pct"] == (house_win * 100 / D("100000")).quantize(D("0.01"))
    assert row["win_drop_pct"] == (win * 100 / drop).quantize(D("0.01"))
    total = win_figures(count.venue, box.gaming_date)["total"]
    assert (total["win"], total["drop"]) == (win, drop)
    assert TableSession.objects.filter(pk=last.pk, drop_total=D("50000")).exists()


def test_a_table_still_open_has_no_win_yet(count):
    session = open_table(count)
    (row,) = win_figures(count.venue, session.shift.gaming_date)["rows"]
    assert (row["closer"], row["win"], row["win_drop_pct"]) == (None, None, None)
    assert win_figures(count.venue, session.shift.gaming_date)["total"]["win"] is None


@pytest.mark.parametrize(
    ("notes", "message"),
    [
        ("500000", "list of values"),
        (["500000", "500000"], "given twice"),
        (["-1"], "more than 0"),
        (["abc"], "more than 0"),
    ],
)
def test_a_venues_notes_are_a_list_of_amounts(count, notes, message):
    with pytest.raises(InvalidInput) as refused:
        venue_update(venue=count.venue, user=count.manager, note_denominations=notes)
    assert (refused.value.field, message in refused.value.message) == (
        "note_denominations",
        True,
    )


def test_a_venues_notes_are_kept_largest_first_and_audited(count):
    venue = venue_update(
        venue=count.venue, user=count.manager, note_denominations=["10000", "500000.00"]
    )
    assert venue.note_denominations == ["500000", "10000"]
    event = AuditEvent.objects.filter(action="venue.update").latest("pk")
    assert event.after["note_denominations"] == "500000, 10000"


def test_the_shift_reports_count_gives_win_drop_with_the_counted_drop(count):
    from casino.reports.listings import section_sessions

    session = open_table(count)
    drop_record(session=session, user=count.supervisor, amount=D("50000"))
    session = close(session, count.supervisor)
    box = box_of(session)
    count_record(box=box, user=count.counter, **FIRST)
    count_record(box=box, user=count.counter2, **FIRST)
    figures = section_sessions(session.shift)
    drop = D("50000") + FIRST_TOTAL
    win = session.win_by_count + FIRST_TOTAL
    assert (figures["counted_drop"], figures["win_with_count"]) == (FIRST_TOTAL, win)
    assert figures["win_drop_pct"] == (win * 100 / drop).quantize(D("0.01"))


# A count closes only after its day ended, and no box of a day is stranded


def second_table(floor):
    return floor.other_table.__class__.objects.create(
        venue=floor.venue,
        code="NN2",
        game="niuniu",
        ruleset=floor.table.ruleset,
        seats=5,
        chip_denominations=floor.table.chip_denominations,
    )


def count_twice(box, floor):
    count_record(box=box, user=floor.counter, **FIRST)
    count_record(box=box, user=floor.counter2, **FIRST)


def test_a_day_still_being_played_keeps_its_count_open_for_a_table_opened_later(count):
    """Every box of the day counted so far, but the day is still being played: the count
    does not close, and a table opened later that day is counted into the day's figures."""
    box = closed_box(count)
    day = box.gaming_date
    count_twice(box, count)
    with pytest.raises(Conflict) as refused:
        count_close(
            venue=count.venue, gaming_date=day, user=count.counter, confirmed_by=count.counter2
        )
    assert refused.value.reason == "day_not_ended"
    assert f"the gaming day {day.isoformat()} is still being played" in refused.value.message
    assert "its count closes once the day ends, from" in refused.value.message
    assert not CountDay.objects.filter(status="closed").exists()

    later = open_table(count, second_table(count))
    end_gaming_day(count.venue, day)
    # Past its end, a table of the day still open keeps the count open, named.
    with pytest.raises(Conflict) as refused:
        count_close(
            venue=count.venue, gaming_date=day, user=count.counter, confirmed_by=count.counter2
        )
    assert refused.value.reason == "sessions_open"
    assert "these tables are still open on" in refused.value.message
    assert "NN2" in refused.value.message and "NN1" not in refused.value.message

    close(later, count.supervisor)
    late_box = box_of(later)
    assert late_box.gaming_date == day
    count_twice(late_box, count)
    closed = count_close(
        venue=count.venue, gaming_date=day, user=count.counter, confirmed_by=count.counter2
    )
    assert closed.status == "closed"
    figures = win_figures(count.venue, day)
    assert figures["total"]["drop"] == 2 * FIRST_TOTAL


def test_no_table_opens_in_a_gaming_day_whose_count_is_closed(count):
    day = closed_box(count).gaming_date
    CountDay.objects.create(venue=count.venue, gaming_date=day, status="closed")
    with pytest.raises(Conflict) as refused:
        open_table(count, second_table(count))
    assert refused.value.reason == "count_closed"
    assert "no table opens in it" in refused.value.message
    assert not DropBox.objects.filter(table__code="NN2").exists()


def test_a_box_stranded_by_a_count_closed_under_the_old_rule_is_counted_after_a_reopen(count):
    """Old data: a count closed while its day was played, then a table of that day closed.
    Its box says how to recover; a manager reopens the count with a reason (audited), the
    counters count the box and close the count again, and the day's figures take it."""
    first = closed_box(count)
    day = first.gaming_date
    count_twice(first, count)
    late = open_table(count, second_table(count))
    # The count as the old rule closed it, the late table still playing.
    CountDay.objects.filter(venue=count.venue, gaming_date=day).update(
        status="closed", closed_by=count.counter
    )
    close(late, count.supervisor)
    stranded = box_of(late)
    with pytest.raises(Conflict) as refused:
        count_record(box=stranded, user=count.counter, **FIRST)
    assert refused.value.reason == "count_closed"
    assert f"closed before box {stranded.label} was counted" in refused.value.message
    assert "a manager reopens that day's count" in refused.value.message

    with pytest.raises(Forbidden):
        count_reopen(venue=count.venue, gaming_date=day, user=count.counter, reason="NN2")
    with pytest.raises(InvalidInput) as refused:
        count_reopen(venue=count.venue, gaming_date=day, user=count.manager, reason=" ")
    assert refused.value.field == "reason"
    reopened = count_reopen(
        venue=count.venue, gaming_date=day, user=count.manager, reason="NN2's box left out"
    )
    assert (reopened.status, reopened.closed_by) == ("open", None)
    event = AuditEvent.objects.get(action="count.reopen")
    assert event.before["closed_by"] == "counter"
    assert event.after["boxes"] == [stranded.label]
    assert "NN2's box left out" in event.summary

    count_twice(stranded, count)
    end_gaming_day(count.venue, day)
    count_close(venue=count.venue, gaming_date=day, user=count.counter2, confirmed_by=count.counter)
    assert win_figures(count.venue, day)["total"]["drop"] == 2 * FIRST_TOTAL
    # Every box counted: the closed count is final.
    with pytest.raises(Conflict) as refused:
        count_reopen(venue=count.venue, gaming_date=day, user=count.manager, reason="again")
    assert refused.value.reason == "count_final"
