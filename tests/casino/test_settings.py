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
        timeout=300,  # a fresh SQLite database migrates in 1-2.5 minutes on two busy cores
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


#: Two transactions on the quick start's database that read, then write, as two Confirms
#: of one round do (the session row read, then the round written): one holds its write for
#: a moment while the other reads and writes.
TWO_WRITERS = """
import threading, time
import django
django.setup()
from django.db import connection, transaction

with connection.cursor() as cursor:
    cursor.execute("CREATE TABLE confirms (round INTEGER)")
first_wrote = threading.Event()
outcomes = []

def confirm(wait):
    try:
        with transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute("SELECT count(*) FROM confirms")
                if wait:
                    first_wrote.wait(5)
                cursor.execute("INSERT INTO confirms VALUES (1)")
                if not wait:
                    first_wrote.set()
                    time.sleep(0.3)
        outcomes.append("ok")
    except Exception as error:
        first_wrote.set()
        outcomes.append(type(error).__name__ + ": " + str(error))
    finally:
        connection.close()

threads = [threading.Thread(target=confirm, args=(wait,)) for wait in (False, True)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
print(sorted(outcomes))
"""


def test_the_quick_start_database_queues_two_writers_instead_of_failing_one(tmp_path):
    """On SQLite (``make run``) a transaction that reads, then writes, failed at once with
    "database is locked" (answered 503) while another wrote: a second Confirm of a round
    beside "Round 3 settled". Taking the write lock at BEGIN makes the second wait."""
    result = subprocess.run(
        [sys.executable, "-c", TWO_WRITERS],
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
    assert result.stdout.strip() == "['ok', 'ok']"
