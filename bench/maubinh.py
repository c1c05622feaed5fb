"""Benchmark of the Mau Binh engine: table settlement and the arrangement advice.

Run from the repository root: ``python bench/maubinh.py``.

Prints human-readable lines and, per figure, one JSON object on its own line:
``{"bench": "maubinh", "figure": "settle_tables_per_s_4p", "value": 8100, "unit": "1/s", ...}``.
Inputs are seeded and already parsed into card tuples; each figure is timed after a warm-up and
the median is reported (the machine is shared and noisy).

Figures:

- ``settle_tables_per_s_4p``: ``settle_table`` for 4 players, rows cut from random deals in
  deal order (so about 9 hands in 10 are fouled and the foul path dominates);
- ``settle_tables_per_s_4p_arranged``: the same with every hand laid out by
  ``suggest_arrangement`` (clean hands, rows compared, instant wins where dealt);
- ``arrange_median_ms`` / ``arrange_p95_ms``: ``suggest_arrangement`` per 13-card hand.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from decimal import Decimal
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.common import emitter
from casino.kernel.cards import DECK, Card
from maubinh.engine import Ruleset, presets, settle_table, suggest_arrangement

emit = emitter("maubinh")

SEED = 20160513
RUNS = 7
TABLES = 2_000
ARRANGED_TABLES = 60  # x 4 hands, arranged once; timed like TABLES
HANDS = 150
PLAYERS = 4
SETTLE_TARGET = 5_000
ARRANGE_TARGET_MS = 50

Rows = tuple[tuple[Card, ...], tuple[Card, ...], tuple[Card, ...]]


def median_rate(work, count: int) -> float:
    """Runs ``work`` once to warm up, then RUNS times; the median of count / seconds."""
    work()
    rates = []
    for _ in range(RUNS):
        started = time.perf_counter()
        work()
        rates.append(count / (time.perf_counter() - started))
    return statistics.median(rates)


def deal(rng: random.Random) -> list[tuple[Card, ...]]:
    deck = rng.sample(DECK, 52)
    return [tuple(deck[13 * seat : 13 * seat + 13]) for seat in range(PLAYERS)]


def cut(cards: tuple[Card, ...]) -> Rows:
    return cards[:5], cards[5:10], cards[10:]


def bench_settle(tables: list[dict[int, Rows]], rules: Ruleset) -> float:
    stake = Decimal("1000")

    def work() -> None:
        for table in tables:
            settle_table(table, stake, rules)

    return median_rate(work, len(tables))


def bench_arrange(rng: random.Random, rules: Ruleset) -> list[float]:
    hands = [tuple(rng.sample(DECK, 13)) for _ in range(HANDS)]
    suggest_arrangement(hands[0], rules)  # warm-up: builds the split tables once
    times = []
    for hand in hands:
        started = time.perf_counter()
        suggest_arrangement(hand, rules)
        times.append((time.perf_counter() - started) * 1000)
    return times


def main() -> None:
    rules = presets.get("bigkool-2016")
    rng = random.Random(SEED)
    print(f"Mau Binh engine benchmark, seed {SEED}, ruleset {rules.code}")

    raw_tables = [dict(enumerate(cut(hand) for hand in deal(rng))) for _ in range(TABLES)]
    rate = bench_settle(raw_tables, rules)
    print(f"settle_table, {PLAYERS} players, rows as dealt: {rate:,.0f} tables/s")
    emit("settle_tables_per_s_4p", round(rate), "1/s", SETTLE_TARGET)

    times = bench_arrange(rng, rules)
    median_ms = statistics.median(times)
    p95_ms = statistics.quantiles(times, n=20)[-1]
    print(f"suggest_arrangement: median {median_ms:.1f} ms, p95 {p95_ms:.1f} ms ({HANDS} hands)")
    emit("arrange_median_ms", round(median_ms, 1), "ms", ARRANGE_TARGET_MS)
    emit("arrange_p95_ms", round(p95_ms, 1), "ms")

    arranged = [
        {seat: suggest_arrangement(hand, rules) for seat, hand in enumerate(deal(rng))}
        for _ in range(ARRANGED_TABLES)
    ]
    repeats = max(1, TABLES // ARRANGED_TABLES)
    rate = bench_settle(arranged * repeats, rules)
    print(f"settle_table, {PLAYERS} players, arranged hands: {rate:,.0f} tables/s")
    emit("settle_tables_per_s_4p_arranged", round(rate), "1/s", SETTLE_TARGET)


if __name__ == "__main__":
    main()
