"""Front money (casino.cage.services.front_money): deposited at the cage, drawn at a table
for chips, returned; the balance is the sum of the movements and is never below 0.

Worked by hand (venue in VND, rounding unit 1,000):

    movement                                  amount        balance
    deposit at the cage                   +10,000,000    10,000,000
    draw at table NN1                      -3,000,000     7,000,000
    draw at table NN2                      -2,500,000     4,500,000
    return at the cage                     -4,000,000       500,000
    reversal of the second draw (mistake)  +2,500,000     3,000,000

    deposits 10,000,000 - draws 5,500,000 - returns 4,000,000 + reversals 2,500,000
    = 3,000,000: the sum of the five rows, which is the balance.
"""

from __future__ import annotations

import threading
from decimal import Decimal as D

import pytest
from django.contrib.auth import get_user_model
from django.db import DatabaseError, connection, transaction

from casino.audit.models import AuditEvent
from casino.cage.models import FrontMoney
from casino.cage.selectors import front_money_balance, front_money_movements
from casino.cage.services.front_money import (
    front_money_deposit,
    front_money_draw,
    front_money_return,
    front_money_reverse,
)
from casino.floor.models import TableSession
from casino.floor.services.sessions import session_open
from casino.kernel.errors import Conflict, Forbidden, InvalidInput
from casino.players.models import Player
from tests.factories import PlayerFactory, niuniu_table


def _open(floor, table):
    return session_open(
        table=table,
        counted_by=floor.dealer,
        confirmed_by=floor.supervisor,
        opening_chips={"100000": 50},
    )


@pytest.fixture
def member(floor):
    return PlayerFactory(venue=floor.venue, membership_number="FM-1", name="Le Thi B")


@pytest.mark.django_db
def test_a_deposit_two_draws_a_return_and_a_reversal(floor, cashier, member):
    first, second = _open(floor, floor.table), _open(floor, niuniu_table(floor.venue, code="NN2"))
    venue = floor.venue

    deposit = front_money_deposit(venue=venue, player=member, user=cashier, amount="10000000")
    assert front_money_balance(member) == D("10000000")
    front_money_draw(session=first, player=member, user=floor.dealer, amount=D("3000000"))
    assert front_money_balance(member) == D("7000000")
    draw = front_money_draw(
        session=second, player=member, user=floor.supervisor, amount=D("2500000")
    )
    assert front_money_balance(member) == D("4500000")
    front_money_return(venue=venue, player=member, user=cashier, amount=D("4000000"))
    assert front_money_balance(member) == D("500000")
    reversal = front_money_reverse(movement=draw, user=floor.manager, reason="wrong player")
    assert front_money_balance(member) == D("3000000")

    assert deposit.amount == D("10000000") and draw.amount == D("-2500000")
    assert reversal.reverses == draw and reversal.amount == D("2500000")
    assert draw.session == second and deposit.session is None
    assert [m.kind for m in front_money_movements(member)] == [
        "reversal",
        "return",
        "draw",
        "draw",
        "deposit",
    ]
    assert sum(m.amount for m in FrontMoney.objects.filter(player=member)) == D("3000000")
    actions = list(
        AuditEvent.objects.filter(action__startswith="front_money.")
        .order_by("id")
        .values_list("action", flat=True)
    )
    assert actions == [
        "front_money.deposit",
        "front_money.draw",
        "front_money.draw",
        "front_money.return",
        "front_money.reverse",
    ]
    # Reversed once; a reversal is not reversed.
    with pytest.raises(Conflict, match="already reversed"):
        front_money_reverse(movement=draw, user=floor.manager, reason="again")
    with pytest.raises(Conflict):
        front_money_reverse(movement=reversal, user=floor.manager, reason="undo")


@pytest.mark.django_db
def test_more_than_the_balance_is_refused_saying_the_balance(floor, cashier, member):
    session = _open(floor, floor.table)
    front_money_deposit(venue=floor.venue, player=member, user=cashier, amount=D("1000000"))
    with pytest.raises(Conflict, match="1,000,000") as refused:
        front_money_draw(session=session, player=member, user=floor.dealer, amount=D("1001000"))
    assert "deposit more at the cage" in str(refused.value)
    with pytest.raises(Conflict, match="1,000,000"):
        front_money_return(venue=floor.venue, player=member, user=cashier, amount=D("2000000"))
    # A deposit already drawn is not reversed: the balance would go below 0.
    deposit = FrontMoney.objects.get(kind="deposit")
    front_money_draw(session=session, player=member, user=floor.dealer, amount=D("600000"))
    with pytest.raises(Conflict, match="400,000"):
        front_money_reverse(movement=deposit, user=floor.manager, reason="mistake")
    assert front_money_balance(member) == D("400000")
    # Nobody's balance starts above 0.
    other = PlayerFactory(venue=floor.venue, membership_number="FM-2")
    with pytest.raises(Conflict):
        front_money_draw(session=session, player=other, user=floor.dealer, amount=D("1000"))


@pytest.mark.django_db
@pytest.mark.parametrize("amount", ["0", "-1000", "1500", "abc"])
def test_amounts_more_than_0_in_the_venues_rounding_unit(floor, cashier, member, amount):
    with pytest.raises(InvalidInput):
        front_money_deposit(venue=floor.venue, player=member, user=cashier, amount=amount)
    assert not FrontMoney.objects.exists()


@pytest.mark.django_db
def test_who_does_what(floor, cashier, member):
    session = _open(floor, floor.table)
    venue = floor.venue
    for user in (floor.dealer, floor.supervisor, floor.manager, floor.auditor):
        with pytest.raises(Forbidden):
            front_money_deposit(venue=venue, player=member, user=user, amount=D("1000"))
    deposit = front_money_deposit(venue=venue, player=member, user=cashier, amount=D("5000"))
    for user in (cashier, floor.auditor, floor.other_dealer):
        with pytest.raises(Forbidden):
            front_money_draw(session=session, player=member, user=user, amount=D("1000"))
    for user in (floor.dealer, floor.supervisor, floor.auditor):
        with pytest.raises(Forbidden):
            front_money_return(venue=venue, player=member, user=user, amount=D("1000"))
    for user in (cashier, floor.dealer, floor.supervisor):
        with pytest.raises(Forbidden):
            front_money_reverse(movement=deposit, user=user, reason="no")
    with pytest.raises(InvalidInput):
        front_money_reverse(movement=deposit, user=floor.manager, reason="  ")
    # A member of another venue is not this venue's.
    stranger = PlayerFactory(venue=floor.other_venue, membership_number="SE-9")
    with pytest.raises(InvalidInput):
        front_money_deposit(venue=venue, player=stranger, user=cashier, amount=D("1000"))
    # A draw at a closed session.
    TableSession.objects.filter(pk=session.pk).update(status="closed")
    with pytest.raises(Conflict, match="closed"):
        front_money_draw(session=session, player=member, user=floor.dealer, amount=D("1000"))
    assert front_money_balance(member) == D("5000")


@pytest.mark.django_db
def test_a_barred_player_neither_deposits_nor_draws_but_is_paid_back(floor, cashier, member):
    session = _open(floor, floor.table)
    front_money_deposit(venue=floor.venue, player=member, user=cashier, amount=D("3000000"))
    Player.objects.filter(pk=member.pk).update(status="barred")
    with pytest.raises(Conflict, match="barred"):
        front_money_draw(session=session, player=member, user=floor.dealer, amount=D("1000"))
    with pytest.raises(Conflict, match="barred"):
        front_money_deposit(venue=floor.venue, player=member, user=cashier, amount=D("1000"))
    front_money_return(venue=floor.venue, player=member, user=cashier, amount=D("3000000"))
    assert front_money_balance(member) == 0


@pytest.mark.django_db(transaction=True)
def test_two_draws_at_two_tables_at_once_one_is_refused(floor, cashier, member):
    # given 10,000,000 of front money and two open tables
    sessions = [_open(floor, floor.table), _open(floor, niuniu_table(floor.venue, code="NN2"))]
    front_money_deposit(venue=floor.venue, player=member, user=cashier, amount=D("10000000"))
    start = threading.Barrier(2)
    drawn: list[D] = []
    refused: list[BaseException] = []
    errors: list[BaseException] = []

    def draw(session_id: int) -> None:
        try:
            user = get_user_model().objects.get(pk=floor.dealer.pk)  # this thread's own
            session = TableSession.objects.get(pk=session_id)
            player = Player.objects.get(pk=member.pk)
            start.wait(timeout=30)
            movement = front_money_draw(
                session=session, player=player, user=user, amount=D("6000000")
            )
            drawn.append(movement.amount)
        except Conflict as error:
            refused.append(error)
        except BaseException as error:  # reported by the test below
            errors.append(error)
        finally:
            connection.close()

    # when each table draws 6,000,000 at once (12,000,000 together: more than the balance)
    threads = [threading.Thread(target=draw, args=(s.pk,)) for s in sessions]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)

    # then one draw is made and the other refused, saying the 4,000,000 left
    assert errors == []
    assert drawn == [D("-6000000")]
    assert len(refused) == 1 and "4,000,000" in str(refused[0])
    assert front_money_balance(member) == D("4000000")


@pytest.mark.django_db
def test_a_movement_is_never_changed_or_deleted(floor, cashier, member):
    deposit = front_money_deposit(
        venue=floor.venue, player=member, user=cashier, amount=D("1000000")
    )
    for sql in (
        "UPDATE cage_frontmoney SET amount = 2000000 WHERE id = %s",
        "DELETE FROM cage_frontmoney WHERE id = %s",
    ):
        with (
            pytest.raises(DatabaseError, match="append-only"),
            transaction.atomic(),
            connection.cursor() as cursor,
        ):
            cursor.execute(sql, [deposit.pk])
    assert front_money_balance(member) == D("1000000")


# The cage book (casino.cage.services.cage_book): at a venue whose cage counts notes
# (500,000, 200,000 and 100,000), a deposit of 10,000,000 in the fewest notes is 20 x
# 500,000 into the cage, the book's front money account -10,000,000 (held for members);
# a return of 1,300,000 counted as 2 x 500,000 + 1 x 200,000 + 1 x 100,000 leaves the cage
# 18 x 500,000 - 1 x 200,000 - 1 x 100,000 (the counts are signed moves: the cage was
# never counted, so it may go below 0 on one denomination) and the account -8,700,000; the
# return reversed puts its notes back: 20 x 500,000 and -10,000,000. A draw moves nothing.


def _book(venue):
    from casino.cage.inventory_selectors import cage_inventory
    from casino.cage.models import CageLine

    held = CageLine.objects.filter(movement__venue=venue, account="front_money")
    total = sum((line.value for line in held), D(0))
    return cage_inventory(venue)["notes"], total


def test_the_cage_book_holds_the_notes_of_front_money(floor, cashier, member):
    from casino.cage.models import CageMovement

    venue = floor.venue
    venue.note_denominations = ["500000", "200000", "100000"]
    venue.save(update_fields=["note_denominations"])
    deposit = front_money_deposit(venue=venue, player=member, user=cashier, amount=D("10000000"))
    assert _book(venue) == ({"500000": 20}, D("-10000000"))
    with pytest.raises(InvalidInput) as refused:
        front_money_return(
            venue=venue, player=member, user=cashier, amount=D("1300000"), notes={"500000": 2}
        )
    assert refused.value.field == "notes"
    assert "The notes come to 1,000,000, not 1,300,000" in refused.value.message
    paid = front_money_return(
        venue=venue,
        player=member,
        user=cashier,
        amount=D("1300000"),
        notes={"500000": 2, "200000": 1, "100000": 1},
    )
    assert _book(venue) == (
        {"500000": 18, "200000": -1, "100000": -1},
        D("-8700000"),
    )
    session = _open(floor, floor.table)
    front_money_draw(session=session, player=member, user=floor.dealer, amount=D("2000000"))
    assert _book(venue)[1] == D("-8700000")
    front_money_reverse(movement=paid, user=floor.manager, reason="paid to the wrong member")
    assert _book(venue) == ({"500000": 20}, D("-10000000"))
    kinds = list(CageMovement.objects.order_by("pk").values_list("kind", "reference"))
    assert kinds == [
        ("front_money_deposit", f"front money {deposit.pk}"),
        ("front_money_return", f"front money {paid.pk}"),
        ("front_money_return", f"front money {paid.reversed_by.pk}"),
    ]
    with pytest.raises(InvalidInput) as odd:
        front_money_deposit(venue=venue, player=member, user=cashier, amount=D("50000"))
    assert "cannot be made of this venue's notes (500000, 200000, 100000)" in odd.value.message


def test_a_venue_whose_cage_counts_no_notes_keeps_front_money_off_the_book(floor, cashier, member):
    from casino.cage.models import CageMovement

    front_money_deposit(venue=floor.venue, player=member, user=cashier, amount=D("10000000"))
    assert front_money_balance(member) == D("10000000")
    assert not CageMovement.objects.exists()
