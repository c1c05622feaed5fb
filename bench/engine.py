"""Benchmark of the Niu Niu engine: hand evaluation and box settlement.

Run from the repository root: ``python bench/engine.py`` (or ``make bench``).

Prints human-readable lines and, per figure, one JSON object on its own line:
``{"bench": "engine", "figure": "evaluate_per_s", "value": 312000, "unit": "1/s", ...}``.
Inputs are seeded; each figure is timed after a warm-up, several times, and the median is
reported (the machine is shared and noisy).
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
from niuniu.engine import BetType, Ruleset, evaluate, presets, settle_box

emit = emitter("engine")

SEED = 20240601
RUNS = 7
EVALUATIONS = 100_000
ROUNDS = 2_000
#: docs/RULES.md A1: a round has 1 to 5 player boxes. A full table is 5 boxes + the dealer,
#: i.e. 6 hands, each box with single + double + super bets (15 bets per round).
BOXES_PER_ROUND = 5


def median_rate(work, count: int) -> float:
    """Runs ``work`` once to warm up, then RUNS times; the median of count / seconds."""
    work()
    rates = []
    for _ in range(RUNS):
        started = time.perf_counter()
        work()
        rates.append(count / (time.perf_counter() - started))
    return statistics.median(rates)


def bench_evaluate(rng: random.Random, rules: Ruleset) -> float:
    hands = [tuple(rng.sample(DECK, 5)) for _ in range(EVALUATIONS)]

    def work() -> None:
        for cards in hands:
            evaluate(cards, rules)

    return median_rate(work, len(hands))


def deal_rounds(rng: random.Random, rules: Ruleset) -> list:
    unit = rules.rounding_unit
    rounds = []
    for _ in range(ROUNDS):
        deck: list[Card] = rng.sample(DECK, 5 * (BOXES_PER_ROUND + 1))
        dealer = tuple(deck[:5])
        boxes = []
        for box in range(1, BOXES_PER_ROUND + 1):
            stakes = {
                bet_type: unit * rng.randint(1, 500)
                for bet_type in (BetType.SINGLE, BetType.DOUBLE, BetType.SUPER)
            }
            boxes.append((tuple(deck[5 * box : 5 * box + 5]), stakes))
        rounds.append((dealer, boxes))
    return rounds


def bench_settle(rng: random.Random, rules: Ruleset) -> float:
    rounds = deal_rounds(rng, rules)

    def work() -> None:
        for dealer, boxes in rounds:
            for player, stakes in boxes:
                settle_box(player, dealer, stakes, rules)

    return median_rate(work, len(rounds))


def main() -> None:
    rng = random.Random(SEED)
    vn = presets.get("vn-kr-004")
    macau = presets.get("macau-001")
    vnd = vn.with_rounding_unit(Decimal("1000"))

    evaluate_rate = bench_evaluate(rng, vn)
    print(f"evaluate (vn-kr-004):            {evaluate_rate:12,.0f} hands/s (target 200,000)")
    evaluate_special_rate = bench_evaluate(rng, macau)
    print(f"evaluate (macau-001, Five Face): {evaluate_special_rate:12,.0f} hands/s")
    rounds_rate = bench_settle(rng, vnd)
    print(
        f"settle, 5 boxes + dealer:        {rounds_rate:12,.0f} rounds/s "
        f"({1000 / rounds_rate:.3f} ms a round, {BOXES_PER_ROUND * 3} bets, VND unit 1000)"
    )

    emit("evaluate_per_s", round(evaluate_rate), "1/s", target=200_000)
    emit("evaluate_special_hands_per_s", round(evaluate_special_rate), "1/s")
    emit("settle_rounds_per_s_6hands", round(rounds_rate), "1/s")
    emit("settle_ms_per_round_6hands", round(1000 / rounds_rate, 4), "ms")


if __name__ == "__main__":
    main()
