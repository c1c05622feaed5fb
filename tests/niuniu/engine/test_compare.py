from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from casino.cards import DECK
from niuniu.engine import Category, Ruleset, compare, evaluate, presets

ALL_SPECIALS = Ruleset(
    code="all",
    name="all special hands",
    paytable={},
    deposit_multiples={},
    special_hands=frozenset({Category.FIVE_SMALL, Category.FOUR_OF_A_KIND, Category.FIVE_FACE}),
)
RULESETS = st.sampled_from([presets.get("vn-kr-004"), presets.get("macau-001"), ALL_SPECIALS])


def disjoint_hands(count):
    """``count`` hands dealt from one shuffled deck."""
    return st.permutations(DECK).map(
        lambda deck: [tuple(deck[5 * n : 5 * n + 5]) for n in range(count)]
    )


@settings(deadline=None)  # the machine is shared: timing is not under test
@given(disjoint_hands(3), RULESETS)
def test_compare_is_a_strict_total_order_on_disjoint_hands(cards, rules):
    a, b, c = (evaluate(hand, rules) for hand in cards)
    for x, y in ((a, b), (b, c), (a, c)):
        assert compare(x, y) in (1, -1)  # never 0
        assert compare(x, y) == -compare(y, x)  # antisymmetric
    for x, y, z in ((a, b, c), (a, c, b), (b, a, c), (b, c, a), (c, a, b), (c, b, a)):
        if compare(x, y) == 1 and compare(y, z) == 1:
            assert compare(x, z) == 1  # transitive


@settings(deadline=None)  # the machine is shared: timing is not under test
@given(disjoint_hands(10), RULESETS)
def test_a_full_table_sorts_consistently(cards, rules):
    hands = [evaluate(hand, rules) for hand in cards]
    # Each hand's rank in the order equals the number of hands it beats.
    wins = sorted(sum(compare(h, other) == 1 for other in hands if other is not h) for h in hands)
    assert wins == list(range(10))


@settings(deadline=None)  # the machine is shared: timing is not under test
@given(disjoint_hands(2), RULESETS)
def test_higher_category_wins_then_high_card(cards, rules):
    a, b = (evaluate(hand, rules) for hand in cards)
    if a.category != b.category:
        assert (compare(a, b) == 1) == (a.category > b.category)
    else:
        assert (compare(a, b) == 1) == (a.high_card.strength > b.high_card.strength)


@pytest.mark.parametrize(
    ("winner", "loser"),
    [
        ("KS QS TH 5C 5D", "KH QD TS 5S 4C"),  # Niu Niu > Niu 9
        ("7S 3C QS 4D 7D", "KH 8H 4D JC AD"),  # Niu 1 > No Niu with a king
        ("KS 8H 4D JH AD", "KH 8S 4C JS AC"),  # No Niu: KS > KH
        ("KD 8H 4D JH AD", "QS 8S 4C JS AC"),  # No Niu: rank before suit
        ("JS QH JD AC 7H", "JC QC 8D AD 9H"),  # Niu 8 each: QH > QC
        ("AS 5H 4H 3H 7H", "2D 5S 3S 6S 4S"),  # Niu Niu each: 7H > 6S
        ("KH QD TS 5D 4C", "2S 3S 5S 4H AH"),  # Niu 9 > Niu 5, whatever the high cards
    ],
)
def test_examples(winner, loser):
    rules = presets.get("vn-kr-004")
    a, b = evaluate(winner, rules), evaluate(loser, rules)
    assert compare(a, b) == 1
    assert compare(b, a) == -1


def test_special_hands_beat_niu_niu_in_their_order():
    five_small = evaluate("AS AH 2S 2H 3S", ALL_SPECIALS)
    four = evaluate("KS KH KC KD 9S", ALL_SPECIALS)
    five_face = evaluate("QS QH JC JD KH", ALL_SPECIALS)  # not KD: that is in the four
    niu_niu = evaluate("TS TH 5C 5D TC", ALL_SPECIALS)
    order = [five_small, four, five_face, niu_niu]
    for stronger, weaker in pairwise(order):
        assert compare(stronger, weaker) == 1
    assert [hand.category for hand in order] == [
        Category.FIVE_SMALL,
        Category.FOUR_OF_A_KIND,
        Category.FIVE_FACE,
        Category.NIU_NIU,
    ]


def test_a_hand_does_not_compare_with_itself():
    hand = evaluate("KS QS TH 5C 5D")
    with pytest.raises(ValueError, match="tie on their high card 'KS'"):
        compare(hand, hand)
