"""PostgreSQL clusters of a drill's own: made with ``initdb`` (or ``pg_basebackup`` from
another, for a standby, or ``cp -a`` of a stopped one's data directory, for a copy of a
template) in a scratch directory, on a free port, started and stopped with ``pg_ctl``, and
removed at the drill's end. They run as PostgreSQL's system user when the tests run as root
(PostgreSQL refuses root), from the newest server installed
(``/usr/lib/postgresql/<version>/bin``, Debian's layout).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

import psycopg

from tests.ports import free_port

#: How long a start, stop or promotion may take before the drill fails (not hangs).
PG_CTL_SECONDS = 60

#: A primary's settings that let a streaming standby follow it, and the standby serve reads.
REPLICATION = ["wal_level = replica", "max_wal_senders = 5", "hot_standby = on"]
#: A site's settings in a group (docs/OPERATIONS.md "A group of sites"): its changes decoded
#: for the group's subscription (a slot for it, and the table copies' own while it starts).
LOGICAL = ["wal_level = logical", "max_replication_slots = 10", "max_wal_senders = 10"]


def wait_for(predicate: Callable[[], bool], seconds: float = 30, every: float = 0.1) -> bool:
    """Whether ``predicate()`` holds within ``seconds`` (asked every ``every`` seconds)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(every)
    return False


def bin_dir() -> Path:
    versions = sorted(
        Path("/usr/lib/postgresql").glob("*/bin"), key=lambda path: int(path.parent.name)
    )
    if not versions:
        raise RuntimeError("no PostgreSQL server installed under /usr/lib/postgresql")
    return versions[-1]


def as_postgres(command: list[str]) -> list[str]:
    """``command`` run as PostgreSQL's user when we are root (initdb and the server refuse
    root), else as ourselves."""
    return ["runuser", "-u", "postgres", "--", *command] if os.geteuid() == 0 else command


def run(command: list[str], seconds: float = PG_CTL_SECONDS) -> str:
    # from / : the checkout may be in a folder PostgreSQL's user may not enter
    done = subprocess.run(
        as_postgres(command),
        capture_output=True,
        text=True,
        timeout=seconds,
        check=False,
        cwd="/",
    )
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed:\n{done.stdout}\n{done.stderr}")
    return done.stdout


def scratch_dir(prefix: str) -> Path:
    """A new directory PostgreSQL's user owns (and may write to)."""
    path = Path(tempfile.mkdtemp(prefix=prefix))
    if os.geteuid() == 0:
        shutil.chown(path, "postgres", "postgres")
    path.chmod(0o700)
    return path


@dataclass
class Cluster:
    """One PostgreSQL cluster: its data directory, port and server log."""

    name: str
    home: Path
    port: int = field(default_factory=free_port)

    @property
    def data(self) -> Path:
        return self.home / "data"

    @property
    def log(self) -> Path:
        return self.home / "server.log"

    @classmethod
    def initdb(cls, name: str, settings: Iterable[str] = ()) -> Cluster:
        """A new, empty cluster (user ``postgres``, trust on 127.0.0.1), not started."""
        cluster = cls(name, scratch_dir(f"drill-{name}-"))
        run(
            [
                str(bin_dir() / "initdb"),
                "-D",
                str(cluster.data),
                "-U",
                "postgres",
                "--auth=trust",
                "--no-sync",
            ]
        )
        cluster.configure(settings)
        return cluster

    @classmethod
    def copy_of(cls, data: Path, name: str, settings: Iterable[str] = ()) -> Cluster:
        """A copy of the data directory ``data`` of a stopped cluster (a template): its
        files and databases, on a port of its own; not started. A copy that fails leaves no
        directory behind."""
        cluster = cls(name, scratch_dir(f"drill-{name}-"))
        try:
            run(["cp", "-a", str(data), str(cluster.data)])
        except (RuntimeError, subprocess.TimeoutExpired):
            shutil.rmtree(cluster.home, ignore_errors=True)
            raise
        cluster.configure(settings)
        return cluster

    @classmethod
    def standby_of(cls, primary: Cluster, name: str, settings: Iterable[str] = ()) -> Cluster:
        """A streaming standby of ``primary`` (running): its base backup, with the
        connection back to it written by ``pg_basebackup -R``; not started. The backup
        starts with a fast checkpoint: a spread one, the default, waits minutes after a
        migration. A backup that fails leaves no directory behind."""
        cluster = cls(name, scratch_dir(f"drill-{name}-"))
        try:
            cluster.base_backup(primary)
        except (RuntimeError, subprocess.TimeoutExpired):
            shutil.rmtree(cluster.home, ignore_errors=True)
            raise
        cluster.configure(settings)
        return cluster

    def base_backup(self, primary: Cluster) -> None:
        """``primary``'s files into this cluster's data directory, with its WAL meanwhile."""
        run(
            [
                str(bin_dir() / "pg_basebackup"),
                "-h",
                "127.0.0.1",
                "-p",
                str(primary.port),
                "-U",
                "postgres",
                "-D",
                str(self.data),
                "-X",
                "stream",
                "-R",
                "--checkpoint=fast",
                "--no-sync",
                "-d",
                f"application_name={self.name}",
            ]
        )

    def configure(self, settings: Iterable[str]) -> None:
        """Appends to ``postgresql.conf``: its port, local connections only, and
        ``settings`` (lines such as ``"wal_level = replica"``)."""
        lines = [
            f"port = {self.port}",
            "listen_addresses = '127.0.0.1'",
            f"unix_socket_directories = '{self.home}'",
            "logging_collector = off",
            *settings,
        ]
        conf = self.data / "postgresql.conf"
        text = conf.read_text() + "\n# the drill's\n" + "\n".join(lines) + "\n"
        _write_as_postgres(conf, text)

    def start(self) -> None:
        run(
            [
                str(bin_dir() / "pg_ctl"),
                "-D",
                str(self.data),
                "-l",
                str(self.log),
                "-w",
                "-t",
                str(PG_CTL_SECONDS),
                "start",
            ],
            seconds=PG_CTL_SECONDS + 10,
        )

    def stop(self, mode: str = "fast") -> None:
        """``mode``: ``fast`` (a clean shutdown) or ``immediate`` (as a crash leaves it)."""
        run(
            [
                str(bin_dir() / "pg_ctl"),
                "-D",
                str(self.data),
                "-m",
                mode,
                "-w",
                "-t",
                str(PG_CTL_SECONDS),
                "stop",
            ],
            seconds=PG_CTL_SECONDS + 10,
        )

    def promote(self) -> None:
        run(
            [str(bin_dir() / "pg_ctl"), "-D", str(self.data), "-w", "-t", "60", "promote"],
            seconds=PG_CTL_SECONDS + 10,
        )

    def running(self) -> bool:
        return (self.data / "postmaster.pid").exists()

    def dsn(self, dbname: str = "postgres") -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{dbname}"

    def sql(self, query: str, dbname: str = "postgres") -> list[tuple]:
        """``query``'s rows (none for a statement), on a connection of its own."""
        with psycopg.connect(self.dsn(dbname), autocommit=True, connect_timeout=5) as conn:
            cursor = conn.execute(query)
            return cursor.fetchall() if cursor.description else []

    def remove(self) -> None:
        """Stop it (as a crash would, if it still runs) and delete its files."""
        if self.running():
            with contextlib.suppress(RuntimeError, subprocess.TimeoutExpired):
                self.stop("immediate")
        shutil.rmtree(self.home, ignore_errors=True)


def _write_as_postgres(path: Path, text: str) -> None:
    path.write_text(text)
    if os.geteuid() == 0:
        shutil.chown(path, "postgres", "postgres")
