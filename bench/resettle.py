"""Every settled round of a gaming day settled again from its record, on PostgreSQL.

``manage.py simulate --via bulk`` fills one gaming day with ``BENCH_ROUNDS`` rounds
(default 20,000) of ``BENCH_GAME`` (default Niu Niu: four boxes and the dealer, three bets a
box) at ``BENCH_TABLES`` tables: the same rows the services write. Fresh processes then time
``casino.integrity.resettlement.resettle`` over the day (every round read in chunks,
evaluated again by the game's engine, each bet and ledger entry compared), each after a
warm-up run, then the same with each deal compared with the table's earlier deals
(casino.integrity.deals), as the integrity run does: once with each number of worker
processes in ``BENCH_WORKERS`` (default ``1,<CPUs>``; 1 is in one process), in turn,
``BENCH_REPEATS`` times (median). ``BENCH_BASELINE`` names another copy of the project
(``git archive <commit> | tar -x -C /tmp/old``): its own ``bench/resettle.py --measure`` is
timed too, in the same turns, so the old code and the new are measured side by side on a
loaded machine. Target: a day of 1,000,000 rounds in <= 60 s, so ``rounds_per_s`` >= 16,667;
``million_s`` is the day of a million rounds at the rate measured (the rate does not depend
on the day's size: chunks of 2,000 rounds). Each figure is named for its workers
(``w1_rounds_per_s``) or ``old_`` for the baseline.

Runs against its own database (``casino_bench_resettle``, or ``{prefix}_bench_resettle``
with ``LOADTEST_DB_PREFIX``; ``BENCH_DATABASE_URL`` names another); ``BENCH_REUSE=1``
times again on the day filled before.
"""

from __future__ import annotations

import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.common import (  # noqa: E402 (after the path)
    bench_env,
    database_url,
    emitter,
    manager,
    recreate_database,
)

emit = emitter("resettle")

DATABASE_URL = database_url("bench_resettle")
VENUE = "bench"
ROUNDS = int(os.environ.get("BENCH_ROUNDS", "20000"))
TABLES = int(os.environ.get("BENCH_TABLES", "20"))
GAME = os.environ.get("BENCH_GAME", "niuniu")
REPEATS = int(os.environ.get("BENCH_REPEATS", "3"))
WORKERS = [int(n) for n in os.environ.get("BENCH_WORKERS", f"1,{os.cpu_count()}").split(",")]
BASELINE = os.environ.get("BENCH_BASELINE", "")
TARGET_S = 60
MILLION = 1_000_000

ENV = bench_env(DATABASE_URL)
manage = manager(ENV)


def fill() -> None:
    recreate_database(DATABASE_URL)
    manage("migrate", "--noinput", "-v", "0")
    print(f"filling a day with {ROUNDS:,} {GAME} rounds at {TABLES} tables (bulk, COPY) ...")
    start = time.perf_counter()
    manage(
        "simulate",
        "--venue",
        VENUE,
        "--game",
        GAME,
        "--rounds",
        str(ROUNDS),
        "--tables",
        str(TABLES),
        "--via",
        "bulk",
    )
    emit("fill_s", round(time.perf_counter() - start, 1), "s")


def measure() -> None:
    """One turn in this process (``--measure``): a warm-up, then the day settled again with
    ``BENCH_MEASURE_WORKERS`` workers, without and with the deals compared, ``REPEATS``
    times each. Its figures as JSON lines, for the turns' medians."""
    import django

    os.environ.update(ENV)
    django.setup()
    from django.db import connection

    from casino.floor.models import Round, RoundStatus
    from casino.integrity.deals import DealWatch
    from casino.integrity.resettlement import resettle
    from casino.venues.models import Venue

    workers = int(os.environ.get("BENCH_MEASURE_WORKERS", "1"))
    venue = Venue.objects.get(code=VENUE)
    settled = Round.objects.filter(session__table__venue=venue, status=RoundStatus.SETTLED)
    day = settled.values_list("session__shift__gaming_date", flat=True).first()
    rounds = settled.filter(session__shift__gaming_date=day).count()
    where = {"venue_id": venue.pk, "date_from": day, "date_to": day, "workers": workers}
    resettle(**where)  # warm-up
    for _ in range(REPEATS):
        start = time.perf_counter()
        tables = resettle(**where)
        emit("resettle_s", round(time.perf_counter() - start, 3), "s")
    found = sum(table.differences_found for table in tables.values())
    checked = sum(table.rounds for table in tables.values())
    assert checked == rounds, (checked, rounds)
    emit("rounds", rounds, "rounds")
    emit("differences", found, "differences", 0)
    # This process's peak so far (the re-settlement alone; as the baseline's script gives it).
    emit("peak_rss_mb", round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024), "MB")
    import scipy.stats  # noqa: F401 (the deals' tests load it: before the timings)

    for _ in range(REPEATS):
        start = time.perf_counter()
        deals = DealWatch()
        resettle(**where, deals=deals)
        outcomes = deals.outcomes()
        emit("with_deals_s", round(time.perf_counter() - start, 3), "s")
    alerts = sum(o.p_value is not None and o.p_value < 0.05 / len(outcomes) for o in outcomes)
    emit("deal_alerts", alerts, "alerts", 0)
    worker = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024  # the largest
    emit("worker_peak_rss_mb", round(worker), "MB")
    connection.close()


def turn(root: Path, workers: int, repeats: int = 1) -> dict[str, list[float]]:
    """One measuring process of the checkout at ``root`` (this one or the baseline): its
    figures by name. An older script warms up without the deals, so its first pass with them
    also loads scipy.stats (a second or more): it is run with 3 repeats, its median leaving
    that out."""
    done = subprocess.run(  # noqa: S603 (a checkout's own bench script, in a fresh process)
        [sys.executable, str(root / "bench" / "resettle.py"), "--measure"],
        env={**ENV, "BENCH_MEASURE_WORKERS": str(workers), "BENCH_REPEATS": str(repeats)},
        cwd=root,
        check=True,
        capture_output=True,
        text=True,
    )
    figures: dict[str, list[float]] = {}
    for line in done.stdout.splitlines():
        if line.startswith("{"):
            record = json.loads(line)
            figures.setdefault(record["figure"], []).append(record["value"])
    return figures


def main() -> None:
    if sys.argv[1:] == ["--measure"]:
        measure()
        return
    if os.environ.get("BENCH_REUSE", "") in ("", "0"):
        fill()
    sides = [(f"w{workers}", ROOT, workers, 1) for workers in WORKERS]
    if BASELINE:
        sides.insert(0, ("old", Path(BASELINE).resolve(), 1, 3))
    taken: dict[str, dict[str, list[float]]] = {name: {} for name, *_side in sides}
    for number in range(REPEATS):  # in turns: a load on the machine weighs on every side
        for name, root, workers, repeats in sides:
            for figure, values in turn(root, workers, repeats).items():
                taken[name].setdefault(figure, []).extend(values)
        print(f"  turn {number + 1} of {REPEATS} done")
    for name, *_side in sides:
        figures = taken[name]
        rounds = figures["rounds"][0]
        seconds = statistics.median(figures["resettle_s"])
        with_deals = statistics.median(figures["with_deals_s"])
        print(
            f"  {name}: {rounds:,.0f} rounds settled again in {seconds:.2f} s "
            f"({rounds / seconds:,.0f} rounds/s), with the deals {with_deals:.2f} s"
        )
        emit(f"{name}_rounds", rounds, "rounds")
        emit(f"{name}_differences", max(figures["differences"]), "differences", 0)
        emit(f"{name}_resettle_s", round(seconds, 2), "s")
        emit(f"{name}_rounds_per_s", round(rounds / seconds), "1/s", round(MILLION / TARGET_S))
        emit(f"{name}_million_s", round(MILLION * seconds / rounds, 1), "s", TARGET_S)
        emit(f"{name}_with_deals_s", round(with_deals, 2), "s")
        emit(
            f"{name}_with_deals_rounds_per_s",
            round(rounds / with_deals),
            "1/s",
            round(MILLION / TARGET_S),
        )
        emit(f"{name}_with_deals_million_s", round(MILLION * with_deals / rounds, 1), "s", TARGET_S)
        emit(f"{name}_deal_alerts", max(figures["deal_alerts"]), "alerts", 0)
        emit(f"{name}_peak_rss_mb", max(figures["peak_rss_mb"]), "MB")
        if "worker_peak_rss_mb" in figures:
            emit(f"{name}_worker_peak_rss_mb", max(figures["worker_peak_rss_mb"]), "MB")


if __name__ == "__main__":
    main()
