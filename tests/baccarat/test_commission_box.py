"""The commission box over a shoe: what each seat owes, collected once, a void after the
collection owed back, and a new shoe refused until the box is settled (hand-computed: 5%
of each Banker win, rounded down to the venue's 1,000)."""

from __future__ import annotations

from decimal import Decimal

import pytest

from baccarat.models import CommissionCollection, Shoe
from baccarat.selectors import (
    commission_owed,
    current_shoe,
    current_shoe_number,
    shoe_of,
    shoe_rounds,
)
from baccarat.services import commission_collect, shoe_start
from casino.audit.models import AuditEvent
from casino.floor.services.rounds import round_create
from casino.floor.services.settlement import round_settle
from casino.floor.services.voids import round_void
from casino.games import BoxInput
from casino.kernel.errors import Conflict, InvalidInput

pytestmark = pytest.mark.django_db

BANKER_9 = "2S 9H 3C KD"  # Player 5, Banker a natural 9: both stand
BANKER_3_CARD_6 = "2S 3H 3C KD KH 3D"  # Player 5 draws K (5); Banker 3 draws 3 (6)
PLAYER_9 = "9S 2H KC 3D"  # a natural 9 for the Player


def bets(position: int, **stakes: str) -> BoxInput:
    return BoxInput(position=position, cards="", stakes={b: Decimal(s) for b, s in stakes.items()})


def dealt(floor, session, cards: str, *boxes: BoxInput, key: str):
    round_, _result = round_create(
        session=session, user=floor.dealer, dealer_cards=cards, boxes=list(boxes)
    )
    return round_settle(round_=round_, user=floor.dealer, key=key)


def settled_round(floor, session, cards, *boxes, key):
    settled = dealt(floor, session, cards, *boxes, key=key)
    return settled[0] if isinstance(settled, tuple) else settled


def test_a_shoe_of_the_commission_box(bac):
    session = bac.box_session
    one = settled_round(
        bac, session, BANKER_9,
        bets(1, banker="100000"), bets(2, banker="30000"), bets(3, player="50000"),
        key="r1",
    )  # fmt: skip
    settled_round(
        bac, session, BANKER_3_CARD_6, bets(1, banker="200000"), bets(2, player="40000"), key="r2"
    )
    three = settled_round(bac, session, BANKER_9, bets(2, banker="60000"), key="r3")
    # seat 1: 5% of 100,000 + 5% of 200,000; seat 2: 1,500 down to 1,000, then 3,000
    assert commission_owed(session) == {1: Decimal("15000"), 2: Decimal("4000")}
    assert commission_owed(bac.session) == {}  # the other table takes it at the win

    with pytest.raises(Conflict) as refused:
        shoe_start(session=session, user=bac.dealer)
    assert refused.value.reason == "commission_owed"
    assert str(refused.value) == (
        "collect the commission box first: seat 1 owes 15000, seat 2 owes 4000"
    )

    first = commission_collect(session=session, position=1, user=bac.dealer)
    assert (first.amount, first.position, first.shoe) == (Decimal("15000"), 1, None)
    with pytest.raises(InvalidInput) as twice:
        commission_collect(session=session, position=1, user=bac.dealer)
    assert twice.value.reason == "nothing_owed"
    commission_collect(session=session, position=2, user=bac.dealer)
    assert commission_owed(session) == {}

    # round 3 voided after its commission was collected: the house owes seat 2 it back
    round_void(round_=three, requested_by=bac.dealer, approved_by=bac.supervisor, reason="misdeal")
    assert commission_owed(session) == {2: Decimal("-3000")}
    with pytest.raises(Conflict) as owed_back:
        shoe_start(session=session, user=bac.dealer)
    assert "seat 2 is owed 3000 back" in str(owed_back.value)
    back = commission_collect(session=session, position=2, user=bac.dealer)
    assert back.amount == Decimal("-3000")

    # the box settled, the next shoe: rounds so far were shoe 1's
    assert current_shoe(session) is None and current_shoe_number(session) == 1
    shoe = shoe_start(session=session, user=bac.dealer)
    assert shoe.number == 2 and current_shoe(session) == shoe
    four = settled_round(bac, session, PLAYER_9, bets(1, player="10000"), key="r4")
    assert (shoe_of(one), shoe_of(four)) == (1, 2)
    assert [r.number for r in shoe_rounds(session, 1)] == [1, 2, 3]
    assert [r.number for r in shoe_rounds(session, 2)] == [4]
    assert shoe_rounds(session, 3) == []
    assert shoe_start(session=session, user=bac.dealer).number == 3

    actions = list(
        AuditEvent.objects.filter(action__startswith="baccarat.").values_list("action", flat=True)
    )
    assert actions.count("baccarat.commission_collect") == 3
    assert actions.count("baccarat.shoe_start") == 2
    assert CommissionCollection.objects.filter(session=session).count() == 3


def test_the_first_shoe_of_a_fresh_session_is_number_1(bac):
    shoe = shoe_start(session=bac.session, user=bac.dealer)
    assert shoe.number == 1
    assert Shoe.objects.filter(session=bac.session).count() == 1


def test_only_the_dealer_on_duty_or_a_supervisor_starts_a_shoe(bac):
    from tests.factories import staff

    other = staff("bac-other-dealer", "dealer", bac.venue)
    with pytest.raises(Exception) as refused:
        shoe_start(session=bac.session, user=other)
    assert getattr(refused.value, "reason", "") == "not_on_duty"
    assert shoe_start(session=bac.session, user=bac.supervisor).number == 1


def test_a_table_with_a_commission_box_owed_does_not_close_until_it_is_collected(bac, client):
    from django.conf import settings
    from django.urls import reverse

    from casino.floor.services.closing import session_close

    session = bac.box_session
    settled_round(bac, session, BANKER_9, bets(3, banker="100000"), key="owed")
    close = {
        "session": session,
        "counted_by": bac.dealer,
        "confirmed_by": bac.supervisor,
        "closing_chips": {"100000": 50},
        "variance_reason": "counted at the end of the shoe",
    }
    with pytest.raises(Conflict) as refused:
        session_close(**close)
    assert refused.value.reason == "commission_owed"
    assert str(refused.value) == (
        "collect the commission box before closing the table: seat 3 owes 5000"
    )
    # The console's close says so before a supervisor is asked to sign.
    client.force_login(bac.dealer)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    page = client.post(
        reverse("console:close", args=[session.pk]),
        {"chips-100000": "50"},
        HTTP_HX_REQUEST="true",
    )
    assert page.status_code == 422
    assert "seat 3 owes 5000" in page.content.decode()
    session.refresh_from_db()
    assert session.status == "open"
    # Collected, the table closes.
    commission_collect(session=session, position=3, user=bac.dealer)
    assert session_close(**close).status == "closed"
