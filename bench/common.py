"""What the benchmarks share: their figures as JSON lines, and a database of their own.

Each benchmark and each load tool (``loadtest/``) makes its own database, named
``{LOADTEST_DB_PREFIX}_{run}`` (``casino_bench``, ``casino_races``...; the prefix is
``casino`` unless the environment says otherwise), dropping and creating it anew: two runs
on one PostgreSQL server, from two checkouts or by two people, each with its own prefix,
never drop each other's database.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

#: The local PostgreSQL the benchmarks use unless ``BENCH_DATABASE_URL`` names a database.
LOCAL_SERVER = "postgres://postgres@127.0.0.1:5432"


def database_prefix() -> str:
    """``LOADTEST_DB_PREFIX`` (default ``casino``): a plain lowercase name."""
    prefix = os.environ.get("LOADTEST_DB_PREFIX", "casino")
    if not re.fullmatch(r"[a-z_][a-z0-9_]{0,40}", prefix):
        raise SystemExit(
            f"LOADTEST_DB_PREFIX={prefix!r}: use lowercase letters, digits and _ (up to 41), "
            "e.g. casino_alice"
        )
    return prefix


def database_url(run: str) -> str:
    """``BENCH_DATABASE_URL`` if set, else ``{prefix}_{run}`` on the local PostgreSQL."""
    return os.environ.get("BENCH_DATABASE_URL") or f"{LOCAL_SERVER}/{database_prefix()}_{run}"


def emitter(bench: str) -> Callable[..., None]:
    """``emit(figure, value, unit, target=None)``: one figure of ``bench`` as a JSON line."""

    def emit(figure: str, value: float, unit: str, target: float | None = None) -> None:
        record: dict[str, object] = {"bench": bench, "figure": figure, "value": value}
        record["unit"] = unit
        if target is not None:
            record["target"] = target
        print(json.dumps(record), flush=True)

    return emit


def recreate_database(url: str) -> None:
    """Drop the PostgreSQL database ``url`` names, if there, and create it empty."""
    import psycopg

    server, name = url.rsplit("/", 1)
    with psycopg.connect(f"{server}/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
        conn.execute(f'CREATE DATABASE "{name}"')


def django_on_fresh_database(url: str) -> None:
    """Set Django up on ``url``, created anew and migrated (tasks run in this process)."""
    os.environ["DATABASE_URL"] = url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")
    os.environ.setdefault("ALLOW_INSECURE_SECRET_KEY", "1")
    os.environ.setdefault("TESTING", "1")
    os.environ.pop("CELERY_BROKER_URL", None)
    recreate_database(url)
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)


ROOT = Path(__file__).resolve().parent.parent


def bench_env(url: str, *, replica: bool = False) -> dict[str, str]:
    """The environment a benchmark's Django runs in: ``url``, eager tasks (nothing leaves the
    process) and, unless ``replica``, no replica."""
    env = {
        **os.environ,
        "DATABASE_URL": url,
        "DJANGO_SETTINGS_MODULE": "casino.settings",
        "ALLOW_INSECURE_SECRET_KEY": "1",
        "TESTING": "1",
        "LOG_LEVEL": "WARNING",
    }
    env.pop("CELERY_BROKER_URL", None)
    if not replica:
        env.pop("REPLICA_DATABASE_URL", None)
    return env


def manager(env: dict[str, str]) -> Callable[..., str]:
    """A function running this checkout's ``manage.py`` in ``env``; a failing command ends the
    run with what it printed."""

    def manage(*args: str) -> str:
        done = subprocess.run(  # noqa: S603 (our own manage.py)
            [sys.executable, str(ROOT / "manage.py"), *args],
            env=env,
            cwd=ROOT,
            capture_output=True,
            text=True,
        )
        if done.returncode:
            sys.exit(f"manage.py {' '.join(args)} failed:\n{done.stdout}{done.stderr}")
        return done.stdout

    return manage
