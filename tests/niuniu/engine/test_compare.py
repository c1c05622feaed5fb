from dataclasses import replace
from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from casino.kernel.cards import DECK
from niuniu.engine import Category, Ruleset, compare, evaluate, presets

ALL_SPECIALS = Ruleset(
    code="all",
    name="all special hands",
    paytable={},
    deposit_multiples={},
    special_hands=frozenset({Category.FIVE_SMALL, Category.FOUR_OF_A_KIND, Category.FIVE_FACE}),
)
#: Every special hand ranked level with Niu Niu (sheet 001's "Niu (0) & Super NIU NIU").
ALL_LEVEL = replace(ALL_SPECIALS, level_with_niu_niu=ALL_SPECIALS.special_hands)
RULESETS = st.sampled_from(
    [presets.get("vn-kr-004"), presets.get("macau-001"), ALL_SPECIALS, ALL_LEVEL]
)


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
def test_higher_rank_wins_then_high_card(cards, rules):
    a, b = (evaluate(hand, rules) for hand in cards)
    assert a.rank == rules.rank(a.category)
    if a.rank != b.rank:
        assert (compare(a, b) == 1) == (a.rank > b.rank)
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


# ---- where the special hands rank (NiuNiuRulesetVersion.<hand>_rank) ----------------------


@pytest.mark.parametrize(
    ("level", "winner"),
    [
        (frozenset(), "five face"),  # the preset: Five Face above Niu Niu
        (frozenset({Category.FIVE_FACE}), "niu niu"),  # one rank: KS beats KH
    ],
)
def test_five_face_against_niu_niu_in_each_reading(level, winner):
    rules = replace(presets.get("macau-001"), level_with_niu_niu=level)
    five_face = evaluate("KH QH JH KD QD", rules)
    niu_niu = evaluate("KS TS 5H 5D JC", rules)
    assert five_face.category is Category.FIVE_FACE  # paid by its own rows either way
    expected = 1 if winner == "five face" else -1
    assert compare(five_face, niu_niu) == expected
    assert compare(niu_niu, five_face) == -expected


def test_a_level_special_hand_still_beats_niu_9_and_loses_to_a_higher_special():
    rules = replace(ALL_SPECIALS, level_with_niu_niu=frozenset({Category.FOUR_OF_A_KIND}))
    four = evaluate("2S 2H 2C 2D 3S", rules)  # Four of a Kind, No Niu by its points
    niu_9 = evaluate("KS QS TH 5C 4D", rules)
    five_face = evaluate("QS QH JC JD KH", rules)
    niu_niu_with_king = evaluate("KD TD 5H 5S TC", rules)
    assert four.category is Category.FOUR_OF_A_KIND and four.rank == Category.NIU_NIU
    assert compare(four, niu_9) == 1
    assert compare(five_face, four) == 1  # Five Face still ranks above
    assert compare(niu_niu_with_king, four) == 1  # same rank: K beats 3


def test_a_hand_that_is_two_special_hands_counts_as_the_higher_ranked():
    # Four kings and a queen: Four of a Kind and Five Face at once.
    cards = "KS KH KC KD QS"
    assert evaluate(cards, ALL_SPECIALS).category is Category.FOUR_OF_A_KIND
    face_above = replace(ALL_SPECIALS, level_with_niu_niu=frozenset({Category.FOUR_OF_A_KIND}))
    assert evaluate(cards, face_above).category is Category.FIVE_FACE
    assert evaluate(cards, ALL_LEVEL).category is Category.FOUR_OF_A_KIND  # one rank: the order


def test_only_special_hands_rank_level_with_niu_niu():
    with pytest.raises(ValueError, match="only special hands"):
        replace(ALL_SPECIALS, level_with_niu_niu=frozenset({Category.NIU_9}))
    # A special hand switched off ranks nowhere.
    macau = replace(presets.get("macau-001"), level_with_niu_niu=ALL_SPECIALS.special_hands)
    assert macau.level_with_niu_niu == {Category.FIVE_FACE}
