"""What a seat's 13 cards hold, for the integrity tests: instant wins (with their exact odds)
and scoops by the cards.

A hand *holds* an instant win when some layout of its 13 cards declares it: the integrity tests
(docs/INTEGRITY.md, "Mau Binh") count what the cards allow, whatever the player then laid out,
because a dealer favouring a player deals the cards, not the layout.

Every condition of docs/RULES.md B2 depends on two things only:

- the **rank counts** (how many of each rank): Dragon (one of each rank), Six Pairs (the counts'
  pairs, ``count // 2``, sum to six) and Three Straights (the counts are the sum of a 3-card run
  and two 5-card runs, A-2-3 and A-2-3-4-5 included);
- the **suit counts**: Three Flushes (the suits split into rows of 3, 5 and 5: the sorted counts
  are 13, 10 + 3, 8 + 5 or 5 + 5 + 3) and one suit (Dragon Flush, with a Dragon).

Three Flushes and Three Straights can always be laid out clean (docs/RULES.md,
``instant_win_when_fouled``), so holding them needs no look at the row order.

The number of hands with given rank counts and given suit counts depends only on the multiset
of the rank counts (which ranks they are does not matter to the suits). So the count is exact:
for each multiset (a partition of 13 into parts of at most 4) the number of rank-count vectors
with it, how many of those are Three Straights (the 589 run sums, listed), and the
suit counts of its hands by a walk over the ranks. The counts of every combination of the five
conditions sum to C(52, 13) = 635,013,559,600.

>>> shares = instant_win_shares()
>>> shares["dragon"] == Fraction(4**13 - 4, comb(52, 13))
True
>>> round(float(1 - shares[NONE]), 6)
0.016605
>>> held_instant_win("2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS".split())
'dragon_flush'
>>> held_instant_win("2H 6H 9H JH AH 3S 7S 8S QS KS 4D 5D 9D".split())
'three_flushes'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from fractions import Fraction
from functools import lru_cache
from itertools import combinations, product
from math import comb, factorial

from casino.kernel.cards import Card, parse_cards
from maubinh.engine.arrange import _splits
from maubinh.engine.rows import _RANK_WEIGHT, RowHand, card_rank, compare_rows, hand_of
from maubinh.engine.rules import InstantWin

#: The category of a hand that holds no instant win.
NONE = "none"
#: The sorted suit counts whose cards split into one-suit rows of 3, 5 and 5.
_THREE_FLUSH_SUITS = frozenset({(13,), (10, 3), (8, 5), (5, 5, 3)})
_HANDS = comb(52, 13)


def _runs(length: int) -> list[tuple[int, ...]]:
    """Rank-count vectors (index 0 is the 2, 12 the ace) of every run of ``length`` ranks."""
    runs = []
    for low in range(1, 16 - length):  # 1 is the ace played low
        vector = [0] * 13
        for rank in range(low, low + length):
            vector[(rank if rank > 1 else 14) - 2] += 1
        runs.append(tuple(vector))
    return runs


@lru_cache(maxsize=1)  # one answer: it takes no argument
def three_straight_counts() -> frozenset[tuple[int, ...]]:
    """Every rank-count vector that lays out as three straights (no rank more than 4 times)."""
    vectors = set()
    for front, back, middle in product(_runs(3), _runs(5), _runs(5)):
        vector = tuple(a + b + c for a, b, c in zip(front, back, middle, strict=True))
        if max(vector) <= 4:
            vectors.add(vector)
    return frozenset(vectors)


def _partitions(total: int, largest: int, parts: int) -> Iterable[tuple[int, ...]]:
    """Partitions of ``total`` into at most ``parts`` parts of at most ``largest``."""
    if total == 0:
        yield ()
        return
    for part in range(min(total, largest), 0, -1):
        if parts > 0:
            for rest in _partitions(total - part, part, parts - 1):
                yield (part, *rest)


def _vectors_with(partition: tuple[int, ...]) -> int:
    """How many rank-count vectors of 13 ranks have these non-zero counts."""
    multiplicity = Counter(partition)
    ways = factorial(13) // factorial(13 - len(partition))
    for repeats in multiplicity.values():
        ways //= factorial(repeats)
    return ways


# One per partition of 13 cards into ranks of at most 4 (39 of them): 64 keeps them all.
@lru_cache(maxsize=64)
def _suit_ways(partition: tuple[int, ...]) -> tuple[int, int, int]:
    """For rank counts with this multiset: the suit choices in all, those that split into three
    flushes, and those of one suit."""
    states: dict[tuple[int, int, int, int], int] = {(0, 0, 0, 0): 1}
    for count in partition:
        step: dict[tuple[int, int, int, int], int] = {}
        for suits in combinations(range(4), count):
            for state, ways in states.items():
                nxt = list(state)
                for suit in suits:
                    nxt[suit] += 1
                key = (nxt[0], nxt[1], nxt[2], nxt[3])
                step[key] = step.get(key, 0) + ways
        states = step
    total = flushes = one_suit = 0
    for state, ways in states.items():
        total += ways
        shape = tuple(sorted((n for n in state if n), reverse=True))
        if shape in _THREE_FLUSH_SUITS:
            flushes += ways
        if shape == (13,):
            one_suit += ways
    return total, flushes, one_suit


def _pairs(partition: Iterable[int]) -> int:
    return sum(count // 2 for count in partition)


@lru_cache(maxsize=1)  # one answer: it takes no argument
def held_counts() -> Mapping[tuple[bool, bool, bool, bool, bool], int]:
    """Hands by what they hold: ``(one suit dragon, dragon, six pairs, three flushes, three
    straights) -> hands``, exact, summing to C(52, 13)."""
    straights = Counter(
        tuple(sorted((n for n in vector if n), reverse=True)) for vector in three_straight_counts()
    )
    counts: Counter[tuple[bool, bool, bool, bool, bool]] = Counter()
    for partition in _partitions(13, 4, 13):
        vectors = _vectors_with(partition)
        total, flushes, one_suit = _suit_ways(partition)
        dragon = partition == (1,) * 13
        six_pairs = _pairs(partition) == 6
        for is_straight, n in (
            (True, straights[partition]),
            (False, vectors - straights[partition]),
        ):
            if not n:
                continue
            counts[(True, dragon, six_pairs, True, is_straight)] += n * one_suit
            counts[(False, dragon, six_pairs, True, is_straight)] += n * (flushes - one_suit)
            counts[(False, dragon, six_pairs, False, is_straight)] += n * (total - flushes)
    counts = Counter({key: n for key, n in counts.items() if n})
    assert sum(counts.values()) == _HANDS
    return counts


_STRENGTH_ORDER = tuple(InstantWin)  # strongest first


def _strongest(held: tuple[bool, bool, bool, bool, bool]) -> str:
    for kind, holds in zip(_STRENGTH_ORDER, held, strict=True):
        if holds:
            return kind.value
    return NONE


@lru_cache(maxsize=1)  # one answer: it takes no argument
def instant_win_shares() -> dict[str, Fraction]:
    """The exact share of 13-card hands whose strongest instant win is each kind, and of those
    holding none (``"none"``); summing to 1. What the cards hold, whatever a venue pays: a
    Dragon Flush is counted as such, not as a Dragon."""
    shares = {kind.value: Fraction(0) for kind in _STRENGTH_ORDER}
    shares[NONE] = Fraction(0)
    for held, n in held_counts().items():
        shares[_strongest(held)] += Fraction(n, _HANDS)
    return shares


def _dealt(cards: Iterable[Card | str]) -> tuple[Card, ...]:
    dealt = parse_cards(list(cards))
    if len(dealt) != 13:
        raise ValueError(f"a Mau Binh hand is 13 cards, got {len(dealt)}")
    return tuple(sorted(dealt, key=lambda card: card.index))


def held_kinds(cards: Iterable[Card | str]) -> tuple[str, ...]:
    """Every instant win some layout of these 13 cards declares, strongest first (a Dragon
    Flush is a Dragon too, and both are Three Flushes and Three Straights)."""
    ranks = [0] * 13
    suits: Counter[object] = Counter()
    for card in _dealt(cards):
        ranks[card_rank(card) - 2] += 1
        suits[card.suit] += 1
    vector = tuple(ranks)
    partition = tuple(sorted((n for n in vector if n), reverse=True))
    shape = tuple(sorted(suits.values(), reverse=True))
    held = (
        shape == (13,),
        partition == (1,) * 13,
        _pairs(partition) == 6,
        shape in _THREE_FLUSH_SUITS,
        vector in three_straight_counts(),
    )
    return tuple(kind.value for kind, holds in zip(_STRENGTH_ORDER, held, strict=True) if holds)


def held_instant_win(cards: Iterable[Card | str]) -> str:
    """The strongest instant win some layout of these 13 cards declares, or ``"none"``."""
    kinds = held_kinds(cards)
    return kinds[0] if kinds else NONE


def cards_rows(cards: Iterable[Card | str]) -> tuple[RowHand, RowHand, RowHand]:
    """The rows of 13 cards laid out by the cards alone: the best five at the back, the best
    five of the other eight in the middle, the last three in front (ties go to the cards
    first in deck order, so equal hands lay out alike). Never fouled; not what a player
    would always choose, which is the point: it depends on the cards, not the player."""
    hand = _dealt(cards)
    fives, threes, splits = _splits()
    weights = [_RANK_WEIGHT[card.index] for card in hand]
    suits = [card.index & 3 for card in hand]

    def five(ids: tuple[int, ...]) -> RowHand:
        a, b, c, d, e = ids
        flush = suits[a] == suits[b] == suits[c] == suits[d] == suits[e]
        return hand_of(
            weights[a] + weights[b] + weights[c] + weights[d] + weights[e], 5, flush, True
        )

    hands = [five(ids) for ids in fives]
    back = max(range(len(hands)), key=lambda n: hands[n].strength)
    middles, fronts = splits[back]
    pick = max(range(len(middles)), key=lambda n: hands[middles[n]].strength)
    a, b, c = threes[fronts[pick]]
    front = hand_of(weights[a] + weights[b] + weights[c], 3, False, False)
    return hands[back], hands[middles[pick]], front


def scoops(rows: Mapping[int, tuple[RowHand, RowHand, RowHand]]) -> dict[int, tuple[int, int]]:
    """Each seat's scoops by the cards: ``seat -> (opponents whose rows its rows beat all
    three, opponents whose rows beat all three of its)``, from :func:`cards_rows`.

    Dealt fairly, every hand is as likely as any other, so a seat's cards scoop an opponent's
    exactly as often as the opponent's scoop the seat's: the difference has mean 0, whatever
    the players' skill (docs/INTEGRITY.md, "Mau Binh")."""
    result = {}
    for seat, mine in rows.items():
        given = taken = 0
        for other, theirs in rows.items():
            if other == seat:
                continue
            duels = [compare_rows(a, b) for a, b in zip(mine, theirs, strict=True)]
            given += all(duel > 0 for duel in duels)
            taken += all(duel < 0 for duel in duels)
        result[seat] = (given, taken)
    return result
