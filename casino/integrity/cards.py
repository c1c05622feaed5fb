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
from casino.integrity.results import ChiSquareResult, MinimumSample, NotEnoughData
from casino.integrity.statistics import chi_square_test, normal_sf
from casino.kernel.cards import DECK, RANKS, SUITS, Card, parse_card

#: Rounds the card test needs unless told otherwise (its missing-card part is exact on any
#: sample).
CARDS_MINIMUM = MinimumSample(rounds=20)


@dataclass(frozen=True)
class CardFrequencyResult:
    """Cards dealt, by rank, by suit and card by card, against a fair shuffle.

    ``p_value`` combines the parts (Bonferroni: 4 times the smallest, at most 1).
    ``missing_card_p`` is the chance, over all cards, that some card shows as rarely as the
    rarest did (a card gone from the deck shows 0); ``extra_card_p`` the same for the most
    frequent card (a card added).
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
    p_value = min(1.0, 4 * min(ranks.p_value, suits.p_value, missing, extra))
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
    )
