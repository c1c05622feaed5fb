"""The Baccarat engine: exact odds of a whole eight-deck ruleset, and rounds settled per second.

- Exact odds: ``ruleset_odds`` of the commission preset, cold (its cache cleared before each
  run), the median of five runs. Target: <= 2 s.
- Settling: a seven-seat round (every seat on Player or Banker, a Tie and a side bet) dealt
  from a shuffled eight-deck shoe and settled by ``evaluate_round``, rounds per second over
  a few thousand rounds, the median of five runs. Target: >= 5,000 rounds/s.

Each figure comes twice: by the wall clock (``time.perf_counter``) and by this process's CPU
time (``time.process_time``, the ``_cpu`` figures). On a shared machine the wall clock also
counts the time other processes held the cores; the CPU figure is the engine's own cost.

Pure Python, no database: ``.venv/bin/python bench/baccarat.py``.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from decimal import Decimal
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.common import emitter  # noqa: E402 (after the path)

emit = emitter("baccarat")

RUNS = 5
ROUNDS = 5_000
TARGET_ODDS_S = 2.0
TARGET_ROUNDS_PER_S = 5_000


def deals(rules, count: int, seed: int = 7) -> list:
    """``count`` deals from shuffled shoes, each the four to six cards the tableau takes from
    the top of the shoe in deal order."""
    from baccarat.engine import hands_so_far
    from casino.kernel.cards import DECK

    rng = random.Random(seed)
    shoe: list = []
    out = []
    while len(out) < count:
        if len(shoe) < 6:
            shoe = list(DECK) * rules.decks
            rng.shuffle(shoe)
        used = 4
        while not hands_so_far(shoe[:used], rules).complete:
            used += 1
        out.append(tuple(shoe[:used]))
        del shoe[:used]
    return out


def main() -> None:
    from baccarat.engine import evaluate_round, presets
    from baccarat.engine.odds import outcome_counts, ruleset_odds

    rules = presets.get("commission")
    seconds, cpu_seconds = [], []
    for _ in range(RUNS):
        outcome_counts.cache_clear()
        start, cpu_start = time.perf_counter(), time.process_time()
        ruleset_odds(rules)
        seconds.append(time.perf_counter() - start)
        cpu_seconds.append(time.process_time() - cpu_start)
    emit("exact_odds_8_decks", statistics.median(seconds), "s", TARGET_ODDS_S)
    emit("exact_odds_8_decks_cpu", statistics.median(cpu_seconds), "s", TARGET_ODDS_S)

    bets = [
        {"player": Decimal(100), "tie": Decimal(10)},
        {"banker": Decimal(150), "super6": Decimal(10)},
        {"banker": Decimal(500)},
        {"player": Decimal(200), "player_pair": Decimal(20)},
        {"banker": Decimal(300), "banker_pair": Decimal(20)},
        {"player": Decimal(50)},
        {"banker": Decimal(1000), "tie": Decimal(50)},
    ]
    seats = dict(enumerate(bets, 1))
    rounds = deals(rules, ROUNDS)
    rates, cpu_rates = [], []
    for _ in range(RUNS):
        start, cpu_start = time.perf_counter(), time.process_time()
        for cards in rounds:
            evaluate_round(cards, seats, rules)
        rates.append(len(rounds) / (time.perf_counter() - start))
        cpu_rates.append(len(rounds) / (time.process_time() - cpu_start))
    emit("settle_7_seats", statistics.median(rates), "rounds/s", TARGET_ROUNDS_PER_S)
    emit("settle_7_seats_cpu", statistics.median(cpu_rates), "rounds/s", TARGET_ROUNDS_PER_S)


if __name__ == "__main__":
    main()
