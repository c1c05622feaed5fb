"""Benchmark of the Niu Niu odds: the exact computation and the Monte Carlo estimator.

Run from the repository root: ``python bench/odds.py`` (or ``make bench``).

Prints human-readable lines and, per figure, one JSON object on its own line:
``{"bench": "odds", "figure": "exact_seconds", "value": 0.9, "unit": "s", "target": 10}``.

- The exact computation runs cold (nothing cached) in a fresh interpreter per run, so its
  time and its peak memory (``ru_maxrss`` of that process, interpreter and numpy included)
  are what the admin's first computation of a new paytable costs. Median of ``RUNS``.
- The Monte Carlo estimator runs here after a warm-up: median rounds per second.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.common import emitter
from niuniu.engine import presets
from niuniu.engine.montecarlo import simulate

emit = emitter("odds")

ROOT = Path(__file__).resolve().parents[1]
SEED = 20240601
RUNS = 3
MONTE_CARLO_ROUNDS = 2_000_000
EXACT_TARGET_S = 10
PEAK_TARGET_MB = 1024
# "Millions of rounds per minute or better".
MONTE_CARLO_TARGET_PER_MIN = 1_000_000

# Runs in a fresh interpreter: import, then one cold computation, then one warm one.
_CHILD = """
import json, resource, sys, time
sys.path.insert(0, {root!r})
from niuniu.engine import presets
from niuniu.engine.odds import ruleset_odds
rules = presets.get({code!r})
imported_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
started = time.perf_counter()
odds = ruleset_odds(rules)
cold = time.perf_counter() - started
started = time.perf_counter()
ruleset_odds(rules)
warm = time.perf_counter() - started
print(json.dumps({{
    "cold_s": cold,
    "warm_s": warm,
    "peak_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
    "imported_kb": imported_kb,
    "bets": [b.value for b in odds.bets],
}}))
"""


def exact_run(code: str) -> dict:
    completed = subprocess.run(  # noqa: S603 - our own interpreter and a fixed script
        [sys.executable, "-c", _CHILD.format(root=str(ROOT), code=code)],
        check=True,
        capture_output=True,
        text=True,
    )
    return json.loads(completed.stdout)


def bench_exact(code: str) -> dict[str, float]:
    runs = [exact_run(code) for _ in range(RUNS)]
    return {
        "cold_s": statistics.median(run["cold_s"] for run in runs),
        "warm_ms": statistics.median(run["warm_s"] for run in runs) * 1000,
        "peak_mb": max(run["peak_kb"] for run in runs) / 1024,
        "imported_mb": max(run["imported_kb"] for run in runs) / 1024,
        "bets": runs[0]["bets"],
    }


def bench_monte_carlo(code: str) -> float:
    rules = presets.get(code)
    simulate(rules, 200_000, seed=SEED)  # warm-up
    rates = []
    for run in range(RUNS):
        started = time.perf_counter()
        simulate(rules, MONTE_CARLO_ROUNDS, seed=SEED + run)
        rates.append(MONTE_CARLO_ROUNDS / (time.perf_counter() - started))
    return statistics.median(rates)


def main() -> None:
    exact = {code: bench_exact(code) for code in presets.CODES}
    for code, figures in exact.items():
        print(
            f"exact odds, {code} ({', '.join(figures['bets'])}): "
            f"{figures['cold_s']:.2f} s cold (target {EXACT_TARGET_S} s), "
            f"{figures['warm_ms']:.2f} ms with the counts cached, "
            f"peak {figures['peak_mb']:.0f} MB (after imports {figures['imported_mb']:.0f} MB; "
            f"target {PEAK_TARGET_MB} MB)"
        )
    rate = bench_monte_carlo("macau-001")
    print(
        f"Monte Carlo, macau-001 (4 bets): {rate:,.0f} rounds/s = {rate * 60:,.0f} rounds/min "
        f"({MONTE_CARLO_ROUNDS:,} rounds a run)"
    )

    slowest = max(exact.values(), key=lambda figures: figures["cold_s"])
    emit("exact_seconds", round(slowest["cold_s"], 3), "s", target=EXACT_TARGET_S)
    emit(
        "exact_peak_mb",
        round(max(figures["peak_mb"] for figures in exact.values())),
        "MB",
        target=PEAK_TARGET_MB,
    )
    for code, figures in exact.items():
        suffix = code.replace("-", "_")
        emit(f"exact_seconds_{suffix}", round(figures["cold_s"], 3), "s", target=EXACT_TARGET_S)
        emit(f"exact_cached_ms_{suffix}", round(figures["warm_ms"], 3), "ms")
    emit("montecarlo_rounds_per_s", round(rate), "1/s")
    emit("montecarlo_rounds_per_min", round(rate * 60), "1/min", target=MONTE_CARLO_TARGET_PER_MIN)


if __name__ == "__main__":
    main()
