import random
from collections import Counter
from itertools import combinations, combinations_with_replacement, permutations
from math import comb

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from casino.kernel.cards import DECK, format_cards, parse_card, parse_cards
from niuniu.engine import Category, Hand, Ruleset, evaluate, presets

C = Category


def switches(*special_hands: Category) -> Ruleset:
    """A ruleset that differs from no-special-hands only in its switches."""
    return Ruleset(
        code="switches",
        name="switches",
        paytable={},
        deposit_multiples={},
        special_hands=frozenset(special_hands),
    )


NO_SPECIALS = switches()
FOUR_AND_FACE = switches(C.FOUR_OF_A_KIND, C.FIVE_FACE)
ALL_SPECIALS = switches(C.FIVE_SMALL, C.FOUR_OF_A_KIND, C.FIVE_FACE)

# The 2,598,960 five-card hands by category (docs/ODDS.md "How often each hand comes, and wins").
COUNTS_NO_SPECIALS = {
    C.NO_NIU: 872_128,
    C.NIU_NIU: 191_808,
    **{C(n): 171_304 for n in (1, 3, 7, 9)},
    C.NIU_5: 177_424,
    **{C(n): 168_096 for n in (2, 4, 6, 8)},
}
COUNTS_FOUR_AND_FACE = {
    C.FOUR_OF_A_KIND: 624,
    C.FIVE_FACE: 768,
    C.NIU_NIU: 190_976,
    C.NO_NIU: 871_744,
    C.NIU_5: 177_408,
    **{C(n): 171_288 for n in (1, 3, 7, 9)},
    **{C(n): 168_072 for n in (2, 4, 6, 8)},
}
# Five Small takes 776 hands (all No Niu without it); 16 of them are four of a kind
# (AAAA with 2, 3 or 4; 2222 with an ace).
COUNTS_ALL_SPECIALS = COUNTS_FOUR_AND_FACE | {
    C.FIVE_SMALL: 776,
    C.FOUR_OF_A_KIND: 624 - 16,
    C.NO_NIU: 871_744 - (776 - 16),
}


def test_expected_counts_add_up():
    for counts in (COUNTS_NO_SPECIALS, COUNTS_FOUR_AND_FACE, COUNTS_ALL_SPECIALS):
        assert sum(counts.values()) == comb(52, 5) == 2_598_960


@pytest.mark.slow
def test_category_counts_over_every_hand():
    """Every one of the 2,598,960 hands goes through ``evaluate``, under two rulesets."""
    plain: Counter[Category] = Counter()
    special: Counter[Category] = Counter()
    for cards in combinations(DECK, 5):
        plain[evaluate(cards, NO_SPECIALS).category] += 1
        special[evaluate(cards, FOUR_AND_FACE).category] += 1
    assert dict(plain) == COUNTS_NO_SPECIALS
    assert dict(special) == COUNTS_FOUR_AND_FACE


@pytest.mark.parametrize(
    ("rules", "expected"),
    [
        (NO_SPECIALS, COUNTS_NO_SPECIALS),
        (FOUR_AND_FACE, COUNTS_FOUR_AND_FACE),
        (ALL_SPECIALS, COUNTS_ALL_SPECIALS),
        (presets.get("vn-kr-004"), COUNTS_NO_SPECIALS),
    ],
    ids=["none", "four-and-face", "all", "vn-kr-004"],
)
def test_category_counts_by_rank_multiset(rules, expected):
    """Counted once per multiset of ranks, weighted by the number of suit choices.

    Only suit-free properties are counted this way: every category depends on ranks only.
    """
    by_rank: dict[str, list] = {}
    for card in DECK:
        by_rank.setdefault(card.rank, []).append(card)
    counts: Counter[Category] = Counter()
    for ranks in combinations_of_ranks():
        cards = []
        weight = 1
        for rank, times in Counter(ranks).items():
            cards.extend(by_rank[rank][:times])
            weight *= comb(4, times)
        counts[evaluate(tuple(cards), rules).category] += weight
    assert dict(counts) == expected


def combinations_of_ranks():
    ranks = [card.rank for card in DECK[::4]]
    for choice in combinations_with_replacement(ranks, 5):
        if max(Counter(choice).values()) <= 4:
            yield choice


# A reference evaluation written the slow, obvious way, to check the table look-up.
def reference(cards, special_hands=frozenset()):
    order = "A23456789TJQK"
    ordered = sorted(cards, key=lambda c: (order.index(c.rank), -"SHCD".index(c.suit)))
    ordered.reverse()  # strongest first
    value = {r: min(i + 1, 10) for i, r in enumerate(order)}
    three = two = ()
    for i, j, k in combinations(range(5), 3):
        if (value[ordered[i].rank] + value[ordered[j].rank] + value[ordered[k].rank]) % 10 == 0:
            three = (ordered[i], ordered[j], ordered[k])
            two = tuple(c for c in ordered if c not in three)
            break
    if three:
        points = sum(value[c.rank] for c in two) % 10 or 10
        category = C.NIU_NIU if points == 10 else C(points)
    else:
        points, category = 0, C.NO_NIU
    values = [value[c.rank] for c in cards]
    rank_counts = Counter(c.rank for c in cards)
    if C.FIVE_SMALL in special_hands and max(values) < 5 and sum(values) <= 10:
        category = C.FIVE_SMALL
    elif C.FOUR_OF_A_KIND in special_hands and 4 in rank_counts.values():
        category = C.FOUR_OF_A_KIND
    elif C.FIVE_FACE in special_hands and all(c.rank in "JQK" for c in cards):
        category = C.FIVE_FACE
    return category, three, two, ordered[0], points


def check_against_reference(cards, rules):
    hand = evaluate(cards, rules)
    assert (hand.category, hand.three, hand.two, hand.high_card, hand.points) == reference(
        cards, rules.special_hands
    ), format_cards(cards)
    assert hand.cards == tuple(cards)


def test_a_seeded_sample_matches_the_reference():
    rng = random.Random(20240601)
    for _ in range(20_000):
        cards = tuple(rng.sample(DECK, 5))
        check_against_reference(cards, NO_SPECIALS)
        check_against_reference(cards, ALL_SPECIALS)


@settings(deadline=None)  # the machine is shared: timing is not under test
@given(
    st.permutations(DECK).map(lambda deck: tuple(deck[:5])),
    st.sampled_from([NO_SPECIALS, FOUR_AND_FACE, ALL_SPECIALS]),
)
def test_any_hand_matches_the_reference(cards, rules):
    check_against_reference(cards, rules)


def test_seed_001_worked_example_j_q_j_a_7_is_niu_8():
    hand = evaluate(parse_cards("JS QH JD AC 7H"), presets.get("macau-001"))
    assert hand.category is C.NIU_8
    assert hand.points == 8
    assert format_cards(hand.three) == "QH JS JD"  # 10 + 10 + 10 = 0 (Niu)
    assert format_cards(hand.two) == "7H AC"  # A + 7 = 8
    assert str(hand) == "Niu 8: QH JS JD | 7H AC"


@pytest.mark.parametrize(
    ("text", "category", "points"),
    [
        ("KS QS TH 5C 5D", C.NIU_NIU, 10),
        ("KH QD TS 5S 4C", C.NIU_9, 9),
        ("KC 9S AD 4S 3S", C.NIU_7, 7),
        ("8S 2C KD 3H 3C", C.NIU_6, 6),
        ("7H 3S TD 9C 6D", C.NIU_5, 5),
        ("6S 4H QC 8D 6H", C.NIU_4, 4),
        ("9H AC KH 7C 6C", C.NIU_3, 3),
        ("5H 5S JH 8H 4S", C.NIU_2, 2),
        ("7S 3C QS 4D 7D", C.NIU_1, 1),
        ("KH 8H 4D JC AD", C.NO_NIU, 0),
        ("3D 2S 2H AS AH", C.NO_NIU, 0),
    ],
)
def test_categories_and_points(text, category, points):
    hand = evaluate(text, presets.get("vn-kr-004"))
    assert (hand.category, hand.points) == (category, points)
    assert hand.has_niu == (points > 0)


def test_the_split_is_the_first_valid_triple_by_card_order_whatever_the_input_order():
    cards = parse_cards("5D 5C TS 5H 5S")
    splits = {(evaluate(order).three, evaluate(order).two) for order in permutations(cards)}
    assert len(splits) == 1
    hand = evaluate(cards)
    # T-5-5 = 20 is the first triple; the ten and the two strongest fives.
    assert format_cards(hand.three) == "TS 5S 5H"
    assert format_cards(hand.two) == "5C 5D"
    assert hand.category is C.NIU_NIU
    assert hand.cards == cards  # as given


def test_three_and_two_are_the_cards_and_make_a_valid_split():
    rng = random.Random(7)
    for _ in range(2_000):
        hand = evaluate(tuple(rng.sample(DECK, 5)))
        if not hand.has_niu:
            assert hand.three == hand.two == ()
            continue
        assert sorted(hand.three + hand.two, key=str) == sorted(hand.cards, key=str)
        assert sum(card.value for card in hand.three) % 10 == 0
        assert (sum(card.value for card in hand.two) % 10 or 10) == hand.points
        for part in (hand.three, hand.two):
            strengths = [card.strength for card in part]
            assert strengths == sorted(strengths, reverse=True)


def test_no_niu_hands_report_no_split_and_their_high_card():
    hand = evaluate("KH 8H 4D JC AD")
    assert (hand.three, hand.two, hand.points) == ((), (), 0)
    assert str(hand.high_card) == "KH"
    assert str(hand) == "No Niu: KH 8H 4D JC AD, high card KH"


@pytest.mark.parametrize(
    ("text", "high"),
    [
        ("KD QS JS TS 9S", "KD"),  # rank before suit
        ("KC KD 2S 3S 4S", "KC"),  # clubs above diamonds
        ("KH KC 2S 3S 4S", "KH"),
        ("KS KH 2C 3C 4C", "KS"),
        ("AS 2D 3D 4D 6D", "6D"),
        ("AS AH AC AD 2D", "2D"),  # the ace is the lowest card
        ("TS 9S 8S 7S 6S", "TS"),
    ],
)
def test_high_card(text, high):
    assert str(evaluate(text).high_card) == high


def test_four_of_a_kind_and_five_face_switches():
    quads = parse_cards("KS KH KC KD QS")  # also five face and a Niu Niu split
    assert evaluate(quads, NO_SPECIALS).category is C.NIU_NIU
    assert evaluate(quads, switches(C.FIVE_FACE)).category is C.FIVE_FACE
    assert evaluate(quads, switches(C.FOUR_OF_A_KIND)).category is C.FOUR_OF_A_KIND
    assert evaluate(quads, FOUR_AND_FACE).category is C.FOUR_OF_A_KIND  # Four > Five Face
    hand = evaluate(quads, FOUR_AND_FACE)
    assert hand.points == 10  # a special hand still reports its split
    assert format_cards(hand.three) == "KS KH KC"
    assert format_cards(hand.two) == "KD QS"


def test_five_face_is_only_j_q_k():
    assert evaluate("KS QH JC KD QC", switches(C.FIVE_FACE)).category is C.FIVE_FACE
    assert evaluate("KS QH JC KD TC", switches(C.FIVE_FACE)).category is C.NIU_NIU
    assert evaluate("KS QH JC KD QC", presets.get("macau-001")).category is C.FIVE_FACE
    assert evaluate("KS QH JC KD QC", presets.get("vn-kr-004")).category is C.NIU_NIU


def test_five_small_switch_and_order():
    small = parse_cards("AS AH 2S 2H 3S")  # total 9
    assert evaluate(small, NO_SPECIALS).category is C.NO_NIU
    assert evaluate(small, switches(C.FIVE_SMALL)).category is C.FIVE_SMALL
    assert evaluate("AS AH 2S 2H 4S", switches(C.FIVE_SMALL)).category is C.FIVE_SMALL  # 10
    assert evaluate("AS AH 2S 3H 4S", switches(C.FIVE_SMALL)).category is C.NO_NIU  # 11
    assert evaluate("AS AH 2S 2H 5S", switches(C.FIVE_SMALL)).category is C.NO_NIU  # a 5
    small_quads = parse_cards("AS AH AC AD 4S")  # total 8
    assert evaluate(small_quads, switches(C.FOUR_OF_A_KIND)).category is C.FOUR_OF_A_KIND
    assert evaluate(small_quads, ALL_SPECIALS).category is C.FIVE_SMALL  # Five Small > Four
    hand = evaluate(small_quads, ALL_SPECIALS)
    assert (hand.three, hand.two, hand.points) == ((), (), 0)  # no Niu split to report


def test_special_hands_rank_above_niu_niu():
    assert C.FIVE_SMALL > C.FOUR_OF_A_KIND > C.FIVE_FACE > C.NIU_NIU > C.NIU_9 > C.NIU_1 > C.NO_NIU


@pytest.mark.parametrize(
    ("cards", "message"),
    [
        ("KS QH TD 3C", "expected 5 cards, got 4"),
        ("KS QH TD 3C 7S 8S", "expected 5 cards, got 6"),
        ("KS QH TD 3C KS", "'KS' appears twice"),
        ("KS QH TD 3C 1X", "'1X' is not a card"),
    ],
)
def test_bad_hands_are_refused_with_a_clear_message(cards, message):
    with pytest.raises(ValueError, match=message):
        evaluate(cards)
    with pytest.raises(ValueError, match=message):
        evaluate(cards.split())
    if "1X" not in cards:
        as_cards = [parse_card(token) for token in cards.split()]
        with pytest.raises(ValueError, match=message):
            evaluate(tuple(as_cards))
        with pytest.raises(ValueError, match=message):
            evaluate(as_cards)


def test_evaluate_takes_text_lists_generators_and_tuples():
    cards = parse_cards("JS QH JD AC 7H")
    expected = evaluate(cards)
    assert evaluate(list(cards)) == expected
    assert evaluate(card for card in cards) == expected
    assert evaluate("js qh jd ac 7h") == expected
    assert evaluate([str(card) for card in cards]) == expected
    assert isinstance(expected, Hand)
