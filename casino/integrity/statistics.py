"""Statistical tests of game integrity: are the cards, hands and results what fair play gives?

Everything here is game-neutral and pure: a category is an opaque key with an exact probability
(a game's odds engine supplies them), a card is a canonical card of :mod:`casino.cards`. Each test
returns a frozen result with its p-value, or :class:`NotEnoughData` when the sample is too small
to say anything (docs/INTEGRITY.md explains each test to a manager).

P-values use this module's own special functions: the regularized upper incomplete gamma
function (chi-square tail) and the complementary error function (normal tail).

>>> round(chi_square_sf(3.841458820694124, 1), 10)
0.05
>>> benjamini_hochberg([0.01, 0.04, 0.03, 0.005], q=0.05).discoveries
(True, True, True, True)
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import TypeVar

from casino.cards import DECK, RANKS, SUITS, Card, parse_card

K = TypeVar("K", bound=Hashable)
Number = int | float | Fraction | Decimal

#: A cell's expected count below which cells are pooled (the usual chi-square rule).
MIN_EXPECTED = 5.0
#: Above this many trials the binomial test uses the normal approximation.
BINOMIAL_EXACT_MAX = 200_000
_EPS = 1e-15
_TINY = 1e-300
_RELATIVE = 1 + 1e-7  # outcomes this close in probability count as equally extreme


# --- special functions -------------------------------------------------------------------


def regularized_gamma_q(a: float, x: float) -> float:
    """The regularized upper incomplete gamma function Q(a, x) = Γ(a, x) / Γ(a).

    A power series for x < a + 1, otherwise a continued fraction (modified Lentz); both
    converge to about 1e-15 relative.

    >>> round(regularized_gamma_q(1.0, 1.0), 12) == round(math.exp(-1), 12)
    True
    >>> regularized_gamma_q(2.5, 0.0)
    1.0
    """
    if a <= 0:
        raise ValueError("a must be positive")
    if x < 0:
        raise ValueError("x must not be negative")
    if x == 0:
        return 1.0
    log_prefix = -x + a * math.log(x) - math.lgamma(a)
    if x < a + 1:
        term = total = 1.0 / a
        ap = a
        for _ in range(10_000):
            ap += 1
            term *= x / ap
            total += term
            if abs(term) < abs(total) * _EPS:
                break
        return max(0.0, 1.0 - total * math.exp(log_prefix))
    b = x + 1 - a
    c = 1 / _TINY
    d = 1 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        if abs(d) < _TINY:
            d = _TINY
        c = b + an / c
        if abs(c) < _TINY:
            c = _TINY
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < _EPS:
            break
    return math.exp(log_prefix) * h


def chi_square_sf(statistic: float, df: int) -> float:
    """P(X >= statistic) for X chi-square with ``df`` degrees of freedom.

    >>> round(chi_square_sf(11.070497693516351, 5), 10)
    0.05
    """
    if df < 1:
        raise ValueError("df must be at least 1")
    return regularized_gamma_q(df / 2, max(statistic, 0.0) / 2)


def normal_sf(z: float) -> float:
    """P(Z >= z) for a standard normal Z.

    >>> round(normal_sf(1.959963984540054), 10)
    0.025
    """
    return 0.5 * math.erfc(z / math.sqrt(2))


def normal_quantile(probability: float) -> float:
    """The z with P(Z <= z) = ``probability`` (bisection on :func:`normal_sf`, to 1e-12).

    >>> round(normal_quantile(0.975), 6)
    1.959964
    """
    if not 0 < probability < 1:
        raise ValueError("probability must be strictly between 0 and 1")
    low, high = -40.0, 40.0
    while high - low > 1e-12:
        mid = (low + high) / 2
        if 1 - normal_sf(mid) < probability:
            low = mid
        else:
            high = mid
    return (low + high) / 2


def _log_binomial_pmf(k: int, n: int, p: float) -> float:
    if p <= 0:
        return 0.0 if k == 0 else -math.inf
    if p >= 1:
        return 0.0 if k == n else -math.inf
    return (
        math.lgamma(n + 1)
        - math.lgamma(k + 1)
        - math.lgamma(n - k + 1)
        + k * math.log(p)
        + (n - k) * math.log1p(-p)
    )


def binomial_cdf(k: int, n: int, p: float) -> float:
    """P(X <= k) for X binomial(n, p), summed exactly.

    >>> round(binomial_cdf(0, 3, 0.5), 12)
    0.125
    """
    if k < 0:
        return 0.0
    if k >= n:
        return 1.0
    return min(1.0, sum(math.exp(_log_binomial_pmf(i, n, p)) for i in range(k + 1)))


def binomial_quantile(probability: float, n: int, p: float) -> int:
    """The smallest k with P(X <= k) >= ``probability`` for X binomial(n, p)."""
    total = 0.0
    for k in range(n + 1):
        total += math.exp(_log_binomial_pmf(k, n, p))
        if total >= probability * (1 - 1e-12):
            return k
    return n


# --- results -----------------------------------------------------------------------------


@dataclass(frozen=True)
class NotEnoughData:
    """Returned instead of a p-value when the sample is below the minimum."""

    reason: str
    rounds: int = 0
    required_rounds: int = 0


@dataclass(frozen=True)
class MinimumSample:
    """The sample a test needs before it may alert: rounds and an expected count per cell.

    >>> MinimumSample(rounds=200).check(rounds=50)
    NotEnoughData(reason='50 rounds, 200 needed', rounds=50, required_rounds=200)
    >>> MinimumSample(rounds=200).check(rounds=500) is None
    True
    """

    rounds: int = 200
    min_expected: float = MIN_EXPECTED

    def check(self, *, rounds: int, expected: Iterable[float] = ()) -> NotEnoughData | None:
        if rounds < self.rounds:
            return NotEnoughData(f"{rounds} rounds, {self.rounds} needed", rounds, self.rounds)
        expected = list(expected)
        if expected and sum(expected) < 2 * self.min_expected:
            return NotEnoughData(
                f"expected counts total {sum(expected):.1f}, under {2 * self.min_expected:g}",
                rounds,
                self.rounds,
            )
        return None


@dataclass(frozen=True)
class ChiSquareResult:
    """A chi-square goodness-of-fit test after pooling the cells expected fewer than 5 times.

    ``cells`` are the tested cells (each a tuple of the original keys: more than one key
    when pooled), with their observed and expected counts; ``pooled`` lists only the pooled
    ones. ``scale`` is what the statistic was divided by (1 unless corrected, see
    :func:`card_frequency_test`).
    """

    statistic: float
    df: int
    p_value: float
    cells: tuple[tuple[tuple[Hashable, ...], int, float], ...]
    pooled: tuple[tuple[Hashable, ...], ...]
    n: int
    scale: float = 1.0


@dataclass(frozen=True)
class ExactTestResult:
    """An exact test's p-value: the probability of every outcome no likelier than the one seen."""

    p_value: float
    n: int
    method: str


@dataclass(frozen=True)
class BinomialResult:
    successes: int
    n: int
    p: float
    observed_rate: float
    p_value: float
    method: str  # "exact" or "normal"


@dataclass(frozen=True)
class ZTestResult:
    """An observed sum against its exact mean and variance (two-sided)."""

    observed: float
    mean: float
    sd: float
    z: float
    p_value: float


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


@dataclass(frozen=True)
class BHResult:
    """Benjamini-Hochberg: each p-value's adjusted q-value and whether it is a discovery."""

    q_values: tuple[float, ...]
    discoveries: tuple[bool, ...]
    level: float


@dataclass(frozen=True)
class Band:
    """A cell's expected count and the range a fair game keeps it in 95% of the time."""

    expected: float
    low: float
    high: float


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
    n = sum(observed.get(key, 0) for key in keys)
    k = len(keys)
    if math.comb(n + k - 1, k - 1) > max_outcomes:
        raise ValueError("too many outcomes to enumerate: use chi_square_test")
    logs = [math.log(probs[key]) for key in keys]
    log_fact = [math.lgamma(i + 1) for i in range(n + 1)]

    def log_pmf(counts: Sequence[int]) -> float:
        return log_fact[n] + sum(c * lp - log_fact[c] for c, lp in zip(counts, logs, strict=True))

    seen = log_pmf([observed.get(key, 0) for key in keys])
    threshold = seen + math.log(_RELATIVE)
    total = 0.0
    counts = [0] * k

    def walk(cell: int, left: int, partial: float) -> None:
        nonlocal total
        if cell == k - 1:
            value = log_fact[n] + partial + left * logs[cell] - log_fact[left]
            if value <= threshold:
                total += math.exp(value)
            return
        for c in range(left + 1):
            counts[cell] = c
            walk(cell + 1, left - c, partial + c * logs[cell] - log_fact[c])

    walk(0, n, 0.0)
    return ExactTestResult(min(1.0, total), n, "exact multinomial")


def category_test(
    observed: Mapping[K, int],
    probabilities: Mapping[K, Number],
    *,
    minimum: MinimumSample = MinimumSample(),
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

    Exact (sum of the probabilities of all counts no likelier than the one seen) up to
    ``exact_max`` trials, then the normal approximation with continuity correction.

    >>> round(binomial_test(9, 10, Fraction(1, 2)).p_value, 12)   # 2 * (10 + 1) / 1024
    0.021484375
    """
    if not 0 <= successes <= n:
        raise ValueError("successes must be between 0 and n")
    p = float(p)
    rate = successes / n if n else 0.0
    if n == 0:
        return BinomialResult(successes, n, p, rate, 1.0, "exact")
    if n <= exact_max:
        seen = _log_binomial_pmf(successes, n, p)
        threshold = seen + math.log(_RELATIVE)
        total = 0.0
        for k in range(n + 1):
            value = _log_binomial_pmf(k, n, p)
            if value <= threshold:
                total += math.exp(value)
        return BinomialResult(successes, n, p, rate, min(1.0, total), "exact")
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


# --- cards ---------------------------------------------------------------------------------


def _poisson_binomial_cdf(k: int, ps: Sequence[float]) -> float:
    """P(X <= k) for X a sum of independent Bernoulli(p_i) (exact, truncated at k)."""
    dist = [1.0] + [0.0] * k
    for p in ps:
        q = 1 - p
        for j in range(k, 0, -1):
            dist[j] = dist[j] * q + dist[j - 1] * p
        dist[0] *= q
    return min(1.0, sum(dist))


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
    minimum: MinimumSample = MinimumSample(rounds=20),
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

    >>> from casino.cards import DECK
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
        ps = [m / shoe for m, r in sorted(by_size.items()) for _round in range(r)]
        low_tail = _poisson_binomial_cdf(low, ps)
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


# --- many tests at once ----------------------------------------------------------------------


def benjamini_hochberg(p_values: Sequence[float], q: float = 0.05) -> BHResult:
    """Benjamini-Hochberg false-discovery-rate control across many tests.

    q-value of the i-th smallest of m p-values: min over j >= i of p_(j) * m / j; the
    discoveries are the tests whose q-value is at most ``q``. Among the tests flagged, the
    expected share of false alarms is at most ``q``.

    The textbook example (Benjamini & Hochberg 1995, 15 p-values): at q = 0.05 the four
    smallest are discoveries.

    >>> ps = [0.0001, 0.0004, 0.0019, 0.0095, 0.0201, 0.0278, 0.0298, 0.0344, 0.0459,
    ...       0.3240, 0.4262, 0.5719, 0.6528, 0.7590, 1.0000]
    >>> sum(benjamini_hochberg(ps).discoveries)
    4
    """
    m = len(p_values)
    order = sorted(range(m), key=lambda i: p_values[i])
    q_values = [1.0] * m
    running = 1.0
    for rank in range(m, 0, -1):
        i = order[rank - 1]
        running = min(running, p_values[i] * m / rank)
        q_values[i] = min(1.0, running)
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


# --- detection power ------------------------------------------------------------------------


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
    za = normal_quantile(1 - alpha / 2)
    zb = normal_quantile(power)
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
    za = normal_quantile(1 - alpha / 2)
    zb = normal_quantile(power)
    shift = float(mean1) - float(mean0)
    if shift == 0:
        raise ValueError("no shift to detect")
    n = ((za * float(sd0) + zb * float(sd1)) / shift) ** 2
    return math.ceil(n / per_round)


def rounds_to_detect_missing_card(
    cards_per_round: int, *, alpha: float = 0.05, deck: int = 52
) -> int:
    """Rounds after which a card absent from a one-deck shoe makes the card test alert.

    The card is certain to show 0; the test alerts once 52 * (1 - m/52)^R < alpha (four
    parts, Bonferroni: alpha / 4 for the combined p-value).

    >>> rounds_to_detect_missing_card(15)
    25
    """
    share = cards_per_round / deck
    target = alpha / 4 / deck
    return math.ceil(math.log(target) / math.log1p(-share))
