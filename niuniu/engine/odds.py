"""Exact odds of a Niu Niu ruleset: category probabilities, and per bet type the expected
return, house edge, standard deviation and the probability of every outcome.

One player box plays the dealer; both hands come from one deck, so the ten cards are
distinct and card removal is counted. Every figure is an exact :class:`~fractions.Fraction`
over all equally likely deals (ordered pairs of disjoint five-card hands: 3,986,646,103,440
for the full deck), with decimal views for display. Commission is taken as the exact rate
(no rounding to a venue's unit), so figures are per unit staked.

How it counts (docs/ODDS.md has the argument in full):

- A hand's category depends only on the multiset of its five ranks (6,175 multisets for
  the full deck). The number of ways to deal a player multiset ``a`` and a dealer multiset
  ``b`` from one deck is ``prod over ranks of C(s, a) * C(s - a, b)``, ``s`` being the cards
  of that rank in the deck; summing it over all multiset pairs (numpy, int64, exact) gives
  ``pairs[c][d]``: the deals where the player's category is ``c`` and the dealer's ``d``.
- Within one category the high card decides, but the high card does not change what a bet
  pays: a deal where the player wins with category ``c`` and the same deal with the hands
  swapped, where the dealer wins with ``c``, are equally likely. So of the
  ``pairs[c][c]`` deals, exactly half are player wins, and the deals the player wins with
  ``c`` number ``sum(pairs[c][d] for d < c) + pairs[c][c] / 2``; by the same swap, that is
  also the number of deals the dealer wins with ``c``. Suits never need enumerating.
- The bonus depends on the player's five cards alone: counted per rank multiset and exact
  set of suits used (inclusion-exclusion over the 16 suit sets), each predicate judged by the
  engine's own :func:`~niuniu.engine.bonus.satisfies` on one hand of that class.

The counts depend only on the deck and the special-hand switches (the bonus counts on the
bonus lines' predicates), and are cached per process; applying a paytable to them takes
microseconds. :func:`rules_hash` identifies the rules that the figures depend on, so a
stored result is recomputed only when they change.

numpy is allowed here and only here in the engine (DESIGN.md "Boundaries").
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_EVEN, Decimal, localcontext
from fractions import Fraction
from functools import lru_cache
from math import comb
from types import MappingProxyType
from typing import Any, Literal

import numpy as np

from casino.cards import DECK, RANKS, SUITS, Card, Suit
from niuniu.engine.bonus import satisfies
from niuniu.engine.hands import evaluate
from niuniu.engine.rules import (
    PAYTABLE_BET_TYPES,
    BetType,
    BonusPredicate,
    Category,
    Ruleset,
)

#: Version of the canonical JSON that :func:`rules_hash` digests and of ``to_dict``.
SCHEMA = 1
#: Places after the decimal point in the decimal views.
DECIMAL_PLACES = 12
_HAND = 5
_QUANTUM = Decimal(1).scaleb(-DECIMAL_PLACES)
_ZERO = Fraction(0)

Result = Literal["win", "lose"]
Figure = Fraction | Decimal


# --- Results -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Outcome:
    """One way a bet can settle, per unit staked, from the player's point of view.

    ``category`` is the hand that decides it: the player's on a win, the dealer's on a loss
    (``None`` for the bonus). ``bonus_line`` names the bonus line that paid. ``count`` is the
    number of equally likely deals (ordered player/dealer pairs; five-card hands for the
    bonus) that end this way, and ``probability`` is ``count`` over all of them.
    """

    result: Result
    category: Category | None
    bonus_line: str | None
    net: Fraction
    count: int
    probability: Fraction


@dataclass(frozen=True)
class BetOdds:
    """The exact figures of one bet type, per unit staked.

    ``expected_return`` is the player's mean net result (negative: the house's advantage);
    ``house_edge`` is its opposite. ``variance`` is exact; ``standard_deviation`` is its
    square root to ``DECIMAL_PLACES`` places. ``win_probability`` is the hit frequency.
    ``max_win_odds`` is the largest gross win odds in the paytable (the printed N:1) and
    ``exposure`` the largest net win per unit (after commission): the house's worst case.
    """

    bet_type: BetType
    outcomes: tuple[Outcome, ...]
    expected_return: Fraction
    variance: Fraction
    standard_deviation: Decimal
    win_probability: Fraction
    max_win_odds: Fraction
    exposure: Fraction

    @property
    def house_edge(self) -> Fraction:
        return -self.expected_return

    def net_distribution(self) -> dict[Fraction, Fraction]:
        """Probability of each net result per unit, outcomes with equal net merged."""
        merged: dict[Fraction, Fraction] = {}
        for outcome in self.outcomes:
            merged[outcome.net] = merged.get(outcome.net, _ZERO) + outcome.probability
        return dict(sorted(merged.items()))


@dataclass(frozen=True)
class RulesetOdds:
    """Exact odds of one ruleset's rules for one player box against the dealer.

    ``categories`` maps every category the switches allow to the number of five-card hands
    of the deck in it (``hands`` in all). ``deals`` is the number of equally likely ordered
    (player, dealer) pairs of disjoint hands. ``bets`` holds the figures of every bet type
    the ruleset offers, in the order the table shows them.
    """

    rules_hash: str
    deck_size: int
    hands: int
    deals: int
    categories: Mapping[Category, int]
    bets: Mapping[BetType, BetOdds]

    def category_probability(self, category: Category) -> Fraction:
        return Fraction(self.categories.get(category, 0), self.hands)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-serialisable view: fractions as ``"p/q"`` strings beside decimal strings.

        :meth:`from_dict` reads it back exactly.
        """
        return {
            "schema": SCHEMA,
            "rules_hash": self.rules_hash,
            "deck_size": self.deck_size,
            "hands": self.hands,
            "deals": self.deals,
            "categories": [
                {
                    "category": category.name,
                    "count": count,
                    "probability": _encode(Fraction(count, self.hands)),
                }
                for category, count in self.categories.items()
            ],
            "bets": {bet_type.value: _bet_to_dict(bet) for bet_type, bet in self.bets.items()},
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RulesetOdds:
        """The result stored by :meth:`to_dict`."""
        if data.get("schema") != SCHEMA:
            raise ValueError(f"odds stored with schema {data.get('schema')!r}, not {SCHEMA}")
        return cls(
            rules_hash=data["rules_hash"],
            deck_size=data["deck_size"],
            hands=data["hands"],
            deals=data["deals"],
            categories=MappingProxyType(
                {Category[row["category"]]: row["count"] for row in data["categories"]}
            ),
            bets=MappingProxyType(
                {BetType(name): _bet_from_dict(name, bet) for name, bet in data["bets"].items()}
            ),
        )


@dataclass(frozen=True, slots=True)
class Change:
    """One figure before and after; ``None`` where the bet or category is absent."""

    old: Figure | None
    new: Figure | None

    @property
    def delta(self) -> Figure | None:
        if self.old is None or self.new is None:
            return None
        return self.new - self.old  # type: ignore[operator]

    def to_dict(self) -> dict[str, Any]:
        return {
            "old": _encode_figure(self.old),
            "new": _encode_figure(self.new),
            "delta": _encode_figure(self.delta),
        }


#: The figures of a bet that :func:`diff_odds` compares.
BET_FIGURES: tuple[str, ...] = (
    "house_edge",
    "expected_return",
    "standard_deviation",
    "variance",
    "win_probability",
    "max_win_odds",
    "exposure",
)


@dataclass(frozen=True)
class OddsDiff:
    """How a ruleset's figures differ from another's (``new - old``).

    ``bets[bet_type][figure]`` for every bet type in either and every name in
    ``BET_FIGURES``; ``categories[category]`` compares category probabilities.
    """

    same_rules: bool
    bets: Mapping[BetType, Mapping[str, Change]]
    categories: Mapping[Category, Change]

    def to_dict(self) -> dict[str, Any]:
        return {
            "same_rules": self.same_rules,
            "bets": {
                bet_type.value: {name: change.to_dict() for name, change in figures.items()}
                for bet_type, figures in self.bets.items()
            },
            "categories": {
                category.name: change.to_dict() for category, change in self.categories.items()
            },
        }


# --- Public functions ----------------------------------------------------------------------


def rules_hash(rules: Ruleset) -> str:
    """sha256 of the canonical JSON of everything the odds depend on, and nothing else.

    Paytable, special-hand switches, bonus lines (in order) and deposit multiples count;
    the code, the name and the rounding (unit and mode: the odds take the exact commission)
    do not, and neither does how a number is written (``1`` and ``1.00`` are the same odds).

    >>> from niuniu.engine import presets
    >>> rules = presets.get("vn-kr-004")
    >>> rules_hash(rules) == rules_hash(rules.with_rounding(Decimal("1000"), "down"))
    True
    >>> len(rules_hash(rules))
    64
    """
    canonical = {
        "schema": SCHEMA,
        "special_hands": sorted(category.name for category in rules.special_hands),
        "paytable": {
            bet_type.value: {
                category.name: [
                    _canonical(row.win_odds),
                    _canonical(row.commission_rate),
                    _canonical(row.loss_multiple),
                ]
                for category, row in rows.items()
            }
            for bet_type, rows in rules.paytable.items()
        },
        "bonus_lines": [
            [line.name, BonusPredicate(line.predicate).value, _canonical(line.odds)]
            for line in rules.bonus_lines
        ],
        "deposit_multiples": {
            bet_type.value: _canonical(multiple)
            for bet_type, multiple in rules.deposit_multiples.items()
        },
    }
    text = json.dumps(canonical, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(text.encode("ascii")).hexdigest()


def category_counts(rules: Ruleset, deck: Sequence[Card] = DECK) -> dict[Category, int]:
    """How many five-card hands of the deck fall in each category, under the switches.

    Every category of ``rules.categories`` is present, strongest first (0 if impossible).

    >>> from niuniu.engine import presets
    >>> category_counts(presets.get("vn-kr-004"))[Category.NIU_NIU]
    191808
    """
    totals = _category_totals(_deck_key(deck), frozenset(rules.special_hands))
    return {category: totals[category] for category in rules.categories}


def showdown_counts(rules: Ruleset, deck: Sequence[Card] = DECK) -> dict[Category, int]:
    """For each category ``c``: the ordered (player, dealer) deals the player wins with ``c``.

    By the swap symmetry (module docstring) it is also the number of deals the dealer
    wins with ``c``; the values add up to half of all deals.
    """
    pairs = _pair_counts(_deck_key(deck), rules.special_hands)
    return {category: _wins(pairs, category) for category in rules.categories}


def ruleset_odds(rules: Ruleset, deck: Sequence[Card] = DECK) -> RulesetOdds:
    """The exact odds of every bet the ruleset offers (one box against the dealer).

    ``deck`` is any set of distinct cards with at least ten (a reduced deck lets a test
    compare with brute force); the default is the standard 52-card deck.

    >>> from niuniu.engine import presets
    >>> odds = ruleset_odds(presets.get("vn-kr-004"))
    >>> odds.bets[BetType.SINGLE].house_edge   # wins pay 0.95, losses cost 1, P(win) = 1/2
    Fraction(1, 40)
    """
    key = _deck_key(deck)
    hands = comb(len(key), _HAND)
    deals = hands * comb(len(key) - _HAND, _HAND)
    bets: dict[BetType, BetOdds] = {}
    offered = rules.bet_types
    if any(bet_type in PAYTABLE_BET_TYPES for bet_type in offered):
        pairs = _pair_counts(key, rules.special_hands)
        wins = {category: _wins(pairs, category) for category in rules.categories}
        if sum(wins.values()) * 2 != deals:  # every deal has exactly one winner
            raise AssertionError("the showdown counts do not add up to every deal")
        for bet_type in offered:
            if bet_type in PAYTABLE_BET_TYPES:
                bets[bet_type] = _paytable_bet(rules, bet_type, wins, deals)
    if BetType.BONUS in offered:
        bets[BetType.BONUS] = _bonus_bet(rules, key, hands)
    totals = _category_totals(key, frozenset(rules.special_hands))
    return RulesetOdds(
        rules_hash=rules_hash(rules),
        deck_size=len(key),
        hands=hands,
        deals=deals,
        categories=MappingProxyType({category: totals[category] for category in rules.categories}),
        bets=MappingProxyType(bets),
    )


def diff_odds(old: RulesetOdds | Ruleset, new: RulesetOdds | Ruleset) -> OddsDiff:
    """Every figure of ``new`` against ``old`` (the admin's "difference from the active
    version"). Either side may be a stored result (:meth:`RulesetOdds.from_dict`) or a
    ruleset, whose odds are then computed on the full deck. A bet type offered by only
    one side has ``None`` on the other.
    """
    if isinstance(old, Ruleset):
        old = ruleset_odds(old)
    if isinstance(new, Ruleset):
        new = ruleset_odds(new)
    bet_types = [b for b in BetType if b in old.bets or b in new.bets]
    bets = {
        bet_type: MappingProxyType(
            {
                name: Change(
                    _figure(old.bets.get(bet_type), name), _figure(new.bets.get(bet_type), name)
                )
                for name in BET_FIGURES
            }
        )
        for bet_type in bet_types
    }
    categories = sorted(set(old.categories) | set(new.categories), reverse=True)
    return OddsDiff(
        same_rules=old.rules_hash == new.rules_hash,
        bets=MappingProxyType(bets),
        categories=MappingProxyType(
            {
                category: Change(
                    old.category_probability(category) if category in old.categories else None,
                    new.category_probability(category) if category in new.categories else None,
                )
                for category in categories
            }
        ),
    )


def as_decimal(value: Fraction, places: int = DECIMAL_PLACES) -> Decimal:
    """A fraction to ``places`` decimal places, rounded half to even.

    >>> as_decimal(Fraction(1, 3), 4)
    Decimal('0.3333')
    """
    quantum = Decimal(1).scaleb(-places)
    with localcontext() as context:
        context.prec = 60
        return (Decimal(value.numerator) / Decimal(value.denominator)).quantize(
            quantum, rounding=ROUND_HALF_EVEN
        )


# --- Applying a paytable -------------------------------------------------------------------


def _wins(pairs: np.ndarray, category: Category) -> int:
    below = int(pairs[category, :category].sum())
    same = int(pairs[category, category])
    if same % 2:  # the swap pairs these deals off two by two
        raise AssertionError(f"an odd number of {category.name} against {category.name} deals")
    return below + same // 2


def _paytable_bet(
    rules: Ruleset, bet_type: BetType, wins: Mapping[Category, int], deals: int
) -> BetOdds:
    rows = rules.paytable[bet_type]
    missing = [category.name for category in rules.categories if category not in rows]
    if missing:
        raise ValueError(f"the ruleset {rules.code} has no {bet_type} row for {', '.join(missing)}")
    outcomes = []
    for category in rules.categories:  # strongest first: wins, then losses
        row = rows[category]
        net = Fraction(row.win_odds) * (1 - Fraction(row.commission_rate))
        outcomes.append(_outcome("win", category, None, net, wins[category], deals))
    for category in rules.categories:
        net = -Fraction(rows[category].loss_multiple)
        outcomes.append(_outcome("lose", category, None, net, wins[category], deals))
    return _bet(
        bet_type,
        outcomes,
        max_win_odds=max(Fraction(rows[c].win_odds) for c in rules.categories),
    )


def _bonus_bet(rules: Ruleset, key: tuple[int, ...], hands: int) -> BetOdds:
    predicates = tuple(BonusPredicate(line.predicate) for line in rules.bonus_lines)
    counts = _bonus_counts(key, rules.special_hands, predicates)  # by line index; -1: none
    outcomes = [
        _outcome("win", None, line.name, Fraction(line.odds), counts.get(index, 0), hands)
        for index, line in enumerate(rules.bonus_lines)
    ]
    outcomes.append(_outcome("lose", None, None, Fraction(-1), counts.get(-1, 0), hands))
    return _bet(
        BetType.BONUS,
        outcomes,
        max_win_odds=max(Fraction(line.odds) for line in rules.bonus_lines),
    )


def _outcome(
    result: Result,
    category: Category | None,
    bonus_line: str | None,
    net: Fraction,
    count: int,
    total: int,
) -> Outcome:
    return Outcome(result, category, bonus_line, net, count, Fraction(count, total))


def _bet(bet_type: BetType, outcomes: list[Outcome], *, max_win_odds: Fraction) -> BetOdds:
    mean = sum((o.probability * o.net for o in outcomes), _ZERO)
    square = sum((o.probability * o.net * o.net for o in outcomes), _ZERO)
    variance = square - mean * mean
    return BetOdds(
        bet_type=bet_type,
        outcomes=tuple(outcomes),
        expected_return=mean,
        variance=variance,
        standard_deviation=_sqrt(variance),
        win_probability=sum((o.probability for o in outcomes if o.result == "win"), _ZERO),
        max_win_odds=max_win_odds,
        exposure=max((o.net for o in outcomes if o.result == "win"), default=_ZERO),
    )


def _sqrt(value: Fraction) -> Decimal:
    with localcontext() as context:
        context.prec = 60
        root = (Decimal(value.numerator) / Decimal(value.denominator)).sqrt()
        return root.quantize(_QUANTUM, rounding=ROUND_HALF_EVEN)


# --- Counting ------------------------------------------------------------------------------


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


def _deck_key(deck: Sequence[Card] | Iterable[Card]) -> tuple[int, ...]:
    cards = tuple(deck)
    if not all(isinstance(card, Card) for card in cards):
        raise TypeError("a deck is a sequence of Card objects")
    key = tuple(sorted(card.index for card in cards))
    if len(set(key)) != len(key):
        raise ValueError("a deck holds every card at most once")
    if len(key) < 2 * _HAND:
        raise ValueError(f"a deck needs at least {2 * _HAND} cards for a box and the dealer")
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

    extend((), _HAND)
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
def _categories_by_switches(key: tuple[int, ...], special_hands: frozenset[Category]) -> np.ndarray:
    rules = _switches(special_hands)
    tables = _tables(key)
    categories = np.array(
        [int(evaluate(_representative(row), rules).category) for row in tables.multisets.tolist()],
        dtype=np.int64,
    )
    categories.flags.writeable = False
    return categories


@lru_cache(maxsize=32)
def _category_totals(key: tuple[int, ...], special_hands: frozenset[Category]) -> dict[int, int]:
    totals = np.zeros(len(Category), dtype=np.int64)
    np.add.at(totals, _categories_by_switches(key, special_hands), _tables(key).ways)
    return {category: int(totals[category]) for category in Category}


@lru_cache(maxsize=32)
def _pair_counts(key: tuple[int, ...], special_hands: frozenset[Category]) -> np.ndarray:
    """``pairs[c, d]``: ordered deals with the player's category ``c``, the dealer's ``d``.

    For multisets ``a`` (player) and ``b`` (dealer) the deals number
    ``prod_r C(s_r, a_r) * C(s_r - a_r, b_r) = prod_r C(s_r, b_r) * C(s_r - b_r, a_r)``. The
    second form is the dealer's hand count times one factor per rank the player holds (two
    to five of them), so a row of the player's multiset against every dealer multiset is a
    product of a few precomputed rows ``C(s_r - b_r, a)``, one per (rank, copies) held.
    One such product is at most 4**10 (ten cards), so int32 holds it; sums are int64.
    """
    tables = _tables(key)
    categories = _categories_by_switches(key, special_hands)
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
    binomial = np.array([[comb(x, a) for a in range(_HAND + 1)] for x in range(5)], dtype=np.int64)
    left = stock[None, :] - dealer  # (M, 13): cards of each rank the dealer leaves
    factors = np.empty((len(RANKS) * _HAND + 1, count), dtype=np.int32)
    for rank in range(len(RANKS)):
        for copies in range(1, _HAND + 1):
            factors[rank * _HAND + copies - 1] = binomial[left[:, rank], copies]
    factors[-1] = 1
    dealer_ways = ways[order].astype(np.int32)

    # Player multisets as the factor rows they pick, fewest ranks first so a chunk of rows
    # needs about as many products as its rows have ranks.
    held = [[r * _HAND + a - 1 for r, a in enumerate(row) if a] for row in multisets.tolist()]
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
#: predicate must be placed here (``_bonus_counts`` refuses one that is not).
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
def _bonus_counts(
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
    rules = _switches(special_hands)
    sets = range(1 << len(SUITS))  # bit i: SUITS[i] is used
    # within[m, U]: hands of multiset m with every suit in U.
    in_set = np.array(
        [
            [sum(((1 << SUITS.index(s)) & u) != 0 for s in suits) for suits in tables.suits]
            for u in sets
        ],
        dtype=np.int64,
    )  # (16, 13): cards of each rank whose suit is in U
    binomial = np.array([[comb(x, a) for a in range(_HAND + 1)] for x in range(5)], dtype=np.int64)
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
    return tuple(Card(RANKS[i], used[i % len(used)]) for i in range(_HAND))


@lru_cache(maxsize=32)
def _switches(special_hands: frozenset[Category]) -> Ruleset:
    return Ruleset(
        code="odds",
        name="switches",
        paytable={},
        deposit_multiples={},
        special_hands=special_hands,
    )


# --- Encoding ------------------------------------------------------------------------------


def _canonical(value: Decimal) -> str:
    text = format(Decimal(value).normalize(), "f")
    return "0" if text in ("-0", "0") else text


def _encode(value: Fraction) -> dict[str, str]:
    return {"exact": f"{value.numerator}/{value.denominator}", "decimal": str(as_decimal(value))}


def _encode_figure(value: Figure | None) -> dict[str, str] | str | None:
    if value is None:
        return None
    if isinstance(value, Fraction):
        return _encode(value)
    return str(value)


def _decode(data: Mapping[str, str]) -> Fraction:
    return Fraction(data["exact"])


def _bet_to_dict(bet: BetOdds) -> dict[str, Any]:
    return {
        "expected_return": _encode(bet.expected_return),
        "house_edge": _encode(bet.house_edge),
        "variance": _encode(bet.variance),
        "standard_deviation": str(bet.standard_deviation),
        "win_probability": _encode(bet.win_probability),
        "max_win_odds": _encode(bet.max_win_odds),
        "exposure": _encode(bet.exposure),
        "outcomes": [
            {
                "result": o.result,
                "category": None if o.category is None else o.category.name,
                "bonus_line": o.bonus_line,
                "net": _encode(o.net),
                "count": o.count,
                "probability": _encode(o.probability),
            }
            for o in bet.outcomes
        ],
    }


def _bet_from_dict(name: str, data: Mapping[str, Any]) -> BetOdds:
    return BetOdds(
        bet_type=BetType(name),
        outcomes=tuple(
            Outcome(
                result=o["result"],
                category=None if o["category"] is None else Category[o["category"]],
                bonus_line=o["bonus_line"],
                net=_decode(o["net"]),
                count=o["count"],
                probability=_decode(o["probability"]),
            )
            for o in data["outcomes"]
        ),
        expected_return=_decode(data["expected_return"]),
        variance=_decode(data["variance"]),
        standard_deviation=Decimal(data["standard_deviation"]),
        win_probability=_decode(data["win_probability"]),
        max_win_odds=_decode(data["max_win_odds"]),
        exposure=_decode(data["exposure"]),
    )


def _figure(bet: BetOdds | None, name: str) -> Figure | None:
    return None if bet is None else getattr(bet, name)


__all__ = [
    "BET_FIGURES",
    "DECIMAL_PLACES",
    "SCHEMA",
    "BetOdds",
    "Change",
    "OddsDiff",
    "Outcome",
    "RulesetOdds",
    "as_decimal",
    "category_counts",
    "diff_odds",
    "rules_hash",
    "ruleset_odds",
    "showdown_counts",
]
