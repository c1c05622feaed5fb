"""The reports' tallies follow settlements and voids exactly, on PostgreSQL."""

from __future__ import annotations

import io
import threading
from decimal import Decimal as D

import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.db.models import Count, Sum

from casino.floor.models import Bet, BetTally, RoundStatus, SeatTally
from casino.floor.services.rounds import round_create
from casino.floor.services.sessions import session_open
from casino.floor.services.settlement import round_settle
from casino.floor.services.tallies import tally_differences, tally_rebuild
from casino.floor.services.voids import round_void
from casino.games import BoxInput
from casino.kernel.timezones import local_hour, venue_zone
from casino.simulation import play
from tests.factories import PlayerFactory

NIU_9 = "KS QS 5H 4H TC"  # Niu 9
NIU_8 = "JS QH JD AC 7H"  # the dealer: Niu 8
NO_NIU = "KH 8H 4D JH AD"


def box(position, cards, player=None, **stakes):
    return BoxInput(
        position=position,
        cards=cards,
        stakes={k: D(v) for k, v in stakes.items()},
        player_id=player.pk if player else None,
    )


def settled(session, user, *boxes, key):
    round_, _ = round_create(session=session, user=user, dealer_cards=NIU_8, boxes=list(boxes))
    return round_settle(round_=round_, user=user, key=key)[0]


def tallies(session):
    return {
        (t.player_id, t.bet_type): t
        for t in BetTally.objects.filter(session=session).order_by("player_id", "bet_type")
    }


@pytest.mark.django_db
def test_a_settled_round_is_tallied_per_player_and_bet_type(floor, session):
    member = PlayerFactory(venue=floor.venue)
    round_ = settled(
        session,
        floor.dealer,
        box(1, NIU_9, member, single="100000", double="100000"),
        box(2, NO_NIU, single="50000"),
        key="t-1",
    )
    found = tallies(session)
    assert set(found) == {(member.pk, "single"), (member.pk, "double"), (None, "single")}
    single = found[(member.pk, "single")]
    # vn-kr-004: Niu 9 wins a single 1:1 less 5%, a double 2:1 less 5%
    assert (single.bets, single.handle, single.player_result) == (1, D("100000"), D("95000"))
    assert (single.commission, single.volume, single.max_net) == (
        D("5000"),
        D("100000"),
        D("95000"),
    )
    assert single.stake_squared == D("10000000000")
    # the start of the hour on the venue's clocks (Hanoi's hours start on UTC's)
    assert single.hour == local_hour(round_.settled_at, venue_zone(floor.venue))
    assert (single.shift_id, single.table_id, single.dealer_id) == (
        session.shift_id,
        floor.table.pk,
        session.dealer_id,
    )
    double = found[(member.pk, "double")]
    assert (double.player_result, double.commission) == (D("190000"), D("10000"))
    anonymous = found[(None, "single")]
    assert (anonymous.player_result, anonymous.volume) == (D("-50000"), D("0"))
    seat = SeatTally.objects.get(session=session, player=member)
    assert (seat.rounds, seat.hands) == (1, 1)
    assert (seat.first_dealt_at, seat.last_settled_at) == (round_.created_at, round_.settled_at)
    assert tally_differences(session.shift_id) == []


@pytest.mark.django_db
def test_a_second_round_adds_to_the_same_tallies(floor, session):
    member = PlayerFactory(venue=floor.venue)
    settled(session, floor.dealer, box(1, NIU_9, member, single="100000"), key="t-1")
    settled(session, floor.dealer, box(1, NO_NIU, member, single="200000"), key="t-2")
    (single,) = tallies(session).values()
    assert (single.bets, single.handle, single.player_result) == (2, D("300000"), D("-105000"))
    assert single.max_net == D("95000")
    assert SeatTally.objects.get(player=member).rounds == 2


@pytest.mark.django_db
def test_a_void_takes_the_round_off_and_reads_the_maximum_and_times_again(floor, session):
    member = PlayerFactory(venue=floor.venue)
    first = settled(session, floor.dealer, box(1, NO_NIU, member, single="100000"), key="t-1")
    second = settled(session, floor.dealer, box(1, NIU_9, member, single="300000"), key="t-2")
    (single,) = tallies(session).values()
    assert single.max_net == D("285000")
    # when
    round_void(
        round_=second, requested_by=floor.dealer, approved_by=floor.supervisor, reason="misdeal"
    )
    # then: as if the second round had never settled
    (single,) = tallies(session).values()
    assert (single.bets, single.handle, single.player_result) == (1, D("100000"), D("-100000"))
    assert single.max_net == D("-100000")
    seat = SeatTally.objects.get(player=member)
    assert (seat.rounds, seat.hands) == (1, 1)
    assert (seat.first_dealt_at, seat.last_settled_at) == (first.created_at, first.settled_at)
    assert tally_differences(session.shift_id) == []
    # and a tally left with no bet has no maximum, and no report shows it
    round_void(
        round_=first, requested_by=floor.dealer, approved_by=floor.supervisor, reason="misdeal"
    )
    (single,) = tallies(session).values()
    assert (single.bets, single.handle, single.max_net) == (0, D("0"), None)
    assert SeatTally.objects.get(player=member).rounds == 0
    assert tally_differences(session.shift_id) == []
    # and the next round starts them again
    third = settled(session, floor.dealer, box(1, NIU_9, member, single="100000"), key="t-3")
    (single,) = tallies(session).values()
    assert (single.bets, single.max_net) == (1, D("95000"))
    seat = SeatTally.objects.get(player=member)
    assert (seat.first_dealt_at, seat.last_settled_at) == (third.created_at, third.settled_at)
    assert tally_differences(session.shift_id) == []


@pytest.mark.django_db
def test_a_void_of_a_round_never_settled_leaves_the_tallies_alone(floor, session):
    settled(session, floor.dealer, box(1, NIU_9, single="100000"), key="t-1")
    before = list(BetTally.objects.values())
    boxes = [box(1, NO_NIU, single="10000")]
    dealt, _ = round_create(session=session, user=floor.dealer, dealer_cards=NIU_8, boxes=boxes)
    round_void(round_=dealt, requested_by=floor.dealer, approved_by=floor.supervisor, reason="x")
    assert list(BetTally.objects.values()) == before


@pytest.mark.django_db
def test_tallies_hold_exactly_the_settled_bets_and_rebuild_alike(floor, session):
    PlayerFactory.create_batch(4, venue=floor.venue)
    play(
        session=session,
        rounds=40,
        dealer=floor.dealer,
        supervisor=floor.supervisor,
        seed=11,
        void_rate=0.2,
    )
    bets = Bet.objects.filter(box__round__session=session, box__round__status=RoundStatus.SETTLED)
    totals = BetTally.objects.filter(session=session).aggregate(
        bets=Sum("bets"), handle=Sum("handle"), net=Sum("player_result")
    )
    assert totals == bets.aggregate(bets=Count("pk"), handle=Sum("stake"), net=Sum("net"))
    assert session.rounds.filter(status=RoundStatus.VOIDED).exists()
    assert SeatTally.objects.filter(session=session).exists()
    assert tally_differences(session.shift_id) == []
    live = _rows(session)
    # when: made again from the rounds, as the upgrade does
    tally_rebuild(session.shift_id)
    # then: the same rows (voided rounds' tallies aside, which the live ones keep at zero)
    assert {k: v for k, v in _rows(session).items()} == {k: v for k, v in live.items() if v[0]}


def _rows(session):
    return {
        (t.hour, t.player_id, t.bet_type): (t.bets, t.handle, t.player_result, t.max_net)
        for t in BetTally.objects.filter(session=session)
    }


@pytest.mark.django_db
def test_the_audit_checks_the_tallies_on_request(floor, session):
    settled(session, floor.dealer, box(1, NIU_9, single="100000"), key="t-1")
    out = io.StringIO()
    call_command("audit_ledger", "--tallies", stdout=out, stderr=out)
    assert "the ledger balances" in out.getvalue()
    BetTally.objects.update(handle=D("1"))
    with pytest.raises(CommandError, match="1 problem"):
        call_command("audit_ledger", "--tallies", stdout=out, stderr=out)
    assert "handle 1.00, its bets give 100000.00" in out.getvalue()


@pytest.mark.django_db(transaction=True)
def test_rounds_of_one_table_settled_at_once_add_up(floor):
    # given: six dealt rounds of one session, their bets in the same tallies
    session = session_open(
        table=floor.table,
        counted_by=floor.dealer,
        confirmed_by=floor.supervisor,
        opening_chips={"100000": 50},
    )
    member = PlayerFactory(venue=floor.venue)
    rounds = [
        round_create(
            session=session,
            user=floor.dealer,
            dealer_cards=NIU_8,
            boxes=[box(1, NIU_9, member, single="100000"), box(2, NO_NIU, single="50000")],
        )[0]
        for _n in range(6)
    ]
    barrier = threading.Barrier(len(rounds))
    errors = []

    def settle(round_):
        try:
            barrier.wait()
            round_settle(round_=round_, user=floor.dealer, key=f"at-once-{round_.pk}")
        except Exception as error:  # reported below
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=settle, args=(r,)) for r in rounds]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    # then: no deadlock, nothing lost
    assert errors == []
    found = tallies(session)
    assert found[(member.pk, "single")].bets == 6
    assert found[(None, "single")].player_result == D("-300000")
    assert SeatTally.objects.get(player=member).rounds == 6
    assert tally_differences(session.shift_id) == []


@pytest.mark.django_db
def test_rebuild_tallies_repairs_a_shift(floor, session):
    settled(session, floor.dealer, box(1, NIU_9, single="100000"), key="t-1")
    BetTally.objects.update(handle=D("1"))
    out = io.StringIO()
    call_command("rebuild_tallies", "--shift", str(session.shift_id), stdout=out)
    assert f"shift {session.shift_id}: tallies made again" in out.getvalue()
    assert BetTally.objects.get().handle == D("100000")
    with pytest.raises(CommandError, match="there is no shift 0"):
        call_command("rebuild_tallies", "--shift", "0", stdout=out)
