"""What the load, race, fault and fuzz runs share: a fresh database, a floor, gunicorn,
timing, CPU accounting and the ledger's integrity checks.

Import this module first: it points Django at the run's own database (``casino_load`` and
so on, on the local PostgreSQL unless ``LOADTEST_DATABASE_URL`` names another server).
Each database is named ``{LOADTEST_DB_PREFIX}_{run}`` (``database_name``; the prefix is
``casino`` by default): two runs on one server with their own prefixes never drop each
other's database.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
VENV_BIN = ROOT / ".venv" / "bin"
SERVER_URL = os.environ.get("LOADTEST_DATABASE_URL", "postgres://postgres@127.0.0.1:5432")

from bench.common import database_prefix  # noqa: E402 (after the path)
from tests.ports import free_port  # noqa: E402


def database_name(run: str) -> str:
    """The run's own database: ``casino_races`` for ``races``, unless another prefix."""
    return f"{database_prefix()}_{run}"


#: The environment of the server and of this process: production code paths (DEBUG off),
#: plain HTTP on loopback (TESTING only turns off the HTTPS redirect and the manifest
#: static storage, which needs collectstatic), tasks eager (no broker).
SERVER_ENV = {
    "DEBUG": "0",
    "TESTING": "1",
    "ALLOW_INSECURE_SECRET_KEY": "1",
    "ALLOWED_HOSTS": "127.0.0.1,localhost,testserver",
    "LOG_LEVEL": "WARNING",
}


def use_database(name: str) -> str:
    """Point this process (and the servers it starts) at database ``name``; set Django up."""
    url = f"{SERVER_URL.rstrip('/')}/{name}"
    os.environ["DATABASE_URL"] = url
    os.environ.update(SERVER_ENV)
    os.environ.pop("CELERY_BROKER_URL", None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")
    import django

    django.setup()
    return url


def use_shared_cache(url: str) -> None:
    """Run with the shared cache production has (``CACHE_URL``: the login lockout, the
    sessions, the console's live reads), emptied first: a fresh database numbers its rows
    from 1 again, so nothing of an earlier run may answer for them. Before ``use_database``."""
    import redis

    redis.Redis.from_url(url).flushdb()
    os.environ["CACHE_URL"] = url


def fresh_database(name: str) -> None:
    """Drop and create ``name`` (ending any connection left to it), then migrate it."""
    import psycopg
    from django.core.management import call_command
    from django.db import connection

    connection.close()
    with psycopg.connect(f"{SERVER_URL.rstrip('/')}/postgres", autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.execute(f'CREATE DATABASE "{name}"')
    call_command("migrate", verbosity=0)


def emit(bench: str, figure: str, value: float, unit: str, target: float | None = None) -> None:
    """One figure as a JSON line, the shape ``bench/`` prints."""
    record: dict[str, Any] = {"bench": bench, "figure": figure, "value": value, "unit": unit}
    if target is not None:
        record["target"] = target
    print(json.dumps(record), flush=True)


def percentile(values: list[float], p: float) -> float:
    """The nearest-rank percentile ``p`` (0-100) of ``values``; 0 for none."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, min(len(ordered), round(p / 100 * len(ordered) + 0.5)))
    return ordered[rank - 1]


# The floor


@dataclass
class Floor:
    venue: Any
    tables: list[Any]
    sessions: list[Any]
    dealers: list[Any]
    tokens: list[str]
    supervisor: Any
    supervisor_token: str
    players: list[int]


def load_venue(code: str) -> Any:
    """The runs' venue: Vietnamese, in VND rounding to 1,000."""
    from casino.venues.models import Venue

    return Venue.objects.create(
        code=code,
        name=f"Venue {code}",
        currency="VND",
        rounding_unit=Decimal("1000"),
        timezone="Asia/Ho_Chi_Minh",
        language="vi",
    )


def build_floor(*, tables: int, code: str = "load") -> Floor:
    """A venue (VND, rounding to 1,000) with ``tables`` Niu Niu tables, each with its own
    dealer (an API token each) and an open session, a supervisor and 20 players."""
    from casino.floor.services.sessions import session_open
    from casino.players.models import Player
    from casino.staff.logins import token_issue
    from casino.staff.roles import DEALER, SUPERVISOR
    from tests.factories import niuniu_table, staff

    venue = load_venue(code)
    players = [
        Player.objects.create(venue=venue, membership_number=f"L{n:04d}", name=f"Player {n}").pk
        for n in range(20)
    ]
    supervisor = staff(f"{code}-supervisor", SUPERVISOR, venue)
    floor = Floor(
        venue=venue,
        tables=[],
        sessions=[],
        dealers=[],
        tokens=[],
        supervisor=supervisor,
        supervisor_token=token_issue(user=supervisor, device="loadtest")[1],
        players=players,
    )
    for n in range(tables):
        table = niuniu_table(venue, code=f"T{n + 1:02d}")
        dealer = staff(f"{code}-dealer-{n + 1:02d}", DEALER, venue)
        floor.tables.append(table)
        floor.dealers.append(dealer)
        floor.tokens.append(token_issue(user=dealer, device="loadtest")[1])
        floor.sessions.append(
            session_open(
                table=table,
                counted_by=dealer,
                confirmed_by=supervisor,
                opening_chips={"1000000": 100},
            )
        )
    return floor


def round_bodies(session: Any, *, count: int, seed: int, prefix: str) -> list[dict[str, Any]]:
    """``count`` API bodies of 5-box rounds (6 hands) for ``session``, every box with all
    of the table's bets and the deposits they need, 70% of boxes with a member."""
    import random

    from niuniu.demo import table_stream

    stream = table_stream(session, random.Random(seed), boxes=5, side_bet_rate=1.0)
    bodies = []
    for n in range(count):
        simulated = next(stream)
        boxes = []
        for box in simulated.boxes:
            body: dict[str, Any] = {
                "position": box.position,
                "cards": box.cards,
                "bets": {bet: str(stake) for bet, stake in box.stakes.items()},
                "deposits": {bet: f"{amount:.2f}" for bet, amount in box.deposits.items()},
            }
            if box.player_id is not None:
                body["player"] = box.player_id
            boxes.append(body)
        bodies.append(
            {
                "session": session.pk,
                "dealer_cards": simulated.dealer_cards,
                "boxes": boxes,
                "create_key": f"{prefix}-{n}",
            }
        )
    return bodies


def console_cookies(user: Any) -> dict[str, str]:
    """A logged-in Django session for ``user`` (the console's cookie)."""
    from django.conf import settings
    from django.test import Client

    client = Client()
    client.force_login(user)
    return {settings.SESSION_COOKIE_NAME: client.cookies[settings.SESSION_COOKIE_NAME].value}


# The server


class Server:
    """gunicorn on 127.0.0.1 (a free port) with this process's database and settings,
    serving the app (or ``app``, a WSGI app's ``module:name``).

    ``with Server(workers=4) as server: server.url``; stopped (TERM, then KILL after
    10 s) on leaving the block, whatever happened.
    """

    def __init__(
        self,
        *,
        workers: int = 4,
        worker_class: str = "sync",
        threads: int = 1,
        settings_module: str | None = None,
        extra_env: dict[str, str] | None = None,
        log_path: Path | None = None,
        app: str = "casino.wsgi:application",
    ) -> None:
        self.port = free_port()
        self.app = app
        self.url = f"http://127.0.0.1:{self.port}"
        self.workers = workers
        self.worker_class = worker_class
        self.threads = threads
        self.env = {**os.environ, **SERVER_ENV, **(extra_env or {})}
        if settings_module:
            self.env["DJANGO_SETTINGS_MODULE"] = settings_module
        self.log_path = log_path or Path(f"/tmp/loadtest-gunicorn-{self.port}.log")  # noqa: S108
        self.process: subprocess.Popen | None = None

    def __enter__(self) -> Server:
        command = [
            str(VENV_BIN / "gunicorn"),
            self.app,
            "--bind",
            f"127.0.0.1:{self.port}",
            "--workers",
            str(self.workers),
            "--worker-class",
            self.worker_class,
            "--threads",
            str(self.threads),
            "--timeout",
            "60",
            "--graceful-timeout",
            "5",
            "--log-level",
            "warning",
            "--chdir",
            str(ROOT),
        ]
        log = self.log_path.open("w")
        self.process = subprocess.Popen(  # noqa: S603
            command, env=self.env, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT
        )
        self._wait_ready()
        return self

    def _wait_ready(self, timeout: float = 60) -> None:
        import httpx

        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process is not None and self.process.poll() is not None:
                raise RuntimeError(f"gunicorn exited; see {self.log_path}")
            try:
                # Any path under the API that is no route answers a JSON 404 without the DB.
                if httpx.get(f"{self.url}/api/v1/ready", timeout=2).status_code == 404:
                    # Every worker imports the app at fork; give the others a moment.
                    time.sleep(1)
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.2)
        raise RuntimeError(f"gunicorn did not answer within {timeout} s; see {self.log_path}")

    def worker_pids(self) -> list[int]:
        if self.process is None:
            return []
        return children_of(self.process.pid)

    def __exit__(self, *exc: object) -> None:
        if self.process is None:
            return
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=10)


def children_of(pid: int) -> list[int]:
    """The direct children of process ``pid`` (from /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
            found.append(int(entry.name))
    return found


# CPU accounting: where the two cores went


TICK = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of process ``pid`` so far (0 if it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / TICK


def machine_busy_seconds() -> tuple[float, float]:
    """(busy, total) CPU seconds of the whole machine since boot, over all cores."""
    values = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = values[3] + values[4]
    total = sum(values[:8])
    return (total - idle) / TICK, total / TICK


def database_backends(database: str) -> list[int]:
    """PIDs of the PostgreSQL backends connected to ``database`` (same machine)."""
    import psycopg

    with psycopg.connect(f"{SERVER_URL.rstrip('/')}/postgres", autocommit=True) as admin:
        rows = admin.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = %s", [database]
        ).fetchall()
    return [row[0] for row in rows]


class CpuMeter:
    """CPU seconds used during a phase by the gunicorn workers, this database's PostgreSQL
    backends and this process, and by the whole machine.

    Backends come and go (``CONN_MAX_AGE`` ends a connection after a minute), so they are
    polled every ``interval`` seconds and each one's counter is read while it lives: one
    that started during the phase counts from zero, one that ended loses at most its last
    ``interval``.

    ``groups`` adds more processes by name, each a function giving its PIDs now (the floor
    run's Celery worker: ``{"worker": worker.pids}``).
    """

    def __init__(
        self,
        server: Server,
        database: str,
        interval: float = 0.5,
        groups: dict[str, Any] | None = None,
    ) -> None:
        import threading

        self.server = server
        self.database = database
        self.interval = interval
        self.groups = groups or {}
        self.first: dict[tuple[str, int], float] = {}
        self.last: dict[tuple[str, int], float] = {}
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _poll(self, initial: bool) -> None:
        groups = [("app", self.server.worker_pids()), ("db", database_backends(self.database))]
        groups += [(name, pids()) for name, pids in self.groups.items()]
        for group, pids in groups:
            for pid in pids:
                used = cpu_seconds(pid)
                key = (group, pid)
                if key not in self.first:
                    self.first[key] = used if initial else 0.0
                self.last[key] = max(used, self.last.get(key, 0.0))

    def _run(self) -> None:
        while not self.stopping.wait(self.interval):
            with contextlib.suppress(Exception):  # a process gone, a restart: next time
                self._poll(initial=False)

    def __enter__(self) -> CpuMeter:
        self._poll(initial=True)
        self.busy, self.total = machine_busy_seconds()
        own = os.times()
        self.client = own.user + own.system
        self.started = time.monotonic()
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stopping.set()
        self.thread.join(timeout=5)
        self._poll(initial=False)
        busy, total = machine_busy_seconds()
        own = os.times()
        self.used = {
            group: sum(self.last[k] - self.first[k] for k in self.last if k[0] == group)
            for group in ("app", "db", *self.groups)
        }
        self.used["client"] = own.user + own.system - self.client
        self.used["busy"] = busy - self.busy
        self.used["total"] = total - self.total
        self.used["wall"] = time.monotonic() - self.started

    def split(self, rounds: int) -> dict[str, float]:
        """CPU ms per settled round: the app (gunicorn workers), PostgreSQL (this database's
        backends), the load generator; how busy the machine was and how many cores other
        work (other people's, PostgreSQL's background processes) took meanwhile."""
        used = self.used
        per = 1000 / max(rounds, 1)
        ours = used["app"] + used["db"] + used["client"]
        return {
            "app_ms": used["app"] * per,
            "db_ms": used["db"] * per,
            "client_ms": used["client"] * per,
            "machine_busy_pct": 100 * used["busy"] / max(used["total"], 1e-9),
            "others_cores": max(0.0, used["busy"] - ours) / max(used["wall"], 1e-9),
        }


# Timing


@dataclass
class Timings:
    """Latencies (ms) and answers per kind of request, and the errors seen."""

    latencies: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    statuses: dict[str, dict[str, int]] = field(
        default_factory=lambda: defaultdict(lambda: defaultdict(int))
    )
    errors: list[str] = field(default_factory=list)
    settled: int = 0

    def add(self, kind: str, ms: float, status: int | str) -> None:
        self.latencies[kind].append(ms)
        self.statuses[kind][str(status)] += 1

    def error(self, text: str) -> None:
        if len(self.errors) < 2000:
            self.errors.append(text)

    def summary(self, kind: str) -> str:
        values = self.latencies.get(kind, [])
        return (
            f"{kind:>8}: {len(values):6d} requests, p50 {percentile(values, 50):6.1f} ms, "
            f"p95 {percentile(values, 95):6.1f} ms, p99 {percentile(values, 99):6.1f} ms, "
            f"max {max(values, default=0):6.1f} ms; answers {dict(self.statuses[kind])}"
        )


def chunks(items: list[Any], size: int) -> Iterator[list[Any]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


# The ledger's integrity


def ledger_integrity() -> dict[str, Any]:
    """What must hold however the rounds were written: counts, and zero for every problem.

    - ``unbalanced_rounds``: rounds whose entries do not sum to zero;
    - ``dealt_with_entries``: dealt rounds (not settled) that have entries (half-written);
    - ``settled_unfinished``: settled rounds with a bet without an outcome;
    - ``house_mismatch``: settled rounds whose house entries are not their ``house_net``;
    - ``box_mismatch``: boxes whose player entries are not the sum of their bets' nets;
    - ``total``: the sum of every entry (money is conserved: 0).
    """
    from django.db.models import Count, DecimalField, F, OuterRef, Subquery, Sum, Value
    from django.db.models.functions import Coalesce

    from casino.floor.models import Bet, Box, Round, RoundStatus
    from casino.ledger.models import Account, LedgerEntry

    zero = Value(Decimal(0), output_field=DecimalField())
    by_round = (
        LedgerEntry.objects.filter(round__isnull=False)
        .values("round")
        .annotate(total=Sum("amount"))
    )
    house = (
        LedgerEntry.objects.filter(round=OuterRef("pk"), account=Account.HOUSE)
        .values("round")
        .annotate(total=Sum("amount"))
        .values("total")
    )
    player = (
        LedgerEntry.objects.filter(box=OuterRef("pk"), account=Account.PLAYER)
        .values("box")
        .annotate(total=Sum("amount"))
        .values("total")
    )
    nets = Bet.objects.filter(box=OuterRef("pk")).values("box").annotate(t=Sum("net")).values("t")
    settled = Round.objects.filter(status=RoundStatus.SETTLED)
    statuses = dict(
        Round.objects.values_list("status").annotate(n=Count("pk")).values_list("status", "n")
    )
    return {
        "rounds": statuses,
        "entries": LedgerEntry.objects.count(),
        "unbalanced_rounds": by_round.exclude(total=0).count(),
        "dealt_with_entries": Round.objects.filter(status=RoundStatus.DEALT)
        .filter(ledger__isnull=False)
        .distinct()
        .count(),
        "settled_unfinished": settled.filter(boxes__bets__outcome="").distinct().count()
        + settled.filter(boxes__bets__net__isnull=True).distinct().count(),
        "house_mismatch": settled.annotate(h=Coalesce(Subquery(house), zero))
        .exclude(h=Coalesce("house_net", zero))
        .count(),
        "box_mismatch": Box.objects.filter(round__status=RoundStatus.SETTLED)
        .annotate(p=Coalesce(Subquery(player), zero), n=Coalesce(Subquery(nets), zero))
        .exclude(p=F("n"))
        .count(),
        "total": str(LedgerEntry.objects.aggregate(t=Sum("amount"))["t"] or Decimal(0)),
    }


def integrity_problems(found: dict[str, Any]) -> list[str]:
    problems = [
        f"{name}: {found[name]}"
        for name in (
            "unbalanced_rounds",
            "dealt_with_entries",
            "settled_unfinished",
            "house_mismatch",
            "box_mismatch",
        )
        if found[name]
    ]
    if Decimal(found["total"]) != 0:
        problems.append(f"the ledger sums to {found['total']}, not 0")
    return problems


def audit_ledger(*args: str) -> tuple[bool, str, float]:
    """Run ``manage.py audit_ledger`` (with ``args``): (passed, its output, seconds)."""
    from io import StringIO

    from django.core.management import CommandError, call_command

    out, err = StringIO(), StringIO()
    started = time.perf_counter()
    try:
        call_command("audit_ledger", *args, stdout=out, stderr=err)
        passed = True
    except CommandError as error:
        err.write(str(error))
        passed = False
    return passed, (out.getvalue() + err.getvalue()).strip(), time.perf_counter() - started
