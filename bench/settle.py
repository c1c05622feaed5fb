"""Settling rounds through the services on PostgreSQL: latency and queries per settle.

A round here is the largest Niu Niu round: five player boxes and the dealer (six hands,
docs/RULES.md A1 allows at most five boxes), every box with all four bets of the macau-001
ruleset (single, double, super, bonus). Each round is dealt with ``round_create``, then
``round_settle`` is timed alone. Queries per settle are counted for 1 box and 5 boxes.

Runs against its own database (``casino_bench``, or ``{prefix}_bench`` with
``LOADTEST_DB_PREFIX``, on the local PostgreSQL unless ``BENCH_DATABASE_URL`` says
otherwise), created and migrated on each run.
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.common import database_url, django_on_fresh_database, emitter  # noqa: E402 (after the path)

emit = emitter("settle")

DATABASE_URL = database_url("bench")

ROUNDS = int(os.environ.get("BENCH_ROUNDS", "300"))
WARMUP = 30
TARGET_P95_MS = 50
TARGET_QUERIES = 20


def main() -> None:
    django_on_fresh_database(DATABASE_URL)

    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from casino.floor.services.rounds import round_create_written
    from casino.floor.services.settlement import round_settle_written
    from niuniu.demo import table_stream
    from tests.factories import macau_session

    session, dealer = macau_session("bench", "Bench")

    # The reports' tallies (two upserts) timed inside each settle, so their share is
    # measured in the same run as the settles themselves.
    from casino.floor.services import settlement as settlement_module

    tally_ms: list[float] = []
    tally_settled = settlement_module.tally_settled

    def tally_timed(round_ids: list[int]) -> None:
        start = time.perf_counter()
        tally_settled(round_ids)
        tally_ms.append((time.perf_counter() - start) * 1000)

    settlement_module.tally_settled = tally_timed

    def settle_timed(boxes: int, count: int, seed: int) -> tuple[list[float], list[int]]:
        stream = table_stream(session, random.Random(seed), boxes=boxes, side_bet_rate=1.0)
        times, queries = [], []
        for n in range(count):
            simulated = next(stream)
            dealt = round_create_written(
                session=session,
                user=dealer,
                dealer_cards=simulated.dealer_cards,
                boxes=simulated.boxes,
            )
            with CaptureQueriesContext(connection) as captured:
                start = time.perf_counter()
                round_settle_written(
                    round_=dealt.round, user=dealer, key=f"bench-{seed}-{n}", dealt=dealt
                )
                times.append((time.perf_counter() - start) * 1000)
            queries.append(len(captured.captured_queries))
        return times, queries

    settle_timed(5, WARMUP, seed=1)
    tally_ms.clear()
    times, queries_5 = settle_timed(5, ROUNDS, seed=2)
    tally_p50 = statistics.median(tally_ms)
    _times_1, queries_1 = settle_timed(1, 20, seed=3)
    times.sort()
    p50 = statistics.median(times)
    p95 = times[int(len(times) * 0.95) - 1]
    total_s = sum(times) / 1000
    print(f"settle, 5 boxes x 4 bets + dealer, {ROUNDS} rounds on PostgreSQL:")
    print(
        f"  p50 {p50:.2f} ms, p95 {p95:.2f} ms (target {TARGET_P95_MS}), "
        f"{ROUNDS / total_s:.0f} rounds/s settled back to back"
    )
    print(f"  of which the reports' tallies: p50 {tally_p50:.2f} ms")
    print(
        f"  queries per settle: 1 box {max(queries_1)}, 5 boxes {max(queries_5)} "
        f"(target <= {TARGET_QUERIES}, not growing with boxes)"
    )
    emit("p50_ms_5box", round(p50, 2), "ms")
    emit("p95_ms_5box", round(p95, 2), "ms", TARGET_P95_MS)
    emit("rounds_per_s", round(ROUNDS / total_s), "1/s")
    emit("tally_p50_ms", round(tally_p50, 2), "ms")
    emit("queries_per_settle_1box", max(queries_1), "queries", TARGET_QUERIES)
    emit("queries_per_settle_5box", max(queries_5), "queries", TARGET_QUERIES)


if __name__ == "__main__":
    main()
