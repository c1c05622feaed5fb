"""The order of the deals: a deal dealt again, a recycled order and a shuffle that carries
cards over are caught, fair shuffles (a fresh deck each round, or an 8-deck shoe dealt
through) are not, and a deal repeated through the services is an alert of the run."""

from __future__ import annotations

import random

import pytest

from casino.floor.models import RoundStatus
from casino.floor.outcomes import inputs_of
from casino.floor.services.rounds import round_create_written
from casino.floor.services.sessions import session_open
from casino.floor.services.settlement import round_settle_written
from casino.integrity.deals import DealWatch, identical_probability
from casino.integrity.exact import poisson_binomial_sf
from casino.integrity.models import IntegrityResult
from casino.integrity.runs import integrity_run
from casino.kernel.cards import DECK
from casino.simulation import play

CARDS = [str(card) for card in DECK]


def niuniu_deal(rng: random.Random) -> dict[int, tuple[str, ...]]:
    """A fresh deck's deal to the dealer (0) and four boxes, five cards each."""
    cards = rng.sample(CARDS, 25)
    return {hand: tuple(cards[5 * hand : 5 * hand + 5]) for hand in range(5)}


def watched(deals) -> dict[str, object]:
    watch = DealWatch()
    for number, deal in enumerate(deals, start=1):
        watch.add(table_id=1, game="niuniu", session_id=1, number=number, deal=deal, decks=1)
    return {outcome.test: outcome for outcome in watch.outcomes()}


def test_the_exact_probabilities():
    # The same five cards to one hand, in any order: 5! / (52 x 51 x 50 x 49 x 48).
    assert identical_probability({1: ("AS", "KS", "QS", "JS", "TS")}, 1) == pytest.approx(
        120 / (52 * 51 * 50 * 49 * 48)
    )
    assert poisson_binomial_sf(1, {0.5: 1}) == 0.5
    assert poisson_binomial_sf(2, {0.5: 2, 0.25: 0}) == pytest.approx(0.25)


def test_fair_shuffles_alert_at_most_at_the_level():
    repeat = serial = 0
    for seed in range(60):
        rng = random.Random(seed)
        found = watched(niuniu_deal(rng) for _ in range(200))
        repeat += found["deal_repeat"].p_value < 0.05
        serial += found["deal_serial"].p_value < 0.05
    # 60 fair tables: 3 expected at 5%; 7 is beyond 2.4 SD.
    assert repeat <= 7 and serial <= 7


def test_an_eight_deck_shoe_dealt_through_is_no_alarm():
    rng = random.Random(8)
    shoe: list[str] = []
    deals = []
    for _ in range(600):
        if len(shoe) < 6:
            shoe = CARDS * 8
            rng.shuffle(shoe)
        deals.append({0: tuple(shoe.pop() for _ in range(5))})
    found = watched(deals)
    assert found["deal_repeat"].p_value > 0.05 and found["deal_serial"].p_value > 0.05


def test_a_deal_dealt_again_is_named_with_its_exact_probability():
    rng = random.Random(1)
    deals = [niuniu_deal(rng) for _ in range(100)]
    deals[70] = deals[20]
    found = watched(deals)["deal_repeat"]
    assert found.p_value < 1e-20
    assert any(cell["key"] == "#71 = #21" for cell in found.cells)


def test_a_recycled_order_with_a_few_cards_changed_is_caught():
    rng = random.Random(2)
    deals = [niuniu_deal(rng) for _ in range(100)]
    recycled = {hand: list(cards) for hand, cards in deals[49].items()}
    for hand in (1, 3):  # two cards of the deal changed: 23 of 25 shared
        recycled[hand][0] = next(c for c in CARDS if all(c not in h for h in recycled.values()))
    deals[52] = {hand: tuple(cards) for hand, cards in recycled.items()}
    found = watched(deals)["deal_repeat"]
    assert found.p_value < 1e-6
    assert any(cell["key"] == "#53 ~ #50" and cell["outside"] for cell in found.cells)


def test_a_shuffle_carrying_a_card_over_one_round_in_five_is_caught_within_stated_rounds():
    # Each card a hand shares with its hand of the deal before is 5/52 likely: 2.4 shared a
    # round (SD 1.47). A card of box 2 kept in box 2 one round in five adds about 0.16 a
    # round (less the times it would have been there anyway): at the one-sided 0.05 / 20
    # bar with 90% power, (3.48 + 1.28)^2 x 1.47^2 / 0.16^2 = 1,913 rounds.
    rng = random.Random(3)
    deals = []
    for _ in range(2000):
        deal = {hand: list(cards) for hand, cards in niuniu_deal(rng).items()}
        if deals and rng.random() < 0.2:
            kept = deals[-1][2][0]
            for cards in deal.values():  # where the shuffle would have put it, box 2's first
                if kept in cards:
                    cards[cards.index(kept)] = deal[2][0]
            deal[2][0] = kept
        deals.append({hand: tuple(cards) for hand, cards in deal.items()})
    found = watched(deals)
    assert found["deal_serial"].p_value < 0.05 / 20
    assert found["deal_repeat"].p_value > 0.05  # no one pair stands out


@pytest.mark.django_db
def test_a_deal_entered_again_through_the_services_is_an_alert_of_the_run(floor):
    session = session_open(
        table=floor.table,
        counted_by=floor.dealer,
        confirmed_by=floor.supervisor,
        opening_chips={"100000": 50},
    )
    play(session=session, rounds=5, dealer=floor.dealer, seed=4)
    second = session.rounds.get(number=2)
    dealt = round_create_written(
        session=session,
        user=floor.dealer,
        dealer_cards=second.dealer_cards,
        boxes=inputs_of(list(second.boxes.order_by("pk").prefetch_related("bets"))),
    )
    round_settle_written(round_=dealt.round, user=floor.dealer, key="again", dealt=dealt)
    assert session.rounds.filter(status=RoundStatus.SETTLED).count() == 6
    date = session.shift.gaming_date
    run = integrity_run(venue=floor.venue, date_from=date, date_to=date)
    repeat = IntegrityResult.objects.get(run=run, test="deal_repeat", label=floor.table.code)
    assert repeat.alert and repeat.p_value < 1e-20
    assert any(cell["key"] == "#6 = #2" for cell in repeat.cells)
