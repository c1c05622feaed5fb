"""Rows ("chi"): evaluating a 5-card back or middle row or a 3-card front row, and comparing.

Ranks run 2 < 3 < ... < 10 < J < Q < K < A (2..14 as numbers); suits matter only for
flushes (docs/RULES.md B1). A row's ``key`` is its category followed by the ranks that decide
within the category: the cards forming the combination first (quads, trips, higher pair,
lower pair), then the kickers from the highest down; a straight or a flush lists all five
ranks from the top. A-2-3-4-5 is a straight: with ``wheel_is_lowest`` (the default) its ace
counts 1, so it is the lowest straight; otherwise its key is ``(A, 5, 4, 3, 2)``, just below
A-K-Q-J-10 and above K-Q-J-10-9.

>>> from casino.kernel.cards import parse_cards
>>> evaluate_row(parse_cards("KS KH 4D 4C KC")).describe()
'Full House, Ks over 4s'
>>> evaluate_row(parse_cards("AS 2H 3D 4C 5C")).key
(4, 5, 4, 3, 2, 1)
>>> evaluate_row("QS QD 7H").key
(1, 12, 7)
>>> compare_rows(evaluate_row("AH KH 2C 7D 9S"), evaluate_row("AS KD 9C 7C 2D"))
0

Evaluation is memoised on the ranks of the row and whether it is a flush, so the engine
shares one :class:`RowHand` between all rows that evaluate the same; a row hand therefore
does not carry its cards.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from casino.kernel.cards import Card, parse_cards
from maubinh.engine.rules import RowCategory, Ruleset

#: Mau Binh rank of each card, by ``Card.index`` (A = 14, 2..10 = face, J = 11, Q = 12, K = 13).
RANK_BY_INDEX: tuple[int, ...] = tuple(14 if i < 4 else i // 4 + 1 for i in range(52))
# A row's ranks as one int: 3 bits per rank (a row holds at most 4 of a rank), 2 in the lowest.
# The sum over the cards identifies the multiset of ranks, and so the row up to flushes.
_RANK_WEIGHT: tuple[int, ...] = tuple(1 << (3 * (rank - 2)) for rank in RANK_BY_INDEX)

_RANK_NAMES = {1: "A", 11: "J", 12: "Q", 13: "K", 14: "A"} | {r: str(r) for r in range(2, 11)}

_STRAIGHTS = frozenset({RowCategory.STRAIGHT, RowCategory.STRAIGHT_FLUSH})

# The packed ``strength`` holds the category above five 4-bit rank slots.
_SLOT_BITS = 4
_SLOTS = 5


def card_rank(card: Card) -> int:
    """A card's Mau Binh rank: 2..10, J = 11, Q = 12, K = 13, A = 14.

    >>> from casino.kernel.cards import parse_card
    >>> card_rank(parse_card("AS")), card_rank(parse_card("TD")), card_rank(parse_card("2C"))
    (14, 10, 2)
    """
    return RANK_BY_INDEX[card.index]


def rank_name(rank: int) -> str:
    """``14 -> "A"``, ``10 -> "10"``; the 1 of a low wheel is an ace too."""
    return _RANK_NAMES[rank]


def _plural(rank: int) -> str:
    return rank_name(rank) + "s"


@dataclass(frozen=True, slots=True)
class RowHand:
    """An evaluated row: its category and the ranks that order it within the category.

    - ``category``: a :class:`RowCategory`;
    - ``ranks``: the combination's ranks (quads, trips, higher pair, lower pair), then the
      kickers high to low; a straight or flush lists its five ranks from the top (a low
      wheel's ace is 1);
    - ``size``: 5 (back, middle) or 3 (front);
    - ``key``: ``(category, *ranks)``, so rows of one size compare as their keys do;
    - ``strength``: the key packed into one int (category, then 4 bits per rank, a front's
      missing slots 0). For rows of one size it orders exactly as ``key``; a 5-card row is
      at least as strong as a front row exactly when its strength is at least the front's,
      which is the foul check of docs/RULES.md B1.
    """

    category: RowCategory
    ranks: tuple[int, ...]
    size: int
    key: tuple[int, ...] = field(init=False, repr=False)
    strength: int = field(init=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "key", (int(self.category), *self.ranks))
        packed = int(self.category)
        for slot in range(_SLOTS):
            packed = (packed << _SLOT_BITS) | (self.ranks[slot] if slot < len(self.ranks) else 0)
        object.__setattr__(self, "strength", packed)

    def describe(self) -> str:
        """The row in words, as a dealer would call it.

        >>> evaluate_row("2S 2D 9C 9H KS").describe()
        'Two Pair, 9s and 2s'
        >>> evaluate_row("5S 4S 3S 2S AS").describe()
        'Straight Flush, 5 high'
        >>> evaluate_row("JS 4H 7C").describe()
        'High Card, J'
        """
        c, r = self.category, self.ranks
        if c is RowCategory.FOUR_OF_A_KIND or c is RowCategory.THREE_OF_A_KIND:
            return f"{c.label}, {_plural(r[0])}"
        if c is RowCategory.FULL_HOUSE:
            return f"{c.label}, {_plural(r[0])} over {_plural(r[1])}"
        if c is RowCategory.TWO_PAIR:
            return f"{c.label}, {_plural(r[0])} and {_plural(r[1])}"
        if c is RowCategory.PAIR:
            return f"Pair of {_plural(r[0])}"
        if c is RowCategory.HIGH_CARD:
            return f"{c.label}, {rank_name(r[0])}"
        # Straights and flushes: named by the top card; a wheel by its 5, wherever it ranks.
        top = 5 if c in _STRAIGHTS and r[:2] == (14, 5) else r[0]
        return f"{c.label}, {rank_name(top)} high"


def compare_rows(a: RowHand, b: RowHand) -> int:
    """+1 if row ``a`` beats row ``b``, -1 if ``b`` beats ``a``, 0 if they tie.

    Rows of one size compare by category, then the combination's ranks, then kickers. A 5-card
    row against a 3-card front (the foul check only) compares as far as the front has ranks:

    >>> compare_rows(evaluate_row("QS QD 7H 5C 2D"), evaluate_row("QH QC 7S"))
    0
    >>> compare_rows(evaluate_row("QS QD 7H 5C 2D"), evaluate_row("QH QC 8S"))
    -1
    """
    ka, kb = a.key, b.key
    if a.size != b.size:
        n = min(len(ka), len(kb))
        ka, kb = ka[:n], kb[:n]
    return (ka > kb) - (ka < kb)


#: The rows by their ranks and flush (``hand_of``): bounded by the cards, under 30,000 rank
#: multisets of 3 or 5 cards, each with or without a flush and either wheel reading.
_HANDS: dict[int, RowHand] = {}


def _build(weight: int, size: int, flush: bool, wheel_is_lowest: bool) -> RowHand:
    # (count, rank) for each rank present, most cards first, then highest rank first.
    groups = sorted(
        ((count, rank) for rank in range(14, 1, -1) if (count := (weight >> 3 * (rank - 2)) & 7)),
        reverse=True,
    )
    ranks = tuple(rank for _, rank in groups)
    most = groups[0][0]
    if size == 3:
        if most == 3:
            return RowHand(RowCategory.THREE_OF_A_KIND, ranks, 3)
        return RowHand(RowCategory.PAIR if most == 2 else RowCategory.HIGH_CARD, ranks, 3)
    if len(groups) == 5:
        straight = ranks[0] - ranks[4] == 4
        if ranks == (14, 5, 4, 3, 2):
            straight = True
            if wheel_is_lowest:
                ranks = (5, 4, 3, 2, 1)
        if straight:
            category = RowCategory.STRAIGHT_FLUSH if flush else RowCategory.STRAIGHT
        else:
            category = RowCategory.FLUSH if flush else RowCategory.HIGH_CARD
        return RowHand(category, ranks, 5)
    second = groups[1][0]
    if most == 4:
        category = RowCategory.FOUR_OF_A_KIND
    elif most == 3:
        category = RowCategory.FULL_HOUSE if second == 2 else RowCategory.THREE_OF_A_KIND
    else:
        category = RowCategory.TWO_PAIR if second == 2 else RowCategory.PAIR
    return RowHand(category, ranks, 5)


def hand_of(weight: int, size: int, flush: bool, wheel_is_lowest: bool) -> RowHand:
    """The row with these ranks (summed :data:`_RANK_WEIGHT`), memoised. Internal fast path."""
    memo = (weight << 2) | (flush << 1) | wheel_is_lowest
    hand = _HANDS.get(memo)
    if hand is None:
        hand = _HANDS[memo] = _build(weight, size, flush, wheel_is_lowest)
    return hand


def evaluate_cards(cards: Sequence[Card], wheel_is_lowest: bool) -> RowHand:
    """Evaluate 3 or 5 different cards, already checked (the fast path of :func:`evaluate_row`)."""
    weights = _RANK_WEIGHT
    weight = 0
    for card in cards:
        weight += weights[card.index]
    if len(cards) == 5:
        suit = cards[0].suit
        flush = (
            cards[1].suit is suit
            and cards[2].suit is suit
            and cards[3].suit is suit
            and cards[4].suit is suit
        )
        memo = (weight << 2) | (flush << 1) | wheel_is_lowest
        hand = _HANDS.get(memo)
        if hand is None:
            hand = _HANDS[memo] = _build(weight, 5, flush, wheel_is_lowest)
        return hand
    memo = weight << 2
    hand = _HANDS.get(memo)
    if hand is None:
        hand = _HANDS[memo] = _build(weight, 3, False, False)
    return hand


def evaluate_row(cards: str | Iterable[Card | str], rules: Ruleset | None = None) -> RowHand:
    """Evaluate a row: 5 cards (back or middle) or 3 cards (front).

    ``cards`` may be text (``"KS QH 10D 3c 7♠"``) or cards. ``rules`` decides only where the
    wheel ranks (``wheel_is_lowest``, default on when no rules are given).

    >>> evaluate_row("7H 7D 7S").category.name
    'THREE_OF_A_KIND'
    >>> evaluate_row("AS 2H 3D 4C 5C").describe()
    'Straight, 5 high'
    >>> evaluate_row("KS QS JS")  # a 3-card front has no straights or flushes
    RowHand(category=<RowCategory.HIGH_CARD: 0>, ranks=(13, 12, 11), size=3)
    >>> evaluate_row("AS KS")
    Traceback (most recent call last):
    ...
    ValueError: a row has 5 cards (back, middle) or 3 (front), got 2
    """
    row = parse_cards(cards)
    if len(row) not in (3, 5):
        raise ValueError(f"a row has 5 cards (back, middle) or 3 (front), got {len(row)}")
    return evaluate_cards(row, True if rules is None else rules.wheel_is_lowest)
