"""One player's 13 cards laid out in three rows: checking the layout and its instant win.

Rows are required to run back >= middle >= front (docs/RULES.md B1); otherwise the hand is
**fouled** ("binh lủng"). Equal rows do not foul. A front row is compared with the middle as
far as the front has ranks (:func:`maubinh.engine.rows.compare_rows`).

Instant wins ("mậu binh", docs/RULES.md B2 step 1), strongest first, each only when the ruleset
pays it (an amount above 0):

- **Dragon Flush**: the 13 cards are 2..A of one suit.
- **Dragon**: one card of each rank 2..A. A one-suit dragon is a Dragon when Dragon Flush is
  not offered and ``dragon_flush_counts_as_dragon`` is on.
- **Six Pairs**: six disjoint pairs among the 13 cards; four of a kind counts as two pairs,
  and three of a kind as a pair plus the odd card (so five pairs and a three of a kind is
  Six Pairs: "gồm 6 đôi trong 13 lá bài").
- **Three Flushes**: each row is of one suit (a straight flush row is a flush too); the
  front's three cards are of one suit.
- **Three Straights**: the back and the middle are straights (straight flushes count), and
  the front's three ranks are consecutive. By analogy with the wheel, the ace plays high or
  low in the front: Q-K-A and A-2-3 both count; K-A-2 does not (no wrapping).

Dragon, Dragon Flush and Six Pairs depend on the 13 cards only; Three Flushes and Three
Straights on the rows as laid out. With ``instant_win_when_fouled`` (the presets' reading) an
instant win is declared before rows are compared, so it stands even when the rows as laid out
would foul (two 5-card flushes or straights can always be swapped into order, and the front,
three distinct ranks, is below either); off, a fouled layout holds neither.

Whether a hand that holds an instant win takes it is the settlement's question
(``Ruleset.declaring``): ``instant_win`` is what the hand holds.

>>> from maubinh.engine import presets
>>> rules = presets.get("bigkool-2016")
>>> hand = check_arrangement("AS AH KD KC 2S", "QS QH JC JD 3C", "9H 9D 4C", rules)
>>> hand.fouled, hand.instant_win
(False, None)
>>> hand = check_arrangement("QS QH JC JD 3C", "AS AH KD KC 2S", "9H 9D 4C", rules)
>>> hand.fouled, hand.foul_reason
(True, 'the middle row (Two Pair, As and Ks) beats the back row (Two Pair, Qs and Js)')
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from casino.kernel.cards import Card, check_distinct, parse_cards
from maubinh.engine.rows import _RANK_WEIGHT, RowHand, hand_of
from maubinh.engine.rules import LAYOUT_INSTANT_WINS, InstantWin, Row, RowCategory, Ruleset

#: The rank weight of one card of each rank 2..A (a dragon).
_DRAGON_WEIGHT = sum(1 << (3 * n) for n in range(13))
# Pairs among up to four ranks packed 3 bits each (12 bits): sum of count // 2.
_PAIRS_IN_12_BITS: tuple[int, ...] = tuple(
    sum(((bits >> (3 * n)) & 7) >> 1 for n in range(4)) for bits in range(1 << 12)
)
_STRAIGHTS = frozenset({RowCategory.STRAIGHT, RowCategory.STRAIGHT_FLUSH})
_FLUSHES = frozenset({RowCategory.FLUSH, RowCategory.STRAIGHT_FLUSH})
RowCards = tuple[Card, ...]
RowText = str | Iterable[Card | str]


@dataclass(frozen=True, slots=True)
class Arrangement:
    """A player's three rows, evaluated.

    ``fouled`` is True when back < middle or middle < front, and ``foul_reason`` says which
    (None when not fouled). ``instant_win`` is the strongest instant win the ruleset pays that
    this hand holds, or None (whether it is taken is the settlement's question:
    ``Ruleset.declaring``).
    """

    back: RowCards
    middle: RowCards
    front: RowCards
    back_hand: RowHand
    middle_hand: RowHand
    front_hand: RowHand
    fouled: bool
    instant_win: InstantWin | None

    @property
    def foul_reason(self) -> str | None:
        """Which rows are out of order, in words; None when the hand is not fouled."""
        return _describe_foul(self.back_hand, self.middle_hand, self.front_hand)

    @property
    def rows(self) -> tuple[RowCards, RowCards, RowCards]:
        """(back, middle, front)."""
        return (self.back, self.middle, self.front)

    @property
    def hands(self) -> tuple[RowHand, RowHand, RowHand]:
        """The evaluated rows, (back, middle, front)."""
        return (self.back_hand, self.middle_hand, self.front_hand)

    @property
    def cards(self) -> tuple[Card, ...]:
        """All 13 cards, back first."""
        return self.back + self.middle + self.front


def parse_row(cards: RowText, row: Row) -> RowCards:
    """Parse one row and check its size: ``"the front row has 4 cards; it takes 3"``."""
    if cards is None:
        raise ValueError(f"the {row} row needs cards, got None")
    parsed = parse_cards(cards)
    if len(parsed) != row.size:
        raise ValueError(f"the {row} row has {len(parsed)} cards; it takes {row.size}")
    return parsed


def parse_rows(back: RowText, middle: RowText, front: RowText) -> tuple[RowCards, ...]:
    """Parse and check three rows: sizes 5, 5, 3 and 13 different cards."""
    return parse_rows_mask(back, middle, front)[0]


def parse_rows_mask(
    back: RowText, middle: RowText, front: RowText
) -> tuple[tuple[RowCards, ...], int]:
    """:func:`parse_rows`, and the cards as a bit mask (``Card.mask``). Internal."""
    if (
        type(back) is tuple
        and type(middle) is tuple
        and type(front) is tuple
        and len(back) == 5
        and len(middle) == 5
        and len(front) == 3
    ):
        # Fast path for what the settlement passes around: tuples of cards, all different.
        mask = 0
        for card in back + middle + front:
            if type(card) is not Card:
                break
            mask |= card.mask
        else:
            if mask.bit_count() == 13:
                return (back, middle, front), mask
    rows = (parse_row(back, Row.BACK), parse_row(middle, Row.MIDDLE), parse_row(front, Row.FRONT))
    check_distinct({f"the {row} row": cards for row, cards in zip(Row, rows, strict=True)})
    mask = 0
    for row in rows:
        for card in row:
            mask |= card.mask
    return rows, mask


def _describe_foul(back: RowHand, middle: RowHand, front: RowHand) -> str | None:
    if back.strength < middle.strength:
        return f"the middle row ({middle.describe()}) beats the back row ({back.describe()})"
    if middle.strength < front.strength:
        return f"the front row ({front.describe()}) beats the middle row ({middle.describe()})"
    return None


def _one_suit(cards: RowCards) -> bool:
    suit = cards[0].suit
    return all(card.suit is suit for card in cards)


def _front_is_straight(front: RowHand) -> bool:
    if front.category is not RowCategory.HIGH_CARD:
        return False
    top, mid, low = front.ranks
    return top - low == 2 or (top, mid, low) == (14, 3, 2)


def _pairs(weight: int) -> int:
    table = _PAIRS_IN_12_BITS
    return (
        table[weight & 0xFFF]
        + table[(weight >> 12) & 0xFFF]
        + table[(weight >> 24) & 0xFFF]
        + table[weight >> 36]
    )


def _declares(
    kind: InstantWin,
    rows: tuple[RowCards, ...],
    hands: tuple[RowHand, RowHand, RowHand],
    weight: int,
    rules: Ruleset,
) -> bool:
    back, middle, front = rows
    if kind is InstantWin.DRAGON_FLUSH:
        return weight == _DRAGON_WEIGHT and _one_suit(back + middle + front)
    if kind is InstantWin.DRAGON:
        return weight == _DRAGON_WEIGHT and (
            rules.dragon_flush_counts_as_dragon or not _one_suit(back + middle + front)
        )
    if kind is InstantWin.SIX_PAIRS:
        return _pairs(weight) == 6
    if kind is InstantWin.THREE_FLUSHES:
        return (
            hands[0].category in _FLUSHES
            and hands[1].category in _FLUSHES
            and front[0].suit is front[1].suit is front[2].suit
        )
    return (
        hands[0].category in _STRAIGHTS
        and hands[1].category in _STRAIGHTS
        and _front_is_straight(hands[2])
    )


def _declared_instant_win(
    rows: tuple[RowCards, ...],
    hands: tuple[RowHand, RowHand, RowHand],
    weight: int,
    rules: Ruleset,
) -> InstantWin | None:
    """The strongest instant win ``rules`` pays that the checked rows declare."""
    for kind, _ in rules._offered:
        if _declares(kind, rows, hands, weight, rules):
            return kind
    return None


def arrangement_of(rows: tuple[RowCards, ...], rules: Ruleset) -> Arrangement:
    """Evaluate three checked rows. Internal fast path of :func:`check_arrangement`."""
    back, middle, front = rows
    weights = _RANK_WEIGHT
    wheel = rules.wheel_is_lowest
    back_weight = (
        weights[back[0].index]
        + weights[back[1].index]
        + weights[back[2].index]
        + weights[back[3].index]
        + weights[back[4].index]
    )
    middle_weight = (
        weights[middle[0].index]
        + weights[middle[1].index]
        + weights[middle[2].index]
        + weights[middle[3].index]
        + weights[middle[4].index]
    )
    front_weight = weights[front[0].index] + weights[front[1].index] + weights[front[2].index]
    suit = back[0].suit
    back_flush = (
        back[1].suit is suit
        and back[2].suit is suit
        and back[3].suit is suit
        and back[4].suit is suit
    )
    suit = middle[0].suit
    middle_flush = (
        middle[1].suit is suit
        and middle[2].suit is suit
        and middle[3].suit is suit
        and middle[4].suit is suit
    )
    b = hand_of(back_weight, 5, back_flush, wheel)
    m = hand_of(middle_weight, 5, middle_flush, wheel)
    f = hand_of(front_weight, 3, False, False)
    hands = (b, m, f)
    fouled = b.strength < m.strength or m.strength < f.strength
    declared = None
    weight = back_weight + middle_weight + front_weight
    # Most hands declare nothing: look closer only when some instant win is possible.
    if rules._offered and (
        weight == _DRAGON_WEIGHT
        or (b.category in _FLUSHES and m.category in _FLUSHES)
        or (b.category in _STRAIGHTS and m.category in _STRAIGHTS)
        or _pairs(weight) == 6
    ):
        declared = _declared_instant_win(rows, hands, weight, rules)
        if fouled and declared in LAYOUT_INSTANT_WINS and not rules.instant_win_when_fouled:
            # The stronger kinds do not depend on the layout, so there is none to fall back to.
            declared = None
    return Arrangement(back, middle, front, b, m, f, fouled, declared)


def check_arrangement(
    back: RowText, middle: RowText, front: RowText, rules: Ruleset
) -> Arrangement:
    """Evaluate a player's rows and say whether the hand is fouled, and why.

    Rows may be text or cards. Sizes must be 5, 5 and 3 and the 13 cards different:

    >>> from maubinh.engine import presets
    >>> rules = presets.get("classic")
    >>> check_arrangement("AS AH KD KC 2S", "QS QH JC JD 3C", "9H 9D 4C 5C", rules)
    Traceback (most recent call last):
    ...
    ValueError: the front row has 4 cards; it takes 3
    >>> check_arrangement("AS AH KD KC 2S", "QS QH JC JD 3C", "9H 9D AS", rules)
    Traceback (most recent call last):
    ...
    ValueError: 'AS' is in both the back row and the front row
    >>> check_arrangement("AS AH KD KC 2S", "QS QH 7C 5D 3C", "KS KH 4C", rules).foul_reason
    'the front row (Pair of Ks) beats the middle row (Pair of Qs)'
    """
    return arrangement_of(parse_rows(back, middle, front), rules)


def instant_win(
    back: RowText, middle: RowText, front: RowText, rules: Ruleset
) -> InstantWin | None:
    """The strongest instant win the ruleset pays that these rows declare, or None.

    >>> from maubinh.engine import presets
    >>> rules = presets.get("bigkool-2016")
    >>> instant_win("2S 3S 4S 5S 6S", "7S 8S 9S TS JS", "QS KS AS", rules).name  # no Dragon Flush
    'DRAGON'
    >>> instant_win("2S 3S 4S 5S 6S", "7S 8S 9S TS JS", "QS KS AS", presets.get("classic")).name
    'DRAGON_FLUSH'
    >>> instant_win("7D 9S 9H JC JD", "2S 2H 5S 5H 7C", "KS KH AC", rules).name
    'SIX_PAIRS'
    >>> instant_win("2H 6H 9H JH AH", "3S 7S 8S QS KS", "4D 5D 9D", rules).name
    'THREE_FLUSHES'
    >>> instant_win("9S TS JH QD KD", "2H 3S 4D 5C 6C", "AH 2C 3D", rules).name
    'THREE_STRAIGHTS'
    >>> instant_win("AS AH KD KC 2S", "QS QH JC JD 3C", "9H 9D 4C", rules) is None
    True
    """
    return arrangement_of(parse_rows(back, middle, front), rules).instant_win
