"""Exact distributions the integrity tests need and scipy does not provide in a usable form.

Everything textbook (chi-square and normal tails, binomial tails and quantiles, the exact
binomial test, Benjamini-Hochberg) comes from scipy in :mod:`casino.integrity.statistics`.
Two exact computations stay here:

* the exact multinomial test: scipy has no goodness-of-fit test that sums the probability of
  every outcome no likelier than the one seen (``scipy.stats.multinomial`` gives the pmf of
  one outcome, not the test);
* the tails of a Poisson-binomial count (one card's appearances when rounds deal
  different numbers of cards; the cards a deal shares with an earlier one):
  ``scipy.stats.poisson_binom`` builds the whole distribution over every trial, one trial
  per round, which for 600 rounds is 3 to 5 times slower than this convolution of one
  binomial per round size, truncated at the count seen, and grows with the rounds
  (bench/integrity_stats.py measures both).

Pure: no Django, no project import.

>>> round(multinomial_p_value([4, 0, 0], [1 / 3, 1 / 3, 1 / 3]), 6)
0.037037
>>> round(poisson_binomial_cdf(0, {0.5: 3}), 12)
0.125
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import numpy as np

#: Outcomes this close in probability to the one seen count as equally extreme (scipy's
#: ``binomtest`` uses the same relative tolerance).
RELATIVE = 1 + 1e-7


def multinomial_p_value(
    observed: Sequence[int], probabilities: Sequence[float], *, max_outcomes: int = 2_000_000
) -> float:
    """The total probability of every way of spreading ``sum(observed)`` observations over
    the cells that is no likelier than ``observed`` (cells of positive probability).

    Enumerates all C(n + k - 1, k - 1) outcomes, so only for small n and few cells: more than
    ``max_outcomes`` raises ``ValueError``.
    """
    n = sum(observed)
    k = len(probabilities)
    if math.comb(n + k - 1, k - 1) > max_outcomes:
        raise ValueError("too many outcomes to enumerate: use chi_square_test")
    logs = [math.log(p) for p in probabilities]
    log_fact = [math.lgamma(i + 1) for i in range(n + 1)]
    seen = log_fact[n] + sum(c * lp - log_fact[c] for c, lp in zip(observed, logs, strict=True))
    threshold = seen + math.log(RELATIVE)
    total = 0.0

    def walk(cell: int, left: int, partial: float) -> None:
        nonlocal total
        if cell == k - 1:
            value = log_fact[n] + partial + left * logs[cell] - log_fact[left]
            if value <= threshold:
                total += math.exp(value)
            return
        for c in range(left + 1):
            walk(cell + 1, left - c, partial + c * logs[cell] - log_fact[c])

    walk(0, n, 0.0)
    return min(1.0, total)


def _poisson_binomial_pmf(trials: Mapping[float, int], top: int) -> np.ndarray:
    """P(X = 0), ..., P(X = top) for X the successes of ``trials`` (``trials[p]`` of them with
    success probability ``p``): the binomials of each probability convolved, truncated at
    ``top``."""
    # scipy.stats costs 0.6 s and 80 MB to import: only the integrity run, which calls this,
    # pays for it (casino.integrity.statistics says more).
    from scipy.stats import binom

    support = np.arange(top + 1)
    dist = np.zeros(top + 1)
    dist[0] = 1.0
    for p, count in trials.items():
        if count:
            dist = np.convolve(dist, binom.pmf(support[: count + 1], count, p))[: top + 1]
    return dist


def poisson_binomial_cdf(k: int, trials: Mapping[float, int]) -> float:
    """P(X <= k) for X the number of successes of independent trials, ``trials[p]`` of them
    with success probability ``p``: the binomials of each probability convolved, truncated at
    k (exact; the cost grows with the distinct probabilities and k, not with the trials).

    >>> round(poisson_binomial_cdf(1, {0.5: 2, 0.25: 1}), 6)   # 1/4 + 1/2 * 3/4
    0.625
    """
    if k < 0:
        return 0.0
    return min(1.0, float(_poisson_binomial_pmf(trials, k).sum()))


def poisson_binomial_sf(k: int, trials: Mapping[float, int]) -> float:
    """P(X >= k), the upper tail of the same count, summed from the upper end so a tiny tail
    keeps its digits (1 minus the lower tail would round it to 0).

    >>> round(poisson_binomial_sf(2, {0.5: 2, 0.25: 1}), 6)   # 1 - 0.625
    0.375
    """
    n = sum(trials.values())
    if k <= 0:
        return 1.0
    if k > n:
        return 0.0
    return min(1.0, float(_poisson_binomial_pmf(trials, n)[k:].sum()))
