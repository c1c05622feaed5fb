"""What the benchmarks share: their figures as JSON lines, and a database of their own."""

from __future__ import annotations

import json
import os
from collections.abc import Callable


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
