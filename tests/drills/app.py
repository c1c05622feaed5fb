"""The back office run against a drill's cluster, as a separate process would run it in
production: ``manage.py`` with that cluster's ``DATABASE_URL`` (the tests' own database
and settings stay untouched)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def app_env(database_url: str, **extra: str) -> dict[str, str]:
    """The environment of an app process on ``database_url``: production settings (DEBUG
    off), no replica, Celery tasks run in the process (no broker needed)."""
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {"REPLICA_DATABASE_URL", "CELERY_BROKER_URL", "CACHE_URL"}
    }
    env.update(
        DEBUG="0",
        TESTING="1",
        ALLOW_INSECURE_SECRET_KEY="1",
        DATABASE_URL=database_url,
        LOG_LEVEL="WARNING",
        **extra,
    )
    return env


def drill_program(name: str, *args: str) -> list[str]:
    """The command running the drills' program ``name`` (``tests/drills/<name>.py``: the
    dealer's load, the group's reports) with ``args``, for ``run_app`` or a process of its
    own."""
    return [sys.executable, "-m", f"tests.drills.{name}", *args]


def run_app(command: list[str], database_url: str, *, seconds: float, **extra: str) -> str:
    """``command`` (a Python program of the back office's) run in an app process on
    ``database_url``; its output (a failure raises, with it)."""
    done = subprocess.run(
        command,
        cwd=ROOT,
        env=app_env(database_url, **extra),
        capture_output=True,
        text=True,
        timeout=seconds,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(command)}:\n{done.stdout}\n{done.stderr[-4000:]}")
    return done.stdout


def manage(database_url: str, *args: str, seconds: float = 300, **extra: str) -> str:
    """``manage.py args`` against ``database_url``; its output (a failure raises, with it).
    Without the system checks, which take a second and a half of each command and are not
    a drill's to test (tests/casino/test_settings.py runs them)."""
    return run_app(
        [sys.executable, str(ROOT / "manage.py"), *args, "--skip-checks"],
        database_url,
        seconds=seconds,
        **extra,
    )
