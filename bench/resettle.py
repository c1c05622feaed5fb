"""Every settled round of a gaming day settled again from its record, on PostgreSQL.

``manage.py simulate --via bulk`` fills one gaming day with ``BENCH_ROUNDS`` rounds
(default 20,000) of ``BENCH_GAME`` (default Niu Niu: four boxes and the dealer, three bets a
box) at ``BENCH_TABLES`` tables: the same rows the services write. A fresh process then
times ``casino.integrity.resettlement.resettle`` over the day (every round read in chunks,
evaluated again by the game's engine, each bet and ledger entry compared), after a warm-up
run, ``BENCH_REPEATS`` times (median), then the same with each deal compared with the
table's earlier deals (casino.integrity.deals), as the integrity run does. Target: a day of
1,000,000 rounds in <= 60 s, so ``rounds_per_s`` >= 16,667; ``million_s`` is the day of a
million rounds at the rate measured (the rate does not depend on the day's size: chunks of
2,000 rounds).

Runs against its own database (``casino_bench_resettle``, or ``{prefix}_bench_resettle``
with ``LOADTEST_DB_PREFIX``; ``BENCH_DATABASE_URL`` names another); ``BENCH_REUSE=1``
times again on the day filled before.
"""

from __future__ import annotations

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
    import django

    os.environ.update(ENV)
    django.setup()
    from django.db import connection

    from casino.floor.models import Round, RoundStatus
    from casino.integrity.resettlement import resettle
    from casino.venues.models import Venue

    venue = Venue.objects.get(code=VENUE)
    settled = Round.objects.filter(session__table__venue=venue, status=RoundStatus.SETTLED)
    day = settled.values_list("session__shift__gaming_date", flat=True).first()
    rounds = settled.filter(session__shift__gaming_date=day).count()
    resettle(venue_id=venue.pk, date_from=day, date_to=day)  # warm-up
    times = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        tables = resettle(venue_id=venue.pk, date_from=day, date_to=day)
        times.append(time.perf_counter() - start)
    seconds = statistics.median(times)
    found = sum(table.differences_found for table in tables.values())
    checked = sum(table.rounds for table in tables.values())
    assert checked == rounds, (checked, rounds)
    rate = rounds / seconds
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"  {rounds:,} rounds settled again in {seconds:.2f} s: {rate:,.0f} rounds/s")
    emit("rounds", rounds, "rounds")
    emit("differences", found, "differences", 0)
    emit("resettle_s", round(seconds, 2), "s")
    emit("rounds_per_s", round(rate), "1/s", round(MILLION / TARGET_S))
    emit("million_s", round(MILLION / rate, 1), "s", TARGET_S)
    emit("peak_rss_mb", round(peak_mb), "MB")
    # The run's pass: the same, each deal also compared with the table's earlier deals.
    from casino.integrity.deals import DealWatch

    times = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        deals = DealWatch()
        resettle(venue_id=venue.pk, date_from=day, date_to=day, deals=deals)
        outcomes = deals.outcomes()
        times.append(time.perf_counter() - start)
    seconds = statistics.median(times)
    alerts = sum(o.p_value is not None and o.p_value < 0.05 / len(outcomes) for o in outcomes)
    print(f"  with the deals compared: {seconds:.2f} s, {rounds / seconds:,.0f} rounds/s")
    emit("with_deals_s", round(seconds, 2), "s")
    emit("with_deals_rounds_per_s", round(rounds / seconds), "1/s", round(MILLION / TARGET_S))
    emit("deal_alerts", alerts, "alerts", 0)
    connection.close()


def main() -> None:
    if sys.argv[1:] == ["--measure"]:
        measure()
        return
    if os.environ.get("BENCH_REUSE", "") in ("", "0"):
        fill()
    subprocess.run(  # noqa: S603 (this script, in a fresh process)
        [sys.executable, __file__, "--measure"], env=ENV, cwd=ROOT, check=True
    )


if __name__ == "__main__":
    main()
