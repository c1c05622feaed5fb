"""The floor: how many tables two cores serve with a responsive console.

A floor's traffic, not the API's: every table's dealer types each card into the round
screen (the hand partial once each hand is whole), previews and confirms about a round a
minute; supervisors' floor views poll every 5 s, the cashier's and the counters' screens
refresh, a manager opens reports and exports, and the integrity runs go to a real Celery worker
(``loadtest.floor_model`` says who does what, how often). gunicorn, PostgreSQL, Redis and
Celery all run on this machine, and the load generator is one asyncio process (on uvloop)
on the lean client, its own CPU measured with the rest.

The run steps the number of tables up (``--steps``), ``--duration`` seconds each on one
server, and stops after the first step that fails. A step is served when every kind of
request of the console keeps p95 <= 150 ms and p99 <= 400 ms, the manager's reports and
exports 2 s and 4 s, and none fails (no 5xx, no timeout); a kind's p95 is judged from 20
answers, its p99 from 100 (fewer: one answer's time, printed but not judged). The figure
is the largest step served. A warm-up of ``--warmup`` seconds at the first step comes first
(every gunicorn worker's first answers compile templates and import matplotlib). Prints,
per step, each kind's p50/p95/p99 and the CPU per table-minute of the app (gunicorn), the
database (this database's PostgreSQL backends), the worker (Celery) and the load
generator, and the machine's load average.

    .venv/bin/python -m loadtest.floor [--steps 50,100,200,400,700,1000,1300]
        [--duration 50] [--warmup 20] [--workers 4] [--threads 1] [--pit-size 20] [--keep-going]
        [--shift-rounds 0] [--hand-every 5] [--worker-nice N]

The Celery worker runs at the niceness of production's unit (``Nice=`` in
``deploy/casino-worker.service``: 10, below the web tier; 0 where it sets none);
``--worker-nice 0`` runs it as the web tier's equal, to measure what the niceness changes
(docs/BENCHMARKS.md, "No deal dealt twice").

The round screen draws a hand still short of five cards in the browser and asks the hand
partial once the hand is whole (``static/js/console.js``): six times a round. ``--hand-every
1`` has the dealers ask it on every card typed, thirty times a round, as the screen did
before (to measure a commit of then side by side with the same model).

A step starts with young sessions, a few rounds old; ``--shift-rounds N`` opens every table
with N rounds already settled (written in bulk, ``loadtest.floor_setup.aged``), as a floor
N minutes into its shift: the floor view's poll sums every round and entry of its pit's
open sessions, so it costs more as the shift grows.

Works on its own fresh database (``casino_floorload``), Redis database 8 as the broker
(``LOADTEST_BROKER_URL``) and Redis database 9 as the shared cache production has
(``CACHE_URL``: sessions, the lockout, the console's live reads; ``LOADTEST_CACHE_URL``),
both emptied at the start. The database's statistics are made before each step
(``ANALYZE``), as production's autovacuum keeps them; a PostgreSQL without autovacuum
would otherwise plan every statement of the run on none.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import subprocess
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from loadtest.common import (
    ROOT,
    VENV_BIN,
    CpuMeter,
    Server,
    Timings,
    children_of,
    database_name,
    emit,
    fresh_database,
    percentile,
    use_database,
    use_shared_cache,
)
from loadtest.floor_model import WHOLE_HAND

DATABASE = database_name("floorload")
BROKER = os.environ.get("LOADTEST_BROKER_URL", "redis://127.0.0.1:6379/8")
CACHE = os.environ.get("LOADTEST_CACHE_URL", "redis://127.0.0.1:6379/9")
P95_MS, P99_MS = 150, 400
#: A manager's report or export is not the console: a page built from a day's figures (a
#: chart drawn, a file written), waited for as such; judged against 2 s and 4 s.
REPORT_KINDS = frozenset({"report", "export", "integrity"})
REPORT_P95_MS, REPORT_P99_MS = 2000, 4000
TARGET_TABLES = 1000
STEPS = "50,100,200,400,700,1000,1300"


WORKER_UNIT = ROOT / "deploy" / "casino-worker.service"


def unit_nice(unit: Path = WORKER_UNIT) -> int:
    """The ``Nice=`` production's worker runs at (its systemd unit; 0 when it sets none)."""
    for line in unit.read_text().splitlines():
        name, _, value = line.partition("=")
        if name.strip() == "Nice":
            return int(value)
    return 0


def niced(nice: int) -> list[str]:
    """The command's prefix that runs it ``nice`` steps below this process's priority."""
    return ["nice", "-n", str(nice)]


class Worker:
    """A Celery worker (prefork, one process) on the run's database and broker, at the
    niceness production's unit gives it (``nice``)."""

    def __init__(self, env: dict[str, str], nice: int = 0) -> None:
        self.env = env
        self.nice = nice
        self.log = Path("/tmp/loadtest-floor-worker.log")  # noqa: S108
        self.process: subprocess.Popen | None = None

    def __enter__(self) -> Worker:
        celery = [str(VENV_BIN / "celery"), "-A", "casino", "worker", "-c", "1", "-l", "warning"]
        command = [*niced(self.nice), *celery]
        self.process = subprocess.Popen(  # noqa: S603
            command, env=self.env, cwd=ROOT, stdout=self.log.open("w"), stderr=subprocess.STDOUT
        )
        return self

    def pids(self) -> list[int]:
        if self.process is None:
            return []
        return [self.process.pid, *children_of(self.process.pid)]

    def __exit__(self, *exc: object) -> None:
        if self.process is not None:
            self.process.terminate()
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()


def purge_broker() -> None:
    """Nothing left on the broker from an earlier run."""
    import redis

    redis.Redis.from_url(BROKER).flushdb()


async def step(
    floor: Any, tables: int, seconds: float, url: str, names: Any, hand_every: int = WHOLE_HAND
) -> Timings:
    from loadtest.floor_model import people
    from loadtest.http import LeanClient

    timings = Timings()
    client = LeanClient(url, timeout=30)
    tasks, clock = people(floor, tables, client, timings, names, hand_every)
    clock.started, clock.seconds = time.monotonic(), seconds
    await asyncio.gather(*tasks)
    return timings


def analyzed() -> None:
    """The run's tables counted (``ANALYZE``), as autovacuum keeps them counted in
    production: a PostgreSQL run without it (this machine's tests run so) plans on no
    statistics at all, and the database's CPU would be that of plans no venue runs (the
    ledger and the bets read whole, round after round). Before each step, outside its
    figures."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")


def served(timings: Timings) -> bool:
    """Every console kind within 150/400 ms, the manager's reports within 2/4 s, no error;
    a p95 is judged from 20 answers of a kind, a p99 from 100."""

    def within(kind: str, values: list[float]) -> bool:
        p95, p99 = (REPORT_P95_MS, REPORT_P99_MS) if kind in REPORT_KINDS else (P95_MS, P99_MS)
        # A percentile of fewer answers than it needs is one answer's time: not judged.
        return (len(values) < 20 or percentile(values, 95) <= p95) and (
            len(values) < 100 or percentile(values, 99) <= p99
        )

    return not timings.errors and all(
        within(kind, values) for kind, values in timings.latencies.items()
    )


def report(tables: int, timings: Timings, meter: CpuMeter) -> dict[str, Any]:
    """Print and emit a step's figures; what the summary needs."""
    used = meter.used
    table_minutes = tables * used["wall"] / 60
    load = os.getloadavg()[0]
    ok = served(timings)
    confirmed = timings.statuses.get("confirm", {}).get("200", 0)
    print(
        f"\n{tables} tables, {used['wall']:.0f} s: {confirmed} rounds confirmed, "
        f"{'served' if ok else 'NOT served'}; load average {load:.2f}"
    )
    for kind in sorted(timings.latencies):
        print("  " + timings.summary(kind))
        values = timings.latencies[kind]
        for p in (50, 95, 99):
            emit("floor", f"n{tables}_{kind}_p{p}_ms", round(percentile(values, p), 1), "ms")
    for text in timings.errors[:5]:
        print(f"    {text}")
    cpu = {
        group: used.get(group, 0.0) * 1000 / max(table_minutes, 1e-9)
        for group in ("app", "db", "worker", "client")
    }
    print(
        "  CPU per table-minute: "
        + ", ".join(f"{group} {ms:.1f} ms" for group, ms in cpu.items())
        + f"; machine {100 * used['busy'] / max(used['total'], 1e-9):.0f}% busy"
    )
    for group, ms in cpu.items():
        emit("floor", f"n{tables}_cpu_{group}_ms_per_table_minute", round(ms, 2), "ms")
    emit("floor", f"n{tables}_errors", len(timings.errors), "requests", 0)
    emit("floor", f"n{tables}_load_average", round(load, 2), "")
    return {"tables": tables, "served": ok, "cpu": cpu}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--steps", default=os.environ.get("FLOOR_STEPS", STEPS))
    parser.add_argument(
        "--duration", type=float, default=float(os.environ.get("FLOOR_DURATION", "50"))
    )
    parser.add_argument("--warmup", type=float, default=20, help="seconds, not measured")
    parser.add_argument("--workers", type=int, default=4, help="gunicorn workers")
    parser.add_argument(
        "--threads", type=int, default=1, help="threads a worker (more than 1: gthread workers)"
    )
    parser.add_argument(
        "--worker-nice",
        type=int,
        default=unit_nice(),
        help="the Celery worker's niceness (default: deploy/casino-worker.service's Nice=)",
    )
    parser.add_argument("--pit-size", type=int, default=20)
    parser.add_argument("--rounds-pool", type=int, default=60)
    parser.add_argument("--keep-going", action="store_true", help="run every step")
    parser.add_argument(
        "--shift-rounds",
        type=int,
        default=0,
        help="rounds settled at each table before it plays (a shift that many minutes old)",
    )
    parser.add_argument(
        "--hand-every",
        type=int,
        default=WHOLE_HAND,
        help="ask the hand partial at every Nth card typed (5: once each hand is whole, as "
        "the screen does; 1: every card, as the screen did before it drew short hands)",
    )
    options = parser.parse_args()
    steps = [int(n) for n in options.steps.split(",")]

    from loadtest.floor_setup import build_big_floor, round_forms, tables_added
    from loadtest.http import run

    use_shared_cache(CACHE)
    use_database(DATABASE)
    started = time.perf_counter()
    fresh_database(DATABASE)
    floor = build_big_floor(
        tables=steps[0], pit_size=options.pit_size, shift_rounds=options.shift_rounds
    )
    floor.forms = round_forms(floor.desks[0].session_id, count=options.rounds_pool, seed=1)
    print(
        f"set up {DATABASE} in {time.perf_counter() - started:.0f} s "
        f"({options.shift_rounds} rounds settled at each table before it plays)",
        flush=True,
    )
    from django.conf import settings

    names = SimpleNamespace(session=settings.SESSION_COOKIE_NAME, csrf=settings.CSRF_COOKIE_NAME)
    purge_broker()
    env = {"CELERY_BROKER_URL": BROKER}
    results = []
    with (
        Server(
            workers=options.workers,
            worker_class="gthread" if options.threads > 1 else "sync",
            threads=options.threads,
            settings_module="loadtest.settings",
            extra_env=env,
        ) as srv,
        Worker({**srv.env}, nice=options.worker_nice) as worker,
    ):
        kind = f"gthread ({options.threads} threads each)" if options.threads > 1 else "sync"
        print(
            f"gunicorn: {options.workers} {kind} workers at {srv.url}; "
            f"Celery worker at nice {options.worker_nice}",
            flush=True,
        )
        print(f"the hand partial asked once every {options.hand_every} cards typed", flush=True)
        # Every worker's first answers compile templates and import what they draw with.
        analyzed()
        run(step(floor, steps[0], options.warmup, srv.url, names, options.hand_every))
        for tables in steps:
            started = time.perf_counter()
            tables_added(floor, tables)
            analyzed()
            print(
                f"{tables} tables in {len(floor.pits)} pits "
                f"({time.perf_counter() - started:.0f} s to open the new ones)",
                flush=True,
            )
            with CpuMeter(srv, DATABASE, groups={"worker": worker.pids}) as meter:
                timings = run(
                    step(floor, tables, options.duration, srv.url, names, options.hand_every)
                )
            results.append(report(tables, timings, meter))
            if not results[-1]["served"] and not options.keep_going:
                break
    best = max((r["tables"] for r in results if r["served"]), default=0)
    print(f"\ntables served on this machine: {best} (target {TARGET_TABLES})")
    emit("floor", "tables_served", best, "tables", TARGET_TABLES)


if __name__ == "__main__":
    main()
