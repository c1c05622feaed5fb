"""Playing cards: one standard 52-card deck, parsed from and written as canonical text.

Canonical text is a rank from ``A23456789TJQK`` followed by a suit from ``SHCD``, e.g. ``TS``
or ``AH``. Input is forgiving in the ways a dealer types: lower case, ``10`` for ``T``, the
suit symbols ``♠ ♥ ♣ ♦`` (also ``♤ ♡ ♧ ♢``), cards separated by spaces and/or commas.

The 52 cards are singletons: ``Card("K", "S") is parse_card("ks")``, so games may key tables
on them or on their precomputed integers (``index``, ``strength``, ``mask``).

``value`` and ``strength`` are the usual point count and order of a ten-point card game
(docs/RULES.md A1): point value A = 1, 2..9 = face, 10/J/Q/K = 10; card order K > Q > J > 10 >
... > 2 > A, then suit S > H > C > D. A game with another order (aces high, say) builds its
own table keyed on ``Card.index``.

>>> cards = parse_cards("KS QH 10D 3c 7♠")
>>> format_cards(cards)
'KS QH TD 3C 7S'
>>> [card.value for card in cards]
[10, 10, 10, 3, 7]
>>> max(cards, key=lambda card: card.strength)
Card('KS')
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any


class Rank(StrEnum):
    """Card ranks; the value is the canonical character."""

    ACE = "A"
    TWO = "2"
    THREE = "3"
    FOUR = "4"
    FIVE = "5"
    SIX = "6"
    SEVEN = "7"
    EIGHT = "8"
    NINE = "9"
    TEN = "T"
    JACK = "J"
    QUEEN = "Q"
    KING = "K"

    @property
    def is_face(self) -> bool:
        """J, Q or K."""
        return self in _FACE_RANKS


class Suit(StrEnum):
    """Card suits, strongest first; the value is the canonical character."""

    SPADES = "S"
    HEARTS = "H"
    CLUBS = "C"
    DIAMONDS = "D"

    @property
    def symbol(self) -> str:
        return _SUIT_SYMBOLS[self]

    @property
    def is_black(self) -> bool:
        return self in (Suit.SPADES, Suit.CLUBS)


_FACE_RANKS = frozenset({Rank.JACK, Rank.QUEEN, Rank.KING})
_SUIT_SYMBOLS = {Suit.SPADES: "♠", Suit.HEARTS: "♥", Suit.CLUBS: "♣", Suit.DIAMONDS: "♦"}

#: Rank order of the point count's high card, weakest first: A < 2 < ... < 10 < J < Q < K.
RANKS: tuple[Rank, ...] = tuple(Rank)
#: Suit order, strongest first: S > H > C > D.
SUITS: tuple[Suit, ...] = tuple(Suit)

_CARDS: dict[tuple[Rank, Suit], Card] = {}


@dataclass(frozen=True, slots=True, init=False)
class Card:
    """One of the 52 cards. Construct with ``Card("K", "S")`` or :func:`parse_card`.

    Cards are singletons and immutable; the integers are precomputed so evaluation is cheap:

    - ``value``: the point value (A = 1, 2..9 face, 10/J/Q/K = 10);
    - ``strength``: 0..51 in the point count's card order, larger is stronger (AD = 0,
      KS = 51);
    - ``index``: 0..51, the card's position in :data:`DECK` (AS, AH, AC, AD, 2S, ..., KD);
    - ``mask``: ``1 << index``, so a set of cards is an ``int``;
    - ``text``: the canonical text (``str(card)``), made once.

    >>> Card("T", "S")
    Card('TS')
    >>> str(Card("T", "S")), Card("T", "S").value
    ('TS', 10)
    >>> Card("K", "S") is parse_card("ks")
    True
    >>> Card("K", "D").strength > Card("Q", "S").strength
    True
    """

    rank: Rank
    suit: Suit
    value: int = field(repr=False, compare=False)
    strength: int = field(repr=False, compare=False)
    index: int = field(repr=False, compare=False)
    mask: int = field(repr=False, compare=False)
    text: str = field(repr=False, compare=False)

    def __new__(cls, rank: Rank | str, suit: Suit | str) -> Card:
        try:
            key = (Rank(rank), Suit(suit))
        except ValueError:
            raise ValueError(_bad_card_message(f"{rank}{suit}")) from None
        card = _CARDS.get(key)
        if card is None:
            card = object.__new__(cls)
            rank_, suit_ = key
            rank_order = RANKS.index(rank_)
            suit_order = SUITS.index(suit_)
            index = rank_order * 4 + suit_order
            setter = object.__setattr__
            setter(card, "rank", rank_)
            setter(card, "suit", suit_)
            setter(card, "value", min(rank_order + 1, 10))
            setter(card, "strength", rank_order * 4 + (3 - suit_order))
            setter(card, "index", index)
            setter(card, "mask", 1 << index)
            setter(card, "text", rank_.value + suit_.value)
            _CARDS[key] = card
        return card

    def __hash__(self) -> int:
        return self.index

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Card('{self}')"

    def __reduce__(self) -> tuple[Any, ...]:
        # Unpickling goes through __new__, so the singleton comes back.
        return (Card, (self.rank.value, self.suit.value))

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Card:
        return self

    @property
    def symbol_text(self) -> str:
        """The card with its suit symbol, for display: ``10♠``."""
        rank = "10" if self.rank is Rank.TEN else self.rank.value
        return rank + self.suit.symbol


#: The 52 cards in index order: AS AH AC AD 2S ... KS KH KC KD.
DECK: tuple[Card, ...] = tuple(Card(rank, suit) for rank in RANKS for suit in SUITS)

_RANK_TEXT: dict[str, Rank] = {rank.value: rank for rank in Rank} | {"10": Rank.TEN}
_SUIT_TEXT: dict[str, Suit] = {suit.value: suit for suit in Suit} | {
    "♠": Suit.SPADES,
    "♤": Suit.SPADES,
    "♥": Suit.HEARTS,
    "♡": Suit.HEARTS,
    "♣": Suit.CLUBS,
    "♧": Suit.CLUBS,
    "♦": Suit.DIAMONDS,
    "♢": Suit.DIAMONDS,
}
#: Every accepted spelling, upper-cased, to its card.
_BY_TEXT: dict[str, Card] = {
    rank_text + suit_text: Card(rank, suit)
    for rank_text, rank in _RANK_TEXT.items()
    for suit_text, suit in _SUIT_TEXT.items()
}
#: Each card by its canonical text alone (the same cards as ``_BY_TEXT``).
_BY_CANONICAL: dict[str, Card] = {card.text: _BY_TEXT[card.text] for card in _BY_TEXT.values()}
_SEPARATORS = re.compile(r"[\s,]+")
_VARIATION_SELECTOR = "\ufe0f"  # "♠️" as typed on phones: the emoji form of a suit symbol


def _bad_card_message(token: str) -> str:
    return f"{token!r} is not a card: rank is one of A 2-10 J Q K, suit one of S H C D or ♠ ♥ ♣ ♦"


def parse_card(text: str) -> Card:
    """Parse one card.

    >>> parse_card("10d"), parse_card("Q♥"), parse_card(" as ")
    (Card('TD'), Card('QH'), Card('AS'))
    >>> parse_card("1X")
    Traceback (most recent call last):
    ...
    ValueError: '1X' is not a card: rank is one of A 2-10 J Q K, suit one of S H C D or ♠ ♥ ♣ ♦
    """
    if isinstance(text, Card):
        return text
    if not isinstance(text, str):
        raise TypeError(f"a card is text like 'KS', not {type(text).__name__}")
    token = text.strip()
    card = _BY_TEXT.get(token.upper().replace(_VARIATION_SELECTOR, ""))
    if card is None:
        raise ValueError(_bad_card_message(token))
    return card


def parse_cards(cards: str | Iterable[Card | str], count: int | None = None) -> tuple[Card, ...]:
    """Parse cards from text (``"KS QH 10D 3c 7♠"``, spaces and/or commas) or an iterable.

    The iterable may hold :class:`Card` objects or card texts. A card may appear only once
    (one deck); with ``count`` the number of cards is checked too.

    >>> parse_cards("KS, qh,10D 3c  7♠")
    (Card('KS'), Card('QH'), Card('TD'), Card('3C'), Card('7S'))
    >>> parse_cards(["as", Card("K", "D")])
    (Card('AS'), Card('KD'))
    >>> parse_cards("KS QH KS")
    Traceback (most recent call last):
    ...
    ValueError: 'KS' appears twice
    >>> parse_cards("KS QH TD 3C", count=5)
    Traceback (most recent call last):
    ...
    ValueError: expected 5 cards, got 4
    """
    if isinstance(cards, str):
        # Canonical text (what every record holds) is a look-up a card; anything else is
        # read by parse_card, which names what is wrong.
        tokens = cards.split() if "," not in cards else [t for t in _SEPARATORS.split(cards) if t]
        known = _BY_TEXT.get
        parsed = tuple([known(token) or parse_card(token) for token in tokens])
    else:
        parsed = tuple([parse_card(token) for token in cards])  # type: ignore[arg-type]
    return check_hand(parsed, count)


def canonical_cards(text: str) -> tuple[Card, ...] | None:
    """The cards of canonical text (``"KS QH TD"``: what every record holds), a look-up a
    card, as :func:`parse_cards` reads them; None when a token is not a card's canonical
    text (``parse_cards`` reads any other spelling, or names what is wrong). Neither the
    count nor repeats are checked.

    >>> canonical_cards("KS QH TD"), canonical_cards("KS 10H")
    ((Card('KS'), Card('QH'), Card('TD')), None)
    """
    try:
        return tuple([_BY_CANONICAL[token] for token in text.split()])
    except KeyError:
        return None


def check_hand(cards: tuple[Card, ...], count: int | None = None) -> tuple[Card, ...]:
    """Check that no card appears twice and, with ``count``, how many cards there are.

    Returns the cards so it can be chained.

    >>> check_hand(parse_cards("2S 3S"), count=2)
    (Card('2S'), Card('3S'))
    >>> check_hand((Card("2", "S"),) * 3)
    Traceback (most recent call last):
    ...
    ValueError: '2S' appears 3 times
    """
    if len({card.index for card in cards}) != len(cards):
        card, times = Counter(cards).most_common(1)[0]
        how_often = "twice" if times == 2 else f"{times} times"
        raise ValueError(f"'{card}' appears {how_often}")
    if count is not None and len(cards) != count:
        raise ValueError(f"expected {count} cards, got {len(cards)}")
    return cards


def check_distinct(hands: Mapping[str, Iterable[Card]] | Iterable[Iterable[Card]]) -> None:
    """Check that no card is in two hands (all cards of a round come from one deck).

    ``hands`` is a mapping of labels to cards, or an iterable of hands labelled
    ``hand 1``, ``hand 2``, ...

    >>> check_distinct({"box 1": parse_cards("KS QH"), "dealer": parse_cards("2C QH")})
    Traceback (most recent call last):
    ...
    ValueError: 'QH' is in both box 1 and dealer
    >>> check_distinct([parse_cards("KS"), parse_cards("KS")])
    Traceback (most recent call last):
    ...
    ValueError: 'KS' is in both hand 1 and hand 2
    """
    if isinstance(hands, Mapping):
        labelled = [(label, tuple(cards)) for label, cards in hands.items()]
    else:
        labelled = [(f"hand {n}", tuple(cards)) for n, cards in enumerate(hands, start=1)]
    # Distinct cards' masks sum to a number with a bit for each; a card twice carries.
    try:
        masks = [card.mask for _label, cards in labelled for card in cards]
    except AttributeError:
        pass  # not cards: read one by one below
    else:
        if sum(masks).bit_count() == len(masks):
            return
    seen: dict[Card, str] = {}
    for label, cards in labelled:
        for card in cards:
            earlier = seen.get(card)
            if earlier is not None:
                where = (
                    f"twice in {label}" if earlier == label else f"in both {earlier} and {label}"
                )
                raise ValueError(f"'{card}' is {where}")
            seen[card] = label


def format_cards(cards: Iterable[Card]) -> str:
    """Canonical text of cards, space separated.

    >>> format_cards(parse_cards("ks qh 10d 3c 7♠"))
    'KS QH TD 3C 7S'
    """
    return " ".join([card.text for card in cards])
