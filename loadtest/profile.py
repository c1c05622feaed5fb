"""Where a round's time goes: the API in-process (no network, one request at a time).

Deals and settles 5-box rounds (6 hands) through Django's test client with token auth,
the whole stack (middleware, DRF, serializers, services, ORM) as gunicorn runs it. First
the CPU a round costs, in chunks of ``--chunk`` rounds (medians): this process's CPU
(the app, plus the test client's small share) and the CPU of the PostgreSQL backend
serving it (from /proc), figures that hold on a busy machine where times do not. Then
``--rounds`` more, each request's time split into the database (every SQL statement's
round trip, from a ``connection.execute_wrapper``) and Python (the rest). Then profiles
``--profiled`` more rounds with cProfile and prints the functions that take the most
time. Works on its own fresh database (``casino_profile``).

    DJANGO_SETTINGS_MODULE=loadtest.settings .venv/bin/python -m loadtest.profile \
        [--cpu-chunks 5 --chunk 100] [--rounds 200] [--profiled 100]

(``loadtest.settings``: without the API's rate limit on writes. ``DB_PREPARED_STATEMENTS=0``
measures the settings without prepared statements.)
"""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import statistics
import time
from collections import Counter, defaultdict
from typing import Any

from loadtest.common import (
    build_floor,
    database_name,
    emit,
    fresh_database,
    round_bodies,
    use_database,
)

DATABASE = database_name("profile")


class SqlClock:
    """Sums the wall time of every statement (the round trip, PostgreSQL's work included)."""

    def __init__(self) -> None:
        self.seconds = 0.0
        self.count = 0
        self.by_statement: Counter[str] = Counter()
        self.time_by_statement: dict[str, float] = defaultdict(float)

    def __call__(self, execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        started = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            spent = time.perf_counter() - started
            self.seconds += spent
            self.count += 1
            head = " ".join(sql.split()[:6])[:90]
            self.by_statement[head] += 1
            self.time_by_statement[head] += spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--profiled", type=int, default=100)
    parser.add_argument("--top", type=int, default=30)
    parser.add_argument("--cpu-chunks", type=int, default=5)
    parser.add_argument("--chunk", type=int, default=100)
    options = parser.parse_args()

    use_database(DATABASE)
    fresh_database(DATABASE)
    from django.db import connection
    from rest_framework.test import APIClient

    floor = build_floor(tables=1, code="prof")
    cpu_rounds = options.cpu_chunks * options.chunk
    bodies = round_bodies(
        floor.sessions[0],
        count=options.rounds + options.profiled + cpu_rounds + 20,
        seed=5,
        prefix="p",
    )
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {floor.tokens[0]}")

    def one_round(body: dict[str, Any], clock: SqlClock | None, times: dict[str, list]) -> None:
        for kind in ("create", "settle"):
            before_sql = clock.seconds if clock else 0.0
            before_count = clock.count if clock else 0
            started = time.perf_counter()
            if kind == "create":
                answer = client.post("/api/v1/rounds/", body, format="json")
                assert answer.status_code == 201, answer.content
                round_id = answer.json()["id"]
            else:
                answer = client.post(
                    f"/api/v1/rounds/{round_id}/settle/",
                    HTTP_IDEMPOTENCY_KEY=f"prof-{body['create_key']}",
                )
                assert answer.status_code == 200, answer.content
            total = time.perf_counter() - started
            times[kind].append(total * 1000)
            if clock:
                times[f"{kind}_sql"].append((clock.seconds - before_sql) * 1000)
                times[f"{kind}_queries"].append(clock.count - before_count)

    for body in bodies[:20]:  # warm-up: imports, caches, the rules of the version
        one_round(body, None, defaultdict(list))
    measure_cpu(bodies[20 : 20 + cpu_rounds], options.chunk, one_round)
    bodies = bodies[cpu_rounds:]

    clock = SqlClock()
    times: dict[str, list] = defaultdict(list)
    with connection.execute_wrapper(clock):
        for body in bodies[20 : 20 + options.rounds]:
            one_round(body, clock, times)

    print(f"{options.rounds} rounds of 5 boxes (6 hands), in-process, one at a time:")
    for kind in ("create", "settle"):
        total = statistics.median(times[kind])
        sql = statistics.median(times[f"{kind}_sql"])
        queries = statistics.median(times[f"{kind}_queries"])
        print(
            f"  {kind}: median {total:.1f} ms = SQL round trips {sql:.1f} ms "
            f"({queries:.0f} statements) + Python {total - sql:.1f} ms"
        )
        emit("loadtest-profile", f"{kind}_median_ms", round(total, 2), "ms")
        emit("loadtest-profile", f"{kind}_sql_median_ms", round(sql, 2), "ms")
        emit("loadtest-profile", f"{kind}_statements", queries, "statements")
    print("  the statements that took the most time:")
    for head, spent in sorted(clock.time_by_statement.items(), key=lambda kv: -kv[1])[:12]:
        count = clock.by_statement[head]
        per_round = spent * 1000 / options.rounds
        print(f"    {per_round:7.2f} ms/round  x{count / options.rounds:4.1f}  {head}")

    profiler = cProfile.Profile()
    rest = bodies[20 + options.rounds :]
    profiler.enable()
    for body in rest[: options.profiled]:
        one_round(body, None, defaultdict(list))
    profiler.disable()
    out = io.StringIO()
    stats = pstats.Stats(profiler, stream=out).strip_dirs()
    stats.sort_stats("tottime").print_stats(options.top)
    print(f"\ncProfile over {options.profiled} rounds, by own time:")
    print(out.getvalue())
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).strip_dirs().sort_stats("cumulative").print_stats(70)
    print(f"cProfile over {options.profiled} rounds, by cumulative time:")
    print(out.getvalue())
    if options.profiled:
        print(f"where a round's time goes (cProfile, ms per round over {options.profiled}):")
        total = stats.total_tt
        for label, found in buckets(pstats.Stats(profiler)).items():
            share = 100 * found / total if total else 0
            print(f"  {label:58s} {found * 1000 / options.profiled:7.1f} ms  {share:4.0f}%")
        print(f"  {'everything (two requests)':58s} {total * 1000 / options.profiled:7.1f} ms")


def measure_cpu(bodies: list[dict[str, Any]], chunk: int, one_round: Any) -> None:
    """CPU per round of this process and of its PostgreSQL backend, median of chunks."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        backend = cursor.fetchone()[0]
    stat = f"/proc/{backend}/stat"
    if not os.path.exists(stat):  # PostgreSQL on another machine
        print("CPU per round: the PostgreSQL backend is not on this machine; skipped")
        return
    ticks = os.sysconf("SC_CLK_TCK")

    def backend_seconds() -> float:
        with open(stat) as proc:
            fields = proc.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / ticks  # utime + stime

    app, database = [], []
    for start in range(0, len(bodies) - chunk + 1, chunk):
        cpu, db = time.process_time(), backend_seconds()
        for body in bodies[start : start + chunk]:
            one_round(body, None, defaultdict(list))
        app.append((time.process_time() - cpu) * 1000 / chunk)
        database.append((backend_seconds() - db) * 1000 / chunk)
    if not app:
        return
    print(
        f"CPU per round (median of {len(app)} chunks of {chunk}): "
        f"app {statistics.median(app):.1f} ms, PostgreSQL {statistics.median(database):.1f} ms"
    )
    emit("loadtest-profile", "app_cpu_ms_per_round", round(statistics.median(app), 2), "ms")
    emit("loadtest-profile", "pg_cpu_ms_per_round", round(statistics.median(database), 2), "ms")


#: (file ending, function) -> label; cumulative times, so the rows overlap.
BUCKETS = {
    ("casino/floor/services/rounds.py", "round_create_written"): (
        "service round_create (check, evaluate, write)"
    ),
    ("casino/floor/services/settlement.py", "round_settle_written"): (
        "service round_settle (evaluate, post)"
    ),
    ("casino/floor/selectors.py", "round_view"): "selector round_view (the answer's round, twice)",
    ("casino/floor/selectors.py", "round_get"): "selector round_get (the settle's lookup)",
    ("casino/floor/selectors.py", "session_get"): "selector session_get (the create's lookup)",
    ("rest_framework/serializers.py", "data"): "DRF serializers: input and output",
    ("rest_framework/authentication.py", "authenticate"): "DRF token authentication",
    ("casino/api/permissions.py", "has_permission"): "role check (groups)",
    ("django/db/models/sql/compiler.py", "as_sql"): "ORM: compiling SQL",
    ("django/db/models/sql/compiler.py", "execute_sql"): "ORM: executing (incl. waiting)",
    ("psycopg/connection.py", "wait"): "psycopg: waiting for PostgreSQL",
    ("django/db/models/query.py", "_fetch_all"): "ORM: fetching + building model objects",
}


def buckets(stats: pstats.Stats) -> dict[str, float]:
    found: dict[str, float] = {}
    for (filename, _line, function), row in stats.stats.items():  # type: ignore[attr-defined]
        for (ending, name), label in BUCKETS.items():
            if function == name and filename.endswith(ending):
                found[label] = found.get(label, 0.0) + row[3]
    return dict(sorted(found.items(), key=lambda kv: -kv[1]))


if __name__ == "__main__":
    main()
