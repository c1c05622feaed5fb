"""The arranger: instant wins first, never fouled, better than laying out greedily."""

from __future__ import annotations

import random
from dataclasses import replace
from decimal import Decimal
from itertools import combinations

import pytest

from casino.kernel.cards import DECK, parse_cards
from maubinh.engine import (
    InstantWin,
    RowCategory,
    check_arrangement,
    presets,
    settle_table,
    suggest_arrangement,
)
from maubinh.engine.rows import evaluate_cards

BIGKOOL = presets.get("bigkool-2016")
CLASSIC = presets.get("classic")


def _shuffled(text, seed=1):
    cards = list(parse_cards(text))
    random.Random(seed).shuffle(cards)
    return cards


@pytest.mark.parametrize(
    ("text", "rules", "kind"),
    [
        ("2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS", CLASSIC, InstantWin.DRAGON_FLUSH),
        ("2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS", BIGKOOL, InstantWin.DRAGON),
        ("2S 3H 4S 5D 6S 7S 8C 9S TS JS QS KS AS", BIGKOOL, InstantWin.DRAGON),
        ("2S 2H 5S 5H 7C 7D 9S 9H JC JD KS KH AC", BIGKOOL, InstantWin.SIX_PAIRS),
        ("2H 6H 9H JH AH 3S 7S 8S QS KS 4D 5D 9D", BIGKOOL, InstantWin.THREE_FLUSHES),
        ("2H 6H 9H JH AH 3H 4H 5H 7S 8S 9S QS KS", BIGKOOL, InstantWin.THREE_FLUSHES),
        ("9S TS JH QD KD 2H 3S 4D 5C 6C AH 2C 3D", BIGKOOL, InstantWin.THREE_STRAIGHTS),
        ("9S TS JH QD KD 5H 6S 7D 8C 9C QH KC AD", BIGKOOL, InstantWin.THREE_STRAIGHTS),
    ],
)
def test_an_instant_win_is_laid_out_to_be_declared(text, rules, kind):
    rows = suggest_arrangement(_shuffled(text), rules)
    hand = check_arrangement(*rows, rules)
    assert hand.instant_win is kind
    assert not hand.fouled


def test_an_instant_win_the_ruleset_does_not_pay_is_not_sought():
    rules = replace(BIGKOOL, instant_wins={"dragon": 72})
    rows = suggest_arrangement(_shuffled("2H 6H 9H JH AH 3S 7S 8S QS KS 4D 5D 9D"), rules)
    hand = check_arrangement(*rows, rules)
    assert hand.instant_win is None
    assert not hand.fouled


def test_the_advice_does_not_depend_on_the_order_of_the_cards():
    text = "AS AH AD KS KH 7C 7D 2S 3S 4S 9H TC JD"
    assert suggest_arrangement(_shuffled(text, 1), BIGKOOL) == suggest_arrangement(
        _shuffled(text, 2), BIGKOOL
    )


def test_four_of_a_kind_is_kept_together():
    rows = suggest_arrangement(_shuffled("AS AH AD AC 2S 5D 7C 9H JD 3S 8C TD QH"), BIGKOOL)
    hand = check_arrangement(*rows, BIGKOOL)
    assert RowCategory.FOUR_OF_A_KIND in (hand.back_hand.category, hand.middle_hand.category)


@pytest.mark.parametrize("count", [12, 14])
def test_a_hand_has_13_cards(count):
    with pytest.raises(ValueError, match=f"a Mau Binh hand has 13 cards, got {count}"):
        suggest_arrangement(DECK[:count], BIGKOOL)


def test_a_hand_cannot_repeat_a_card():
    with pytest.raises(ValueError, match="'AS' appears twice"):
        suggest_arrangement([*DECK[:12], DECK[0]], BIGKOOL)


def _greedy(hand):
    """The naive layout: the best five in the back, the best five of the rest in the middle."""
    back = max(combinations(hand, 5), key=lambda c: evaluate_cards(c, True).key)
    rest = [c for c in hand if c not in back]
    middle = max(combinations(rest, 5), key=lambda c: evaluate_cards(c, True).key)
    return back, middle, tuple(c for c in rest if c not in middle)


def test_the_advice_beats_the_greedy_layout_over_many_deals():
    # duplicate deals: each hand is played once by each side, so luck cancels out
    rng = random.Random(2016)
    total = 0
    for _ in range(30):
        deck = list(DECK)
        rng.shuffle(deck)
        one, two = deck[:13], deck[13:26]
        for mine, theirs in ((one, two), (two, one)):
            table = settle_table(
                {"advice": suggest_arrangement(mine, BIGKOOL), "greedy": _greedy(theirs)},
                Decimal(1),
                BIGKOOL,
            )
            total += table.seats["advice"].chi
    assert total > 0
