"""The group's replication lag under a site's full load (docs/OPERATIONS.md, "A group of
sites"): a site and the group's reporting database, each a PostgreSQL cluster of its own on
a free port (as the drills make them: tests/drills/clusters.py), the site set up
(``site_setup``) and the group subscribed (``group_setup``). ``BENCH_DEALERS`` dealer
processes (default 2, one a core), each at its own table, deal and settle Niu Niu rounds
through the services without a pause for ``BENCH_SECONDS`` (default 30); meanwhile, once a
second, the newest settled round at the site is noted and the time until the group holds it
measured. Figures: rounds settled a second, the lag's median, p95 and largest, and the
seconds the group needed to hold every round once the load stopped. Target: lag <= 5 s.

    .venv/bin/python bench/group_lag.py
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.common import emitter  # noqa: E402 (after the path)
from tests.drills.app import app_env, drill_program, manage, run_app  # noqa: E402
from tests.drills.clusters import LOGICAL, Cluster, wait_for  # noqa: E402
from tests.drills.template import migrated_cluster  # noqa: E402

emit = emitter("group_lag")

DEALERS = int(os.environ.get("BENCH_DEALERS", "2"))
SECONDS = float(os.environ.get("BENCH_SECONDS", "30"))
TARGET_S = 5.0
NEWEST = "SELECT coalesce(max(id), 0) FROM casino_round WHERE status = 'settled'"


def newest(cluster: Cluster) -> int:
    return cluster.sql(NEWEST, "casino")[0][0]


def lags(site: Cluster, group: Cluster, until: threading.Event) -> list[float]:
    """Once a second while the load runs: the seconds from noting the site's newest settled
    round to the group holding it."""
    taken = []
    while not until.is_set():
        started = time.monotonic()
        mark = newest(site)
        if mark:
            wait_for(lambda mark=mark: newest(group) >= mark, seconds=60, every=0.02)
            taken.append(time.monotonic() - started)
        time.sleep(max(0.0, 1.0 - (time.monotonic() - started)))
    return taken


def main() -> None:
    template = migrated_cluster()
    made = [template]
    try:
        site = Cluster.copy_of(template.data, "bench_site", LOGICAL)
        made.append(site)
        group = Cluster.copy_of(template.data, "bench_group", LOGICAL)
        made.append(group)
        site.start()
        group.start()
        manage(site.dsn("casino"), "site_setup", "--site", "1")
        floors = [
            json.loads(
                run_app(
                    drill_program("load_rounds", "seed", "--venue", f"bench-{n}"),
                    site.dsn("casino"),
                    seconds=120,
                ).splitlines()[-1]
            )
            for n in range(DEALERS)
        ]
        manage(
            group.dsn("casino"), "group_setup", "--site", "bench", "--conninfo", site.dsn("casino")
        )
        out = Path(tempfile.mkdtemp(prefix="group-lag-"))
        dealers = [
            subprocess.Popen(  # noqa: S603 (our own load process)
                drill_program(
                    "load_rounds",
                    *("run", "--session", str(floor["session"]), "--dealer", str(floor["dealer"])),
                    *("--out", str(out / f"dealer-{n}.jsonl"), "--seconds", str(SECONDS)),
                    *("--pause", "0", "--seed", str(n + 1)),
                ),
                cwd=ROOT,
                env=app_env(site.dsn("casino")),
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            for n, floor in enumerate(floors)
        ]
        stop = threading.Event()
        taken: list[float] = []
        sampler = threading.Thread(target=lambda: taken.extend(lags(site, group, stop)))
        sampler.start()
        for dealer in dealers:
            dealer.wait(timeout=SECONDS + 120)
        stop.set()
        sampler.join()
        ended = time.monotonic()
        last = newest(site)
        assert wait_for(lambda: newest(group) >= last, seconds=120, every=0.05)
        drained = time.monotonic() - ended
        settled = sum(
            json.loads(line)["ok"]
            for path in out.glob("dealer-*.jsonl")
            for line in path.read_text().splitlines()
        )
        emit("dealers", DEALERS, "processes")
        emit("rounds_per_s", round(settled / SECONDS, 1), "1/s")
        emit("samples", len(taken), "samples")
        emit("lag_median_s", round(statistics.median(taken), 3), "s", TARGET_S)
        emit("lag_p95_s", round(statistics.quantiles(taken, n=20)[-1], 3), "s", TARGET_S)
        emit("lag_max_s", round(max(taken), 3), "s", TARGET_S)
        emit("drained_s", round(drained, 3), "s")
        emit("load_average_1m", round(os.getloadavg()[0], 1), "")
    finally:
        for cluster in reversed(made):
            cluster.remove()


if __name__ == "__main__":
    main()
