"""Counting Niu Niu deals for the exact odds: how many hands fall in each category, how many
(player, dealer) deals pair each category with each, and how many hands each bonus line pays.

- A hand's category depends only on the multiset of its five ranks (6,175 multisets for
  the full deck). The number of ways to deal a player multiset ``a`` and a dealer multiset
  ``b`` from one deck is ``prod over ranks of C(s, a) * C(s - a, b)``, ``s`` being the cards
  of that rank in the deck; summing it over all multiset pairs (numpy, int64, exact) gives
  ``pairs[c][d]``: the deals where the player's category is ``c`` and the dealer's ``d``.
- Within one category the high card decides, but the high card does not change what a bet
  pays: a deal where the player wins with category ``c`` and the same deal with the hands
  swapped, where the dealer wins with ``c``, are equally likely. So of the
  ``pairs[c][c]`` deals, exactly half are player wins, and the deals the player wins with
  ``c`` number ``sum(pairs[c][d] for d < c) + pairs[c][c] / 2`` (:func:`wins_by_category`);
  by the same swap, that is also the number of deals the dealer wins with ``c``. Suits never
  need enumerating.
- A special hand ranked level with Niu Niu meets other categories of its rank, where the
  high card decides between two different categories: counted per pair of multisets from
  their highest ranks, the suits of a shared highest rank by symmetry (:func:`_level_wins`).
- The bonus depends on the player's five cards alone: counted per rank multiset and exact
  set of suits used (inclusion-exclusion over the 16 suit sets), each predicate judged by the
  engine's own :func:`~niuniu.engine.bonus.satisfies` on one hand of that class.

The counts depend only on the deck and the special-hand switches and ranks (the bonus counts
on the bonus lines' predicates) and are cached per process. A deck is passed as its
:func:`deck_key`, the sorted card indices, so it can be a cache key.

numpy is allowed here: this is odds code (docs/ARCHITECTURE.md "Layers").
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from math import comb

import numpy as np

from casino.kernel.cards import DECK, RANKS, SUITS, Card, Suit
from niuniu.engine.bonus import satisfies
from niuniu.engine.hands import evaluate
from niuniu.engine.rules import BonusPredicate, Category, Ruleset

#: Cards in a hand.
HAND = 5


@dataclass(frozen=True)
class _Tables:
    """The rank multisets of five cards a deck allows, and how many hands each is.

    ``stock[r]`` is the number of cards of rank order ``r`` (A = 0 .. K = 12) in the deck,
    ``suits[r]`` which suits they are. ``multisets`` is (M, 13): copies of each rank.
    ``ways[m]`` is the number of five-card hands with multiset ``m``.
    """

    stock: tuple[int, ...]
    suits: tuple[tuple[Suit, ...], ...]
    multisets: np.ndarray
    ways: np.ndarray


def deck_key(deck: Sequence[Card] | Iterable[Card]) -> tuple[int, ...]:
    cards = tuple(deck)
    if not all(isinstance(card, Card) for card in cards):
        raise TypeError("a deck is a sequence of Card objects")
    key = tuple(sorted(card.index for card in cards))
    if len(set(key)) != len(key):
        raise ValueError("a deck holds every card at most once")
    if len(key) < 2 * HAND:
        raise ValueError(f"a deck needs at least {2 * HAND} cards for a box and the dealer")
    return key


@lru_cache(maxsize=8)
def _tables(key: tuple[int, ...]) -> _Tables:
    suits_by_rank: list[list[Suit]] = [[] for _ in RANKS]
    for index in key:
        card = DECK[index]
        suits_by_rank[RANKS.index(card.rank)].append(card.suit)
    stock = tuple(len(suits) for suits in suits_by_rank)
    rows: list[tuple[int, ...]] = []

    def extend(prefix: tuple[int, ...], left: int) -> None:
        rank = len(prefix)
        if rank == len(RANKS):
            if left == 0:
                rows.append(prefix)
            return
        for copies in range(min(stock[rank], left) + 1):
            extend((*prefix, copies), left - copies)

    extend((), HAND)
    multisets = np.array(rows, dtype=np.int64).reshape(-1, len(RANKS))
    ways = np.array(
        [np.prod([comb(s, a) for s, a in zip(stock, row, strict=True)]) for row in rows],
        dtype=np.int64,
    )
    return _Tables(
        stock=stock,
        suits=tuple(tuple(sorted(s, key=SUITS.index)) for s in suits_by_rank),
        multisets=multisets,
        ways=ways,
    )


def _representative(row: Sequence[int]) -> tuple[Card, ...]:
    """Five cards with these rank copies (suits arbitrary: a category ignores them)."""
    return tuple(
        Card(RANKS[rank], SUITS[copy]) for rank, copies in enumerate(row) for copy in range(copies)
    )


@lru_cache(maxsize=32)
def _categories_by_switches(
    key: tuple[int, ...], special_hands: frozenset[Category], level: frozenset[Category]
) -> np.ndarray:
    rules = _switches(special_hands, level)
    tables = _tables(key)
    categories = np.array(
        [int(evaluate(_representative(row), rules).category) for row in tables.multisets.tolist()],
        dtype=np.int64,
    )
    categories.flags.writeable = False
    return categories


@lru_cache(maxsize=32)
def category_totals(
    key: tuple[int, ...],
    special_hands: frozenset[Category],
    level: frozenset[Category] = frozenset(),
) -> dict[int, int]:
    """Hands per category. ``level`` (the special hands ranked level with Niu Niu) matters
    only to a hand that is two special hands: it counts as the one ranking higher."""
    totals = np.zeros(len(Category), dtype=np.int64)
    np.add.at(totals, _categories_by_switches(key, special_hands, level), _tables(key).ways)
    return {category: int(totals[category]) for category in Category}


@lru_cache(maxsize=32)
def pair_counts(
    key: tuple[int, ...],
    special_hands: frozenset[Category],
    level: frozenset[Category] = frozenset(),
) -> np.ndarray:
    """``pairs[c, d]``: ordered deals with the player's category ``c``, the dealer's ``d``.

    For multisets ``a`` (player) and ``b`` (dealer) the deals number
    ``prod_r C(s_r, a_r) * C(s_r - a_r, b_r) = prod_r C(s_r, b_r) * C(s_r - b_r, a_r)``. The
    second form is the dealer's hand count times one factor per rank the player holds (two
    to five of them), so a row of the player's multiset against every dealer multiset is a
    product of a few precomputed rows ``C(s_r - b_r, a)``, one per (rank, copies) held.
    One such product is at most 4**10 (ten cards), so int32 holds it; sums are int64.
    """
    tables = _tables(key)
    categories = _categories_by_switches(key, special_hands, level)
    multisets, ways = tables.multisets, tables.ways
    count = len(ways)

    # Dealer multisets in columns, grouped by category so each row reduces to category sums.
    order = np.argsort(categories, kind="stable")
    dealer = multisets[order]
    dealer_categories = categories[order]
    starts = np.flatnonzero(np.r_[True, dealer_categories[1:] != dealer_categories[:-1]])
    present = dealer_categories[starts]

    # factors[r * 5 + a - 1] = C(s_r - b_r, a) over dealer multisets b; the last row is ones,
    # for padding.
    stock = np.array(tables.stock, dtype=np.int64)
    binomial = np.array([[comb(x, a) for a in range(HAND + 1)] for x in range(5)], dtype=np.int64)
    left = stock[None, :] - dealer  # (M, 13): cards of each rank the dealer leaves
    factors = np.empty((len(RANKS) * HAND + 1, count), dtype=np.int32)
    for rank in range(len(RANKS)):
        for copies in range(1, HAND + 1):
            factors[rank * HAND + copies - 1] = binomial[left[:, rank], copies]
    factors[-1] = 1
    dealer_ways = ways[order].astype(np.int32)

    # Player multisets as the factor rows they pick, fewest ranks first so a chunk of rows
    # needs about as many products as its rows have ranks.
    held = [[r * HAND + a - 1 for r, a in enumerate(row) if a] for row in multisets.tolist()]
    by_size = sorted(range(count), key=lambda m: len(held[m]))
    pairs = np.zeros((len(Category), len(Category)), dtype=np.int64)
    chunk = 512
    for start in range(0, count, chunk):
        players = by_size[start : start + chunk]
        slots = max(len(held[m]) for m in players)
        picks = np.full((len(players), slots), len(factors) - 1, dtype=np.int64)
        for i, m in enumerate(players):
            picks[i, : len(held[m])] = held[m]
        deals = np.broadcast_to(dealer_ways, (len(players), count)).copy()
        for slot in range(slots):
            deals *= factors[picks[:, slot]]
        by_category = np.add.reduceat(deals, starts, axis=1, dtype=np.int64)
        block = np.zeros((len(Category), len(present)), dtype=np.int64)
        np.add.at(block, categories[players], by_category)
        pairs[:, present] += block
    pairs.flags.writeable = False
    return pairs


#: Which predicates read only the ranks and which only the set of suits used. A new
#: predicate must be placed here (``bonus_counts`` refuses one that is not).
_RANK_PREDICATES = frozenset(
    {
        BonusPredicate.ALL_FACE,
        BonusPredicate.ALL_TEN_VALUE,
        BonusPredicate.NIU_NIU,
        BonusPredicate.FOUR_OF_A_KIND,
        BonusPredicate.FIVE_SMALL,
    }
)
_SUIT_PREDICATES = frozenset(
    {
        BonusPredicate.ALL_SPADES,
        BonusPredicate.ALL_SAME_SUIT,
        BonusPredicate.ALL_BLACK,
        BonusPredicate.ALL_RED,
    }
)


@lru_cache(maxsize=32)
def bonus_counts(
    key: tuple[int, ...],
    special_hands: frozenset[Category],
    predicates: tuple[BonusPredicate, ...],
) -> dict[int, int]:
    """Five-card hands by the index of the first bonus line they satisfy (-1: none).

    Every predicate reads either the rank multiset or the set of suits used. For a
    multiset ``a``, the hands whose suits all lie in a set ``U`` number
    ``prod_r C(|suits of rank r in U|, a_r)``; inclusion-exclusion over the subsets of ``U``
    gives those using exactly ``U``. The engine's own :func:`satisfies` judges each
    predicate once per multiset or once per suit set, on one hand of that class.
    """
    unknown = set(predicates) - _RANK_PREDICATES - _SUIT_PREDICATES
    if unknown:
        raise ValueError(f"the odds cannot count bonus predicates {sorted(unknown)}")
    tables = _tables(key)
    rules = _switches(special_hands, frozenset())
    sets = range(1 << len(SUITS))  # bit i: SUITS[i] is used
    # within[m, U]: hands of multiset m with every suit in U.
    in_set = np.array(
        [
            [sum(((1 << SUITS.index(s)) & u) != 0 for s in suits) for suits in tables.suits]
            for u in sets
        ],
        dtype=np.int64,
    )  # (16, 13): cards of each rank whose suit is in U
    binomial = np.array([[comb(x, a) for a in range(HAND + 1)] for x in range(5)], dtype=np.int64)
    within = binomial[in_set[None, :, :], tables.multisets[:, None, :]].prod(axis=2)
    mobius = np.array(
        [
            [(-1) ** (u.bit_count() - v.bit_count()) if v & u == v else 0 for v in sets]
            for u in sets
        ],
        dtype=np.int64,
    )
    exact = within @ mobius.T  # (M, 16): hands using exactly the suits of U
    # truth[line, m, U]: whether the line's predicate holds for that class of hands.
    rank_hands = [evaluate(_representative(row), rules) for row in tables.multisets.tolist()]
    suit_hands = [None] + [evaluate(_hand_of_suits(u), rules) for u in sets if u]
    truth = np.empty((len(predicates), len(tables.ways), len(sets)), dtype=bool)
    for index, predicate in enumerate(predicates):
        if predicate in _RANK_PREDICATES:
            truth[index] = np.array([satisfies(h, predicate) for h in rank_hands])[:, None]
        else:
            truth[index] = np.array([u > 0 and satisfies(suit_hands[u], predicate) for u in sets])
    counts: dict[int, int] = {}
    unpaid = np.ones(exact.shape, dtype=bool)
    for index in range(len(predicates)):
        pays = truth[index] & unpaid
        counts[index] = int(exact[pays].sum())
        unpaid &= ~pays
    counts[-1] = int(exact[unpaid].sum())
    return counts


def _hand_of_suits(suits: int) -> tuple[Card, ...]:
    """Five cards of distinct ranks (A to 5) using exactly the suits in the bit set."""
    used = [s for bit, s in enumerate(SUITS) if suits >> bit & 1]
    return tuple(Card(RANKS[i], used[i % len(used)]) for i in range(HAND))


@lru_cache(maxsize=32)
def _switches(special_hands: frozenset[Category], level: frozenset[Category]) -> Ruleset:
    return Ruleset(
        code="odds",
        name="switches",
        paytable={},
        deposit_multiples={},
        special_hands=special_hands,
        level_with_niu_niu=level,
    )


@lru_cache(maxsize=32)
def wins_by_category(
    key: tuple[int, ...],
    special_hands: frozenset[Category],
    level: frozenset[Category] = frozenset(),
) -> dict[Category, int]:
    """For each category: the deals the player wins with it (by the swap, also the deals
    the dealer wins with it).

    Those against a lower rank, half of those against the same category (the swap pairs
    them off), and, for a special hand ranked level with Niu Niu (``level``), those against
    another category of its rank that its high card wins (:func:`_level_wins`).
    """
    pairs = pair_counts(key, special_hands, level)
    rules = _switches(special_hands, level)
    wins = {}
    for category in Category:
        rank = rules.rank(category)
        same = int(pairs[category, category])
        if same % 2:  # the swap pairs these deals off two by two
            raise AssertionError(f"an odd number of {category.name} against {category.name} deals")
        wins[category] = (
            sum(int(pairs[category, other]) for other in Category if rules.rank(other) < rank)
            + same // 2
            + sum(
                _level_wins(key, special_hands, level, category, other)
                for other in Category
                if other is not category and rules.rank(other) == rank
            )
        )
    return wins


def _level_wins(
    key: tuple[int, ...],
    special_hands: frozenset[Category],
    level: frozenset[Category],
    player_category: Category,
    dealer_category: Category,
) -> int:
    """The deals where the player's ``player_category`` beats the dealer's
    ``dealer_category`` of the same rank on the high card.

    For a player multiset ``a`` and a dealer multiset ``b`` whose highest ranks differ, the
    higher one wins every deal. When both reach the same highest rank ``t``, the suits
    decide: of the ``a_t + b_t`` cards of rank ``t`` dealt, each is equally likely to be the
    highest suit, so the player wins ``a_t / (a_t + b_t)`` of the deals, a whole number
    (``C(s, a) C(s - a, b) a / (a + b) = C(s, a + b) C(a + b - 1, a - 1)``).
    """
    tables = _tables(key)
    categories = _categories_by_switches(key, special_hands, level)
    players = tables.multisets[categories == player_category]  # (P, 13)
    dealers = tables.multisets[categories == dealer_category]  # (D, 13)
    if not len(players) or not len(dealers):
        return 0
    stock = np.array(tables.stock, dtype=np.int64)
    binomial = np.array([[comb(x, a) for a in range(HAND + 1)] for x in range(5)], dtype=np.int64)
    player_ways = binomial[stock[None, :], players].prod(axis=1)  # (P,)
    left = (stock[None, :] - players)[:, None, :]  # (P, 1, 13)
    deals = player_ways[:, None] * binomial[left, dealers[None, :, :]].prod(axis=2)  # (P, D)
    last = len(RANKS) - 1
    player_top = last - np.argmax(players[:, ::-1] > 0, axis=1)  # (P,)
    dealer_top = last - np.argmax(dealers[:, ::-1] > 0, axis=1)  # (D,)
    player_copies = players[np.arange(len(players)), player_top][:, None]  # (P, 1)
    dealer_copies = dealers[:, player_top].T  # (P, D): the dealer's cards of that rank
    higher = player_top[:, None] > dealer_top[None, :]
    same = player_top[:, None] == dealer_top[None, :]
    shared = deals * player_copies // (player_copies + dealer_copies)
    return int(deals[higher].sum() + shared[same].sum())


__all__ = [
    "HAND",
    "bonus_counts",
    "category_totals",
    "deck_key",
    "pair_counts",
    "wins_by_category",
]
