"""Faults: PostgreSQL restarted in the middle of the load.

Two gunicorns on the same database: one with the settings as they are (a lost database
answers 503 JSON, ``casino/api/unavailable.py``, and ``CONN_HEALTH_CHECKS`` replaces a dead
persistent connection), one without both (``loadtest.settings``' ``LOADTEST_WITHOUT_FIX=1``,
the settings before this run's findings, for comparison). Dealers deal and settle 5-box
rounds through them as in ``loadtest.load``, retrying a failed request the way a client of
this API should: the same body with the same ``create_key``, the same settle with the same
``Idempotency-Key``, after a short pause, a bounded number of times. "Steady" dealers keep
dealing through the restart; "pausing" ones leave their server idle through it (from 2 s
before to 2 s after) and come back, which is when a worker finds its persistent connection
dead. ``--restart-at`` seconds in, PostgreSQL is restarted (``pg_ctlcluster
--skip-systemctl-redirect 15 main restart``: a fast shutdown, every connection cut), once
for both servers. Afterwards:

- what each group of clients got during the restart (status, JSON body or not) and after
  it (the app recovers without a restart of its own: any failure then is a worker's dead
  persistent connection);
- no half-written round: every round has all of its entries or none (the integrity
  checks of ``loadtest.common``), every round a client saw settled is settled; and
  ``audit_ledger`` passes. Every failure is saved to ``test-artifacts/faults.json``.

Restarting PostgreSQL cuts every other connection to it on this machine (other people's
test runs): the script waits (``--wait-quiet``, bounded) for other databases' clients to
leave first; run it rarely, never from ``make test``. ``--no-restart`` rehearses.

    .venv/bin/python -m loadtest.faults [--duration 30] [--restart-at 10] [--no-restart]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import subprocess
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from loadtest.common import (
    ROOT,
    Server,
    audit_ledger,
    build_floor,
    database_name,
    emit,
    fresh_database,
    integrity_problems,
    ledger_integrity,
    round_bodies,
    use_database,
)

DATABASE = database_name("faults")
RESTART = ["pg_ctlcluster", "--skip-systemctl-redirect", "15", "main", "restart"]
RETRYABLE = {500, 502, 503, 504}
ATTEMPTS = 40
PAUSE = 0.25


@dataclass
class Answer:
    at: float  # seconds since the start
    op: str
    status: int  # 0: no HTTP answer (connection refused, reset, timeout)
    json_error: str | None  # the "error" code of a JSON error body, if it was one
    text: str


@dataclass
class Outcome:
    answers: list[Answer] = field(default_factory=list)
    settled: list[int] = field(default_factory=list)
    abandoned: list[int | None] = field(default_factory=list)
    retried_rounds: int = 0


def _answer(op: str, started: float, response: Any) -> Answer:
    code = None
    if response.headers.get("content-type", "").startswith("application/json"):
        try:
            body = response.json()
            code = body.get("error") if isinstance(body, dict) else None
        except ValueError:
            code = None
    return Answer(time.monotonic() - started, op, response.status_code, code, response.text[:200])


async def send(
    client: Any, op: str, started: float, outcome: Outcome, until: float, **request: Any
) -> tuple[Any, int]:
    """One request, retried while the answer is retryable: (the final answer or None,
    the attempts made)."""
    for attempt in range(1, ATTEMPTS + 1):
        try:
            response = await client.post(**request)
        except Exception as error:
            outcome.answers.append(Answer(time.monotonic() - started, op, 0, None, repr(error)))
        else:
            outcome.answers.append(_answer(op, started, response))
            if response.status_code not in RETRYABLE:
                return response, attempt
        if time.monotonic() > until:
            return None, attempt
        await asyncio.sleep(PAUSE * min(attempt, 4))
    return None, ATTEMPTS


@dataclass
class Restart:
    """When the restart began and when its command returned (seconds since the start)."""

    begun: float = float("inf")
    done: float = float("inf")
    finished: asyncio.Event = field(default_factory=asyncio.Event)


async def dealer(
    client: Any,
    token: str,
    bodies: list[dict],
    started: float,
    until: float,
    outcome: Outcome,
    restart: Restart,
    pause_from: float | None,
) -> None:
    """Deal and settle rounds; a pausing dealer deals nothing from ``pause_from`` seconds
    until 2 s after the restart, so its server's workers sit idle through it."""
    auth = {"Authorization": f"Token {token}"}
    grace = until + 20  # a round begun before the end may finish its retries
    for body in bodies:
        if pause_from is not None and time.monotonic() - started >= pause_from:
            await restart.finished.wait()
            await asyncio.sleep(max(0.0, restart.done + 2 - (time.monotonic() - started)))
            pause_from = None
        if time.monotonic() >= until:
            return
        created, tries = await send(
            client,
            "create",
            started,
            outcome,
            grace,
            url="/api/v1/rounds/",
            json=body,
            headers=auth,
        )
        if created is None or created.status_code != 201:
            outcome.abandoned.append(None)
            continue
        round_id = created.json()["id"]
        settled, more = await send(
            client,
            "settle",
            started,
            outcome,
            grace,
            url=f"/api/v1/rounds/{round_id}/settle/",
            headers={**auth, "Idempotency-Key": f"fault-{body['create_key']}"},
        )
        if tries + more > 2:
            outcome.retried_rounds += 1
        if settled is not None and settled.status_code == 200:
            outcome.settled.append(round_id)
        else:
            outcome.abandoned.append(round_id)


async def restart_later(delay: float, started: float, restart: Restart, really: bool) -> None:
    await asyncio.sleep(delay)
    restart.begun = time.monotonic() - started
    if really:
        result = await asyncio.to_thread(
            subprocess.run, RESTART, capture_output=True, text=True, timeout=120, check=False
        )
        if result.returncode != 0:
            print(f"restart failed: {result.stdout} {result.stderr}")
    restart.done = time.monotonic() - started
    restart.finished.set()


@dataclass
class Group:
    """Clients of one server: ``steady`` ones deal through the restart, ``pausing`` ones
    leave the server idle through it and come back after."""

    name: str
    server: Server
    steady: list[tuple[str, list[dict]]]
    pausing: list[tuple[str, list[dict]]]
    outcomes: dict[str, Outcome] = field(default_factory=dict)


async def run(groups: list[Group], options: Any) -> Restart:
    import httpx

    restart = Restart()
    started = time.monotonic()
    until = started + options.duration
    clients = [
        httpx.AsyncClient(
            base_url=group.server.url, timeout=30, limits=httpx.Limits(max_connections=64)
        )
        for group in groups
    ]
    tasks = [
        asyncio.create_task(
            restart_later(options.restart_at, started, restart, not options.no_restart)
        )
    ]
    for group, client in zip(groups, clients, strict=True):
        for kind, members in (("steady", group.steady), ("pausing", group.pausing)):
            outcome = group.outcomes.setdefault(kind, Outcome())
            pause_from = options.restart_at - 2 if kind == "pausing" else None
            tasks += [
                asyncio.create_task(
                    dealer(client, token, rounds, started, until, outcome, restart, pause_from)
                )
                for token, rounds in members
            ]
    try:
        await asyncio.gather(*tasks)
    finally:
        for client in clients:
            await client.aclose()
    return restart


def others_connected(database: str) -> list[str]:
    """Databases other than ours that have a client connected right now (someone's tests)."""
    import psycopg

    from loadtest.common import SERVER_URL

    with psycopg.connect(f"{SERVER_URL.rstrip('/')}/postgres", autocommit=True) as admin:
        rows = admin.execute(
            "SELECT DISTINCT datname FROM pg_stat_activity WHERE datname IS NOT NULL "
            "AND datname NOT IN (%s, 'postgres') AND pid <> pg_backend_pid()",
            [database],
        ).fetchall()
    return [row[0] for row in rows]


def wait_until_quiet(database: str, seconds: float) -> None:
    """Restarting cuts everyone's connections: wait (bounded) for nobody else to be on."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        others = others_connected(database)
        if not others:
            return
        print(f"  waiting for other connections to end before restarting: {others}", flush=True)
        time.sleep(5)
    print(f"  still connected after {seconds:.0f} s: {others_connected(database)}; going on")


def describe(answer: Answer) -> str:
    if answer.status == 0:
        return "no answer"
    kind = f"JSON {answer.json_error}" if answer.json_error else "not JSON"
    return f"{answer.status} {kind}"


def report(group: Group, kind: str, outcome: Outcome, restart: Restart) -> dict[str, Any]:
    """Print what ``kind`` clients of ``group`` got; return the figures."""
    failures = [a for a in outcome.answers if a.status not in (200, 201)]
    window_end = restart.done + 1.0  # the command's return + 1 s for the workers to reconnect
    before = [a for a in failures if a.at < restart.begun]
    during = Counter(describe(a) for a in failures if restart.begun <= a.at <= window_end)
    later = [a for a in failures if a.at > window_end]
    first_ok = next(
        (a.at for a in outcome.answers if a.at > restart.done and a.status in (200, 201)), None
    )
    print(f"  {group.name}, {kind} clients:")
    print(f"    during the restart: {dict(during) or 'no failed answer'}")
    print(f"    after it: {len(later)} failed {dict(Counter(describe(a) for a in later))}")
    for answer in later[:2]:
        print(f"      {answer.op} at {answer.at:.1f} s: {describe(answer)} {answer.text[:90]!r}")
    if first_ok is not None:
        print(f"    first success {first_ok - restart.done:.1f} s after the restart returned")
    print(
        f"    rounds settled {len(outcome.settled)}, with retries {outcome.retried_rounds}, "
        f"given up {len(outcome.abandoned)}"
    )
    samples = {describe(a): a.text for a in failures if a.status}
    for name, text in list(samples.items())[:2]:
        print(f"    e.g. {name}: {text[:150]!r}")
    return {
        "before": len(before),
        "during": sum(during.values()),
        "after": len(later),
        "non_json": sum(1 for a in failures if a.status and not a.json_error),
        "statuses": sorted({a.status for a in failures}),
        "failures": [[a.at, a.op, a.status, a.json_error, a.text[:80]] for a in failures],
        "settled": outcome.settled,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--clients", type=int, default=4, help="per group of clients")
    parser.add_argument("--workers", type=int, default=3, help="gunicorn workers per server")
    parser.add_argument("--duration", type=float, default=30)
    parser.add_argument("--restart-at", type=float, default=10)
    parser.add_argument("--no-restart", action="store_true", help="rehearse without restarting")
    parser.add_argument(
        "--wait-quiet", type=float, default=180, help="seconds to wait for others to finish"
    )
    options = parser.parse_args()
    n = options.clients

    use_database(DATABASE)
    fresh_database(DATABASE)
    floor = build_floor(tables=3 * n, code="fault")
    dealers = [
        (token, round_bodies(session, count=2000, seed=300 + i, prefix=f"f{i}"))
        for i, (token, session) in enumerate(zip(floor.tokens, floor.sessions, strict=True))
    ]
    from django.db import connection

    connection.close()  # this process's connection dies with the restart too
    if not options.no_restart:
        wait_until_quiet(DATABASE, options.wait_quiet)
    without = {"LOADTEST_WITHOUT_FIX": "1"}
    with (
        Server(
            workers=options.workers, settings_module="loadtest.settings", extra_env=without
        ) as unfixed,
        Server(workers=options.workers, settings_module="loadtest.settings") as fixed,
    ):
        groups = [
            Group(
                "without 503 middleware and CONN_HEALTH_CHECKS",
                unfixed,
                steady=[],
                pausing=dealers[:n],
            ),
            Group(
                "the settings as they are (503 middleware + CONN_HEALTH_CHECKS)",
                fixed,
                steady=dealers[n : 2 * n],
                pausing=dealers[2 * n :],
            ),
        ]
        restart = asyncio.run(run(groups, options))
        logs = {group.name: group.server.log_path.read_text(errors="replace") for group in groups}

    restarted = "not restarted (rehearsal)" if options.no_restart else "restarted"
    print(
        f"faults: PostgreSQL {restarted} at {restart.begun:.1f} s of {options.duration:.0f} s "
        f"(the command took {restart.done - restart.begun:.1f} s); two gunicorns with "
        f"{options.workers} workers each"
    )
    figures: dict[str, dict[str, Any]] = {}
    for group in groups:
        for kind, outcome in group.outcomes.items():
            if outcome.answers:
                figures[f"{group.name}/{kind}"] = report(group, kind, outcome, restart)
        log = logs[group.name]
        print(
            f"    server log: {log.count('OperationalError')} OperationalError, "
            f"{log.count('InterfaceError')} InterfaceError, "
            f"{log.count('database unavailable')} answered 503 by the middleware"
        )
    saved = ROOT / "test-artifacts" / "faults.json"
    saved.parent.mkdir(exist_ok=True)
    saved.write_text(json.dumps({"restart": [restart.begun, restart.done], **figures}, indent=1))

    for _attempt in range(30):  # this process reconnects once the server is back
        try:
            connection.close()
            found = ledger_integrity()
            break
        except Exception:
            time.sleep(1)
    else:
        raise SystemExit("the database did not come back within 30 s")
    problems = integrity_problems(found)
    from casino.floor.models import Round, RoundStatus

    answered = [pk for figure in figures.values() for pk in figure["settled"]]
    not_settled = Round.objects.filter(pk__in=answered).exclude(status=RoundStatus.SETTLED)
    if not_settled.exists():
        problems.append(f"{not_settled.count()} rounds answered settled are not settled")
    passed, output, _seconds = audit_ledger()
    if not passed:
        problems.append(f"audit_ledger: {output}")
    for name, figure in figures.items():
        if figure["before"]:
            problems.append(f"{name}: {figure['before']} failures before the restart")
    fixed_figures = [f for name, f in figures.items() if name.startswith("with the fix")]
    if any(f["non_json"] or f["after"] or set(f["statuses"]) - {503} for f in fixed_figures):
        problems.append("with the fix, a failure was not a 503 JSON during the restart")
    print(f"  ledger: {found}")
    print(f"  audit_ledger: {output}")

    as_is_after = sum(f["after"] for n_, f in figures.items() if not n_.startswith("with the fix"))
    emit("faults", "as_is_failures_after_restart", as_is_after, "answers")
    emit(
        "faults", "fix_failures_during_restart", sum(f["during"] for f in fixed_figures), "answers"
    )
    emit(
        "faults", "fix_failures_after_restart", sum(f["after"] for f in fixed_figures), "answers", 0
    )
    emit("faults", "fix_non_json_failures", sum(f["non_json"] for f in fixed_figures), "answers", 0)
    emit("faults", "half_written_rounds", found["dealt_with_entries"], "rounds", 0)
    emit("faults", "problems", len(problems), "problems", 0)
    if problems:
        for problem in problems:
            print(f"  PROBLEM: {problem}")
        raise SystemExit(f"{len(problems)} problem(s)")
    print("OK: no half-written round, every settled round is whole, audit_ledger passes")


if __name__ == "__main__":
    main()
