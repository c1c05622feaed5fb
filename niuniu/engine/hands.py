"""Evaluating and comparing Niu Niu hands (docs/RULES.md A1).

Evaluation is a table look-up: a hand's category, its split and its special-hand candidates
depend only on the multiset of its five ranks (6,175 of them), so they are computed once at
import time. ``evaluate`` then sorts the five cards, looks the ranks up and picks the cards
of the split by position.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import combinations, combinations_with_replacement
from operator import attrgetter, itemgetter
from typing import NamedTuple

from casino.kernel.cards import DECK, RANKS, Card, Rank, check_hand, format_cards, parse_cards
from niuniu.engine.rules import Category, Ruleset

CATEGORY_LABELS: dict[Category, str] = {
    Category.FIVE_SMALL: "Five Small",
    Category.FOUR_OF_A_KIND: "Four of a Kind",
    Category.FIVE_FACE: "Five Face",
    Category.NIU_NIU: "Niu Niu",
    **{Category(n): f"Niu {n}" for n in range(1, 10)},
    Category.NO_NIU: "No Niu",
}


@dataclass(frozen=True)
class Hand:
    """An evaluated five-card hand.

    ``three`` and ``two`` are the split laid out on the table (strongest card first in
    each); both are empty when the hand has no Niu. ``points`` is 1..9 for Niu 1..9, 10 for
    a Niu Niu split and 0 without Niu; a special hand keeps the points of its split.
    ``cards`` are the five cards in the order given. ``rank`` is where the category ranks
    under the rules it was evaluated with (:meth:`Ruleset.rank`): the category's value, or
    Niu Niu's for a special hand the rules rank level with Niu Niu.
    """

    cards: tuple[Card, ...]
    category: Category
    three: tuple[Card, ...]
    two: tuple[Card, ...]
    high_card: Card
    points: int
    rank: int

    @property
    def has_niu(self) -> bool:
        return self.points > 0

    @property
    def label(self) -> str:
        """The category as the table calls it: ``Niu 8``, ``Niu Niu``, ``No Niu``."""
        return CATEGORY_LABELS[self.category]

    def __str__(self) -> str:
        if self.three:
            return f"{self.label}: {format_cards(self.three)} | {format_cards(self.two)}"
        return f"{self.label}: {format_cards(self.cards)}, high card {self.high_card}"


class _Shape(NamedTuple):
    """What the five ranks alone decide, for cards sorted strongest first."""

    category: Category  # without special hands
    three: itemgetter[tuple[Card, ...]] | None  # picks the split's cards by position
    two: itemgetter[tuple[Card, ...]] | None
    points: int
    specials: tuple[Category, ...]  # special hands these ranks make, strongest first


_FACE_ORDERS = frozenset(RANKS.index(rank) for rank in (Rank.JACK, Rank.QUEEN, Rank.KING))
_TRIPLES = tuple(combinations(range(5), 3))  # lexicographic: the first valid one is the split


def _shape(rank_orders: tuple[int, ...]) -> _Shape:
    """The shape of five ranks given as rank orders (A = 0 .. K = 12), strongest first."""
    values = [min(order + 1, 10) for order in rank_orders]
    total = sum(values)
    specials = []
    if all(value < 5 for value in values) and total <= 10:
        specials.append(Category.FIVE_SMALL)
    if max(Counter(rank_orders).values()) == 4:
        specials.append(Category.FOUR_OF_A_KIND)
    if all(order in _FACE_ORDERS for order in rank_orders):
        specials.append(Category.FIVE_FACE)
    for triple in _TRIPLES:
        if sum(values[i] for i in triple) % 10 == 0:
            pair = tuple(i for i in range(5) if i not in triple)
            points = total % 10 or 10
            category = Category.NIU_NIU if points == 10 else Category(points)
            return _Shape(category, itemgetter(*triple), itemgetter(*pair), points, tuple(specials))
    return _Shape(Category.NO_NIU, None, None, 0, tuple(specials))


# A card's rank weight: the sum of five weights identifies the multiset of ranks (a rank
# appears at most 4 times, so base 8 never carries).
_RANK_WEIGHT: tuple[int, ...] = tuple(8 ** RANKS.index(card.rank) for card in DECK)
_SHAPES: dict[int, _Shape] = {
    sum(8**order for order in orders): _shape(orders)
    for orders in combinations_with_replacement(range(12, -1, -1), 5)
    if max(Counter(orders).values()) <= 4
}
_BY_STRENGTH = attrgetter("strength")
_NO_CARDS: tuple[Card, ...] = ()
_new = object.__new__


def evaluate(cards: Iterable[Card] | str, rules: Ruleset | None = None) -> Hand:
    """Evaluate five distinct cards under a ruleset's special-hand switches.

    ``cards`` may also be card text. Without ``rules`` no special hand counts.

    >>> from casino.kernel.cards import parse_cards
    >>> hand = evaluate(parse_cards("JS QH JD AC 7H"))  # seed 001's example
    >>> hand.category.name, hand.points, hand.high_card
    ('NIU_8', 8, Card('QH'))
    >>> hand.three, hand.two
    ((Card('QH'), Card('JS'), Card('JD')), (Card('7H'), Card('AC')))
    >>> evaluate("KH 8H 4D JH AD").category.name
    'NO_NIU'
    """
    if type(cards) is not tuple:
        cards = parse_cards(cards, count=5) if isinstance(cards, str) else tuple(cards)
    try:
        first, second, third, fourth, fifth = cards
        a, b, c, d, e = first.index, second.index, third.index, fourth.index, fifth.index
        weight = _RANK_WEIGHT
        shape = _SHAPES[weight[a] + weight[b] + weight[c] + weight[d] + weight[e]]
    except (ValueError, TypeError, AttributeError, IndexError):
        # Not five Card objects: text, card texts, or a wrong count. parse_cards either
        # raises the clear error or returns five distinct cards.
        return evaluate(parse_cards(cards, count=5), rules)
    if len({a, b, c, d, e}) != 5:
        check_hand(cards)  # names the repeated card
    ordered = sorted(cards, key=_BY_STRENGTH, reverse=True)
    category = shape.category
    rank = int(category)
    if shape.specials and rules is not None:
        # The special hand that ranks highest; of two ranking alike, the stronger category.
        made = [special for special in shape.specials if special in rules.special_hands]
        if made:
            category = max(made, key=lambda special: (rules.rank(special), special))
            rank = int(rules.rank(category))
    # Filled in through its __dict__: the frozen dataclass __init__ (one object.__setattr__
    # per field) would be the slowest part of an evaluation, and evaluate must reach
    # 200,000 hands/s. The fields are exactly those of Hand, so it is an ordinary Hand.
    hand = _new(Hand)
    if shape.three is None:
        hand.__dict__.update(
            cards=cards,
            category=category,
            three=_NO_CARDS,
            two=_NO_CARDS,
            high_card=ordered[0],
            points=0,
            rank=rank,
        )
    else:
        hand.__dict__.update(
            cards=cards,
            category=category,
            three=shape.three(ordered),
            two=shape.two(ordered),
            high_card=ordered[0],
            points=shape.points,
            rank=rank,
        )
    return hand


def compare(a: Hand, b: Hand) -> int:
    """+1 if hand ``a`` beats hand ``b``, -1 if ``b`` beats ``a``.

    The higher rank wins (the category's, or Niu Niu's for a special hand the rules rank
    level with it); at the same rank the higher high card (card rank, then suit). Hands dealt
    from one deck never tie; hands sharing their high card raise ``ValueError``.

    >>> niu_8, niu_9 = evaluate("JS QH JD AC 7H"), evaluate("KS QS 5H 4H TC")
    >>> compare(niu_8, niu_9), compare(niu_9, niu_8)
    (-1, 1)
    >>> compare(evaluate("KS 8H 4D JH AD"), evaluate("KH 8S 4C JS AC"))  # No Niu, KS > KH
    1

    Five Face against Niu Niu (sheet 001 prints "Niu (0) & Super NIU NIU" in one row):

    >>> from dataclasses import replace
    >>> from niuniu.engine import presets
    >>> above = presets.get("macau-001")
    >>> level = replace(above, level_with_niu_niu=above.special_hands)
    >>> five_face, niu_niu = "KH QH JH KD QD", "KS TS 5H 5D JC"
    >>> compare(evaluate(five_face, above), evaluate(niu_niu, above))
    1
    >>> compare(evaluate(five_face, level), evaluate(niu_niu, level))  # KS > KH
    -1
    """
    if a.rank != b.rank:
        return 1 if a.rank > b.rank else -1
    a_strength, b_strength = a.high_card.strength, b.high_card.strength
    if a_strength == b_strength:
        raise ValueError(
            f"the hands tie on their high card '{a.high_card}': "
            "hands dealt from one deck share no card"
        )
    return 1 if a_strength > b_strength else -1
