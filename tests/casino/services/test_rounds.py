"""Dealing, settling and voiding rounds through the services, on PostgreSQL."""

from __future__ import annotations

from decimal import Decimal as D

import pytest
from django.db import DatabaseError, connection, transaction
from django.db.models import Sum

from casino.floor.models import Bet, RoundStatus
from casino.floor.services.rounds import round_create
from casino.floor.services.settlement import round_settle
from casino.floor.services.voids import round_void, round_void_approve, round_void_request
from casino.games import BoxInput
from casino.kernel.errors import Conflict, Forbidden, InvalidInput, NotFound
from casino.ledger.models import Account, LedgerEntry

pytestmark = pytest.mark.django_db

NIU_9 = "KS QS 5H 4H TC"  # player: Niu 9, high card KS
NIU_8 = "JS QH JD AC 7H"  # dealer: Niu 8
NO_NIU = "KH 8H 4D JH AD"


def deal(session, user, *boxes, dealer=NIU_8, key=None):
    return round_create(
        session=session, user=user, dealer_cards=dealer, boxes=list(boxes), create_key=key
    )


def box(position, cards, **stakes):
    deposits = stakes.pop("deposits", {})
    return BoxInput(
        position=position,
        cards=cards,
        stakes={k: D(v) for k, v in stakes.items()},
        deposits={k: D(v) for k, v in deposits.items()},
    )


def test_a_dealt_round_answers_evaluations_and_preview(floor, session):
    round_, result = deal(
        session,
        floor.dealer,
        box(1, NIU_9, single="100000", double="100000", deposits={"double": "300000"}),
    )
    assert (round_.number, round_.status) == (1, RoundStatus.DEALT)
    assert result.dealer_evaluation["category"] == "NIU_8"
    (player,) = result.boxes
    assert player.evaluation["category"] == "NIU_9"
    single, double = player.bets
    # vn-kr-004: single 1:1 with 5%, double Niu 9 2:1 with 5%
    assert (single.gross, single.commission, single.net) == (D("100000"), D("5000"), D("95000"))
    assert (double.gross, double.commission, double.net) == (D("200000"), D("10000"), D("190000"))
    assert result.house_net == D("-285000")
    assert not LedgerEntry.objects.exists(), "nothing is posted before settlement"


def test_settlement_posts_balanced_entries_and_is_idempotent(
    floor, session, django_assert_max_num_queries
):
    round_, _ = deal(
        session, floor.dealer, box(1, NIU_9, single="100000"), box(2, NO_NIU, single="50000")
    )
    # when
    settled, result = round_settle(round_=round_, user=floor.dealer, key="k-1")
    _again, result_again = round_settle(round_=round_, user=floor.dealer, key="k-1")
    # then
    assert settled.status == RoundStatus.SETTLED
    assert result == result_again
    entries = LedgerEntry.objects.filter(round=round_)
    assert entries.count() == 6  # box 1: result + commission pairs; box 2: result pair
    assert entries.aggregate(t=Sum("amount"))["t"] == 0
    house = entries.filter(account=Account.HOUSE).aggregate(t=Sum("amount"))["t"]
    assert house == settled.house_net == D("-95000") + D("50000")
    bets = {b.box.position: b for b in Bet.objects.select_related("box")}
    assert (bets[1].outcome, bets[1].net) == ("win", D("95000"))
    assert (bets[2].outcome, bets[2].net) == ("lose", D("-50000"))


def test_settling_under_another_key_is_a_conflict(floor, session):
    round_, _ = deal(session, floor.dealer, box(1, NIU_9, single="100000"))
    round_settle(round_=round_, user=floor.dealer, key="first")
    with pytest.raises(Conflict, match="already settled"):
        round_settle(round_=round_, user=floor.dealer, key="second")
    assert LedgerEntry.objects.filter(round=round_).count() == 4


def test_a_void_needs_a_second_person_and_reverses_entries(floor, session):
    round_, _ = deal(session, floor.dealer, box(1, NIU_9, single="100000"))
    round_settle(round_=round_, user=floor.dealer, key="k")
    round_void_request(round_=round_, user=floor.supervisor, reason="misdeal")
    with pytest.raises(Forbidden, match="second person"):
        round_void_approve(round_=round_, user=floor.supervisor)
    with pytest.raises(Forbidden, match="supervisor"):
        round_void_approve(round_=round_, user=floor.dealer)
    voided = round_void_approve(round_=round_, user=floor.supervisor2)
    assert voided.status == RoundStatus.VOIDED
    entries = LedgerEntry.objects.filter(round=round_)
    assert entries.count() == 8
    assert entries.filter(reverses__isnull=False).count() == 4
    assert entries.filter(account=Account.HOUSE).aggregate(t=Sum("amount"))["t"] == 0
    with pytest.raises(Conflict, match="voided"):
        round_settle(round_=round_, user=floor.dealer, key="again")


def test_an_unsettled_round_is_voided_without_entries(floor, session):
    round_, _ = deal(session, floor.dealer, box(1, NIU_9, single="100000"))
    round_void(
        round_=round_, requested_by=floor.dealer, approved_by=floor.supervisor, reason="wrong table"
    )
    round_.refresh_from_db()
    assert round_.status == RoundStatus.VOIDED
    assert not LedgerEntry.objects.filter(round=round_).exists()


@pytest.mark.parametrize(
    ("boxes", "dealer", "field", "message"),
    [
        (
            [box(1, "KS QS 5H 4H 1X", single="100000")],
            NIU_8,
            "boxes[0].cards",
            "'1X' is not a card",
        ),
        (
            [box(1, "KS QS 5H 4H", single="100000")],
            NIU_8,
            "boxes[0].cards",
            "expected 5 cards, got 4",
        ),
        ([box(1, "KS QS 5H 4H JS", single="100000")], NIU_8, "boxes[0].cards", "'JS' is in both"),
        ([box(1, NIU_9, single="100000")], "JS QH JD AC", "dealer_cards", "expected 5 cards"),
        ([box(1, NIU_9, single="5000")], NIU_8, "boxes[0].bets.single", "below the table minimum"),
        (
            [box(1, NIU_9, single="20000000")],
            NIU_8,
            "boxes[0].bets.single",
            "above the table maximum",
        ),
        (
            [box(1, NIU_9, single="-10000")],
            NIU_8,
            "boxes[0].bets.single",
            "below the table minimum",
        ),
        ([box(1, NIU_9, single="10500")], NIU_8, "boxes[0].bets.single", "not a multiple"),
        ([box(1, NIU_9, double="100000")], NIU_8, "boxes[0].bets.single", "needs a single"),
        (
            [box(1, NIU_9, single="100000", double="100000", deposits={"double": "200000"})],
            NIU_8,
            "boxes[0].deposits.double",
            "needs a deposit of 300000",
        ),
        ([box(6, NIU_9, single="100000")], NIU_8, "boxes[0].position", "boxes 1 to 5"),
        (
            [box(1, NIU_9, single="100000"), box(1, NO_NIU, single="100000")],
            NIU_8,
            "boxes[1].position",
            "given twice",
        ),
        (
            [box(1, NIU_9, single="100000", bonus="10000")],
            NIU_8,
            "boxes[0].bets.bonus",
            "does not offer",
        ),
    ],
)
def test_bad_input_names_the_field(floor, session, boxes, dealer, field, message):
    with pytest.raises(InvalidInput) as error:
        deal(session, floor.dealer, *boxes, dealer=dealer)
    assert error.value.field == field
    assert message in error.value.message


def test_a_session_at_another_venue_is_not_found_to_deal_or_settle_in(floor, session):
    """Not found, as if it did not exist: the API's 404, which tells nothing of it."""
    with pytest.raises(NotFound, match=f"no session {session.pk} at your venues"):
        deal(session, floor.other_dealer, box(1, NIU_9, single="100000"))
    round_, _ = deal(session, floor.dealer, box(1, NIU_9, single="100000"))
    with pytest.raises(NotFound, match=f"no round {round_.pk} at your venues"):
        round_settle(round_=round_, user=floor.other_dealer, key="k")


def test_the_same_create_key_returns_the_same_round(floor, session):
    first, _ = deal(session, floor.dealer, box(1, NIU_9, single="100000"), key="form-1")
    second, _ = deal(session, floor.dealer, box(1, NIU_9, single="100000"), key="form-1")
    assert first.pk == second.pk
    assert session.rounds.count() == 1


def test_the_database_refuses_to_change_or_delete_ledger_entries(floor, session):
    round_, _ = deal(session, floor.dealer, box(1, NIU_9, single="100000"))
    round_settle(round_=round_, user=floor.dealer, key="k")
    entry = LedgerEntry.objects.filter(round=round_).first()
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
        LedgerEntry.objects.filter(pk=entry.pk).update(amount=D("1"))
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
        LedgerEntry.objects.filter(pk=entry.pk).delete()


def test_the_database_refuses_an_unbalanced_round(floor, session):
    round_, _ = deal(session, floor.dealer, box(1, NIU_9, single="100000"))
    with (
        pytest.raises(DatabaseError, match=r"of round \d+ sum to 1000\.00, not zero"),
        transaction.atomic(),
    ):
        LedgerEntry.objects.create(
            venue=floor.venue,
            session=session,
            round=round_,
            account=Account.HOUSE,
            kind="result",
            amount=D("1000"),
        )


def test_a_box_posts_one_result_and_one_commission_pair(floor, session):
    # given a box with single and double winning with Niu 9 (both with 5% commission)
    round_, _ = deal(
        session,
        floor.dealer,
        box(1, NIU_9, single="100000", double="100000", deposits={"double": "300000"}),
    )
    # when
    round_settle(round_=round_, user=floor.dealer, key="k")
    # then gross 100,000 + 200,000 and commission 5,000 + 10,000 are posted per box
    entries = {(e.account, e.kind): e.amount for e in LedgerEntry.objects.filter(round=round_)}
    assert entries == {
        (Account.PLAYER, "result"): D("300000"),
        (Account.HOUSE, "result"): D("-300000"),
        (Account.PLAYER, "commission"): D("-15000"),
        (Account.HOUSE, "commission"): D("15000"),
    }
    bets = {b.bet_type: (b.gross, b.commission, b.net) for b in Bet.objects.all()}
    assert bets == {
        "single": (D("100000"), D("5000"), D("95000")),
        "double": (D("200000"), D("10000"), D("190000")),
    }


def test_a_round_of_a_closed_session_cannot_be_voided(floor, session):
    round_, _ = deal(session, floor.dealer, box(1, NIU_9, single="100000"))
    round_settle(round_=round_, user=floor.dealer, key="k")
    from casino.floor.services.closing import session_close

    session_close(
        session=session,
        counted_by=floor.dealer,
        confirmed_by=floor.supervisor,
        closing_chips={"100000": 49},
        variance_reason="a chip short",
    )
    with pytest.raises(Conflict, match="closed session"):
        round_void_request(round_=round_, user=floor.dealer, reason="late")


def test_a_second_void_request_by_someone_else_is_a_conflict(floor, session):
    round_, _ = deal(session, floor.dealer, box(1, NIU_9, single="100000"))
    round_void_request(round_=round_, user=floor.dealer, reason="misdeal")
    with pytest.raises(Conflict, match="already requested by dealer"):
        round_void_request(round_=round_, user=floor.supervisor, reason="other")


@pytest.mark.parametrize(
    ("stake", "unit", "reason"),
    [
        ("5000", None, "stake_below_minimum"),
        ("20000000", None, "stake_above_maximum"),
        ("0", "1000", "stake_below_minimum"),
        ("10500", "1000", "stake_off_unit"),
    ],
)
def test_a_stake_is_refused_with_the_rule_that_refuses_it(floor, stake, unit, reason):
    from decimal import Decimal

    from casino.floor.services.rounds import check_stake
    from casino.venues.models import TableLimit

    limit = TableLimit.objects.get(table=floor.table, bet_type="single")
    with pytest.raises(InvalidInput) as error:
        check_stake(stake=Decimal(stake), limit=limit, unit=unit and Decimal(unit))
    assert error.value.reason == reason


def ledger_rows_scanned() -> int:
    """The ledger's rows read by sequential scans in this transaction so far."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT seq_tup_read FROM pg_stat_xact_user_tables WHERE relname = %s",
            [LedgerEntry._meta.db_table],
        )
        return cursor.fetchone()[0]


def test_the_balance_check_reads_only_the_rounds_entries_of_a_large_ledger(floor, session):
    """The database's balance check of a posting sums the entries of each round it posted
    to by their index: settling a round reads its own entries, not the whole ledger, even
    where the ledger's statistics are not kept (no ANALYZE since it grew: a fresh database,
    or autovacuum off), where a join to the posted rows was planned as a scan of it all."""
    round_, _ = deal(session, floor.dealer, box(1, NIU_9, single="100000"))
    round_settle(round_=round_, user=floor.dealer, key="k")
    with connection.cursor() as cursor:  # a shift's worth of entries, balanced, not counted
        cursor.execute(
            f"INSERT INTO {LedgerEntry._meta.db_table} "  # noqa: S608 (a model's table)
            "(venue_id, session_id, round_id, account, kind, amount, created_at) "
            "SELECT %s, %s, %s, 'house', 'result', CASE WHEN n %% 2 = 0 THEN 1 ELSE -1 END, "
            "now() FROM generate_series(1, 20000) n",
            [floor.venue.pk, session.pk, round_.pk],
        )
    before = ledger_rows_scanned()
    later, _ = deal(session, floor.dealer, box(1, NIU_9, single="100000"))
    round_settle(round_=later, user=floor.dealer, key="k2")
    assert LedgerEntry.objects.filter(round=later).exists()
    assert ledger_rows_scanned() - before < 100
