"""The laundering patterns (``casino.compliance.patterns``) over a busy venue's cash log.

A day and a half of a large venue's cash movements: 20,000 people, 100,000 movements in and
out, amounts spread up to twice the reporting threshold (so many fall just under it), times
spread over 36 hours. Each pattern's run over them, the median of five runs, by the wall
clock and by this process's CPU time. The search runs every hour on the worker; target:
each pattern <= 1 s for such a day, so the hourly search is a small share of a worker's hour.

Pure Python, no database: ``.venv/bin/python bench/patterns.py``.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.common import emitter  # noqa: E402 (after the path)
from casino.compliance.patterns import Movement, little_play, structuring  # noqa: E402

emit = emitter("patterns")

RUNS = 5
PEOPLE = 20_000
MOVEMENTS = 100_000
THRESHOLD = Decimal("400000000")
TARGET_S = 1.0


def movements(seed: int = 11) -> list[Movement]:
    rng = random.Random(seed)
    start = datetime(2026, 12, 1, tzinfo=UTC)
    return [
        Movement(
            person=f"member:{rng.randrange(PEOPLE)}",
            at=start + timedelta(seconds=rng.randrange(36 * 3600)),
            direction=rng.choice(("in", "out")),
            amount=Decimal(rng.randrange(1, 800)) * 1_000_000,
            reference=f"row:{n}",
        )
        for n in range(MOVEMENTS)
    ]


def timed(run) -> tuple[float, float, int]:
    walls, cpus, found = [], [], 0
    for _ in range(RUNS):
        wall, cpu = time.perf_counter(), time.process_time()
        found = len(run())
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return statistics.median(walls), statistics.median(cpus), found


def main() -> None:
    rows = movements()
    wall, cpu, found = timed(lambda: structuring(rows, threshold=THRESHOLD))
    emit("structuring_s", round(wall, 3), "s", TARGET_S)
    emit("structuring_cpu_s", round(cpu, 3), "s", TARGET_S)
    emit("structuring_findings", found, "findings")
    played = {f"member:{n}": Decimal(0) for n in range(0, PEOPLE, 2)}
    wall, cpu, found = timed(lambda: little_play(rows, played, least_cash=THRESHOLD // 4))
    emit("little_play_s", round(wall, 3), "s", TARGET_S)
    emit("little_play_cpu_s", round(cpu, 3), "s", TARGET_S)
    emit("little_play_findings", found, "findings")
    emit("movements", MOVEMENTS, "movements")


if __name__ == "__main__":
    main()
