"""What the integrity tests return, and the sample a test needs before it may alert.

Frozen records, shared by :mod:`casino.integrity.statistics` (which re-exports them) and
:mod:`casino.integrity.cards`.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from dataclasses import dataclass

#: A cell's expected count below which cells are pooled (the usual chi-square rule).
MIN_EXPECTED = 5.0
#: The parts the card test's p-value combines (Bonferroni: this many times the smallest):
#: ranks and suits by chi-square, each rank alone, the rarest and the commonest card
#: (:mod:`casino.integrity.cards`; :mod:`casino.integrity.power` counts rounds with it).
CARD_PARTS = 5


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
