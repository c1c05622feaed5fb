"""Suggesting how to lay out 13 cards: never fouled, the instant win when there is one.

:func:`suggest_arrangement` is advice for the console and the simulator, not a rule: the
settlement takes whatever rows the player laid out.

Method
------
1. **Instant win.** If the 13 cards are a Dragon Flush, Dragon or Six Pairs that the ruleset
   pays, any layout declares it, so the best clean layout of step 2 is returned. Otherwise,
   when Three Flushes or Three Straights is paid and some clean layout shows it, the best such
   layout is returned (the larger amount first, then the stronger kind).
2. **Best expected chi.** Every split of the 13 cards into back (5), middle (5) and front (3)
   is enumerated: 72,072 splits, each checked against the foul rule with one packed integer
   per row (:attr:`RowHand.strength`), so a fouled split is never chosen. A clean split is
   scored by its expected chi against one random opponent:

   ``E(back) + E(middle) + E(front) + (scoop_multiplier - 1) x scoop term``

   where, for a row of strength ``k`` and the opponent's same row drawn from a reference
   distribution, ``E(k) = P(opponent < k) x bonus(k) - sum of P(o) x bonus(o) over the
   opponent's rows o > k`` (``bonus`` is the ruleset's row bonus, 1 for a plain row: ties score
   0), and the scoop term is ``P(win all three) x chi won - P(lose all three) x chi lost``
   with the rows taken as independent. Opponents' fouls and instant wins are ignored.
   Ties between splits go to the first in enumeration order of the cards sorted high to low,
   so the advice is deterministic.

The reference distribution is :data:`maubinh.engine.row_odds.ROW_QUANTILES`: for each row,
the 512 quantiles of the strengths that this very method lays out over random deals (a fixed
point, reached from the distribution of random 5- and 3-card rows in a few rounds; see
:func:`sample_row_strengths` and that module's docstring for the command that rebuilds it).

Each hand costs about 1,600 row evaluations (memoised) and one pass over the 72,072 splits.
Scores are floats: they rank layouts and never become money.

>>> from casino.kernel.cards import parse_cards
>>> from maubinh.engine import check_arrangement, presets
>>> rules = presets.get("bigkool-2016")
>>> back, middle, front = suggest_arrangement(
...     parse_cards("AS AH AD KS KH 7C 7D 2S 3S 4S 9H TC JD"), rules)
>>> check_arrangement(back, middle, front, rules).fouled
False
"""

from __future__ import annotations

import random
from bisect import bisect_left, bisect_right
from collections.abc import Iterable
from functools import lru_cache
from itertools import combinations

from casino.kernel.cards import DECK, Card, parse_cards
from maubinh.engine.arrangement import _DRAGON_WEIGHT, _pairs, arrangement_of
from maubinh.engine.row_odds import ROW_QUANTILES
from maubinh.engine.rows import _RANK_WEIGHT, RANK_BY_INDEX, RowHand, hand_of
from maubinh.engine.rules import ROWS, InstantWin, RowCategory, Ruleset

__all__ = ["quantiles", "sample_row_strengths", "suggest_arrangement"]

HAND_SIZE = 13
_STRAIGHTS = frozenset({RowCategory.STRAIGHT, RowCategory.STRAIGHT_FLUSH})
Layout = tuple[tuple[Card, ...], tuple[Card, ...], tuple[Card, ...]]


@lru_cache(maxsize=1)  # one answer: it takes no argument
def _splits() -> tuple[
    tuple[tuple[int, ...], ...],
    tuple[tuple[int, ...], ...],
    tuple[tuple[tuple[int, ...], ...], ...],
]:
    """Positions 0..12 split into rows: the 5-subsets, the 3-subsets, and for each 5-subset
    (as back) the (middle, front) subset indices of the other eight positions."""
    fives = tuple(combinations(range(HAND_SIZE), 5))
    threes = tuple(combinations(range(HAND_SIZE), 3))
    five_index = {frozenset(c): n for n, c in enumerate(fives)}
    three_index = {frozenset(c): n for n, c in enumerate(threes)}
    splits = []
    for back in fives:
        rest = [p for p in range(HAND_SIZE) if p not in back]
        middles = []
        fronts = []
        for middle in combinations(rest, 5):
            middles.append(five_index[frozenset(middle)])
            fronts.append(three_index[frozenset(rest).difference(middle)])
        splits.append((tuple(middles), tuple(fronts)))
    return fives, threes, tuple(splits)


class _RowValue:
    """The reference distribution of one row, priced with a ruleset's bonuses."""

    __slots__ = ("bonus", "loss_mass", "memo", "quantiles")

    def __init__(self, quantiles: tuple[int, ...], bonus: tuple[int, ...]) -> None:
        self.quantiles = quantiles
        self.bonus = bonus
        n = len(quantiles)
        # loss_mass[i]: expected chi lost to the quantiles from i up, one quantile = 1/n.
        mass = [0.0] * (n + 1)
        for i in range(n - 1, -1, -1):
            mass[i] = mass[i + 1] + bonus[quantiles[i] >> 20] / n
        self.loss_mass = mass
        self.memo: dict[int, tuple[float, float, int, float, float]] = {}

    def of(self, hand: RowHand) -> tuple[float, float, int, float, float]:
        """(expected chi, P(win), chi if won, P(lose), expected chi lost) for a row."""
        value = self.memo.get(hand.strength)
        if value is None:
            q = self.quantiles
            n = len(q)
            k = hand.strength
            below = bisect_left(q, k)
            above_from = bisect_right(q, k)
            p_win = below / n
            won = self.bonus[hand.category]
            lost = self.loss_mass[above_from]
            value = (p_win * won - lost, p_win, won, (n - above_from) / n, lost)
            self.memo[k] = value
        return value


# One per ruleset arranged with in this process: a floor has a few versions in force at once,
# and a simulation or the house-take panel one at a time; 64 keeps them without growing.
@lru_cache(maxsize=64)
def _row_values(rules: Ruleset) -> tuple[_RowValue, _RowValue, _RowValue]:
    return tuple(  # type: ignore[return-value]
        _RowValue(ROW_QUANTILES[row.position], rules._bonus_table[row.position]) for row in ROWS
    )


def _sort_key(card: Card) -> tuple[int, int]:
    return (-RANK_BY_INDEX[card.index], card.index & 3)


def suggest_arrangement(cards: str | Iterable[Card | str], rules: Ruleset) -> Layout:
    """Lay out 13 cards as (back, middle, front): never fouled, the instant win if any.

    The method is in the module docstring. Cards may be text or cards:

    >>> from casino.kernel.cards import format_cards
    >>> from maubinh.engine import presets
    >>> rows = suggest_arrangement(
    ...     "2H 6H 9H JH AH 3S 7S 8S QS KS 4D 5D 9D", presets.get("bigkool-2016"))
    >>> [format_cards(row) for row in rows]  # Three Flushes
    ['AH JH 9H 6H 2H', 'KS QS 8S 7S 3S', '9D 5D 4D']
    >>> suggest_arrangement("2H 6H 9H", presets.get("classic"))
    Traceback (most recent call last):
    ...
    ValueError: a Mau Binh hand has 13 cards, got 3
    """
    hand = parse_cards(cards)
    if len(hand) != HAND_SIZE:
        raise ValueError(f"a Mau Binh hand has {HAND_SIZE} cards, got {len(hand)}")
    hand = tuple(sorted(hand, key=_sort_key))
    return _Search(hand, rules).best()


class _Search:
    """One hand's rows: every 5- and 3-card subset evaluated and priced once."""

    def __init__(self, hand: tuple[Card, ...], rules: Ruleset) -> None:
        self.hand = hand
        self.rules = rules
        fives, threes, self.splits = _splits()
        self.fives = fives
        self.threes = threes
        weights = [_RANK_WEIGHT[card.index] for card in hand]
        suits = [card.index & 3 for card in hand]
        self.weight = sum(weights)
        wheel = rules.wheel_is_lowest
        five_hands = []
        for a, b, c, d, e in fives:
            flush = suits[a] == suits[b] == suits[c] == suits[d] == suits[e]
            five_hands.append(
                hand_of(
                    weights[a] + weights[b] + weights[c] + weights[d] + weights[e], 5, flush, wheel
                )
            )
        three_hands = [
            hand_of(weights[a] + weights[b] + weights[c], 3, False, False) for a, b, c in threes
        ]
        self.five_hands = five_hands
        self.three_hands = three_hands
        self.suits = suits

    def rows(self, back: int, middle: int, front: int) -> Layout:
        hand = self.hand
        return (
            tuple(hand[p] for p in self.fives[back]),
            tuple(hand[p] for p in self.fives[middle]),
            tuple(hand[p] for p in self.threes[front]),
        )

    def best(self) -> Layout:
        rules = self.rules
        offered = dict(rules._offered)
        if not self._declares_whatever_the_layout(offered):
            kinds = [
                kind
                for kind in (InstantWin.THREE_FLUSHES, InstantWin.THREE_STRAIGHTS)
                if kind in offered
            ]
            kinds.sort(key=lambda kind: (offered[kind], kind.strength), reverse=True)
            for kind in kinds:
                layout = self._best_of(kind)
                if layout is not None:
                    return layout
        layout = self._best_of(None)
        assert layout is not None  # some split is always clean: rows sorted by strength
        return layout

    def _declares_whatever_the_layout(self, offered: dict[InstantWin, int]) -> bool:
        weight = self.weight
        if weight == _DRAGON_WEIGHT:
            one_suit = len(set(self.suits)) == 1
            if one_suit and InstantWin.DRAGON_FLUSH in offered:
                return True
            if InstantWin.DRAGON in offered and (
                self.rules.dragon_flush_counts_as_dragon or not one_suit
            ):
                return True
        return InstantWin.SIX_PAIRS in offered and _pairs(weight) == 6

    def _qualifies(self, kind: InstantWin | None) -> tuple[list[bool], list[bool]] | None:
        if kind is None:
            return None
        if kind is InstantWin.THREE_FLUSHES:
            suits = self.suits
            five = [
                h.category in (RowCategory.FLUSH, RowCategory.STRAIGHT_FLUSH)
                for h in self.five_hands
            ]
            three = [suits[a] == suits[b] == suits[c] for a, b, c in self.threes]
            return five, three
        five = [h.category in _STRAIGHTS for h in self.five_hands]
        three = []
        for h in self.three_hands:
            top, mid, low = h.ranks if h.category is RowCategory.HIGH_CARD else (0, 0, 9)
            three.append(top - low == 2 or (top, mid, low) == (14, 3, 2))
        return five, three

    def _best_of(self, kind: InstantWin | None) -> Layout | None:
        """The best-scoring clean split; with ``kind``, only splits that declare it."""
        back_value, middle_value, front_value = _row_values(self.rules)
        five_hands = self.five_hands
        three_hands = self.three_hands
        backs = [back_value.of(h) for h in five_hands]
        middles = [middle_value.of(h) for h in five_hands]
        fronts = [front_value.of(h) for h in three_hands]
        five_strength = [h.strength for h in five_hands]
        three_strength = [h.strength for h in three_hands]
        scoop = self.rules.scoop_multiplier - 1
        flags = self._qualifies(kind)
        best_score = float("-inf")
        best = None
        for back, (middle_ids, front_ids) in enumerate(self.splits):
            if flags is not None and not flags[0][back]:
                continue
            kb = five_strength[back]
            eb, wb, gb, lb, ab = backs[back]
            for middle, front in zip(middle_ids, front_ids, strict=True):
                km = five_strength[middle]
                if km > kb or three_strength[front] > km:
                    continue
                if flags is not None and not (flags[0][middle] and flags[1][front]):
                    continue
                em, wm, gm, lm, am = middles[middle]
                ef, wf, gf, lf, af = fronts[front]
                score = eb + em + ef
                if scoop:
                    score += scoop * (
                        wb * wm * wf * (gb + gm + gf) - (lm * lf * ab + lb * lf * am + lb * lm * af)
                    )
                if score > best_score:
                    best_score = score
                    best = (back, middle, front)
        if best is None:
            return None
        return self.rows(*best)


def sample_row_strengths(
    deals: int, seed: int, rules: Ruleset
) -> tuple[list[int], list[int], list[int]]:
    """Strengths of the rows that :func:`suggest_arrangement` lays out over random deals.

    Deals ``deals`` hands of 13 cards from a ``random.Random(seed)`` deck and returns the back,
    middle and front strengths, each sorted. Hands that are instant wins are skipped (their
    rows are never compared). This is how :data:`ROW_QUANTILES` is rebuilt (see
    :mod:`maubinh.engine.row_odds`).
    """
    rng = random.Random(seed)
    strengths: tuple[list[int], list[int], list[int]] = ([], [], [])
    deck = list(DECK)
    for _ in range(deals):
        hand = tuple(rng.sample(deck, HAND_SIZE))
        layout = suggest_arrangement(hand, rules)
        arrangement = arrangement_of(layout, rules)
        if arrangement.instant_win is not None:
            continue
        for row, row_hand in zip(strengths, arrangement.hands, strict=True):
            row.append(row_hand.strength)
    for row in strengths:
        row.sort()
    return strengths


def quantiles(strengths: list[int], count: int = 512) -> tuple[int, ...]:
    """``count`` evenly spaced quantiles (midpoints) of sorted strengths."""
    n = len(strengths)
    return tuple(strengths[min(n - 1, (2 * i + 1) * n // (2 * count))] for i in range(count))
