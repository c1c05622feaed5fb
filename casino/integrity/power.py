"""Detection power: how many rounds a test needs to catch a given manipulation.

scipy has no sample-size function for these tests, so the formulas are written here; their
normal quantiles come from scipy (``scipy.special.ndtri``). Pure: no Django, no project
import. :mod:`casino.integrity.statistics` re-exports them.
"""

from __future__ import annotations

import math
from decimal import Decimal
from fractions import Fraction

from scipy.special import ndtri

from casino.integrity.results import CARD_PARTS

Number = int | float | Fraction | Decimal


def rounds_to_detect(
    p0: Number, p1: Number, *, alpha: float = 0.05, power: float = 0.9, per_round: float = 1
) -> int:
    """Rounds needed for a two-sided test of a rate at ``alpha`` to catch a shift from ``p0``
    to ``p1`` with probability ``power`` (normal approximation to the binomial)::

        n = ((z_{1-alpha/2} sqrt(p0 q0) + z_power sqrt(p1 q1)) / (p1 - p0))²

    ``per_round`` trials per round (boxes, cards) divide the count of trials.

    >>> rounds_to_detect(0.5, 0.6, alpha=0.05, power=0.8)
    194
    """
    p0, p1 = float(p0), float(p1)
    if p0 == p1:
        raise ValueError("no shift to detect")
    za = float(ndtri(1 - alpha / 2))
    zb = float(ndtri(power))
    n = ((za * math.sqrt(p0 * (1 - p0)) + zb * math.sqrt(p1 * (1 - p1))) / (p1 - p0)) ** 2
    return math.ceil(n / per_round)


def rounds_to_detect_mean(
    mean0: Number,
    sd0: Number,
    mean1: Number,
    sd1: Number,
    *,
    alpha: float = 0.05,
    power: float = 0.9,
    per_round: float = 1,
) -> int:
    """Bets needed for the z-test of a sum to catch a shift of the mean result per bet from
    ``mean0`` (sd ``sd0``) to ``mean1`` (sd ``sd1``), divided by ``per_round`` bets a round.

    >>> rounds_to_detect_mean(0, 1, 0.1, 1, power=0.8)
    785
    """
    za = float(ndtri(1 - alpha / 2))
    zb = float(ndtri(power))
    shift = float(mean1) - float(mean0)
    if shift == 0:
        raise ValueError("no shift to detect")
    n = ((za * float(sd0) + zb * float(sd1)) / shift) ** 2
    return math.ceil(n / per_round)


def rounds_to_detect_missing_card(
    cards_per_round: int, *, alpha: float = 0.05, deck: int = 52
) -> int:
    """Rounds after which a card absent from a one-deck shoe makes the card test alert.

    The card is certain to show 0; the test alerts once 52 * (1 - m/52)^R < alpha
    (``CARD_PARTS`` parts, Bonferroni: alpha / 5 for the combined p-value).

    >>> rounds_to_detect_missing_card(15)
    26
    """
    share = cards_per_round / deck
    target = alpha / CARD_PARTS / deck
    return math.ceil(math.log(target) / math.log1p(-share))
