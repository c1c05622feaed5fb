"""Rows: evaluation and order, checked against treys and a counting reference."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations, combinations_with_replacement

import pytest
from treys import Card as TreysCard
from treys import Evaluator

from casino.kernel.cards import DECK, Card, parse_cards
from maubinh.engine import RowCategory, compare_rows, evaluate_row, presets
from maubinh.engine.rows import evaluate_cards

_TREYS = Evaluator()
_TREYS_CARD = {card: TreysCard.new(str(card)[0] + str(card)[1].lower()) for card in DECK}
# treys' ranks of the two wheels, where the wheel is the lowest straight.
_TREYS_STEEL_WHEEL = 10  # 5-4-3-2-A suited, the weakest straight flush
_TREYS_WHEEL = 1609  # 5-4-3-2-A, the weakest straight
_TREYS_ROYAL = 1
_TREYS_BROADWAY = 1600


def _treys_rank(cards: tuple[Card, ...], wheel_is_lowest: bool = True) -> float:
    """treys' rank (lower is stronger); with the wheel moved just below A-high if asked."""
    rank = _TREYS.evaluate([_TREYS_CARD[c] for c in cards], [])
    if not wheel_is_lowest:
        if rank == _TREYS_STEEL_WHEEL:
            return _TREYS_ROYAL + 0.5
        if rank == _TREYS_WHEEL:
            return _TREYS_BROADWAY + 0.5
    return rank


def _sign(x: float) -> int:
    return (x > 0) - (x < 0)


@pytest.mark.parametrize(("wheel_is_lowest", "pairs"), [(True, 100_000), (False, 30_000)])
def test_five_card_order_agrees_with_treys_on_random_pairs(wheel_is_lowest, pairs):
    # given pairs of 5-card hands dealt from one deck, and one pair in ten made of the same
    # ranks in other suits, so ties are well represented
    rng = random.Random(20160513 + wheel_is_lowest)
    deck = list(DECK)
    by_rank = {rank: [c for c in DECK if c.rank is rank] for rank in {c.rank for c in DECK}}
    ties = 0
    for n in range(pairs):
        cards = rng.sample(deck, 10)
        a, b = tuple(cards[:5]), tuple(cards[5:])
        if n % 10 == 0:
            b = tuple(rng.choice(by_rank[c.rank]) for c in a)
            if len(set(b)) < 5:
                b = a
        # when
        ours = compare_rows(evaluate_cards(a, wheel_is_lowest), evaluate_cards(b, wheel_is_lowest))
        # then: treys ranks strongest lowest
        theirs = _sign(_treys_rank(b, wheel_is_lowest) - _treys_rank(a, wheel_is_lowest))
        assert ours == theirs, (a, b)
        ties += ours == 0
    assert ties > pairs // 20  # the sample does exercise ties


def _representatives() -> list[tuple[Card, ...]]:
    """One hand of each of the 7,462 distinct 5-card poker hands."""
    by_rank = {rank: [c for c in DECK if c.rank == rank] for rank in {c.rank for c in DECK}}
    hands = []
    for ranks in combinations_with_replacement(sorted(by_rank), 5):
        counts = Counter(ranks)
        if max(counts.values()) > 4:
            continue
        # Suits handed out per rank so the hand is not a flush.
        used: Counter = Counter()
        plain = []
        for n, rank in enumerate(ranks):
            plain.append(by_rank[rank][(used[rank] + n) % 4])
            used[rank] += 1
        if len(set(plain)) == 5 and len({c.suit for c in plain}) > 1:
            hands.append(tuple(plain))
        else:
            # distinct ranks whose rotation happened to share a suit: shift one card
            plain[0] = by_rank[ranks[0]][(DECK.index(plain[0]) + 1) % 4]
            hands.append(tuple(plain))
        if len(counts) == 5:
            hands.append(tuple(by_rank[rank][0] for rank in ranks))  # the flush
    return hands


def test_all_7462_distinct_hands_are_ordered_as_treys_orders_them():
    hands = _representatives()
    assert len(hands) == 7462
    ours = sorted(hands, key=lambda h: evaluate_cards(h, True).key)
    theirs = sorted(hands, key=lambda h: -_treys_rank(h))
    assert [evaluate_cards(h, True).key for h in ours] == [
        evaluate_cards(h, True).key for h in theirs
    ]
    assert len({evaluate_cards(h, True).key for h in hands}) == 7462


def _reference_front(cards: tuple[Card, ...]) -> tuple[int, ...]:
    """A counting reference for 3-card rows: (pattern, ranks by count then rank)."""
    value = {"T": 10, "J": 11, "Q": 12, "K": 13, "A": 14}
    ranks = [value.get(c.rank.value) or int(c.rank.value) for c in cards]
    counts = Counter(ranks)
    ordered = sorted(ranks, key=lambda r: (counts[r], r), reverse=True)
    pattern = sorted(counts.values(), reverse=True)  # [3], [2, 1] or [1, 1, 1]
    return (len(pattern) == 1, len(pattern) == 2, *ordered)


def test_front_rows_agree_with_a_counting_reference_on_every_pair_of_rank_patterns():
    fronts = [tuple(c) for c in combinations(DECK[::3], 3)]  # 18 cards spread over ranks
    fronts += [tuple(parse_cards(t)) for t in ("7S 7H 7D", "AS AH 2C", "2S 2H AC", "AS KH QD")]
    for a in fronts:
        for b in fronts[::7]:
            ours = compare_rows(evaluate_cards(a, True), evaluate_cards(b, True))
            ref_a, ref_b = _reference_front(a), _reference_front(b)
            assert ours == _sign((ref_a > ref_b) - (ref_a < ref_b)), (a, b)


@pytest.mark.parametrize(
    ("text", "category", "ranks"),
    [
        ("9H TH JH QH KH", RowCategory.STRAIGHT_FLUSH, (13, 12, 11, 10, 9)),
        ("7S 7H 7D 7C 2S", RowCategory.FOUR_OF_A_KIND, (7, 2)),
        ("KS KH KD 4C 4D", RowCategory.FULL_HOUSE, (13, 4)),
        ("2C 9C JC QC AC", RowCategory.FLUSH, (14, 12, 11, 9, 2)),
        ("TS JH QD KC AC", RowCategory.STRAIGHT, (14, 13, 12, 11, 10)),
        ("8S 8H 8D AC 2D", RowCategory.THREE_OF_A_KIND, (8, 14, 2)),
        ("JS JH 3D 3C QD", RowCategory.TWO_PAIR, (11, 3, 12)),
        ("5S 5H KD 9C 2D", RowCategory.PAIR, (5, 13, 9, 2)),
        ("KS 9H 7D 4C 2D", RowCategory.HIGH_CARD, (13, 9, 7, 4, 2)),
        ("QS QH QD", RowCategory.THREE_OF_A_KIND, (12,)),
        ("QS QH 4D", RowCategory.PAIR, (12, 4)),
        ("QS JS TS", RowCategory.HIGH_CARD, (12, 11, 10)),  # no straight or flush in front
    ],
)
def test_categories_and_ranks(text, category, ranks):
    hand = evaluate_row(text)
    assert hand.category is category
    assert hand.ranks == ranks
    assert hand.key == (category, *ranks)


def test_combination_ranks_come_before_kickers():
    # Two Pair: higher pair, then lower pair, then the kicker
    assert compare_rows(evaluate_row("KS KH 2D 2C AS"), evaluate_row("KD KC 3S 3H 4D")) == -1
    # Full House: the three decide before the pair
    assert compare_rows(evaluate_row("3S 3H 3D AC AS"), evaluate_row("2S 2H 2D KC KS")) == 1
    # Pair: kickers high to low
    assert compare_rows(evaluate_row("9S 9H KD 4C 3S"), evaluate_row("9D 9C KS 4H 2C")) == 1


def test_equal_rows_tie():
    assert compare_rows(evaluate_row("AS KS 9H 7D 3C"), evaluate_row("AH KD 9C 7C 3D")) == 0
    assert compare_rows(evaluate_row("AS KS 9H"), evaluate_row("AH KD 9C")) == 0


def test_five_card_row_against_front_compares_as_far_as_the_front_has_ranks():
    pair_queens = evaluate_row("QS QD 7H 5C 2D")
    assert compare_rows(pair_queens, evaluate_row("QH QC 7S")) == 0
    assert compare_rows(pair_queens, evaluate_row("QH QC 6S")) == 1
    assert compare_rows(evaluate_row("QH QC 6S"), pair_queens) == -1
    assert compare_rows(evaluate_row("8S 8H 8D 2C 3C"), evaluate_row("7S 7H 7D")) == 1
    assert compare_rows(evaluate_row("AS KH 9D 4C 3C"), evaluate_row("AH KD 9C")) == 0
    assert compare_rows(evaluate_row("AS KH 9D 4C 3C"), evaluate_row("2H 2D 3S")) == -1


def test_wheel_is_the_lowest_straight_by_default():
    wheel = evaluate_row("AS 2H 3D 4C 5C")
    assert wheel.category is RowCategory.STRAIGHT
    assert compare_rows(wheel, evaluate_row("2S 3H 4D 5D 6C")) == -1
    assert compare_rows(wheel, evaluate_row("AS KS QH JD 9C")) == 1  # still a straight
    steel = evaluate_row("AH 2H 3H 4H 5H")
    assert steel.category is RowCategory.STRAIGHT_FLUSH
    assert compare_rows(steel, evaluate_row("2D 3D 4D 5D 6D")) == -1


def test_wheel_switch_off_ranks_it_just_below_broadway():
    rules = presets.get("bigkool-2016")
    from dataclasses import replace

    high_wheel = replace(rules, wheel_is_lowest=False)
    wheel = evaluate_row("AS 2H 3D 4C 5C", high_wheel)
    assert wheel.describe() == "Straight, 5 high"
    assert compare_rows(wheel, evaluate_row("9S TH JD QC KC", high_wheel)) == 1
    assert compare_rows(wheel, evaluate_row("TS JH QD KC AD", high_wheel)) == -1
    steel = evaluate_row("AH 2H 3H 4H 5H", high_wheel)
    assert compare_rows(steel, evaluate_row("9D TD JD QD KD", high_wheel)) == 1
    assert compare_rows(steel, evaluate_row("TC JC QC KC AC", high_wheel)) == -1


def test_describe():
    assert evaluate_row("KS KH 4D 4C KC").describe() == "Full House, Ks over 4s"
    assert evaluate_row("AS 2H 3D 4C 5C").describe() == "Straight, 5 high"
    assert evaluate_row("TS TH 3D").describe() == "Pair of 10s"
    assert evaluate_row("7S 7H 7D 7C 2D").describe() == "Four of a Kind, 7s"


@pytest.mark.parametrize(("text", "count"), [("AS KS", 2), ("AS KS QS JS", 4), ("", 0)])
def test_a_row_takes_three_or_five_cards(text, count):
    with pytest.raises(ValueError, match=f"a row has 5 cards .* or 3 .*, got {count}"):
        evaluate_row(text)


def test_a_row_cannot_repeat_a_card():
    with pytest.raises(ValueError, match="'AS' appears twice"):
        evaluate_row("AS AS KD")
