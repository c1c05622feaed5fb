"""The card test: cards dealt, by rank, by suit and card by card, against a fair shuffle.

Built from the chi-square test of :mod:`casino.integrity.statistics`, the exact
Poisson-binomial tail of :mod:`casino.integrity.exact` for a missing card, and scipy's normal
tail for an added one.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from casino.integrity.exact import poisson_binomial_cdf
from casino.integrity.results import (
    CARD_PARTS,
    ChiSquareResult,
    MinimumSample,
    NotEnoughData,
)
from casino.integrity.statistics import chi_square_test, normal_sf
from casino.kernel.cards import DECK, RANKS, SUITS, Card, parse_card

#: Rounds the card test needs unless told otherwise (its missing-card part is exact on any
#: sample).
CARDS_MINIMUM = MinimumSample(rounds=20)
#: The level at which a rank or a card is named as out of its band (after the correction
#: for the 13 ranks or the 52 cards tested).
NAMED_AT = 0.05


@dataclass(frozen=True)
class Deviation:
    """A rank or a card dealt outside the band a fair shoe keeps it in: its count, the
    expected count and SD, which way it is off, and its p-value corrected for the 13 ranks
    or 52 cards tested (Bonferroni), at most 1."""

    key: str
    observed: int
    expected: float
    sd: float
    p_value: float

    @property
    def low(self) -> bool:
        return self.observed < self.expected


@dataclass(frozen=True)
class CardFrequencyResult:
    """Cards dealt, by rank, by suit and card by card, against a fair shuffle.

    ``p_value`` combines the parts (Bonferroni: ``CARD_PARTS`` times the smallest, at most 1).
    ``missing_card_p`` is the chance, over all cards, that some card shows as rarely as the
    rarest did (a card gone from the deck shows 0); ``extra_card_p`` the same for the most
    frequent card (a card added). ``rank_p`` is the same for the rank furthest from its
    share, either way (13 times its two-sided p): one rank off by a few cards in a
    multi-deck shoe stands out there while the 12 degrees of freedom of the rank chi-square
    dilute it. ``ranks_out`` and ``cards_out`` name every rank and every card whose
    corrected p is under ``NAMED_AT``.
    """

    ranks: ChiSquareResult
    suits: ChiSquareResult
    rarest: tuple[Card, int, float]
    commonest: tuple[Card, int, float]
    missing_card_p: float
    extra_card_p: float
    p_value: float
    cards: int
    rounds: int
    rank_p: float = 1.0
    #: A rank's count's SD under a fair shuffle (every rank's: their shares are equal).
    rank_sd: float = 0.0
    ranks_out: tuple[Deviation, ...] = ()
    cards_out: tuple[Deviation, ...] = ()


def _counted(sizes: Iterable[int]) -> dict[int, int]:
    counted: dict[int, int] = {}
    for m in sizes:
        counted[m] = counted.get(m, 0) + 1
    return counted


def card_frequency_test(
    counts: Mapping[Card | str, int],
    *,
    cards_per_round: Sequence[int] | Mapping[int, int],
    decks: int = 1,
    minimum: MinimumSample = CARDS_MINIMUM,
) -> CardFrequencyResult | NotEnoughData:
    """Cards dealt against a fair shuffle of a shoe of ``decks`` standard decks, reshuffled
    every round, with ``cards_per_round[i]`` cards dealt from it in round ``i`` (or, the
    same, a mapping of cards dealt to the number of rounds that dealt that many: what the
    tallies keep, without a list of a million rounds).

    Each card of the shoe is dealt in a round with probability m / (52 * decks), independently
    from round to round, so a card's count over the rounds is exact (one deck) and a missing
    card's count of 0 has probability prod(1 - m_i/52): the card test uses this exactly in
    its lower tail, the normal approximation in its upper tail. The rank and suit chi-square
    tests correct for dealing without replacement within a round: their statistic is divided
    by the finite population factor (N - m) / (N - 1), averaged over the rounds weighted by
    cards dealt (N = 52 * decks), which makes it chi-square again.

    >>> from casino.kernel.cards import DECK
    >>> result = card_frequency_test({card: 20 for card in DECK}, cards_per_round=[52] * 20)
    >>> result.p_value
    1.0
    """
    by_size: dict[int, int] = (
        dict(cards_per_round) if isinstance(cards_per_round, Mapping) else _counted(cards_per_round)
    )
    rounds = sum(by_size.values())
    short = minimum.check(rounds=rounds)
    if short is not None:
        return short
    per_card: dict[Card, int] = dict.fromkeys(DECK, 0)
    for key, count in counts.items():
        per_card[parse_card(key) if isinstance(key, str) else key] += count
    total = sum(per_card.values())
    dealt = sum(m * r for m, r in by_size.items())
    if total != dealt:
        raise ValueError(f"{total} cards counted but {dealt} dealt")
    shoe = 52 * decks
    if any(m > shoe for m, r in by_size.items() if r):
        raise ValueError("more cards dealt in a round than the shoe holds")
    fpc = sum(r * m * (shoe - m) / (shoe - 1) for m, r in by_size.items()) / dealt if dealt else 1.0
    fpc = max(fpc, 1e-9)
    by_rank = {rank: sum(c for card, c in per_card.items() if card.rank == rank) for rank in RANKS}
    by_suit = {suit: sum(c for card, c in per_card.items() if card.suit == suit) for suit in SUITS}
    ranks = chi_square_test(by_rank, dict.fromkeys(RANKS, 1), scale=fpc)
    suits = chi_square_test(by_suit, dict.fromkeys(SUITS, 1), scale=fpc)
    if isinstance(ranks, NotEnoughData) or isinstance(suits, NotEnoughData):
        return ranks if isinstance(ranks, NotEnoughData) else suits  # type: ignore[return-value]
    # One card's count per round: hypergeometric(shoe, decks, m); its mean and variance.
    mean = sum(r * m * decks / shoe for m, r in by_size.items())
    variance = sum(
        r * m * (decks / shoe) * (1 - decks / shoe) * (shoe - m) / (shoe - 1) if shoe > 1 else 0.0
        for m, r in by_size.items()
    )
    rarest_card = min(DECK, key=lambda card: per_card[card])
    commonest_card = max(DECK, key=lambda card: per_card[card])
    low, high = per_card[rarest_card], per_card[commonest_card]
    if decks == 1 and low <= 200:
        low_tail = poisson_binomial_cdf(low, {m / shoe: r for m, r in by_size.items()})
    else:
        low_tail = 1 - normal_sf((low + 0.5 - mean) / math.sqrt(variance)) if variance else 1.0
    high_tail = normal_sf((high - 0.5 - mean) / math.sqrt(variance)) if variance else 1.0
    missing = min(1.0, 52 * low_tail)
    extra = min(1.0, 52 * high_tail)
    if decks == 1 and high > rounds:
        extra = 0.0
    rank_sd, ranks_out = _ranks_off(by_rank, by_size, decks)
    rank_p = min((d.p_value for d in ranks_out), default=1.0)
    cards_out = _cards_off(per_card, by_size, decks, rounds, mean, variance)
    p_value = min(1.0, CARD_PARTS * min(ranks.p_value, suits.p_value, rank_p, missing, extra))
    return CardFrequencyResult(
        ranks=ranks,
        suits=suits,
        rarest=(rarest_card, low, mean),
        commonest=(commonest_card, high, mean),
        missing_card_p=missing,
        extra_card_p=extra,
        p_value=p_value,
        cards=dealt,
        rounds=rounds,
        rank_p=rank_p,
        rank_sd=rank_sd,
        ranks_out=tuple(d for d in ranks_out if d.p_value < NAMED_AT),
        cards_out=cards_out,
    )


def _ranks_off(
    by_rank: Mapping[str, int], by_size: Mapping[int, int], decks: int
) -> tuple[float, list[Deviation]]:
    """Every rank's count against its share, two-sided, corrected for the 13 ranks.

    A rank's count in a round of m cards from a shoe of N = 52 d is hypergeometric (N, 4 d,
    m); over the rounds its mean and variance add up, and the normal tail (with a
    continuity correction) gives its p-value."""
    shoe = 52 * decks
    share = 4 * decks / shoe
    mean = sum(r * m * share for m, r in by_size.items())
    variance = sum(
        r * m * share * (1 - share) * (shoe - m) / (shoe - 1) for m, r in by_size.items()
    )
    if variance <= 0:
        return 0.0, []
    sd = math.sqrt(variance)
    found = []
    for rank, count in by_rank.items():
        z = max(abs(count - mean) - 0.5, 0.0) / sd
        found.append(Deviation(rank, count, mean, sd, min(1.0, 13 * 2 * normal_sf(z))))
    return sd, found


def _cards_off(
    per_card: Mapping[Card, int],
    by_size: Mapping[int, int],
    decks: int,
    rounds: int,
    mean: float,
    variance: float,
) -> tuple[Deviation, ...]:
    """Every card dealt too rarely or too often, each tail corrected for the 52 cards (as
    the rarest and the commonest card are): exact below for a single deck, else normal."""
    if variance <= 0:
        return ()
    shoe = 52 * decks
    sd = math.sqrt(variance)
    found = []
    for card in DECK:
        count = per_card[card]
        if count < mean:
            if decks == 1 and count <= 200:
                tail = poisson_binomial_cdf(count, {m / shoe: r for m, r in by_size.items()})
            else:
                tail = 1 - normal_sf((count + 0.5 - mean) / sd)
        elif decks == 1 and count > rounds:
            tail = 0.0  # more than once a round from a single deck: impossible
        else:
            tail = normal_sf((count - 0.5 - mean) / sd)
        if 52 * tail < NAMED_AT:
            found.append(Deviation(str(card), count, mean, sd, min(1.0, 52 * tail)))
    return tuple(found)
