"""The vectorised Monte Carlo estimator (niuniu.engine.montecarlo).

No database and no Django: run with ``pytest -p no:django --noconftest``.
"""

import doctest
import random
from fractions import Fraction
from itertools import combinations

import numpy as np
import pytest

from casino.kernel.cards import DECK, parse_cards
from niuniu.engine import BetType, BonusPredicate, Category, Ruleset, evaluate, presets, satisfies
from niuniu.engine import montecarlo as montecarlo_module
from niuniu.engine.montecarlo import (
    DeckArrays,
    bonus_predicate,
    deal,
    evaluate_hands,
    simulate,
)
from niuniu.engine.odds import category_counts

C = Category
ALL_SPECIALS = Ruleset(
    code="switches",
    name="switches",
    paytable={},
    deposit_multiples={},
    special_hands=frozenset({C.FIVE_SMALL, C.FOUR_OF_A_KIND, C.FIVE_FACE}),
)
FULL = DeckArrays.of(DECK)


def sample_hands(count, seed):
    rng = random.Random(seed)
    hands = [tuple(rng.sample(DECK, 5)) for _ in range(count)]
    # Make sure the rare shapes are in: quads, five small, five face, flushes.
    hands += [
        parse_cards(text)
        for text in (
            "AS AH AC AD 2S",
            "AS AH 2C 3D 3S",
            "KS QH JD JC KD",
            "KS 9S 5S 3S AS",
            "TD 8D 6D 4D 2D",
            "KS KH KC KD QS",
            "TS JS QS KS 9S",
            "AH 2H 3H 4H AD",
        )
    ]
    return hands


@pytest.mark.parametrize(
    "special_hands",
    [frozenset(), frozenset({C.FIVE_FACE}), ALL_SPECIALS.special_hands],
    ids=["none", "five-face", "all"],
)
def test_vectorised_evaluation_agrees_with_evaluate(special_hands):
    rules = Ruleset(
        code="s", name="s", paytable={}, deposit_multiples={}, special_hands=special_hands
    )
    hands = sample_hands(20_000, seed=11)
    cards = np.array([[card.index for card in hand] for hand in hands])
    got = evaluate_hands(cards, FULL, special_hands)
    for i, hand in enumerate(hands):
        expected = evaluate(hand, rules)
        assert got.category[i] == expected.category, hand
        assert got.high[i] == expected.high_card.strength, hand
    columns = np.ascontiguousarray(cards.T)
    for predicate in BonusPredicate:
        vectorised = bonus_predicate(predicate, columns, FULL, got)
        assert vectorised.tolist() == [
            satisfies(evaluate(hand, rules), predicate) for hand in hands
        ], predicate


def test_vectorised_evaluation_over_every_hand():
    cards = np.array(list(combinations(range(52), 5)), dtype=np.int8)
    got = evaluate_hands(cards, FULL, ALL_SPECIALS.special_hands)
    counts = np.bincount(got.category, minlength=len(Category))
    assert {c: int(counts[c]) for c in ALL_SPECIALS.categories} == category_counts(ALL_SPECIALS)


def test_deal_gives_distinct_uniform_cards():
    dealt = deal(np.random.default_rng(3), 200_000, 52)
    assert dealt.shape == (10, 200_000)
    ordered = np.sort(dealt, axis=0)
    assert (np.diff(ordered, axis=0) > 0).all()
    # Every slot is uniform over the 52 cards (chi-square with 51 degrees of freedom,
    # far below its 0.1% point of about 87).
    for slot in dealt:
        seen = np.bincount(slot, minlength=52)
        expected = len(slot) / 52
        assert ((seen - expected) ** 2 / expected).sum() < 100


def test_deal_from_a_small_deck():
    dealt = deal(np.random.default_rng(4), 10_000, 10)
    assert (np.sort(dealt, axis=0) == np.arange(10)[:, None]).all()
    with pytest.raises(ValueError, match="cannot deal"):
        deal(np.random.default_rng(4), 10, 9)


def test_simulate_is_seeded():
    rules = presets.get("macau-001")
    first = simulate(rules, 60_000, seed=5, batch=25_000)
    again = simulate(rules, 60_000, seed=5, batch=25_000)
    other = simulate(rules, 60_000, seed=6, batch=25_000)
    assert first == again
    assert first != other
    assert set(first.estimates) == {BetType.SINGLE, BetType.DOUBLE, BetType.SUPER, BetType.BONUS}
    for estimate in first.estimates.values():
        assert estimate.rounds == 60_000
        assert estimate.low < estimate.mean < estimate.high
        assert estimate.high - estimate.low == pytest.approx(
            2 * 1.96 * estimate.standard_error, rel=1e-3
        )


def test_simulate_on_a_reduced_deck():
    deck = parse_cards("AS AH AC AD 2S 2H 3S 3C 4S 6H 6D 7S 9C 9D TS JS JH QS QC KH")
    result = simulate(presets.get("vn-kr-004"), 200_000, seed=1, deck=deck)
    single = result.estimates[BetType.SINGLE]
    assert single.contains(Fraction(-1, 40))  # P(win) = 1/2 in any deck: edge 2.5%
    assert result.player_win_rate == pytest.approx(0.5, abs=0.005)


def test_simulate_refuses_too_few_rounds():
    with pytest.raises(ValueError, match="at least two rounds"):
        simulate(presets.get("vn-kr-004"), 1, seed=1)


def test_doctests():
    result = doctest.testmod(montecarlo_module)
    assert result.attempted > 0
    assert result.failed == 0
