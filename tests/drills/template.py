"""The back office's database ``casino``, migrated once per test run for every drill to
copy: the data directory of a stopped cluster, made by the first drill that asks for it
(under a file lock, which the pytest-xdist workers share) in the run's scratch directory.
The run's id (pytest-xdist's ``testrun_uid``, given to the workers by the controller) names
that directory, and the controller removes it at the run's end (tests/conftest.py).

A copy (``cp -a``, a second or so) replaces ``initdb`` and ``migrate`` (a minute or more).
"""

from __future__ import annotations

import fcntl
import os
import shutil
import tempfile
import uuid
from pathlib import Path

import pytest

from tests.drills.app import manage
from tests.drills.clusters import Cluster

#: The start of a run's scratch directory's name (its id follows).
RUN_PREFIX = "casino-drills-"


def name_the_run(config: pytest.Config) -> None:
    """Gives the run an id (unless given, ``--testrunuid``), before pytest-xdist starts its
    workers, which then have the same (the controller's, or a lone process's)."""
    if not hasattr(config, "workerinput") and not config.getoption("testrunuid", None):
        config.option.testrunuid = uuid.uuid4().hex


def run_dir(config: pytest.Config) -> Path:
    """The run's scratch directory (not made here): the same in every worker."""
    workerinput = getattr(config, "workerinput", None)
    uid = workerinput["testrunuid"] if workerinput else config.option.testrunuid
    return Path(tempfile.gettempdir()) / f"{RUN_PREFIX}{uid}"


def remove_run_dir(config: pytest.Config) -> None:
    """The run's scratch directory and its template deleted: by the controller (or a lone
    process) at the end, once every worker is done."""
    if not hasattr(config, "workerinput"):
        shutil.rmtree(run_dir(config), ignore_errors=True)


def migrated_template(config: pytest.Config) -> Path:
    """The run's template: a stopped cluster's data directory with ``casino`` migrated,
    made now unless a drill (of this worker or another) has made it."""
    home = run_dir(config)
    home.mkdir(exist_ok=True)
    if os.geteuid() == 0:
        shutil.chown(home, "postgres", "postgres")
    home.chmod(0o700)
    template = home / "migrated"
    with open(home / "migrated.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not template.exists():
            # Made elsewhere and moved in whole: the template is there complete, or not.
            migrated_cluster().home.rename(template)
    return template / "data"


def migrated_cluster() -> Cluster:
    """A new cluster with ``casino`` migrated, stopped cleanly (nothing left to replay)."""
    cluster = Cluster.initdb("migrated")
    try:
        cluster.start()
        cluster.sql("CREATE DATABASE casino")
        manage(cluster.dsn("casino"), "migrate", "--no-input")
        cluster.stop()
    except BaseException:
        cluster.remove()
        raise
    return cluster
