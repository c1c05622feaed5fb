"""Production settings pass Django's deployment checks; the quick start needs no secrets."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def manage(*args: str, **env: str) -> subprocess.CompletedProcess:
    clean = {
        k: v
        for k, v in os.environ.items()
        if k
        not in {
            "DEBUG",
            "TESTING",
            "SECRET_KEY",
            "ALLOW_INSECURE_SECRET_KEY",
            "DJANGO_ALLOW_ASYNC_UNSAFE",
        }
    }
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_check_deploy_is_clean_with_production_settings():
    result = manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        SECRET_KEY="a-long-random-production-secret-key-0123456789-abcdefghijklmnop",
        ALLOWED_HOSTS="casino.example.com",
        CACHE_URL="redis://127.0.0.1:6379/1",  # the lockout's shared cache (casino/checks.py)
    )
    assert result.returncode == 0, result.stderr + result.stdout
    assert "no issues" in result.stdout


def test_production_refuses_to_start_without_a_secret_key():
    result = manage("check", ALLOWED_HOSTS="casino.example.com")
    assert result.returncode != 0
    assert "SECRET_KEY is not set" in result.stderr


def test_the_quick_start_migrates_a_fresh_sqlite_database(tmp_path):
    # `make run` migrates SQLite: every migration, PostgreSQL-only steps included, must pass it.
    database = tmp_path / "quick-start.sqlite3"
    result = manage("migrate", "--noinput", DEBUG="1", DATABASE_URL=f"sqlite:///{database}")
    assert result.returncode == 0, result.stderr[-3000:]
    assert database.stat().st_size > 0


def test_the_quick_start_database_queues_two_writers_instead_of_failing_one(tmp_path):
    """On SQLite (``make run``) a transaction that reads, then writes fails at once with
    "database is locked" (answered 503) when another writes: two Confirms of one round.
    Taking the write lock at BEGIN makes the second wait, then find the round settled."""
    result = subprocess.run(
        [
            sys.executable,
            "-c",
            "import django; django.setup(); from django.conf import settings; "
            "print(settings.DATABASES['default']['OPTIONS'])",
        ],
        cwd=ROOT,
        env={
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "casino.settings",
            "DEBUG": "1",
            "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
        },
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert "'transaction_mode': 'IMMEDIATE'" in result.stdout
