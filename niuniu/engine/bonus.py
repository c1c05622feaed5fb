"""Bonus bet predicates (docs/RULES.md A4): conditions on the player's five cards alone."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from casino.kernel.cards import Rank, Suit
from niuniu.engine.hands import Hand
from niuniu.engine.rules import BonusLine, BonusPredicate

_FACE = frozenset({Rank.JACK, Rank.QUEEN, Rank.KING})
_BLACK = frozenset({Suit.SPADES, Suit.CLUBS})
_RED = frozenset({Suit.HEARTS, Suit.DIAMONDS})


def _all_face(hand: Hand) -> bool:
    return all(card.rank in _FACE for card in hand.cards)


def _all_ten_value(hand: Hand) -> bool:
    return all(card.value == 10 for card in hand.cards)


def _all_spades(hand: Hand) -> bool:
    return all(card.suit is Suit.SPADES for card in hand.cards)


def _all_same_suit(hand: Hand) -> bool:
    return len({card.suit for card in hand.cards}) == 1


def _all_black(hand: Hand) -> bool:
    return all(card.suit in _BLACK for card in hand.cards)


def _all_red(hand: Hand) -> bool:
    return all(card.suit in _RED for card in hand.cards)


def _niu_niu(hand: Hand) -> bool:
    # Any hand whose split leaves 0, whatever special hand it may also be.
    return hand.points == 10


def _four_of_a_kind(hand: Hand) -> bool:
    return max(Counter(card.rank for card in hand.cards).values()) == 4


def _five_small(hand: Hand) -> bool:
    values = [card.value for card in hand.cards]
    return max(values) < 5 and sum(values) <= 10


PREDICATES: dict[BonusPredicate, Callable[[Hand], bool]] = {
    BonusPredicate.ALL_FACE: _all_face,
    BonusPredicate.ALL_TEN_VALUE: _all_ten_value,
    BonusPredicate.ALL_SPADES: _all_spades,
    BonusPredicate.ALL_SAME_SUIT: _all_same_suit,
    BonusPredicate.ALL_BLACK: _all_black,
    BonusPredicate.ALL_RED: _all_red,
    BonusPredicate.NIU_NIU: _niu_niu,
    BonusPredicate.FOUR_OF_A_KIND: _four_of_a_kind,
    BonusPredicate.FIVE_SMALL: _five_small,
}


def satisfies(hand: Hand, predicate: BonusPredicate) -> bool:
    """Whether the hand's five cards meet a bonus line's condition.

    >>> from niuniu.engine.hands import evaluate
    >>> satisfies(evaluate("KS QS JS KC QC"), BonusPredicate.ALL_FACE)
    True
    >>> satisfies(evaluate("KS QS JS KC QC"), BonusPredicate.ALL_SPADES)
    False
    """
    return PREDICATES[BonusPredicate(predicate)](hand)


def winning_line(hand: Hand, lines: tuple[BonusLine, ...]) -> BonusLine | None:
    """The first (best) bonus line the hand satisfies, or None when the bonus loses.

    >>> from niuniu.engine.hands import evaluate
    >>> from niuniu.engine import presets
    >>> winning_line(evaluate("KS QS JS TS 9S"), presets.get("macau-001").bonus_lines).name
    'All Spades'
    """
    for line in lines:
        if satisfies(hand, line.predicate):
            return line
    return None
