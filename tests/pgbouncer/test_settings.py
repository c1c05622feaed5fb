"""What ``DB_BEHIND_PGBOUNCER`` changes in the settings (``casino/settings.py``): nothing
kept on a server connection between transactions."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
URL = "postgres://app@db:6432/casino"
READ = (
    "import json, django; django.setup(); from django.conf import settings; "
    "print(json.dumps({alias: {'options': db.get('OPTIONS', {}), "
    "'no_server_cursors': db['DISABLE_SERVER_SIDE_CURSORS']} "
    "for alias, db in settings.DATABASES.items()}))"
)


def databases(**env: str) -> dict:
    environment = {
        key: value
        for key, value in os.environ.items()
        if key not in {"DB_BEHIND_PGBOUNCER", "DB_PREPARED_STATEMENTS"}
    }
    environment.update(
        DJANGO_SETTINGS_MODULE="casino.settings",
        DATABASE_URL=URL,
        REPLICA_DATABASE_URL=URL,
        **env,
    )
    run = subprocess.run(
        [sys.executable, "-c", READ],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(run.stdout)


def test_behind_pgbouncer_nothing_is_prepared_by_name_nor_a_cursor_kept_open():
    behind = databases(DB_BEHIND_PGBOUNCER="1")
    assert "prepare_threshold" not in behind["default"]["options"]
    assert "server_side_binding" not in behind["default"]["options"]
    assert behind["default"]["no_server_cursors"] is True
    assert behind["replica"]["no_server_cursors"] is True


def test_a_pgbouncer_that_carries_prepared_statements_may_have_them():
    # PgBouncer 1.21 and later with max_prepared_statements (docs/OPERATIONS.md "PgBouncer")
    behind = databases(DB_BEHIND_PGBOUNCER="1", DB_PREPARED_STATEMENTS="1")
    assert behind["default"]["options"]["prepare_threshold"] == 5
    assert behind["default"]["no_server_cursors"] is True


def test_straight_to_postgresql_statements_are_prepared_and_cursors_held_on_the_server():
    direct = databases()
    assert direct["default"]["options"] == {"server_side_binding": True, "prepare_threshold": 5}
    assert direct["default"]["no_server_cursors"] is False
    assert direct["replica"]["no_server_cursors"] is False
