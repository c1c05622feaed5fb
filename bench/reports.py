"""Building a shift report on PostgreSQL: seconds and peak memory for a large shift.

``manage.py simulate --via bulk`` fills one shift with ``BENCH_ROUNDS`` Niu Niu rounds
(the same rows the services write, COPY'd a batch of whole rounds at a time), then a
fresh process builds the shift's report (figures, charts, CSV, XLSX, PDF) once to warm
up and ``BENCH_BUILDS`` more times, timed; its peak resident memory covers all builds.
Targets (the issue's): a million rounds built in <= 20 s with <= 500 MB.

- ``make bench``: 50,000 rounds (a minute or two, most of it the fill).
- ``make bench-large``: 1,000,000 rounds. The fill takes about 16 minutes on a quiet
  2-core machine (it prints how long); ``BENCH_REUSE=1`` builds again on the filled
  database without filling it anew.

Runs against its own database (``casino_bench_reports``, or ``{prefix}_bench_reports`` with
``LOADTEST_DB_PREFIX``, on the local PostgreSQL unless ``BENCH_DATABASE_URL`` says
otherwise), dropped and created for each fill.
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

emit = emitter("reports")

DATABASE_URL = database_url("bench_reports")
ROUNDS = int(os.environ.get("BENCH_ROUNDS", "50000"))
TABLES = int(os.environ.get("BENCH_TABLES", "20"))
BUILDS = int(os.environ.get("BENCH_BUILDS", "2"))
REUSE = os.environ.get("BENCH_REUSE", "") not in ("", "0")
SHIFT = f"bench {ROUNDS}"
TARGET_S = 20
TARGET_MB = 500

ENV = bench_env(DATABASE_URL, replica=True)
manage = manager(ENV)


def filled_shift() -> int | None:
    """The shift a previous run filled, if the database has it."""
    import psycopg

    try:
        with psycopg.connect(DATABASE_URL) as conn:
            row = conn.execute(
                "SELECT s.id FROM casino_shift s WHERE s.name = %s AND EXISTS "
                "(SELECT 1 FROM casino_tablesession t WHERE t.shift_id = s.id "
                "AND t.status = 'closed') ORDER BY s.id DESC LIMIT 1",
                [SHIFT],
            ).fetchone()
    except psycopg.Error:
        return None
    return row[0] if row else None


def fill() -> int:
    shift_id = filled_shift() if REUSE else None
    if shift_id is not None:
        manage("migrate", "--noinput", "-v", "0")
        print(f"reusing shift {shift_id} ({SHIFT}) in {DATABASE_URL}")
        return shift_id
    recreate_database(DATABASE_URL)
    manage("migrate", "--noinput", "-v", "0")
    print(f"filling a shift with {ROUNDS:,} rounds at {TABLES} tables (bulk, COPY) ...")
    start = time.perf_counter()
    out = manage(
        "simulate",
        "--rounds",
        str(ROUNDS),
        "--tables",
        str(TABLES),
        "--via",
        "bulk",
        "--shift",
        SHIFT,
    )
    seconds = time.perf_counter() - start
    print(out.strip().splitlines()[-1])
    print(f"  filled in {seconds:.0f} s ({ROUNDS / seconds:,.0f} rounds/s)")
    emit("fill_s", round(seconds, 1), "s")
    emit("fill_rounds_per_s", round(ROUNDS / seconds), "1/s")
    shift_id = filled_shift()
    assert shift_id is not None
    return shift_id


def build(shift_id: int) -> None:
    """In a fresh process: build the report once to warm up, then BUILDS times, timed."""
    import django

    os.environ.update(ENV)
    django.setup()
    from django.db import connection

    from casino.floor.models import Bet, Round
    from casino.ledger.models import LedgerEntry
    from casino.reports import outputs
    from casino.reports.figures import shift_figures
    from casino.reports.models import ShiftReportCell
    from casino.reports.services import report_build, report_request

    rounds = Round.objects.filter(session__shift_id=shift_id).count()
    bets = Bet.objects.filter(box__round__session__shift_id=shift_id).count()
    entries = LedgerEntry.objects.filter(session__shift_id=shift_id).count()
    print(f"shift {shift_id}: {rounds:,} rounds, {bets:,} bets, {entries:,} ledger entries")
    times = []
    for n in range(BUILDS + 1):
        report = report_request(shift_id=shift_id, send=False)
        start = time.perf_counter()
        report = report_build(report_id=report.pk, email=False)
        seconds = time.perf_counter() - start
        assert report.status == "done", report.error
        print(f"  build {'warm-up' if n == 0 else n}: {seconds:.2f} s")
        if n:
            times.append(seconds)
    start = time.perf_counter()
    figures = shift_figures(report)
    figures_s = time.perf_counter() - start
    start = time.perf_counter()
    outputs.render_all(figures)
    outputs_s = time.perf_counter() - start
    cells = ShiftReportCell.objects.filter(report=report).count()
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    median = statistics.median(times)
    print(
        f"report of {rounds:,} rounds: {median:.2f} s median of {len(times)} builds "
        f"(target {TARGET_S} s): figures {figures_s:.2f} s ({cells:,} cells), files "
        f"{outputs_s:.2f} s; peak memory {peak_mb:.0f} MB (target {TARGET_MB} MB)"
    )
    total = figures["total"]
    print(f"  handle {total['handle']}, house win {total['house_win']}, hold {total['hold_pct']}%")
    emit("rounds", rounds, "rounds")
    emit("bets", bets, "bets")
    emit("build_s", round(median, 2), "s", TARGET_S)
    emit("figures_s", round(figures_s, 2), "s")
    emit("files_s", round(outputs_s, 2), "s")
    emit("peak_rss_mb", round(peak_mb), "MB", TARGET_MB)
    connection.close()


def main() -> None:
    if len(sys.argv) == 3 and sys.argv[1] == "--build":
        build(int(sys.argv[2]))
        return
    shift_id = fill()
    subprocess.run(  # noqa: S603 (this script, in a fresh process for its peak memory)
        [sys.executable, __file__, "--build", str(shift_id)], env=ENV, cwd=ROOT, check=True
    )


if __name__ == "__main__":
    main()
