"""The integrity tallies follow settlements and voids, on PostgreSQL."""

from __future__ import annotations

from decimal import Decimal as D

import pytest

from casino.floor.services.rounds import round_create
from casino.floor.services.settlement import round_settle
from casino.floor.services.voids import round_void
from casino.games import BoxInput
from casino.integrity.models import CardTally, CategoryTally
from casino.integrity.models.tallies import CARDS_DEALT
from tests.factories import PlayerFactory

NIU_9 = "KS QS 5H 4H TC"
NIU_8 = "JS QH JD AC 7H"  # the dealer
NO_NIU = "KH 8H 4D JH AD"


def box(position, cards, player=None):
    return BoxInput(
        position=position,
        cards=cards,
        stakes={"single": D("100000")},
        player_id=player.pk if player else None,
    )


def counts(session):
    return {
        (t.player_id, t.subject, t.category): t.count
        for t in CategoryTally.objects.filter(session=session)
    }


@pytest.mark.django_db
def test_a_settled_round_counts_its_hands_outcomes_and_cards_and_a_void_takes_them_off(
    floor, session
):
    member = PlayerFactory(venue=floor.venue)
    round_, _ = round_create(
        session=session,
        user=floor.dealer,
        dealer_cards=NIU_8,
        boxes=[box(1, NIU_9, member), box(2, NO_NIU)],
    )
    round_settle(round_=round_, user=floor.dealer, key="i-1")
    found = counts(session)
    assert found == {
        (None, "dealer_hand", "NIU_8"): 1,
        (member.pk, "box_hand", "NIU_9"): 1,
        (member.pk, "box_outcome", "win"): 1,
        (None, "box_hand", "NO_NIU"): 1,
        (None, "box_outcome", "lose"): 1,
        # Each position's own, whoever sits there (tested position by position).
        (None, "seat_box_hand", "1:NIU_9"): 1,
        (None, "seat_box_outcome", "1:win"): 1,
        (None, "seat_box_hand", "2:NO_NIU"): 1,
        (None, "seat_box_outcome", "2:lose"): 1,
        (None, "round_outcome", "1/2"): 1,
        (None, CARDS_DEALT, "15"): 1,
    }
    tally = CategoryTally.objects.filter(session=session).first()
    assert tally.gaming_date == session.shift.gaming_date
    assert tally.dealer_id == round_.dealer_id
    cards = {(t.rank, t.suit): t.count for t in CardTally.objects.filter(session=session)}
    assert sum(cards.values()) == 15 and cards[("K", "S")] == 1

    round_void(round_=round_, requested_by=floor.dealer, approved_by=floor.supervisor, reason="x")
    assert set(counts(session).values()) == {0}
    assert set(CardTally.objects.filter(session=session).values_list("count", flat=True)) == {0}
