"""Statistical tests of game integrity: are the cards, hands and results what fair play gives?

Everything here is game-neutral and pure: a category is an opaque key with an exact probability
(a game's odds engine supplies them), a card is a canonical card of
:mod:`casino.kernel.cards`. Each test returns a frozen result with its p-value, or
:class:`NotEnoughData` when the sample is too small
to say anything (docs/INTEGRITY.md explains each test to a manager).

The textbook parts are scipy's: chi-square and normal tails and quantiles, binomial tails and
quantiles, the exact binomial test and Benjamini-Hochberg. Scalar tails and quantiles go through
``scipy.special`` (about a microsecond a call, where a ``scipy.stats`` distribution's checks cost
tens of microseconds). ``scipy.stats`` is imported by the functions that need it, not here: it
costs about 0.6 s and 80 MB a process, and every web process imports this module (through the
integrity pages) while only an integrity run (in the worker) calls those functions. A worker
loads it once when it starts (``load_for_runs``, from ``casino.celery``), so no run pays it.

What scipy lacks stays hand-written beside this module:
:mod:`casino.integrity.exact` (the exact multinomial test, a Poisson-binomial tail) and
:mod:`casino.integrity.power` (rounds needed to detect a shift, re-exported here).

>>> round(chi_square_sf(3.841458820694124, 1), 10)
0.05
>>> benjamini_hochberg([0.01, 0.04, 0.03, 0.005], q=0.05).discoveries
(True, True, True, True)
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable, Mapping, Sequence
from decimal import Decimal
from fractions import Fraction
from typing import TypeVar

from scipy import special

from casino.integrity.exact import multinomial_p_value
from casino.integrity.power import (
    rounds_to_detect,
    rounds_to_detect_mean,
    rounds_to_detect_missing_card,
)
from casino.integrity.results import (
    MIN_EXPECTED,
    Band,
    BHResult,
    BinomialResult,
    ChiSquareResult,
    ExactTestResult,
    MinimumSample,
    NotEnoughData,
    ZTestResult,
)

# The records live in casino.integrity.results and the power functions in
# casino.integrity.power; callers find them here too.
__all__ = [
    "MIN_EXPECTED",
    "BHResult",
    "Band",
    "BinomialResult",
    "ChiSquareResult",
    "ExactTestResult",
    "MinimumSample",
    "NotEnoughData",
    "ZTestResult",
    "rounds_to_detect",
    "rounds_to_detect_mean",
    "rounds_to_detect_missing_card",
]

K = TypeVar("K", bound=Hashable)
Number = int | float | Fraction | Decimal

#: The sample a category test needs unless told otherwise.
HANDS_MINIMUM = MinimumSample()
#: Above this many trials the binomial test uses the normal approximation.
BINOMIAL_EXACT_MAX = 200_000


def load_for_runs() -> None:
    """Import what an integrity run needs beyond this module (``scipy.stats``), once, in a
    process that will run them: the Celery worker, when it starts."""
    import scipy.stats  # noqa: F401 (the import is the point)


# --- distributions (scipy) ---------------------------------------------------------------


def regularized_gamma_q(a: float, x: float) -> float:
    """The regularized upper incomplete gamma function Q(a, x) = Γ(a, x) / Γ(a).

    >>> round(regularized_gamma_q(1.0, 1.0), 12) == round(math.exp(-1), 12)
    True
    >>> regularized_gamma_q(2.5, 0.0)
    1.0
    """
    if a <= 0:
        raise ValueError("a must be positive")
    if x < 0:
        raise ValueError("x must not be negative")
    return float(special.gammaincc(a, x))


def chi_square_sf(statistic: float, df: int) -> float:
    """P(X >= statistic) for X chi-square with ``df`` degrees of freedom.

    >>> round(chi_square_sf(11.070497693516351, 5), 10)
    0.05
    """
    if df < 1:
        raise ValueError("df must be at least 1")
    return float(special.chdtrc(df, max(statistic, 0.0)))


def normal_sf(z: float) -> float:
    """P(Z >= z) for a standard normal Z.

    >>> round(normal_sf(1.959963984540054), 10)
    0.025
    """
    return float(special.ndtr(-z))


def normal_quantile(probability: float) -> float:
    """The z with P(Z <= z) = ``probability``.

    >>> round(normal_quantile(0.975), 6)
    1.959964
    """
    if not 0 < probability < 1:
        raise ValueError("probability must be strictly between 0 and 1")
    return float(special.ndtri(probability))


def binomial_cdf(k: int, n: int, p: float) -> float:
    """P(X <= k) for X binomial(n, p).

    >>> round(binomial_cdf(0, 3, 0.5), 12)
    0.125
    """
    if k < 0:
        return 0.0
    if k >= n:
        return 1.0
    return float(special.bdtr(k, n, p))


def binomial_quantile(probability: float, n: int, p: float) -> int:
    """The smallest k with P(X <= k) >= ``probability`` for X binomial(n, p).

    >>> binomial_quantile(0.5, 3, 0.5)
    1
    """
    from scipy.stats import binom  # not at the top: see the module docstring

    return int(binom.ppf(probability, n, p))


# --- chi-square and exact multinomial ------------------------------------------------------


def _probabilities(probabilities: Mapping[K, Number]) -> dict[K, float]:
    total = sum(
        Fraction(str(v)) if isinstance(v, float) else Fraction(v) for v in probabilities.values()
    )
    if total <= 0:
        raise ValueError("the probabilities must add up to something positive")
    return {
        key: float((Fraction(str(v)) if isinstance(v, float) else Fraction(v)) / total)
        for key, v in probabilities.items()
    }


def pool_cells(
    expected: Mapping[K, float], min_expected: float = MIN_EXPECTED
) -> list[tuple[K, ...]]:
    """Group cells, rarest first, so every group is expected at least ``min_expected`` times.

    The rarest cells are merged together until their pool reaches the threshold; a pool left
    short at the end joins the previous group. Cells already above the threshold stay alone.

    >>> pool_cells({"a": 1.0, "b": 2.0, "c": 3.0, "d": 20.0, "e": 30.0})
    [('a', 'b', 'c'), ('d',), ('e',)]
    """
    groups: list[list[K]] = []
    current: list[K] = []
    total = 0.0
    for key in sorted(expected, key=lambda k: expected[k]):
        current.append(key)
        total += expected[key]
        if total >= min_expected:
            groups.append(current)
            current, total = [], 0.0
    if current:
        if groups:
            groups[-1].extend(current)
        else:
            groups.append(current)
    return [tuple(group) for group in groups]


def chi_square_test(
    observed: Mapping[K, int],
    probabilities: Mapping[K, Number],
    *,
    min_expected: float = MIN_EXPECTED,
    scale: float = 1.0,
) -> ChiSquareResult | NotEnoughData:
    """Pearson's chi-square test of counts against cell probabilities.

    Cells expected fewer than ``min_expected`` times are pooled (:func:`pool_cells`); the
    degrees of freedom are the tested cells less one. A count in a cell of probability 0
    gives p = 0. ``scale`` divides the statistic (a variance correction). Fewer than two
    cells left after pooling: not enough data.

    A die thrown 60 times, 5, 8, 9, 8, 10, 20 (statistic 13.4, df 5):

    >>> result = chi_square_test(dict(enumerate([5, 8, 9, 8, 10, 20])), {i: 1 for i in range(6)})
    >>> round(result.statistic, 6), result.df, round(result.p_value, 4)
    (13.4, 5, 0.0199)
    """
    probs = _probabilities(probabilities)
    unknown = [key for key, count in observed.items() if count and probs.get(key, 0.0) == 0.0]
    n = sum(observed.values())
    if unknown:
        return ChiSquareResult(math.inf, max(len(probs) - 1, 1), 0.0, (), (), n, scale)
    expected = {key: n * p for key, p in probs.items() if p > 0}
    groups = pool_cells(expected, min_expected)
    if len(groups) < 2 or n == 0:
        return NotEnoughData(
            f"{n} observations: too few for two cells expected {min_expected:g} times"
        )
    cells = []
    statistic = 0.0
    for group in groups:
        seen = sum(observed.get(key, 0) for key in group)
        wanted = sum(expected[key] for key in group)
        statistic += (seen - wanted) ** 2 / wanted
        cells.append((group, seen, wanted))
    statistic /= scale
    df = len(groups) - 1
    return ChiSquareResult(
        statistic=statistic,
        df=df,
        p_value=chi_square_sf(statistic, df),
        cells=tuple(cells),
        pooled=tuple(group for group in groups if len(group) > 1),
        n=n,
        scale=scale,
    )


def exact_multinomial_test(
    observed: Mapping[K, int], probabilities: Mapping[K, Number], *, max_outcomes: int = 2_000_000
) -> ExactTestResult:
    """The exact multinomial test for small samples: the total probability of every way of
    spreading the n observations over the cells that is no likelier than what was seen.

    Enumerates all C(n + k - 1, k - 1) outcomes, so only for small n and few cells
    (``max_outcomes``). Three fair coin-like cells, all 4 observations in one:

    >>> round(exact_multinomial_test({"a": 4, "b": 0, "c": 0}, {"a": 1, "b": 1, "c": 1}).p_value, 6)
    0.037037
    """
    probs = _probabilities(probabilities)
    keys = [key for key in probs if probs[key] > 0]
    if any(observed.get(key, 0) for key in probs if probs[key] == 0) or any(
        count and key not in probs for key, count in observed.items()
    ):
        return ExactTestResult(0.0, sum(observed.values()), "exact multinomial")
    p_value = multinomial_p_value(
        [observed.get(key, 0) for key in keys],
        [probs[key] for key in keys],
        max_outcomes=max_outcomes,
    )
    return ExactTestResult(p_value, sum(observed.get(key, 0) for key in keys), "exact multinomial")


def category_test(
    observed: Mapping[K, int],
    probabilities: Mapping[K, Number],
    *,
    minimum: MinimumSample = HANDS_MINIMUM,
    exact_below: int = 30,
) -> ChiSquareResult | ExactTestResult | NotEnoughData:
    """Hand categories dealt against their exact probabilities: exact multinomial test under
    ``exact_below`` observations (when enumerable), chi-square with pooling above, not enough
    data below ``minimum.rounds`` hands; a category of probability 0 seen gives p = 0 on any
    sample."""
    n = sum(observed.values())
    allowed = {key for key, p in probabilities.items() if p > 0}
    if any(count and key not in allowed for key, count in observed.items()):
        return chi_square_test(observed, probabilities)  # p = 0 on any sample
    short = minimum.check(rounds=n)
    if short is not None:
        return short
    if n < exact_below:
        try:
            return exact_multinomial_test(observed, probabilities)
        except ValueError:  # too many outcomes to enumerate: the chi-square serves instead
            pass
    return chi_square_test(observed, probabilities, min_expected=minimum.min_expected)


# --- binomial and sums ---------------------------------------------------------------------


def binomial_test(
    successes: int, n: int, p: Number, *, exact_max: int = BINOMIAL_EXACT_MAX
) -> BinomialResult:
    """Two-sided test of ``successes`` out of ``n`` against probability ``p``.

    Exact (``scipy.stats.binomtest``: the sum of the probabilities of all counts no likelier
    than the one seen) up to ``exact_max`` trials, then the normal approximation with
    continuity correction.

    >>> round(binomial_test(9, 10, Fraction(1, 2)).p_value, 12)   # 2 * (10 + 1) / 1024
    0.021484375
    """
    if not 0 <= successes <= n:
        raise ValueError("successes must be between 0 and n")
    p = float(p)
    rate = successes / n if n else 0.0
    if n == 0:
        return BinomialResult(successes, n, p, rate, 1.0, "exact")
    if p <= 0 or p >= 1:  # every trial certain: the one possible count, or an impossible one
        certain = 0 if p <= 0 else n
        return BinomialResult(successes, n, p, rate, float(successes == certain), "exact")
    if n <= exact_max:
        from scipy.stats import binomtest  # not at the top: see the module docstring

        p_value = binomtest(successes, n, p).pvalue
        return BinomialResult(successes, n, p, rate, min(1.0, float(p_value)), "exact")
    mean = n * p
    sd = math.sqrt(n * p * (1 - p))
    z = max(abs(successes - mean) - 0.5, 0.0) / sd
    return BinomialResult(successes, n, p, rate, min(1.0, 2 * normal_sf(z)), "normal")


def sum_moments(bets: Iterable[tuple[Number, Number, Number]]) -> tuple[float, float]:
    """The exact mean and variance of a player's net result from the bets placed.

    Each bet is (stake, expected net per unit staked, variance of the net per unit staked);
    bets are independent given the rules, so the mean is the sum of stake * E and the
    variance the sum of stake² * Var.

    >>> sum_moments([(10, Fraction(-1, 40), Fraction(39, 40) ** 2), (20, Fraction(-1, 40), 1)])
    (-0.75, 495.0625)
    """
    mean = Fraction(0)
    variance = Fraction(0)
    for stake, unit_mean, unit_variance in bets:
        s = Fraction(stake)
        mean += s * Fraction(unit_mean)
        variance += s * s * Fraction(unit_variance)
    return float(mean), float(variance)


def z_test(observed: Number, mean: Number, variance: Number) -> ZTestResult:
    """Two-sided z-test of an observed sum (a player's net result, a dealer's wins) against
    its exact mean and variance.

    >>> round(z_test(196, 100, 2500).p_value, 4)   # z = 1.92
    0.0549
    """
    variance = float(variance)
    if variance <= 0:
        raise ValueError("variance must be positive")
    sd = math.sqrt(variance)
    z = (float(observed) - float(mean)) / sd
    return ZTestResult(float(observed), float(mean), sd, z, min(1.0, 2 * normal_sf(abs(z))))


# --- many tests at once ----------------------------------------------------------------------


def benjamini_hochberg(p_values: Sequence[float], q: float = 0.05) -> BHResult:
    """Benjamini-Hochberg false-discovery-rate control across many tests.

    q-value of the i-th smallest of m p-values (``scipy.stats.false_discovery_control``):
    min over j >= i of p_(j) * m / j; the discoveries are the tests whose q-value is at most
    ``q``. Among the tests flagged, the expected share of false alarms is at most ``q``.

    The textbook example (Benjamini & Hochberg 1995, 15 p-values): at q = 0.05 the four
    smallest are discoveries.

    >>> ps = [0.0001, 0.0004, 0.0019, 0.0095, 0.0201, 0.0278, 0.0298, 0.0344, 0.0459,
    ...       0.3240, 0.4262, 0.5719, 0.6528, 0.7590, 1.0000]
    >>> sum(benjamini_hochberg(ps).discoveries)
    4
    """
    from scipy.stats import false_discovery_control  # not at the top: see the module docstring

    q_values = [float(value) for value in false_discovery_control(list(p_values), method="bh")]
    return BHResult(tuple(q_values), tuple(value <= q for value in q_values), q)


# --- charts ----------------------------------------------------------------------------------


def count_band(n: int, p: Number, *, level: float = 0.95, exact: bool = False) -> Band:
    """The range of a cell's count that a fair game stays within ``level`` of the time.

    Normal: n p ± z sqrt(n p (1 - p)) (clipped to 0..n); exact: the binomial quantiles.

    >>> band = count_band(100, Fraction(1, 2))
    >>> round(band.low, 3), round(band.high, 3)
    (40.2, 59.8)
    >>> count_band(100, Fraction(1, 2), exact=True)
    Band(expected=50.0, low=40, high=60)
    """
    p = float(p)
    expected = n * p
    if exact:
        tail = (1 - level) / 2
        return Band(expected, binomial_quantile(tail, n, p), binomial_quantile(1 - tail, n, p))
    z = normal_quantile(1 - (1 - level) / 2)
    half = z * math.sqrt(n * p * (1 - p))
    return Band(expected, max(0.0, expected - half), min(float(n), expected + half))


def category_bands(
    n: int, probabilities: Mapping[K, Number], *, level: float = 0.95, exact: bool = False
) -> dict[K, Band]:
    """:func:`count_band` for every category of a chart of observed against expected."""
    probs = _probabilities(probabilities)
    return {key: count_band(n, p, level=level, exact=exact) for key, p in probs.items()}
