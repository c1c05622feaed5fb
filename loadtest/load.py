"""Load: settle 6-hand rounds through the API under gunicorn, 16 dealers at once.

Each client is a dealer at its own table (16 tables, one open session each, one API
token each) dealing and settling 5-box rounds, every box with Single, Double and Super
and the deposits they need (five boxes + the dealer = 6 hands, the most Niu Niu allows):
``POST /api/v1/rounds/`` then ``POST /api/v1/rounds/{id}/settle/`` with an
Idempotency-Key, back to back, for ``--duration`` seconds after a warm-up. Then a mixed
phase adds console clients typing cards (the hand partial) and asking for the settlement
preview (the preview partial) while fewer API clients keep settling.

Prints settled rounds/s, p50/p95/p99 of both requests, the errors, where the CPU went
(gunicorn workers, this database's PostgreSQL backends, the load generator, other work on
the machine) per settled round, and the ledger's integrity + ``audit_ledger`` afterwards.

    .venv/bin/python -m loadtest.load [--clients 16] [--duration 60] [--workers 4]
        [--http-client lean|httpx]
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import random
import time
from typing import Any

from loadtest.common import (
    CpuMeter,
    Server,
    Timings,
    audit_ledger,
    build_floor,
    console_cookies,
    database_name,
    emit,
    fresh_database,
    integrity_problems,
    ledger_integrity,
    percentile,
    round_bodies,
    use_database,
)

DATABASE = database_name("load")
TARGET_ROUNDS_PER_S = 200
TARGET_P99_MS = 150
#: Rounds prepared per client: more than a client can settle in the run at 40 rounds/s.
MAX_ROUNDS_PER_CLIENT = 3000


async def dealer(
    client: Any,
    token: str,
    bodies: list[dict[str, Any]],
    until: float,
    timings: Timings,
    tag: str,
) -> None:
    """Deal and settle rounds back to back until ``until`` (or out of rounds)."""
    auth = {"Authorization": f"Token {token}"}
    for body in bodies:
        if time.monotonic() >= until:
            return
        started = time.perf_counter()
        try:
            answer = await client.post("/api/v1/rounds/", json=body, headers=auth)
        except Exception as error:  # a refused connection, a timeout: an error, go on
            timings.add("create", (time.perf_counter() - started) * 1000, type(error).__name__)
            timings.error(f"create: {error!r}")
            continue
        timings.add("create", (time.perf_counter() - started) * 1000, answer.status_code)
        if answer.status_code != 201:
            timings.error(f"create {answer.status_code}: {answer.text[:300]}")
            continue
        round_id = answer.json()["id"]
        started = time.perf_counter()
        try:
            answer = await client.post(
                f"/api/v1/rounds/{round_id}/settle/",
                headers={**auth, "Idempotency-Key": f"{tag}-{body['create_key']}"},
            )
        except Exception as error:
            timings.add("settle", (time.perf_counter() - started) * 1000, type(error).__name__)
            timings.error(f"settle: {error!r}")
            continue
        timings.add("settle", (time.perf_counter() - started) * 1000, answer.status_code)
        if answer.status_code == 200:
            timings.settled += 1
        else:
            timings.error(f"settle {answer.status_code}: {answer.text[:300]}")


def console_round(rng: random.Random) -> tuple[dict[str, str], dict[str, str]]:
    """Query for the hand partial and form data for the preview: six hands of one deck."""
    from casino.kernel.cards import DECK, format_cards

    deck = list(DECK)
    rng.shuffle(deck)
    hands = [format_cards(deck[5 * n : 5 * n + 5]) for n in range(6)]
    query = {"box": str(rng.randint(1, 5)), "dealer-cards": hands[0]}
    form = {"key": f"preview-{rng.getrandbits(64):016x}", "dealer-cards": hands[0]}
    for position in range(1, 6):
        query[f"box-{position}-cards"] = hands[position]
        form[f"box-{position}-cards"] = hands[position].lower()
        form[f"box-{position}-single"] = f"{rng.randint(1, 50) * 10},000"
        form[f"box-{position}-double"] = f"{rng.randint(1, 50) * 10},000"
        form[f"box-{position}-super"] = f"{rng.randint(1, 20) * 10},000"
    return query, form


async def console_dealer(
    base_url: str, cookies: dict[str, str], session_id: int, until: float, timings: Timings
) -> None:
    """Type a round's cards (the hand partial, once per hand) then preview it, in a loop."""
    import httpx

    rng = random.Random(session_id)
    async with httpx.AsyncClient(base_url=base_url, cookies=cookies, timeout=30) as client:
        page = await client.get(f"/console/sessions/{session_id}/")
        if page.status_code != 200:
            timings.error(f"console page {page.status_code}: {page.text[:300]}")
            return
        headers = {"HX-Request": "true", "X-CSRFToken": client.cookies.get("csrftoken", "")}
        for _n in range(100_000):
            if time.monotonic() >= until:
                return
            query, form = console_round(rng)
            for position in range(1, 6):
                started = time.perf_counter()
                answer = await client.get(
                    f"/console/sessions/{session_id}/hand/",
                    params={**query, "box": str(position)},
                    headers=headers,
                )
                timings.add("hand", (time.perf_counter() - started) * 1000, answer.status_code)
                if answer.status_code != 200:
                    timings.error(f"hand {answer.status_code}: {answer.text[:300]}")
            started = time.perf_counter()
            answer = await client.post(
                f"/console/sessions/{session_id}/preview/", data=form, headers=headers
            )
            timings.add("preview", (time.perf_counter() - started) * 1000, answer.status_code)
            if answer.status_code != 200:
                timings.error(f"preview {answer.status_code}: {answer.text[:300]}")


async def api_phase(
    server: Server,
    tokens: list[str],
    bodies: list[list[dict[str, Any]]],
    seconds: float,
    tag: str,
    console: list[tuple[dict[str, str], int]] = (),
    http_client: str = "lean",
) -> tuple[Timings, Timings, float]:
    import httpx

    from loadtest.http import LeanClient

    api, partials = Timings(), Timings()
    limits = httpx.Limits(max_connections=len(tokens) + 4, max_keepalive_connections=len(tokens))
    started = time.monotonic()
    until = started + seconds
    if http_client == "lean":
        api_client: Any = LeanClient(server.url, timeout=30)
    else:
        api_client = httpx.AsyncClient(base_url=server.url, limits=limits, timeout=30)
    async with api_client as client:
        tasks = [
            dealer(client, token, rounds, until, api, tag)
            for token, rounds in zip(tokens, bodies, strict=True)
        ]
        tasks += [
            console_dealer(server.url, cookies, session_id, until, partials)
            for cookies, session_id in console
        ]
        await asyncio.gather(*tasks)
    return api, partials, time.monotonic() - started


def report(title: str, timings: Timings, elapsed: float) -> float:
    rate = timings.settled / elapsed
    print(f"{title}: {timings.settled} rounds settled in {elapsed:.1f} s = {rate:.1f} rounds/s")
    for kind in timings.latencies:
        print("  " + timings.summary(kind))
    errors = len(timings.errors)
    print(f"  errors: {errors}")
    for text in timings.errors[:5]:
        print(f"    {text}")
    return rate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--duration", type=float, default=60)
    parser.add_argument("--warmup", type=float, default=5)
    parser.add_argument("--workers", type=int, default=4, help="gunicorn workers")
    parser.add_argument("--worker-class", default="sync")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--console-clients", type=int, default=4)
    parser.add_argument(
        "--http-client",
        choices=["lean", "httpx"],
        default="lean",
        help="the API dealers' client: lean (loadtest/http.py, little CPU) or httpx",
    )
    parser.add_argument("--mixed-duration", type=float, default=30, help="0 skips it")
    parser.add_argument("--rounds-per-client", type=int, default=MAX_ROUNDS_PER_CLIENT)
    parser.add_argument(
        "--client-side-binding",
        action="store_true",
        help="bind parameters in the client and prepare nothing (DB_PREPARED_STATEMENTS=0), "
        "as before the settings prepared statements",
    )
    options = parser.parse_args()
    clients = options.clients

    use_database(DATABASE)
    setup_started = time.perf_counter()
    fresh_database(DATABASE)
    floor = build_floor(tables=clients)
    bodies = [
        round_bodies(session, count=options.rounds_per_client, seed=n, prefix=f"c{n}")
        for n, session in enumerate(floor.sessions)
    ]
    cookies = console_cookies(floor.dealers[0])
    print(
        f"set up {DATABASE}: {clients} tables, sessions and dealers; "
        f"{clients * options.rounds_per_client} rounds prepared "
        f"in {time.perf_counter() - setup_started:.0f} s",
        flush=True,
    )

    # Rounds are handed out in order: the warm-up takes the first, each phase the next.
    cursors = [iter(rounds) for rounds in bodies]

    def take(count: int) -> list[list[dict[str, Any]]]:
        return [list(itertools.islice(cursor, count)) for cursor in cursors]

    per_phase = options.rounds_per_client // 3
    http_client = {"http_client": options.http_client}
    with Server(
        workers=options.workers,
        worker_class=options.worker_class,
        threads=options.threads,
        settings_module="loadtest.settings",
        extra_env={"DB_PREPARED_STATEMENTS": "0" if options.client_side_binding else "1"},
    ) as server:
        print(
            f"gunicorn: {options.workers} {options.worker_class} workers"
            f"{f' x {options.threads} threads' if options.threads > 1 else ''} at {server.url}"
            f"{', client-side binding' if options.client_side_binding else ''}; "
            f"API dealers on the {options.http_client} client",
            flush=True,
        )
        asyncio.run(
            api_phase(server, floor.tokens, take(per_phase), options.warmup, "warm", **http_client)
        )
        with CpuMeter(server, DATABASE) as meter:
            api, _, elapsed = asyncio.run(
                api_phase(
                    server, floor.tokens, take(per_phase), options.duration, "load", **http_client
                )
            )
        split = meter.split(api.settled)

        mixed = partials = None
        if options.mixed_duration > 0 and options.console_clients > 0:
            api_clients = max(1, clients - options.console_clients)
            # The partials only read, so every console client types at the first table
            # (its dealer's login); the API clients keep settling at the other tables.
            console = [(cookies, floor.sessions[0].pk)] * options.console_clients
            mixed, partials, mixed_elapsed = asyncio.run(
                api_phase(
                    server,
                    floor.tokens[1 : api_clients + 1],
                    take(per_phase)[1 : api_clients + 1],
                    options.mixed_duration,
                    "mixed",
                    console=console,
                    **http_client,
                )
            )

    print()
    rate = report(f"API only, {clients} clients, 6 hands a round", api, elapsed)
    create, settle = api.latencies["create"], api.latencies["settle"]
    print(
        f"  CPU per settled round: app {split['app_ms']:.1f} ms, PostgreSQL "
        f"{split['db_ms']:.1f} ms, load generator {split['client_ms']:.1f} ms; machine "
        f"{split['machine_busy_pct']:.0f}% busy, other work {split['others_cores']:.2f} cores"
    )
    errors = len(api.errors)
    emit("loadtest", "settled_rounds_per_s", round(rate, 1), "1/s", TARGET_ROUNDS_PER_S)
    for name, values in (("create", create), ("settle", settle)):
        emit("loadtest", f"{name}_p50_ms", round(percentile(values, 50), 1), "ms")
        emit("loadtest", f"{name}_p95_ms", round(percentile(values, 95), 1), "ms")
        emit("loadtest", f"{name}_p99_ms", round(percentile(values, 99), 1), "ms", TARGET_P99_MS)
    emit("loadtest", "errors", errors, "requests", 0)
    for key in ("app_ms", "db_ms", "client_ms"):
        emit("loadtest", f"cpu_{key}_per_round", round(split[key], 2), "ms")
    emit("loadtest", "other_work_cores", round(split["others_cores"], 2), "cores")

    if mixed is not None and partials is not None:
        print()
        mixed_rate = report(
            f"mixed, {api_clients} API clients + {options.console_clients} console clients",
            mixed,
            mixed_elapsed,
        )
        for kind in partials.latencies:
            print("  " + partials.summary(kind))
        print(f"  console errors: {len(partials.errors)}")
        for text in partials.errors[:5]:
            print(f"    {text}")
        emit("loadtest", "mixed_settled_rounds_per_s", round(mixed_rate, 1), "1/s")
        for kind in ("hand", "preview"):
            values = partials.latencies.get(kind, [])
            emit("loadtest", f"console_{kind}_p50_ms", round(percentile(values, 50), 1), "ms")
            emit("loadtest", f"console_{kind}_p99_ms", round(percentile(values, 99), 1), "ms")
        emit("loadtest", "mixed_errors", len(mixed.errors) + len(partials.errors), "requests", 0)

    print()
    found = ledger_integrity()
    problems = integrity_problems(found)
    print(f"ledger: {found}")
    passed, output, seconds = audit_ledger()
    print(f"audit_ledger ({seconds:.1f} s): {output}")
    met = rate >= TARGET_ROUNDS_PER_S and percentile(settle, 99) <= TARGET_P99_MS and not errors
    print(
        f"target (>= {TARGET_ROUNDS_PER_S} rounds/s, p99 <= {TARGET_P99_MS} ms, 0 errors): "
        f"{'met' if met else 'NOT met'}"
    )
    if problems or not passed:
        raise SystemExit("the ledger is wrong after the load: " + "; ".join(problems or [output]))


if __name__ == "__main__":
    main()
