"""The failover drill: a primary crashes under a dealer's load, its streaming standby is
promoted a second later (as an operator or Patroni would), and the back office, on a
``DATABASE_URL`` naming both hosts with ``target_session_attrs=read-write``, reaches the new
primary without a restart.

Measured, and printed as JSON figure lines (``pytest -s``): the seconds the load was
refused (from its first failed round to its first settled one after), the settled rounds
lost (settled as the load saw it, not settled on the new primary). With an asynchronous
standby a few rounds may be lost; with a synchronous one (``synchronous_standby_names``,
``synchronous_commit = on``) none, for a settle that waits for the standby's flush: its
median with and without the wait, from rounds taking turns in one process before the
crash. docs/OPERATIONS.md "Failover" quotes them.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.drills.app import ROOT, app_env, drill_program, run_app
from tests.drills.clusters import REPLICATION, Cluster, wait_for

#: Seconds from the primary's crash to the standby's promotion.
PROMOTE_AFTER = 1.0
#: Settled rounds before the crash (the settle's median is theirs).
ROUNDS_BEFORE = 40
#: Seconds the load runs on after its first settled round on the new primary.
LOAD_AFTER = 2.0
#: The most a refusal may last before the drill fails.
REFUSAL_LIMIT = 30.0
#: The load process's own deadline: it stops by itself even if the drill loses it.
LOAD_SECONDS = 180
#: Rounds of the settle's cost, half waiting for the synchronous standby, half not.
COST_ROUNDS = 60


def figure(name: str, value: float, unit: str, **labels: str) -> None:
    """One measurement as a JSON line (``pytest -s`` shows it)."""
    record = {"figure": name, **labels, "value": round(value, 2), "unit": unit}
    print(json.dumps(record), flush=True)


def failover_url(primary: Cluster, standby: Cluster) -> str:
    """The app's URL: the primary, then the standby; whichever takes writes is used."""
    return (
        f"postgresql://postgres@127.0.0.1:{primary.port},127.0.0.1:{standby.port}/casino"
        "?target_session_attrs=read-write&connect_timeout=2"
    )


def replication_state(primary: Cluster, standby: Cluster) -> tuple | None:
    """The standby's (state, sync_state) as the primary sees it; None before it connects."""
    rows = primary.sql("SELECT application_name, state, sync_state FROM pg_stat_replication")
    return next((tuple(row[1:]) for row in rows if row[0] == standby.name), None)


def streaming_pair(clusters, mode: str) -> tuple[Cluster, Cluster]:
    """A primary (the back office migrated) and its standby, streaming; synchronously when
    ``mode`` is ``sync`` (the primary's commit waits until the standby has flushed it)."""
    primary = clusters(f"primary_{mode}", migrated=True, settings=REPLICATION)
    primary.start()
    standby = clusters(f"standby_{mode}", standby_of=primary, settings=REPLICATION)
    standby.start()
    if mode == "sync":
        primary.sql(f"ALTER SYSTEM SET synchronous_standby_names = '{standby.name}'")
        primary.sql("ALTER SYSTEM SET synchronous_commit = on")
        primary.sql("SELECT pg_reload_conf()")
    expected = ("streaming", "sync" if mode == "sync" else "async")
    assert wait_for(lambda: replication_state(primary, standby) == expected), replication_state(
        primary, standby
    )
    return primary, standby


def seed(url: str) -> dict[str, int]:
    output = run_app(drill_program("load_rounds", "seed"), url, seconds=120)
    return json.loads(output.splitlines()[-1])


def settle_medians(url: str, floor: dict[str, int], out: Path) -> dict[str, float]:
    """The median settle, in ms, by ``synchronous_commit``: ``on`` (waiting for the
    synchronous standby) and ``local`` (not), the rounds taking turns in one process so that
    the machine's noise falls on both alike."""
    run_app(
        drill_program(
            "load_rounds",
            *("run", "--session", str(floor["session"]), "--dealer", str(floor["dealer"])),
            *("--out", str(out), "--rounds", str(COST_ROUNDS), "--alternate-commit"),
        ),
        url,
        seconds=120,
    )
    lines = rounds(out)
    assert all(line["ok"] for line in lines) and len(lines) == COST_ROUNDS
    return {
        commit: statistics.median(line["settle_ms"] for line in lines if line["commit"] == commit)
        for commit in ("local", "on")
    }


def rounds(path: Path) -> list[dict]:
    """The load's lines so far (a line still being written is left for the next read)."""
    if not path.exists():
        return []
    text = path.read_text()
    return [json.loads(line) for line in text.splitlines(keepends=True) if line.endswith("\n")]


def settled(path: Path, since: float = 0.0) -> int:
    """Rounds the load has settled since ``since`` (the epoch's seconds)."""
    return sum(line["ok"] and line["at"] > since for line in rounds(path))


@dataclass
class Drill:
    """What the load saw (its lines), when the primary crashed and the standby took over,
    and the rounds the new primary holds settled (their ``create_key``)."""

    lines: list[dict]
    crashed_at: float
    promoted_at: float
    settled_on_new_primary: set[str]


def drill(clusters, tmp_path: Path, mode: str) -> Drill:
    """The load on the pair, the primary crashed and the standby promoted under it."""
    primary, standby = streaming_pair(clusters, mode)
    url = failover_url(primary, standby)
    floor = seed(url)
    if mode == "sync":
        medians = settle_medians(url, floor, tmp_path / "cost.jsonl")
        for commit, median in medians.items():
            figure("settle_median_ms", median, "ms", mode=mode, synchronous_commit=commit)
        figure("settle_sync_wait_ms", medians["on"] - medians["local"], "ms", mode=mode)
    out, stop, log = tmp_path / f"{mode}.jsonl", tmp_path / f"{mode}.stop", tmp_path / f"{mode}.log"
    with open(log, "w") as log_file:
        load = subprocess.Popen(
            drill_program(
                "load_rounds",
                "run",
                "--session",
                str(floor["session"]),
                "--dealer",
                str(floor["dealer"]),
                "--out",
                str(out),
                "--stop-file",
                str(stop),
                "--seconds",
                str(LOAD_SECONDS),
            ),
            cwd=ROOT,
            env=app_env(url),
            stdout=log_file,
            stderr=subprocess.STDOUT,
        )
    try:
        warm = wait_for(lambda: load.poll() is not None or settled(out) >= ROUNDS_BEFORE, 90)
        assert warm and load.poll() is None, log.read_text()[-4000:]
        crashed_at = time.time()
        primary.stop("immediate")
        time.sleep(PROMOTE_AFTER)
        standby.promote()
        promoted_at = time.time()
        assert wait_for(lambda: settled(out, since=promoted_at), seconds=REFUSAL_LIMIT), (
            log.read_text()[-4000:]
        )
        time.sleep(LOAD_AFTER)
        stop.touch()
        load.wait(timeout=30)
        assert load.returncode == 0, log.read_text()[-4000:]
    finally:
        if load.poll() is None:
            load.kill()
            load.wait(timeout=10)
    keys = standby.sql("SELECT create_key FROM casino_round WHERE status = 'settled'", "casino")
    return Drill(rounds(out), crashed_at, promoted_at, {key for (key,) in keys})


def refusal_seconds(lines: list[dict]) -> float:
    """From the first failed round to the first settled one after it."""
    first_failed = next(i for i, line in enumerate(lines) if not line["ok"])
    back = next(line for line in lines[first_failed:] if line["ok"])
    return back["at"] - lines[first_failed]["at"]


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["async", "sync"])
def test_the_app_reaches_the_promoted_standby_without_a_restart(clusters, tmp_path, mode):
    result = drill(clusters, tmp_path, mode)
    lines = result.lines
    failed = [line for line in lines if not line["ok"]]
    assert failed, "the crash refused no round: the drill did not cut the database"
    assert {line["error"] for line in failed} <= {"OperationalError", "InterfaceError"}
    refused = refusal_seconds(lines)
    seen_settled = {line["key"] for line in lines if line["ok"]}
    lost = sorted(seen_settled - result.settled_on_new_primary)
    after = [line for line in lines if line["ok"] and line["at"] > result.promoted_at]
    figure("failover_refusal_seconds", refused, "s", mode=mode)
    figure("failover_failed_rounds", len(failed), "rounds", mode=mode)
    figure("failover_settled_rounds_lost", len(lost), "rounds", mode=mode)
    figure("failover_settled_rounds", len(seen_settled), "rounds", mode=mode)

    assert refused < REFUSAL_LIMIT
    assert refused >= PROMOTE_AFTER * 0.5, "refused less than the promotion took: no failover"
    assert len(after) >= 5, "the load did not keep settling on the new primary"
    assert not any(not line["ok"] for line in lines if line["at"] > after[0]["at"] + 1), (
        "rounds failed after the app was back on the new primary"
    )
    if mode == "sync":
        assert lost == [], f"a synchronous standby lost settled rounds: {lost}"
