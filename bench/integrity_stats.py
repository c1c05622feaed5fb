"""Benchmark of the integrity statistics: scipy against the hand-written code it replaced.

Run from the repository root: ``.venv/bin/python bench/integrity_stats.py``.

The functions ``casino/integrity/statistics.py`` once wrote out by hand (a series and a
continued fraction for the chi-square tail, a bisection for the normal quantile, Python loops
over every count for the binomial, a sort for Benjamini-Hochberg, one step per round for the
Poisson-binomial tail) are kept below, in this script only, and timed side by side in one
run with what the package calls now, on the same arguments (and the package's Poisson-binomial
tail against ``scipy.stats.poisson_binom``, which it does not use). Each figure is the median of
``RUNS`` timings after a warm-up, in microseconds a call; ``*_vs_old`` is old / now (above 1:
the package is faster now). Before timing, each pair's answers are checked to agree.

Prints one JSON object per figure:
``{"bench": "integrity_stats", "figure": "chi_square_sf_df5_vs_old", "value": 16, "unit": "x"}``.
Last, in a fresh interpreter, seconds and peak resident memory of importing
``casino.integrity.statistics`` (scipy.special with it) and of the first call that loads
scipy.stats.
"""

from __future__ import annotations

import math
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from scipy.stats import poisson_binom  # noqa: E402 (after the path)

from bench.common import emitter  # noqa: E402
from casino.integrity import statistics as st  # noqa: E402
from casino.integrity.exact import poisson_binomial_cdf  # noqa: E402

emit = emitter("integrity_stats")

RUNS = 7
SEED = 2026
#: Each timing lasts at least this long (calls are repeated to fill it).
MIN_SECONDS = 0.05

# --- the hand-written code the package used before scipy (kept here only) ------------------

_EPS = 1e-15
_TINY = 1e-300
_RELATIVE = 1 + 1e-7


def old_regularized_gamma_q(a: float, x: float) -> float:
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


def old_chi_square_sf(statistic: float, df: int) -> float:
    return old_regularized_gamma_q(df / 2, max(statistic, 0.0) / 2)


def old_normal_sf(z: float) -> float:
    return 0.5 * math.erfc(z / math.sqrt(2))


def old_normal_quantile(probability: float) -> float:
    low, high = -40.0, 40.0
    while high - low > 1e-12:
        mid = (low + high) / 2
        if 1 - old_normal_sf(mid) < probability:
            low = mid
        else:
            high = mid
    return (low + high) / 2


def _log_binomial_pmf(k: int, n: int, p: float) -> float:
    return (
        math.lgamma(n + 1)
        - math.lgamma(k + 1)
        - math.lgamma(n - k + 1)
        + k * math.log(p)
        + (n - k) * math.log1p(-p)
    )


def old_binomial_cdf(k: int, n: int, p: float) -> float:
    return min(1.0, sum(math.exp(_log_binomial_pmf(i, n, p)) for i in range(k + 1)))


def old_binomial_quantile(probability: float, n: int, p: float) -> int:
    total = 0.0
    for k in range(n + 1):
        total += math.exp(_log_binomial_pmf(k, n, p))
        if total >= probability * (1 - 1e-12):
            return k
    return n


def old_binomial_test(successes: int, n: int, p: float) -> float:
    threshold = _log_binomial_pmf(successes, n, p) + math.log(_RELATIVE)
    total = 0.0
    for k in range(n + 1):
        value = _log_binomial_pmf(k, n, p)
        if value <= threshold:
            total += math.exp(value)
    return min(1.0, total)


def old_benjamini_hochberg(p_values: Sequence[float]) -> list[float]:
    m = len(p_values)
    order = sorted(range(m), key=lambda i: p_values[i])
    q_values = [1.0] * m
    running = 1.0
    for rank in range(m, 0, -1):
        i = order[rank - 1]
        running = min(running, p_values[i] * m / rank)
        q_values[i] = min(1.0, running)
    return q_values


def old_poisson_binomial_cdf(k: int, ps: Sequence[float]) -> float:
    dist = [1.0] + [0.0] * k
    for p in ps:
        q = 1 - p
        for j in range(k, 0, -1):
            dist[j] = dist[j] * q + dist[j - 1] * p
        dist[0] *= q
    return min(1.0, sum(dist))


# --- timing --------------------------------------------------------------------------------


def per_call_us(call: Callable[[], object]) -> float:
    """The median over RUNS of one call's time in microseconds (calls repeated to fill
    MIN_SECONDS), after a warm-up that also sizes the repetitions."""
    started = time.perf_counter()
    call()
    once = max(time.perf_counter() - started, 1e-7)
    repeat = max(1, math.ceil(MIN_SECONDS / once))
    times = []
    for _ in range(RUNS):
        started = time.perf_counter()
        for _ in range(repeat):
            call()
        times.append((time.perf_counter() - started) / repeat)
    return statistics.median(times) * 1e6


def compare(
    name: str,
    old: Callable[[], object],
    new: Callable[[], object],
    rel: float,
    baseline: str = "old",
) -> None:
    """Checks the two answers agree within ``rel``, then times both and emits
    ``{name}_{baseline}_us``, ``{name}_us`` (the package now) and ``{name}_vs_{baseline}``
    (their ratio)."""
    a, b = old(), new()
    pairs = zip(a, b, strict=True) if isinstance(a, list) else [(a, b)]
    for x, y in pairs:
        if not math.isclose(float(x), float(y), rel_tol=rel, abs_tol=1e-300):
            raise SystemExit(f"{name}: {baseline} gives {x}, the package {y}")
    old_us, new_us = per_call_us(old), per_call_us(new)
    print(f"{name}: {baseline} {old_us:,.1f} µs, now {new_us:,.1f} µs, {old_us / new_us:,.1f}x")
    emit(f"{name}_{baseline}_us", round(old_us, 2), "us")
    emit(f"{name}_us", round(new_us, 2), "us")
    emit(f"{name}_vs_{baseline}", round(old_us / new_us, 2), "x")


def import_cost() -> None:
    """In a fresh interpreter that has numpy (the reports load it): the seconds and memory of
    importing the statistics (scipy.special with them; every web process pays this), then of
    the first call that needs scipy.stats (only the integrity run's process pays this).
    Memory is the peak resident set of /proc/self/status (Linux; ``ru_maxrss`` would carry
    this benchmark's own peak over into the child)."""
    code = f"""
import re, sys, time
sys.path.insert(0, {str(ROOT)!r})
import numpy

def mb():
    with open("/proc/self/status") as status:
        return int(re.search(r"VmHWM:\\s+(\\d+)", status.read())[1]) / 1024

base, t = mb(), time.perf_counter()
from casino.integrity import statistics
imported, imported_mb, t = time.perf_counter() - t, mb(), time.perf_counter()
statistics.benjamini_hochberg([0.5])
print(imported, imported_mb - base, time.perf_counter() - t, mb() - imported_mb)
"""
    runs = []
    for _ in range(RUNS):
        done = subprocess.run(  # noqa: S603 (this interpreter)
            [sys.executable, "-c", code], capture_output=True, text=True, check=True
        )
        runs.append([float(value) for value in done.stdout.split()])
    columns = zip(*runs, strict=True)
    import_s, import_mb, stats_s, stats_mb = (statistics.median(column) for column in columns)
    print(
        f"import casino.integrity.statistics: {import_s:.2f} s, +{import_mb:.0f} MB; "
        f"then scipy.stats on first use: {stats_s:.2f} s, +{stats_mb:.0f} MB"
    )
    emit("import_s", round(import_s, 3), "s")
    emit("import_extra_mb", round(import_mb, 1), "MB")
    emit("first_scipy_stats_call_s", round(stats_s, 3), "s")
    emit("first_scipy_stats_call_extra_mb", round(stats_mb, 1), "MB")


def main() -> None:
    rng = random.Random(SEED)
    compare(
        "chi_square_sf_df5",
        lambda: old_chi_square_sf(13.4, 5),
        lambda: st.chi_square_sf(13.4, 5),
        1e-9,
    )
    compare(
        "chi_square_sf_df100",
        lambda: old_chi_square_sf(124.3, 100),
        lambda: st.chi_square_sf(124.3, 100),
        1e-9,
    )
    compare("normal_sf", lambda: old_normal_sf(1.96), lambda: st.normal_sf(1.96), 1e-12)
    compare(
        "normal_quantile",
        lambda: old_normal_quantile(0.975),
        lambda: st.normal_quantile(0.975),
        1e-9,
    )
    compare(
        "binomial_cdf_n1000",
        lambda: old_binomial_cdf(240, 1000, 0.25),
        lambda: st.binomial_cdf(240, 1000, 0.25),
        1e-9,
    )
    compare(
        "binomial_quantile_n1000",
        lambda: old_binomial_quantile(0.975, 1000, 0.25),
        lambda: st.binomial_quantile(0.975, 1000, 0.25),
        0,
    )
    for n in (1000, 200_000):  # the run's exact limit; the module's default limit
        k = round(n * 0.505)
        compare(
            f"binomial_test_n{n}",
            lambda n=n, k=k: old_binomial_test(k, n, 0.5),
            lambda n=n, k=k: st.binomial_test(k, n, 0.5).p_value,
            1e-9,
        )
    p_values = [rng.random() ** 3 for _ in range(3200)]  # a gaming day's tests (bench/integrity)
    compare(
        "benjamini_hochberg_3200",
        lambda: old_benjamini_hochberg(p_values),
        lambda: list(st.benjamini_hochberg(p_values).q_values),
        1e-12,
    )
    # The rarest card's lower tail (the card test computes it exactly up to a count of 200):
    # 600 rounds of 10 to 25 cards, a card expected 202 times, seen 170. The old loop over
    # every round, the package's convolution per round size, scipy's poisson_binom.
    sizes = [rng.choice((10, 15, 20, 25)) for _ in range(600)]
    ps = [m / 52 for m in sizes]
    by_p = {m / 52: sizes.count(m) for m in set(sizes)}
    low = 170
    compare(
        "poisson_binomial_cdf_600_rounds",
        lambda: old_poisson_binomial_cdf(low, ps),
        lambda: poisson_binomial_cdf(low, by_p),
        1e-9,
    )
    compare(
        "poisson_binomial_cdf_600_rounds",
        lambda: float(poisson_binom.cdf(low, ps)),
        lambda: poisson_binomial_cdf(low, by_p),
        1e-9,
        baseline="scipy_poisson_binom",
    )
    import_cost()


if __name__ == "__main__":
    main()
