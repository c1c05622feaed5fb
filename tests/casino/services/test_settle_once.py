"""A round is evaluated once, when it is dealt; settling posts that outcome, checked."""

from __future__ import annotations

from decimal import Decimal as D
from unittest import mock

import pytest
from django.db import connection
from django.db.models import Sum
from django.test.utils import CaptureQueriesContext

from casino import games
from casino.floor.console.services import round_confirm
from casino.floor.models import Bet, Round, RoundStatus
from casino.floor.services.rounds import round_create, round_create_written
from casino.floor.services.settlement import round_settle, round_settle_written
from casino.games import BoxInput
from casino.kernel.errors import Conflict
from casino.ledger.models import Account, LedgerEntry
from casino.ledger.services import UnbalancedPosting, ledger_post

pytestmark = pytest.mark.django_db

NIU_9 = "KS QS 5H 4H TC"
NIU_8 = "JS QH JD AC 7H"
NO_NIU = "KH 8H 4D JH AD"
MORE = ("2S 3S 4S 5S 7D", "2H 3H 6H 9S TD", "2C 3C 6C 8C 9D")


def boxes(count):
    hands = (NIU_9, NO_NIU, *MORE)
    return [
        BoxInput(position=n + 1, cards=hands[n], stakes={"single": D("10000")})
        for n in range(count)
    ]


@pytest.fixture
def evaluations(floor):
    """Counts the calls of the table's game's ``evaluate_round``."""
    adapter = games.get(floor.table.game)
    with mock.patch.object(adapter, "evaluate_round", wraps=adapter.evaluate_round) as evaluate:
        yield evaluate


def test_deal_then_settle_evaluates_the_round_once(floor, session, evaluations):
    round_, dealt = round_create(
        session=session, user=floor.dealer, dealer_cards=NIU_8, boxes=boxes(2)
    )
    # a settle in another request: the round comes from the database
    fresh = Round.objects.get(pk=round_.pk)
    _settled, posted = round_settle(round_=fresh, user=floor.dealer, key="k-1")
    assert evaluations.call_count == 1
    assert posted.house_net == dealt.house_net
    assert [b.net for box in posted.boxes for b in box.bets] == [
        b.net for box in dealt.boxes for b in box.bets
    ]


def test_the_bets_carry_their_outcome_from_the_deal_and_the_ledger_posts_it(floor, session):
    round_, _dealt = round_create(
        session=session, user=floor.dealer, dealer_cards=NIU_8, boxes=boxes(2)
    )
    stored = list(Bet.objects.filter(box__round=round_).order_by("pk"))
    assert [bet.outcome for bet in stored] == ["win", "lose"]
    assert not LedgerEntry.objects.filter(round=round_).exists()
    round_settle(round_=Round.objects.get(pk=round_.pk), user=floor.dealer, key="k-1")
    players = LedgerEntry.objects.filter(round=round_, account=Account.PLAYER)
    assert players.aggregate(total=Sum("amount"))["total"] == sum(bet.net for bet in stored)
    assert LedgerEntry.objects.filter(round=round_).aggregate(t=Sum("amount"))["t"] == 0


def test_a_confirm_deals_and_settles_without_reading_the_round_back(floor, session, evaluations):
    with CaptureQueriesContext(connection) as queries:
        round_ = round_confirm(
            session=session, user=floor.dealer, dealer_cards=NIU_8, boxes=boxes(3), key="c-1"
        ).round
    assert round_.status == RoundStatus.SETTLED
    assert evaluations.call_count == 1
    reads = [q["sql"] for q in queries.captured_queries if q["sql"].startswith("SELECT")]
    assert not [sql for sql in reads if '"casino_bet"' in sql.split("WHERE")[0]], reads
    assert not [sql for sql in reads if 'FROM "casino_box"' in sql], reads


def test_a_confirm_is_one_transaction_and_a_refusal_after_its_deal_writes_nothing(floor, session):
    """The deal and the settle take no savepoint of their own inside the Confirm's one
    transaction (a savepoint here is the Confirm's own, the test being a transaction), so
    a refusal after the deal (the rules moved since the preview) rolls the deal back too."""
    with CaptureQueriesContext(connection) as queries:
        first = round_confirm(
            session=session, user=floor.dealer, dealer_cards=NIU_8, boxes=boxes(2), key="c-2"
        ).round
    savepoints = [q["sql"] for q in queries.captured_queries if q["sql"].startswith("SAVEPOINT")]
    assert len(savepoints) == 1, savepoints
    with pytest.raises(Conflict, match="rules changed"):
        round_confirm(
            session=session,
            user=floor.dealer,
            dealer_cards=NIU_8,
            boxes=boxes(2),
            key="c-3",
            version_id=first.ruleset_version_id + 1,
        )
    assert list(Round.objects.values_list("settle_key", flat=True)) == ["c-2"]
    session.refresh_from_db()
    assert session.next_round_number == first.number + 1


def test_settling_queries_stay_flat_in_the_number_of_boxes(floor, session):
    counts = []
    for count in (1, 5):
        round_, _ = round_create(
            session=session, user=floor.dealer, dealer_cards=NIU_8, boxes=boxes(count)
        )
        fresh = Round.objects.get(pk=round_.pk)
        with CaptureQueriesContext(connection) as queries:
            round_settle(round_=fresh, user=floor.dealer, key=f"flat-{count}")
        counts.append(len(queries))
    assert counts[0] == counts[1], counts


def test_a_recorded_outcome_that_does_not_add_up_is_refused(floor, session):
    round_, _ = round_create(session=session, user=floor.dealer, dealer_cards=NIU_8, boxes=boxes(2))
    Bet.objects.filter(box__round=round_, outcome="win").update(net=D("1"))
    with pytest.raises(Conflict, match="does not add up"):
        round_settle(round_=Round.objects.get(pk=round_.pk), user=floor.dealer, key="k-1")
    assert not LedgerEntry.objects.filter(round=round_).exists()
    assert Round.objects.get(pk=round_.pk).status == RoundStatus.DEALT


def test_a_round_dealt_before_outcomes_were_recorded_is_evaluated_once_and_recorded(
    floor, session, evaluations
):
    round_, dealt = round_create(
        session=session, user=floor.dealer, dealer_cards=NIU_8, boxes=boxes(2)
    )
    Bet.objects.filter(box__round=round_).update(
        outcome="", odds=None, gross=None, commission=None, net=None
    )
    _settled, posted = round_settle(
        round_=Round.objects.get(pk=round_.pk), user=floor.dealer, key="k-1"
    )
    assert evaluations.call_count == 2  # the deal, and the settle of the legacy round
    assert posted == dealt
    assert [bet.net for bet in Bet.objects.filter(box__round=round_).order_by("pk")] == [
        b.net for box in dealt.boxes for b in box.bets
    ]


def test_ledger_post_refuses_entries_that_do_not_sum_to_zero(floor, session):
    round_, _ = round_create(session=session, user=floor.dealer, dealer_cards=NIU_8, boxes=boxes(1))
    entries = [
        LedgerEntry(
            venue=floor.venue,
            session=session,
            round=round_,
            account=account,
            kind="result",
            amount=amount,
        )
        for account, amount in ((Account.PLAYER, D("100")), (Account.HOUSE, D("-99")))
    ]
    with pytest.raises(UnbalancedPosting):
        ledger_post(entries)
    assert not LedgerEntry.objects.filter(round=round_).exists()


def test_a_settle_handed_another_rounds_deal_is_refused(floor, session):
    first = round_create_written(
        session=session, user=floor.dealer, dealer_cards=NIU_8, boxes=boxes(1)
    )
    second = round_create_written(
        session=session, user=floor.dealer, dealer_cards=NIU_8, boxes=boxes(2)
    )
    with pytest.raises(ValueError, match="was dealt with"):
        round_settle_written(round_=second.round, user=floor.dealer, key="k-1", dealt=first)
    assert not LedgerEntry.objects.filter(round=second.round).exists()
    settled = round_settle_written(round_=second.round, user=floor.dealer, key="k-1", dealt=second)
    assert settled.boxes == second.boxes
    assert settled.result.house_net == second.result.house_net
