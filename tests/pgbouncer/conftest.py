"""A real PgBouncer in transaction mode, started for the session on a free port in front of
the PostgreSQL the tests use, and stopped at its end (Debian's ``pgbouncer``; ``.ci/run``
installs it)."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import psycopg
import pytest
from django.db import connection

from tests.ports import free_port, wait_listening


@dataclass(frozen=True)
class PgBouncer:
    port: int
    log: Path

    def admin(self, command: str) -> list[dict[str, object]]:
        """A command of its admin console (``SHOW STATS``), one dict per row."""
        with psycopg.connect(
            host="127.0.0.1", port=self.port, user="postgres", dbname="pgbouncer", autocommit=True
        ) as console:
            cursor = console.execute(command)
            names = [column.name for column in cursor.description]
            return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]


@pytest.fixture(scope="session")
def pgbouncer() -> Iterator[PgBouncer]:
    if connection.vendor != "postgresql":
        pytest.skip("PgBouncer stands in front of PostgreSQL (DATABASE_URL names SQLite)")
    binary = shutil.which("pgbouncer") or "/usr/sbin/pgbouncer"
    if not Path(binary).exists():
        pytest.fail("pgbouncer is not installed: apt-get install pgbouncer (.ci/run does)")
    server = connection.settings_dict
    port = free_port()
    # PgBouncer refuses to run as root: it then runs as PostgreSQL's user, so its files
    # are in a directory that user can read.
    home = Path(tempfile.mkdtemp(prefix="pgbouncer-"))
    home.chmod(0o755)
    (home / "users.txt").write_text(f'"{server["USER"]}" ""\n')
    (home / "pgbouncer.ini").write_text(
        "[databases]\n"
        # every database, the ones pytest-django creates included, on the tests' server
        f"* = host={server['HOST'] or '127.0.0.1'} port={server['PORT'] or 5432}\n"
        "[pgbouncer]\n"
        f"listen_addr = 127.0.0.1\nlisten_port = {port}\nunix_socket_dir =\n"
        f"auth_type = trust\nauth_file = {home / 'users.txt'}\n"
        f"admin_users = {server['USER']}\n"
        "pool_mode = transaction\n"
        "max_client_conn = 200\ndefault_pool_size = 20\n"
        "ignore_startup_parameters = extra_float_digits\n"
        "stats_period = 1\n"
    )
    for path in home.iterdir():
        path.chmod(0o644)
    user = ["-u", "postgres"] if os.geteuid() == 0 else []
    log = home / "pgbouncer.log"
    with log.open("w") as output:
        process = subprocess.Popen(
            [binary, *user, str(home / "pgbouncer.ini")],
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        if not wait_listening(port, 10, alive=lambda: process.poll() is None):
            pytest.fail(f"pgbouncer did not start:\n{log.read_text()[-3000:]}")
        yield PgBouncer(port=port, log=log)
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)
        shutil.rmtree(home, ignore_errors=True)
