"""``manage.py audit_ledger`` over a large ledger written through the services.

Fills its own database (``casino_audit``) with ``--rounds`` Niu Niu rounds dealt and
settled by ``casino.simulation.play`` (``round_create`` + ``round_settle``, 1% voided
through ``round_void``: the services the API and the console call), spread over
``--processes`` worker processes, each at its own table, then times ``audit_ledger``
(median of ``--repeat`` runs) and the ledger integrity checks of ``loadtest.common``.

    .venv/bin/python -m loadtest.audit [--rounds 100000] [--processes 2]
    .venv/bin/python -m loadtest.audit --reuse      # time the audit again, no new fill
    .venv/bin/python -m loadtest.audit --reuse --database casino_bench_reports --tallies
        # the million rounds of ``make bench-large``, tallies checked too

The fill takes long (about 10 ms of CPU per round on an idle core; the better part of an
hour for 100,000 rounds on this shared 2-core machine): it prints its progress.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import queue
import statistics
import time

from loadtest.common import (
    audit_ledger,
    build_floor,
    database_name,
    emit,
    fresh_database,
    integrity_problems,
    ledger_integrity,
    use_database,
)

DATABASE = database_name("audit")
CHUNK = 500


def fill(session_id: int, rounds: int, seed: int, progress: multiprocessing.Queue) -> None:
    """Deal and settle ``rounds`` rounds at one session (a worker process)."""
    from django.db import connection

    connection.close()  # never share the parent's connection
    from casino.floor.models import TableSession
    from casino.simulation import play
    from casino.staff.roles import SUPERVISOR

    session = TableSession.objects.select_related("table__venue").get(pk=session_id)
    supervisor = session.table.venue.staff.filter(groups__name=SUPERVISOR).first()
    done = 0
    while done < rounds:
        count = min(CHUNK, rounds - done)
        play(
            session=session,
            rounds=count,
            dealer=session.dealer,
            supervisor=supervisor,
            seed=seed * 1_000_000 + done,
        )
        done += count
        progress.put(count)
    connection.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--rounds", type=int, default=100_000)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--reuse", action="store_true", help="keep the database as it is")
    parser.add_argument("--database", default=DATABASE, help="with --reuse: another one")
    parser.add_argument("--tallies", action="store_true", help="also time audit_ledger --tallies")
    options = parser.parse_args()
    if options.database != DATABASE and not options.reuse:
        parser.error("--database names a filled database to audit: use it with --reuse")

    use_database(options.database)
    from django.db import connection

    if not options.reuse:
        fresh_database(DATABASE)
        floor = build_floor(tables=options.processes, code="audit")
        sessions = [session.pk for session in floor.sessions]
        connection.close()
        per = [options.rounds // options.processes] * options.processes
        per[0] += options.rounds - sum(per)
        started = time.perf_counter()
        progress: multiprocessing.Queue = multiprocessing.get_context("fork").Queue()
        workers = [
            multiprocessing.get_context("fork").Process(
                target=fill, args=(session_id, count, n + 1, progress)
            )
            for n, (session_id, count) in enumerate(zip(sessions, per, strict=True))
        ]
        for worker in workers:
            worker.start()
        done = 0
        while done < options.rounds and any(worker.is_alive() for worker in workers):
            try:
                done += progress.get(timeout=5)
            except queue.Empty:  # check the workers are still there
                continue
            if done % 5000 < CHUNK:
                elapsed = time.perf_counter() - started
                print(f"  {done} rounds in {elapsed:.0f} s ({done / elapsed:.0f}/s)", flush=True)
        for worker in workers:
            worker.join(timeout=60)
        fill_seconds = time.perf_counter() - started
        print(
            f"filled {done} rounds through the services in {fill_seconds:.0f} s "
            f"({done / fill_seconds:.0f} rounds/s, {options.processes} processes)"
        )
        emit("audit", "fill_rounds_per_s", round(done / fill_seconds, 1), "1/s")

    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    times, output = [], ""
    for _n in range(options.repeat):
        passed, output, seconds = audit_ledger()
        times.append(seconds)
        if not passed:
            raise SystemExit(f"audit_ledger failed: {output}")
    found = ledger_integrity()
    print(f"audit_ledger: {output}")
    print(
        f"audit_ledger over {sum(found['rounds'].values())} rounds / {found['entries']} "
        f"entries: median {statistics.median(times):.2f} s of {len(times)} runs {times}"
    )
    print(f"integrity: {found}")
    if options.tallies:
        tally_times = []
        for _n in range(options.repeat):
            passed, tally_output, seconds = audit_ledger("--tallies")
            tally_times.append(seconds)
            if not passed:
                raise SystemExit(f"audit_ledger --tallies failed: {tally_output}")
        print(
            f"audit_ledger --tallies: median {statistics.median(tally_times):.2f} s of "
            f"{len(tally_times)} runs {tally_times}"
        )
        emit("audit", "audit_ledger_tallies_s", round(statistics.median(tally_times), 2), "s")
    emit("audit", "rounds", sum(found["rounds"].values()), "rounds")
    emit("audit", "entries", found["entries"], "entries")
    emit("audit", "audit_ledger_s", round(statistics.median(times), 2), "s")
    problems = integrity_problems(found)
    if problems:
        raise SystemExit("integrity: " + "; ".join(problems))
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_size_pretty(pg_database_size(%s))", [options.database])
        print(f"database size: {cursor.fetchone()[0]} (pid {os.getpid()})")


if __name__ == "__main__":
    main()
