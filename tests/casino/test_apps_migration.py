"""A venue's database made before the models moved into domain apps migrates to them with no
row changed (``tests/fixtures/README.md``): the same rows in every table, the ledger still
balancing, every role's permissions the same.

The database is the demo's at the last commit before the move, loaded from its dump into a
database of its own; ``migrate`` and ``audit_ledger`` run in a child process against it, as an
operator would run them.
"""

from __future__ import annotations

import gzip
import os
import shutil
import subprocess
import sys
from pathlib import Path

import psycopg
import pytest
from django.conf import settings
from django.db import connection
from psycopg import sql

ROOT = Path(settings.BASE_DIR)
DUMP = ROOT / "tests" / "fixtures" / "demo_before_apps.sql.gz"

#: Tables a migration writes to by design: the applied migrations' list and the content
#: types (the moved models' app label; their ids and so their permissions stay).
WRITTEN_BY_MIGRATE = {"django_migrations", "django_content_type"}
#: Tables that apps added after the split add rows to (the second factor's permissions,
#: the beat heartbeat's schedule): their rows may only grow; each role's permissions are
#: compared whole below.
ADDED_TO_BY_NEW_APPS = {
    "auth_permission",
    "django_celery_beat_intervalschedule",
    "django_celery_beat_periodictask",
}


def _dsn(name: str) -> str:
    params = connection.settings_dict
    return (
        f"host={params['HOST'] or '127.0.0.1'} port={params['PORT'] or 5432} "
        f"user={params['USER']} dbname={name}"
    )


def _columns(conn) -> dict[str, list[str]]:
    """Each table's columns, in their order."""
    out: dict[str, list[str]] = {}
    for table, column in conn.execute(
        "select table_name, column_name from information_schema.columns "
        "where table_schema = 'public' order by table_name, ordinal_position"
    ):
        out.setdefault(table, []).append(column)
    return out


def _tables(conn, columns: dict[str, list[str]]) -> dict[str, tuple[int, str]]:
    """Each table's row count and a digest of its rows in ``columns`` (those a table had
    before: a column a later migration adds, and fills, is not a changed row; a column lost
    fails the query)."""
    out = {}
    for name, names in columns.items():
        row = sql.SQL("row({})").format(sql.SQL(", ").join(map(sql.Identifier, names)))
        count, digest = conn.execute(
            sql.SQL(
                "select count(*), md5(coalesce(string_agg(({row})::text, '|' "
                "order by ({row})::text), '')) from {table}"
            ).format(row=row, table=sql.Identifier(name))
        ).fetchone()
        out[name] = (count, digest)
    return out


def _permissions(conn) -> dict[str, set[int]]:
    rows = conn.execute(
        "select g.name, gp.permission_id from auth_group g "
        "join auth_group_permissions gp on gp.group_id = g.id"
    ).fetchall()
    out: dict[str, set[int]] = {}
    for group, permission in rows:
        out.setdefault(group, set()).add(permission)
    return out


def _manage(database: str, *args: str) -> subprocess.CompletedProcess:
    params = connection.settings_dict
    url = (
        f"postgres://{params['USER']}@{params['HOST'] or '127.0.0.1'}:{params['PORT'] or 5432}"
        f"/{database}"
    )
    env = {**os.environ, "DATABASE_URL": url, "REPLICA_DATABASE_URL": url}
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )


@pytest.fixture
def old_database():
    """The dump loaded into a database of its own, dropped afterwards."""
    psql = shutil.which("psql")
    assert psql, "psql (PostgreSQL's client) is needed to load the dump"
    name = f"{connection.settings_dict['NAME']}_before_apps"
    with psycopg.connect(_dsn("postgres"), autocommit=True) as admin:
        admin.execute(sql.SQL("drop database if exists {}").format(sql.Identifier(name)))
        admin.execute(sql.SQL("create database {}").format(sql.Identifier(name)))
    params = connection.settings_dict
    loaded = subprocess.run(
        [
            psql,
            "-q",
            "-v",
            "ON_ERROR_STOP=1",
            "-h",
            params["HOST"] or "127.0.0.1",
            "-p",
            str(params["PORT"] or 5432),
            "-U",
            params["USER"],
            "-d",
            name,
        ],
        input=gzip.decompress(DUMP.read_bytes()),
        capture_output=True,
        timeout=600,
    )
    assert loaded.returncode == 0, loaded.stderr.decode()[-2000:]
    yield name
    with psycopg.connect(_dsn("postgres"), autocommit=True) as admin:
        admin.execute(
            sql.SQL("drop database if exists {} with (force)").format(sql.Identifier(name))
        )


@pytest.mark.slow
def test_the_move_into_apps_keeps_every_row(old_database):
    with psycopg.connect(_dsn(old_database)) as conn:
        columns = _columns(conn)
        before = _tables(conn, columns)
        permissions_before = _permissions(conn)
        types_before = dict(
            conn.execute("select id, app_label || '.' || model from django_content_type")
        )
    assert before["casino_round"][0] > 0, "the dump holds the demo's rounds"

    migrated = _manage(old_database, "migrate", "--no-input")
    assert migrated.returncode == 0, migrated.stderr[-3000:]

    with psycopg.connect(_dsn(old_database)) as conn:
        after = _tables(conn, columns)
        permissions_after = _permissions(conn)
        types_after = dict(
            conn.execute("select id, app_label || '.' || model from django_content_type")
        )

    changed = {
        table: (before[table], after.get(table))
        for table in before
        if table not in WRITTEN_BY_MIGRATE | ADDED_TO_BY_NEW_APPS
        and before[table] != after.get(table)
    }
    assert not changed, f"rows changed by the migration: {changed}"
    for table in ADDED_TO_BY_NEW_APPS:
        assert after[table][0] >= before[table][0], f"rows lost from {table}"
    assert permissions_after == permissions_before
    # A moved model keeps its content type (so its permissions): only its app label changes.
    moved = {
        pk: (label, types_after.get(pk))
        for pk, label in types_before.items()
        if types_after.get(pk) != label
    }
    assert moved, "the moved models' content types follow them"
    for old, new in moved.values():
        assert new is not None, f"content type {old} was lost"
        assert old.split(".")[1] == new.split(".")[1], (old, new)
    # Models new since the split (the second factor's devices, the group's, a person):
    # a content type whose model no app had before.
    models_before = {label.split(".")[1] for label in types_before.values()}
    added = {label for label in types_after.values() if label.split(".")[1] not in models_before}
    assert (
        not set(types_after.values())
        - set(types_before.values())
        - {new for _old, new in moved.values()}
        - added
    ), "a moved model was given a second content type"

    audited = _manage(old_database, "audit_ledger")
    assert audited.returncode == 0, audited.stdout[-2000:] + audited.stderr[-2000:]
