"""The tests' databases made from the migrated schema kept in ``tests/fixtures/schema.sql.gz``,
not by running every migration again in every pytest-xdist worker.

Why not Django's way: ``migrate`` on an empty database costs a minute and a half of CPU here
(Django renders the models' state again after the operations of some 160 migrations), and
each worker paid it before its first test. The file is what ``migrate`` leaves in an empty
database (pg_dump's plain SQL: the tables, the triggers and functions the migrations install,
and the rows they write: content types, permissions, the beat's schedule), made by ``make
schema``, its first line the digest of the migrations it was made from. A run loads it once into a
template database named by that digest (kept between runs, under an advisory lock so that
workers and runs do not build it twice); Django makes each worker's test database as a copy
of it (``TEST["TEMPLATE"]``) and its own ``migrate`` then has nothing to apply. Rails loads
its schema file for the same reason (``db:schema:load``).

The file cannot silently drift: when a migration is added or changed and the file not made
again, the template is migrated the long way (the run stays right) and
``tests/test_schema.py`` fails saying to run ``make schema``; the drills' cluster is still
migrated the long way, and ``tests/drills/test_schema_file.py`` compares what it holds with
the file.
"""

from __future__ import annotations

import gzip
import hashlib
import os
import subprocess
import sys
from contextlib import contextmanager, suppress
from pathlib import Path

import django
import psycopg
from psycopg import sql

from tests.drills.app import manage

ROOT = Path(__file__).resolve().parents[1]
SCHEMA_FILE = ROOT / "tests" / "fixtures" / "schema.sql.gz"
#: The file's first line: this, then the digest.
HEADER = "-- migrations digest: "
#: Template databases are named this and the digest's start.
TEMPLATE_PREFIX = "casino_schema_"
#: pg_advisory_lock's key while a template is built (any fixed number of the project's).
BUILD_LOCK = 7_150_339


def migrations_digest() -> str:
    """A digest of every migration ``migrate`` would run (the project's and the installed
    packages', each file's bytes, by app and name) and Django's version."""
    from django.db.migrations.loader import MigrationLoader

    digest = hashlib.sha256(django.get_version().encode())
    loader = MigrationLoader(None, ignore_no_migrations=True)
    for (app, name), migration in sorted(loader.disk_migrations.items()):
        digest.update(f"{app}.{name}\n".encode())
        digest.update(Path(sys.modules[type(migration).__module__].__file__).read_bytes())
    return digest.hexdigest()


def file_digest() -> str | None:
    """The digest the schema file was made from (None without a file)."""
    if not SCHEMA_FILE.exists():
        return None
    with gzip.open(SCHEMA_FILE, "rt", encoding="utf-8") as schema:
        first = schema.readline()
    return first[len(HEADER) :].strip() if first.startswith(HEADER) else None


def _libpq_env(params: dict) -> dict[str, str]:
    """The environment psql and pg_dump take the server of ``params`` (a DATABASES entry)
    from."""
    env = dict(os.environ)
    env.update(
        PGHOST=params.get("HOST") or "127.0.0.1",
        PGPORT=str(params.get("PORT") or 5432),
        PGUSER=params.get("USER") or "postgres",
    )
    if params.get("PASSWORD"):
        env["PGPASSWORD"] = params["PASSWORD"]
    return env


def _url(params: dict, database: str) -> str:
    password = f":{params['PASSWORD']}" if params.get("PASSWORD") else ""
    return (
        f"postgres://{params.get('USER') or 'postgres'}{password}@"
        f"{params.get('HOST') or '127.0.0.1'}:{params.get('PORT') or 5432}/{database}"
    )


@contextmanager
def _server(params: dict):
    """An autocommit connection to the server's maintenance database."""
    with psycopg.connect(
        host=params.get("HOST") or "127.0.0.1",
        port=params.get("PORT") or 5432,
        user=params.get("USER") or "postgres",
        password=params.get("PASSWORD") or None,
        dbname="postgres",
        autocommit=True,
    ) as conn:
        yield conn


def _migrate(params: dict, database: str) -> None:
    """``manage.py migrate`` into ``database``, as an operator runs it (the drills' app
    process: production settings, no replica)."""
    manage(_url(params, database), "migrate", "--no-input", "-v0", seconds=1800)


def load_schema_file(params: dict, database: str) -> None:
    """The schema file run into ``database``."""
    with gzip.open(SCHEMA_FILE, "rt", encoding="utf-8") as schema:
        load_sql(params, database, schema.read())


def load_sql(params: dict, database: str, script: str) -> None:
    """``script`` (pg_dump's plain SQL) run into ``database`` by psql, stopping at the first
    error."""
    subprocess.run(
        ["psql", "-q", "-X", "-v", "ON_ERROR_STOP=1", "-d", database, "-f", "-"],
        input=script,
        text=True,
        env=_libpq_env(params),
        stdout=subprocess.DEVNULL,
        check=True,
    )


def template_database(params: dict) -> str:
    """The name of a database on the server of ``params`` holding the migrated schema, made
    now unless a worker or an earlier run has made it: from the schema file when it is up to
    date, else by ``migrate``. Templates of other digests are dropped as a new one is made."""
    digest = migrations_digest()
    name = f"{TEMPLATE_PREFIX}{digest[:16]}"
    with _server(params) as server:
        server.execute("SELECT pg_advisory_lock(%s)", [BUILD_LOCK])
        try:
            made = server.execute(
                "SELECT datname FROM pg_database WHERE starts_with(datname, %s)",
                [TEMPLATE_PREFIX],
            ).fetchall()
            if (name,) in made:
                return name
            for (other,) in made:  # an earlier digest's, or a build that was stopped
                with suppress(psycopg.errors.ObjectInUse):  # being copied by another run
                    server.execute(sql.SQL("DROP DATABASE {}").format(sql.Identifier(other)))
            building = f"{name}_building"
            server.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(building)))
            if file_digest() == digest:
                load_schema_file(params, building)
            else:
                _migrate(params, building)
            # A pooler between us and the server (PgBouncer in tests/pgbouncer) keeps its
            # connection to the new database open; the database is this build's alone.
            server.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s",
                [building],
            )
            # Renamed only once complete: a template is there whole, or not at all.
            server.execute(
                sql.SQL("ALTER DATABASE {} RENAME TO {}").format(
                    sql.Identifier(building), sql.Identifier(name)
                )
            )
            return name
        finally:
            server.execute("SELECT pg_advisory_unlock(%s)", [BUILD_LOCK])


def dump_schema(params: dict, database: str, *, schema_only: bool = False) -> str:
    """pg_dump's plain SQL of ``database``, without owners, grants or the dump's one-time
    ``\\restrict`` keys (a new one each dump; the file is the project's own, not a stranger's)."""
    done = subprocess.run(
        [
            "pg_dump",
            "--no-owner",
            "--no-privileges",
            *(["--schema-only"] if schema_only else []),
            "-d",
            database,
        ],
        env=_libpq_env(params),
        capture_output=True,
        text=True,
        check=True,
    )
    return "".join(
        line
        for line in done.stdout.splitlines(keepends=True)
        if not line.startswith(("\\restrict ", "\\unrestrict "))
    )


def write_schema_file(params: dict) -> Path:
    """``make schema``: a scratch database migrated, dumped into the schema file."""
    scratch = f"casino_scratch_schema_{os.getpid()}"  # not a template's name: none drops it
    with _server(params) as server:
        server.execute(sql.SQL("DROP DATABASE IF EXISTS {}").format(sql.Identifier(scratch)))
        server.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(scratch)))
        try:
            _migrate(params, scratch)
            dump = dump_schema(params, scratch)
        finally:
            server.execute(sql.SQL("DROP DATABASE IF EXISTS {}").format(sql.Identifier(scratch)))
    SCHEMA_FILE.parent.mkdir(parents=True, exist_ok=True)
    with open(SCHEMA_FILE, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as out:
        out.write(f"{HEADER}{migrations_digest()}\n".encode())
        out.write(dump.encode())
    return SCHEMA_FILE


if __name__ == "__main__":
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")
    django.setup()
    from django.conf import settings

    print(write_schema_file(settings.DATABASES["default"]))
