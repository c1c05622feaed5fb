"""The restore drill (docs/OPERATIONS.md "Restore drill"), with the scripts of
``deploy/backup/`` installed as an operator installs them: a primary archiving its WAL with
``archive-wal.sh``, a nightly ``base-backup.sh``, the floor playing on, then an operator's
mistake, and ``restore-pitr.sh`` bringing the moment before it back onto a scratch cluster,
where ``audit_ledger`` passes and ``row_counts`` equal the primary's at that moment.

It prints its measurements as JSON lines (``pytest tests/drills/test_restore.py -s``): the
base backup's time and size, the archive's lag behind a commit (the recovery point) and
the restore's time and the database's size (the recovery time).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

import psycopg
import pytest

from tests.drills.app import ROOT, manage
from tests.drills.clusters import Cluster, as_postgres, bin_dir, scratch_dir

SCRIPTS = ROOT / "deploy" / "backup"
#: The drill's archive_timeout: small, so its WAL reaches the archive within the test; the
#: lag it measures is bounded by it, as a venue's is by its own (60 s in production).
ARCHIVE_TIMEOUT = 10
#: How long a script may take before the drill fails (not hangs).
SCRIPT_SECONDS = 300


@pytest.fixture
def backups() -> Iterator[Path]:
    """The backup host's directories, PostgreSQL's user's (as /backup is): ``wal``,
    ``base``, and ``bin`` with the scripts installed; removed at the end."""
    home = scratch_dir("drill-backups-")
    for name in ("wal", "base", "bin"):
        owned(home / name)
    for script in SCRIPTS.glob("*.sh"):
        shutil.copy(script, home / "bin" / script.name)
        (home / "bin" / script.name).chmod(0o755)
    yield home
    shutil.rmtree(home, ignore_errors=True)


def owned(path: Path) -> Path:
    path.mkdir(mode=0o700)
    if os.geteuid() == 0:
        shutil.chown(path, "postgres", "postgres")
    return path


def script(name: str, backups: Path, *args: str, **env: str) -> str:
    """``deploy/backup/<name>`` as installed, run as PostgreSQL's user with the backup
    directories in its environment; its output (a failure raises, with it)."""
    settings = {
        "BACKUP_BASE": str(backups / "base"),
        "WAL_ARCHIVE": str(backups / "wal"),
        "PG_BIN": str(bin_dir()),
        **env,
    }
    command = ["env", *(f"{key}={value}" for key, value in settings.items())]
    done = subprocess.run(
        as_postgres([*command, str(backups / "bin" / name), *args]),
        capture_output=True,
        text=True,
        timeout=SCRIPT_SECONDS,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"{name} {' '.join(args)}:\n{done.stdout}\n{done.stderr}")
    return done.stdout


def play(cluster: Cluster, venue: str) -> None:
    """A shift of rounds at a venue of its own, through the floor's services, closed and
    reconciled."""
    manage(cluster.dsn("casino"), "simulate", "--venue", venue, "--rounds", "120", "--tables", "2")


def row_counts(cluster: Cluster) -> dict[str, int]:
    listing = manage(cluster.dsn("casino"), "row_counts")
    return {table: int(count) for table, count in (line.split() for line in listing.splitlines())}


def wait_archived(backups: Path, segment: str, seconds: float) -> float:
    """Seconds until ``segment`` is in the archive (fails past ``seconds``)."""
    started = time.monotonic()
    path = backups / "wal" / segment
    while not path.exists():
        if time.monotonic() - started > seconds:
            raise AssertionError(f"{segment} not archived within {seconds} s")
        time.sleep(0.05)
    return time.monotonic() - started


def archive_lag(primary: Cluster, backups: Path) -> float:
    """Seconds from a commit to its WAL segment whole in the archive, at worst: the commit
    made just after a segment switch, so its segment is closed only by archive_timeout.
    That is what a loss of the primary's disks at the wrong moment loses (the RPO)."""
    primary.sql("CREATE TABLE IF NOT EXISTS drill_commit (at timestamptz)")
    switched = primary.sql("SELECT pg_walfile_name(pg_switch_wal())")[0][0]
    wait_archived(backups, switched, seconds=60)
    primary.sql("INSERT INTO drill_commit VALUES (clock_timestamp())")
    # The write position right after the commit: its segment holds the commit's record.
    segment = primary.sql("SELECT pg_walfile_name(pg_current_wal_lsn())")[0][0]
    return wait_archived(backups, segment, seconds=3 * ARCHIVE_TIMEOUT + 30)


def bad_change(primary: Cluster) -> None:
    """An operator's mistake: as a superuser, the ledger's append-only triggers set aside
    (``session_replication_role``), a cleanup meant for a test database run on this one."""
    with psycopg.connect(primary.dsn("casino"), connect_timeout=5) as conn:
        conn.execute("SET LOCAL session_replication_role = replica")
        conn.execute("DELETE FROM casino_ledgerentry")


def directory_bytes(path: Path) -> int:
    return sum(file.stat().st_size for file in path.rglob("*") if file.is_file())


def seconds_in(line: str, after: str) -> float:
    """The seconds ``restore-pitr.sh`` printed ``after`` a phrase ("... in 7.288 s")."""
    return float(line.split(after)[1].split(" s")[0])


def figure(**values) -> None:
    print(json.dumps({"drill": "restore", **values}), flush=True)


def archiving_primary(clusters, backups: Path) -> Cluster:
    """A primary archiving every segment through ``archive-wal.sh``, the back office
    migrated onto its database ``casino``."""
    archive_command = f"WAL_ARCHIVE={backups / 'wal'} {backups / 'bin' / 'archive-wal.sh'} %p %f"
    primary = clusters(
        "primary",
        migrated=True,
        settings=[
            "wal_level = replica",
            "archive_mode = on",
            f"archive_command = '{archive_command}'",
            f"archive_timeout = {ARCHIVE_TIMEOUT}",
        ],
    )
    primary.start()
    return primary


def filler(primary: Cluster, table: str) -> None:
    """About 70 MB of rows (hex digits, which gzip halves) in a table of the ``postgres``
    database, the app's rows untouched: the drill's rates are then more than a small
    database's fixed costs. ``table``: the drill's own names, no input."""
    primary.sql(
        f"CREATE TABLE {table} AS SELECT g, repeat(md5(g::text), 4) AS pad "  # noqa: S608
        "FROM generate_series(1, 400000) AS g"
    )


def cluster_bytes(cluster: Cluster) -> int:
    """Every database's size: what a base backup copies, and a restore unpacks."""
    return int(cluster.sql("SELECT sum(pg_database_size(oid)) FROM pg_database")[0][0])


def old_backup(backups: Path) -> Path:
    """A base backup of a month ago (its WAL's first segment only), past ``KEEP_DAYS``."""
    old = owned(backups / "base" / "2020-01-01T000000Z")
    (old / "wal-start").write_text("000000010000000000000001\n")
    month_ago = time.time() - 30 * 86400
    os.utime(old, (month_ago, month_ago))
    return old


def base_backup(primary: Cluster, backups: Path) -> Path:
    """``base-backup.sh`` of ``primary``: the directory it made (timed, measured). The
    backups older than ``KEEP_DAYS`` are gone, and the archived WAL from before it."""
    old = old_backup(backups)
    started = time.monotonic()
    made = script(
        "base-backup.sh", backups, PGHOST="127.0.0.1", PGPORT=str(primary.port), KEEP_DAYS="14"
    )
    seconds = time.monotonic() - started
    (base,) = (backups / "base").iterdir()
    assert not old.exists()
    first = (base / "wal-start").read_text().strip()
    assert min(path.name for path in (backups / "wal").glob("0*")) == first
    assert made.startswith(f"base backup {base}:")
    assert "verified (pg_verifybackup)" in made
    assert {"base.tar.gz", "pg_wal.tar.gz", "backup_manifest", "wal-start"} <= {
        file.name for file in base.iterdir()
    }
    figure(
        base_backup_seconds=round(seconds, 2),
        base_backup_bytes=directory_bytes(base),
        cluster_bytes=cluster_bytes(primary),
        database_bytes=primary.sql("SELECT pg_database_size('casino')")[0][0],
    )
    return base


def restore_figures(report: str, seconds: float, restored: Cluster, base: Path) -> None:
    """What ``restore-pitr.sh`` took, and what it replayed onto how large a database."""
    times = next(line for line in report.splitlines() if line.startswith("unpacked"))
    manifest = json.loads((base / "backup_manifest").read_text())
    start_lsn = manifest["WAL-Ranges"][0]["Start-LSN"]
    replayed = f"SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '{start_lsn}')"
    figure(
        restore_seconds=round(seconds, 2),
        unpack_and_verify_seconds=seconds_in(times, "verified in "),
        replay_and_promote_seconds=seconds_in(times, "promoted in "),
        wal_segments_replayed=int(report.split(" and ")[1].split()[0]),
        wal_bytes_replayed=int(restored.sql(replayed)[0][0]),
        cluster_bytes=cluster_bytes(restored),
        database_bytes=restored.sql("SELECT pg_database_size('casino')")[0][0],
    )


@pytest.mark.slow
def test_a_point_in_time_restore_brings_back_the_moment_before_a_bad_change(clusters, backups):
    primary = archiving_primary(clusters, backups)
    play(primary, venue="early")
    filler(primary, "filler_before")

    # The nightly base backup, then the floor plays on: what follows it only the WAL holds.
    base = base_backup(primary, backups)
    at_backup = row_counts(primary)
    play(primary, venue="late")
    filler(primary, "filler_after")

    lag = archive_lag(primary, backups)
    assert lag <= ARCHIVE_TIMEOUT + 10
    figure(archive_timeout_seconds=ARCHIVE_TIMEOUT, archive_lag_seconds=round(lag, 2))

    # The moment to come back to, then the mistake, its WAL archived.
    at_target = row_counts(primary)
    target: datetime = primary.sql("SELECT clock_timestamp()")[0][0]
    assert at_target["casino_round"] > at_backup["casino_round"]
    bad_change(primary)
    damaged = row_counts(primary)
    assert damaged["casino_ledgerentry"] == 0 < at_target["casino_ledgerentry"]
    with pytest.raises(RuntimeError, match="problem"):
        manage(primary.dsn("casino"), "audit_ledger")
    switched = primary.sql("SELECT pg_walfile_name(pg_switch_wal())")[0][0]
    wait_archived(backups, switched, seconds=60)

    # The restore onto a scratch cluster of its own, to the moment before the mistake.
    restored = clusters("restored", empty=True)
    started = time.monotonic()
    report = script(
        "restore-pitr.sh",
        backups,
        *("--time", target.isoformat(sep=" "), "--timeout", "180"),
        *(str(restored.data), str(restored.port)),
    )
    seconds = time.monotonic() - started
    assert f"restored {base} and" in report
    assert "recovery stopping before commit" in report

    assert restored.sql("SELECT pg_is_in_recovery()") == [(False,)]
    assert row_counts(restored) == at_target != damaged
    assert "the ledger balances" in manage(restored.dsn("casino"), "audit_ledger")
    restore_figures(report, seconds, restored, base)


def test_the_archive_takes_a_segment_once_and_never_overwrites_another(backups):
    """``archive-wal.sh`` as ``archive_command`` calls it: a segment copied whole; the same
    segment again (a retry) succeeds; other bytes under an archived name are refused and the
    archived file kept."""
    segments = scratch_dir("drill-segments-")
    try:
        name = "000000010000000000000007"
        for content, filename in ((b"\x01" * 4096, "ours"), (b"\x02" * 4096, "other")):
            (segments / filename).write_bytes(content)
            (segments / filename).chmod(0o644)
        script("archive-wal.sh", backups, str(segments / "ours"), name)
        script("archive-wal.sh", backups, str(segments / "ours"), name)
        with pytest.raises(RuntimeError, match="refusing to overwrite"):
            script("archive-wal.sh", backups, str(segments / "other"), name)
        assert (backups / "wal" / name).read_bytes() == b"\x01" * 4096
        assert [path.name for path in (backups / "wal").iterdir()] == [name]
    finally:
        shutil.rmtree(segments, ignore_errors=True)
