"""A slice of the suite through a real PgBouncer in transaction mode: the settle races, the
report build (two builds at once, a worker killed mid-build) and the replica reads.

The slice runs in a pytest of its own whose ``DATABASE_URL`` and ``REPLICA_DATABASE_URL``
name PgBouncer, with ``DB_BEHIND_PGBOUNCER=1`` as production sets it behind one
(docs/OPERATIONS.md "PgBouncer"); pytest-django creates its test database through
PgBouncer too. PgBouncer's own statistics then show that the slice's transactions went
through it."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

import psycopg
import pytest
from django.db import connection

from .conftest import PgBouncer

ROOT = Path(__file__).resolve().parents[2]

#: The tests of the slice, and how many of them run (none may be skipped).
SLICE = [
    "tests/casino/api/test_rounds.py::test_two_connections_settling_at_once_settle_once",
    "tests/casino/api/test_rounds.py::test_two_connections_dealing_one_create_key_at_once_deal_once",
    "tests/casino/test_hardening.py::test_ten_requests_at_once_settle_each_round_exactly_once",
    "tests/casino/services/test_tallies.py::test_rounds_of_one_table_settled_at_once_add_up",
    "tests/casino/services/test_slip_numbers.py",
    "tests/casino/reports/test_services.py",
    "tests/casino/reports/test_concurrent_builds.py",
    "tests/casino/reports/test_sums_settings.py",
    "tests/casino/reports/test_worker.py",
    "tests/casino/test_replicas.py",
]
SLICE_TESTS = 25


def _drop(name: str) -> None:
    """Drop the slice's test database, directly (PgBouncer may still hold connections)."""
    server = connection.settings_dict
    with psycopg.connect(
        host=server["HOST"] or "127.0.0.1",
        port=server["PORT"] or 5432,
        user=server["USER"],
        dbname="postgres",
        autocommit=True,
    ) as direct:
        direct.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.mark.slow
def test_the_races_the_report_build_and_the_replica_reads_pass_through_pgbouncer(
    pgbouncer: PgBouncer,
):
    # given a database of the slice's own, reached through PgBouncer
    name = f"{connection.settings_dict['NAME']}_pgbouncer"
    test_database = f"test_{name}"
    url = f"postgres://{connection.settings_dict['USER']}@127.0.0.1:{pgbouncer.port}/{name}"
    _drop(test_database)
    environment = {
        **os.environ,
        "DATABASE_URL": url,
        "REPLICA_DATABASE_URL": url,
        "DB_BEHIND_PGBOUNCER": "1",
    }
    environment.pop("DB_PREPARED_STATEMENTS", None)
    try:
        # when the slice runs (its database kept at its end: dropped here, directly)
        run = subprocess.run(
            [
                sys.executable,
                "-m",
                "pytest",
                "-p",
                "no:cacheprovider",
                "-p",
                "no:xdist",
                "-q",
                "--reuse-db",
                *SLICE,
            ],
            cwd=ROOT,
            env=environment,
            capture_output=True,
            text=True,
            timeout=900,
        )
        time.sleep(1.5)  # PgBouncer's statistics are taken every second (stats_period)
        stats = {row["database"]: row for row in pgbouncer.admin("SHOW STATS")}
        config = {row["key"]: row["value"] for row in pgbouncer.admin("SHOW CONFIG")}
    finally:
        _drop(test_database)

    # then every test of the slice passed, none skipped
    output = run.stdout + run.stderr
    assert run.returncode == 0, output[-6000:]
    summary = output.strip().splitlines()[-1]
    assert re.match(rf"^{SLICE_TESTS} passed in ", summary), summary
    # and their transactions went through PgBouncer, pooling by transaction
    assert config["pool_mode"] == "transaction"
    assert test_database in stats, sorted(stats)
    assert stats[test_database]["total_xact_count"] > 1000
    print(  # the numbers, for whoever reads the log
        f"through PgBouncer: {stats[test_database]['total_xact_count']} transactions, "
        f"{stats[test_database]['total_query_count']} queries; {summary}"
    )
