"""A seeded, vectorised Monte Carlo estimate of each bet's expected return, to cross-check
the exact figures of :mod:`niuniu.engine.odds`.

Each round deals ten distinct cards from the deck (a partial Fisher-Yates shuffle, done
for a whole batch of rounds at once): five to the player's box, five to the dealer. Hands
are evaluated with numpy from rank and value arrays, independently of
:func:`~niuniu.engine.hands.evaluate` (a test holds the two together), and each bet is
settled per unit staked as :mod:`niuniu.engine.odds` reads the paytable: a win in category
``c`` pays ``win_odds * (1 - commission_rate)``, a dealer win in category ``d`` costs its
``loss_multiple``, the bonus pays the first line the player's cards meet or loses 1.

Results depend only on the ruleset, the deck, ``rounds``, ``seed`` and ``batch``.
numpy is allowed here (docs/ARCHITECTURE.md "Layers": odds code).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations
from types import MappingProxyType

import numpy as np

from casino.kernel.cards import DECK, RANKS, SUITS, Card, Rank, Suit
from niuniu.engine.rules import (
    PAYTABLE_BET_TYPES,
    BetType,
    BonusPredicate,
    Category,
    Ruleset,
)

#: The two-sided 95% normal quantile.
Z_95 = 1.959963984540054
_HAND = 5
_TRIPLES = tuple(combinations(range(_HAND), 3))
_JACK = RANKS.index(Rank.JACK)
_TEN = RANKS.index(Rank.TEN)
_FIVE = RANKS.index(Rank.FIVE)
_SPADES = SUITS.index(Suit.SPADES)
_BLACK = np.array([suit.is_black for suit in SUITS])
# A sum of three card values (3..30) is a multiple of ten.
_MULTIPLE_OF_TEN = np.array([total % 10 == 0 for total in range(31)])


@dataclass(frozen=True, slots=True)
class Estimate:
    """The sampled mean net result per unit staked, with its 95% confidence interval."""

    bet_type: BetType
    rounds: int
    mean: float
    standard_deviation: float
    standard_error: float
    low: float
    high: float

    def contains(self, value: Fraction | float) -> bool:
        """Whether ``value`` (e.g. an exact expected return) lies in the 95% interval."""
        return self.low <= float(value) <= self.high


@dataclass(frozen=True)
class MonteCarloResult:
    rounds: int
    seed: int
    #: Share of rounds the player's box beat the dealer (1/2 exactly in expectation).
    player_win_rate: float
    estimates: Mapping[BetType, Estimate]


@dataclass(frozen=True)
class DeckArrays:
    """Per-card arrays of a deck, in deck order: rank order (A = 0 .. K = 12), point value,
    suit order (S = 0 .. D = 3) and strength (the high-card order)."""

    ranks: np.ndarray
    values: np.ndarray
    suits: np.ndarray
    strengths: np.ndarray

    @classmethod
    def of(cls, deck: Sequence[Card]) -> DeckArrays:
        cards = tuple(deck)
        if len({card.index for card in cards}) != len(cards):
            raise ValueError("a deck holds every card at most once")
        if len(cards) < 2 * _HAND:
            raise ValueError(f"a deck needs at least {2 * _HAND} cards for a box and the dealer")
        return cls(
            ranks=np.array([RANKS.index(card.rank) for card in cards], dtype=np.int8),
            values=np.array([card.value for card in cards], dtype=np.int8),
            suits=np.array([SUITS.index(card.suit) for card in cards], dtype=np.int8),
            strengths=np.array([card.strength for card in cards], dtype=np.int16),
        )


@dataclass(frozen=True)
class HandArrays:
    """Evaluated hands, one entry per hand: the category under the switches, the category
    without them (for the ``niu_niu`` bonus predicate), the high card's strength, and the
    rank-only facts the special hands and bonus predicates need."""

    category: np.ndarray
    base_category: np.ndarray
    high: np.ndarray
    four_of_a_kind: np.ndarray
    five_small: np.ndarray
    all_face: np.ndarray
    all_ten_value: np.ndarray

    def take(self, part: slice) -> HandArrays:
        return HandArrays(*(getattr(self, name)[part] for name in _HAND_FIELDS))


def evaluate_hands(
    cards: np.ndarray,
    deck: DeckArrays,
    special_hands: frozenset[Category],
    level: frozenset[Category] = frozenset(),
) -> HandArrays:
    """Evaluate hands given as an (n, 5) array of positions in the deck; ``level``: the
    special hands ranked level with Niu Niu (a hand that is two counts as the higher one).

    >>> from casino.kernel.cards import parse_cards
    >>> deck = DeckArrays.of(DECK)
    >>> cards = np.array([[card.index for card in parse_cards("JS QH JD AC 7H")]])
    >>> Category(int(evaluate_hands(cards, deck, frozenset()).category[0])).name
    'NIU_8'
    """
    return _evaluate_columns(np.ascontiguousarray(np.asarray(cards).T), deck, special_hands, level)


def _evaluate_columns(
    cards: np.ndarray,
    deck: DeckArrays,
    special_hands: frozenset[Category],
    level: frozenset[Category] = frozenset(),
) -> HandArrays:
    """As :func:`evaluate_hands` for a (5, n) array: one row per card slot, which keeps
    every operation on long contiguous rows instead of reducing along rows of five."""
    ranks = [deck.ranks[slot] for slot in cards]
    values = [deck.values[slot].astype(np.int16) for slot in cards]
    total = values[0] + values[1] + values[2] + values[3] + values[4]
    has_niu = np.zeros(cards.shape[1], dtype=bool)
    for i, j, k in _TRIPLES:
        has_niu |= _MULTIPLE_OF_TEN[values[i] + values[j] + values[k]]
    points = (total % 10).astype(np.int8)
    base = np.where(has_niu, np.where(points == 0, np.int8(Category.NIU_NIU), points), 0)
    base = base.astype(np.int8)
    # Four of a kind: six of the ten pairs of cards share a rank (a full house has four).
    same = np.zeros(cards.shape[1], dtype=np.int8)
    for i, j in combinations(range(_HAND), 2):
        same += ranks[i] == ranks[j]
    four = same == 6
    lowest = np.minimum.reduce(ranks)
    highest = np.maximum.reduce(ranks)
    small = (highest < _FIVE) & (total <= 10)
    face = lowest >= _JACK
    category = base.copy()
    # Lowest ranked special first, so the highest one a hand makes is the one that stays.
    made = {Category.FIVE_FACE: face, Category.FOUR_OF_A_KIND: four, Category.FIVE_SMALL: small}
    for special in sorted(made, key=lambda c: (Category.NIU_NIU if c in level else c, c)):
        if special in special_hands:
            category[made[special]] = int(special)
    return HandArrays(
        category=category,
        base_category=base,
        high=np.maximum.reduce([deck.strengths[slot] for slot in cards]),
        four_of_a_kind=four,
        five_small=small,
        all_face=face,
        all_ten_value=lowest >= _TEN,
    )


def bonus_predicate(
    predicate: BonusPredicate, cards: np.ndarray, deck: DeckArrays, hands: HandArrays
) -> np.ndarray:
    """Whether each hand meets a bonus predicate; ``cards`` is (5, n), one row per slot."""
    predicate = BonusPredicate(predicate)
    if predicate is BonusPredicate.ALL_FACE:
        return hands.all_face
    if predicate is BonusPredicate.ALL_TEN_VALUE:
        return hands.all_ten_value
    if predicate is BonusPredicate.NIU_NIU:
        return hands.base_category == int(Category.NIU_NIU)
    if predicate is BonusPredicate.FOUR_OF_A_KIND:
        return hands.four_of_a_kind
    if predicate is BonusPredicate.FIVE_SMALL:
        return hands.five_small
    suits = [deck.suits[slot] for slot in cards]
    if predicate is BonusPredicate.ALL_SPADES:
        return np.logical_and.reduce([suit == _SPADES for suit in suits])
    if predicate is BonusPredicate.ALL_SAME_SUIT:
        return np.logical_and.reduce([suit == suits[0] for suit in suits[1:]])
    if predicate is BonusPredicate.ALL_BLACK:
        return np.logical_and.reduce([_BLACK[suit] for suit in suits])
    if predicate is BonusPredicate.ALL_RED:
        return ~np.logical_or.reduce([_BLACK[suit] for suit in suits])
    raise ValueError(f"no vectorised form of the bonus predicate {predicate}")


def deal(
    rng: np.random.Generator, rounds: int, deck_size: int, cards: int = 2 * _HAND
) -> np.ndarray:
    """A (cards, rounds) array: for each round, ``cards`` distinct deck positions drawn
    uniformly at random, in order (row ``i`` is the ``i``-th card dealt).

    Each card is drawn uniformly from the whole deck and drawn again, for the rounds where
    it repeats an earlier card, until it does not: a uniform draw from the cards left.
    """
    if not 0 < cards <= deck_size <= np.iinfo(np.int8).max:
        raise ValueError(f"cannot deal {cards} cards from a deck of {deck_size}")
    dealt = np.empty((cards, rounds), dtype=np.int8)
    for i in range(cards):
        card = rng.integers(0, deck_size, size=rounds, dtype=np.int8)
        redraw = np.arange(rounds)
        while redraw.size:
            repeats = np.zeros(redraw.size, dtype=bool)
            for earlier in dealt[:i]:
                repeats |= card[redraw] == earlier[redraw]
            redraw = redraw[repeats]
            card[redraw] = rng.integers(0, deck_size, size=redraw.size, dtype=np.int8)
        dealt[i] = card
    return dealt


def simulate(
    rules: Ruleset,
    rounds: int,
    *,
    seed: int,
    deck: Sequence[Card] = DECK,
    batch: int = 50_000,
) -> MonteCarloResult:
    """Play ``rounds`` seeded rounds of one box against the dealer and estimate the expected
    return per unit staked of every bet the ruleset offers, with 95% intervals.

    >>> from niuniu.engine import presets
    >>> result = simulate(presets.get("vn-kr-004"), 100_000, seed=7)
    >>> result.estimates[BetType.SINGLE].contains(Fraction(-1, 40))
    True
    """
    if rounds < 2:
        raise ValueError("a Monte Carlo estimate needs at least two rounds")
    arrays = DeckArrays.of(deck)
    offered = rules.bet_types
    win_net: dict[BetType, np.ndarray] = {}
    loss: dict[BetType, np.ndarray] = {}
    for bet_type in offered:
        if bet_type not in PAYTABLE_BET_TYPES:
            continue
        win_net[bet_type] = np.zeros(len(Category))
        loss[bet_type] = np.zeros(len(Category))
        for category in rules.categories:
            row = rules.row(bet_type, category)
            win_net[bet_type][category] = float(row.win_odds * (1 - row.commission_rate))
            loss[bet_type][category] = float(row.loss_multiple)
    lines = [(BonusPredicate(line.predicate), float(line.odds)) for line in rules.bonus_lines]

    ranks = np.array([rules.rank(category) for category in Category])
    rng = np.random.default_rng(seed)
    sums = dict.fromkeys(offered, 0.0)
    squares = dict.fromkeys(offered, 0.0)
    player_wins = 0
    done = 0
    while done < rounds:
        size = min(batch, rounds - done)
        dealt = deal(rng, size, len(deck))
        player_cards, dealer_cards = dealt[:_HAND], dealt[_HAND:]
        hands = _evaluate_columns(
            np.concatenate([player_cards, dealer_cards], axis=1),
            arrays,
            rules.special_hands,
            rules.level_with_niu_niu,
        )
        player, dealer = hands.take(slice(0, size)), hands.take(slice(size, None))
        player_rank, dealer_rank = ranks[player.category], ranks[dealer.category]
        wins = (player_rank > dealer_rank) | (
            (player_rank == dealer_rank) & (player.high > dealer.high)
        )
        player_wins += int(np.count_nonzero(wins))
        for bet_type in offered:
            if bet_type is BetType.BONUS:
                net = np.full(size, -1.0)
                for predicate, odds in reversed(lines):
                    net[bonus_predicate(predicate, player_cards, arrays, player)] = odds
            else:
                net = np.where(
                    wins, win_net[bet_type][player.category], -loss[bet_type][dealer.category]
                )
            sums[bet_type] += float(net.sum())
            squares[bet_type] += float(np.dot(net, net))
        done += size

    estimates = {}
    for bet_type in offered:
        mean = sums[bet_type] / rounds
        variance = max(squares[bet_type] / rounds - mean * mean, 0.0) * rounds / (rounds - 1)
        sd = math.sqrt(variance)
        error = sd / math.sqrt(rounds)
        estimates[bet_type] = Estimate(
            bet_type=bet_type,
            rounds=rounds,
            mean=mean,
            standard_deviation=sd,
            standard_error=error,
            low=mean - Z_95 * error,
            high=mean + Z_95 * error,
        )
    return MonteCarloResult(
        rounds=rounds,
        seed=seed,
        player_win_rate=player_wins / rounds,
        estimates=MappingProxyType(estimates),
    )


_HAND_FIELDS = (
    "category",
    "base_category",
    "high",
    "four_of_a_kind",
    "five_small",
    "all_face",
    "all_ten_value",
)
