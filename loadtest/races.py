"""Duplicates and races: 1,000 settle requests for 100 rounds, each round's 10 at once.

100 rounds of 5 boxes are dealt through the API (10 tables, 10 rounds each), then every
round is settled by 10 requests sent at the same moment, 10 rounds at a time (100
requests in flight): 5 of the 10 repeat one Idempotency-Key (a client retrying), the
other 5 each carry their own (two devices settling the same round). Sent through
gunicorn with several workers, so the requests really race on different connections.

What must hold, and is checked:

- every answer is 200 (the winning key, or a repeat of it) or 409 (another key lost);
  no 5xx, no other status;
- exactly one settlement per round (100 in all), under one of the keys sent; every 200
  for a round is the same body, and their number is the number of requests sent with the
  winning key;
- every round's ledger sums to zero and matches its bets and ``house_net``; the whole
  ledger sums to zero (money is conserved); ``manage.py audit_ledger`` passes.

    .venv/bin/python -m loadtest.races [--rounds 100] [--copies 10] [--workers 4]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import time
from collections import Counter
from typing import Any

from loadtest.common import (
    Server,
    audit_ledger,
    build_floor,
    database_name,
    emit,
    fresh_database,
    integrity_problems,
    ledger_integrity,
    percentile,
    round_bodies,
    use_database,
)

DATABASE = database_name("races")
TABLES = 10


def keys_for(round_id: int, copies: int) -> list[str]:
    """Half the copies repeat one key, the others each have their own; in an order that
    differs from round to round (seeded), so either kind may win the race."""
    same = (copies + 1) // 2
    keys = [f"race-{round_id}-same"] * same + [
        f"race-{round_id}-own-{n}" for n in range(copies - same)
    ]
    random.Random(round_id).shuffle(keys)
    return keys


async def deal_all(client: Any, tokens: list[str], bodies: list[list[dict]]) -> list[int]:
    async def deal_at(token: str, rounds: list[dict]) -> list[int]:
        ids = []
        for body in rounds:
            answer = await client.post(
                "/api/v1/rounds/", json=body, headers={"Authorization": f"Token {token}"}
            )
            if answer.status_code != 201:
                raise SystemExit(f"dealing failed: {answer.status_code} {answer.text[:300]}")
            ids.append(answer.json()["id"])
        return ids

    dealt = await asyncio.gather(*(deal_at(t, b) for t, b in zip(tokens, bodies, strict=True)))
    return [round_id for ids in dealt for round_id in ids]


async def settle_at_once(
    client: Any, token: str, round_id: int, keys: list[str]
) -> list[tuple[str, int, str, float]]:
    """Send every key's settle for ``round_id`` together; (key, status, body, ms) each."""
    gate = asyncio.Event()

    async def one(key: str) -> tuple[str, int, str, float]:
        await gate.wait()
        started = time.perf_counter()
        try:
            answer = await client.post(
                f"/api/v1/rounds/{round_id}/settle/",
                headers={"Authorization": f"Token {token}", "Idempotency-Key": key},
            )
        except Exception as error:
            return key, 0, repr(error), (time.perf_counter() - started) * 1000
        return key, answer.status_code, answer.text, (time.perf_counter() - started) * 1000

    tasks = [asyncio.create_task(one(key)) for key in keys]
    await asyncio.sleep(0)  # every task is waiting at the gate
    gate.set()
    return list(await asyncio.gather(*tasks))


async def race(
    server: Server, tokens: list[str], bodies: list[list[dict]], copies: int, parallel: int
) -> tuple[dict[int, list], float]:
    import httpx

    limits = httpx.Limits(max_connections=copies * parallel + 8)
    async with httpx.AsyncClient(base_url=server.url, limits=limits, timeout=60) as client:
        round_ids = await deal_all(client, tokens, bodies)
        token_of = {}
        for n, round_id in enumerate(round_ids):
            token_of[round_id] = tokens[n // (len(round_ids) // len(tokens))]
        answers: dict[int, list] = {}
        started = time.perf_counter()
        for start in range(0, len(round_ids), parallel):
            batch = round_ids[start : start + parallel]
            results = await asyncio.gather(
                *(
                    settle_at_once(client, token_of[rid], rid, keys_for(rid, copies))
                    for rid in batch
                )
            )
            answers.update(zip(batch, results, strict=True))
        return answers, time.perf_counter() - started


def check(answers: dict[int, list], copies: int) -> tuple[list[str], Counter, Counter]:
    from casino.floor.models import Round, RoundStatus

    problems: list[str] = []
    statuses: Counter = Counter()
    won_by: Counter = Counter()
    rounds = {r.pk: r for r in Round.objects.filter(pk__in=answers)}
    for round_id, results in answers.items():
        round_ = rounds[round_id]
        keys = keys_for(round_id, copies)
        statuses.update(status for _key, status, _body, _ms in results)
        if round_.status != RoundStatus.SETTLED:
            problems.append(f"round {round_id} is {round_.status}, not settled")
            continue
        won_by["the repeated key" if round_.settle_key.endswith("-same") else "an own key"] += 1
        if round_.settle_key not in keys:
            problems.append(f"round {round_id} settled under a key never sent")
        winners = [body for key, status, body, _ms in results if status == 200]
        expected = keys.count(round_.settle_key)
        if len(winners) != expected:
            problems.append(
                f"round {round_id}: {len(winners)} answers 200, {expected} sent the winning key"
            )
        if len({json.dumps(json.loads(body), sort_keys=True) for body in winners}) > 1:
            problems.append(f"round {round_id}: the 200 answers differ")
        for key, status, body, _ms in results:
            if status == 200 and key != round_.settle_key:
                problems.append(f"round {round_id}: 200 for the losing key {key}")
            elif status == 409:
                error = json.loads(body)
                if error.get("error") != "conflict" or key == round_.settle_key:
                    problems.append(f"round {round_id}: 409 {body[:200]} for key {key}")
            elif status not in (200, 409):
                problems.append(f"round {round_id}: {status} {body[:200]} for key {key}")
    return problems, statuses, won_by


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--rounds", type=int, default=100)
    parser.add_argument("--copies", type=int, default=10, help="requests per round, at once")
    parser.add_argument("--parallel", type=int, default=10, help="rounds raced at a time")
    parser.add_argument("--workers", type=int, default=4, help="gunicorn workers")
    options = parser.parse_args()

    use_database(DATABASE)
    fresh_database(DATABASE)
    tables = min(TABLES, options.rounds)
    floor = build_floor(tables=tables, code="race")
    per_table = options.rounds // tables
    bodies = [
        round_bodies(session, count=per_table, seed=100 + n, prefix=f"race{n}")
        for n, session in enumerate(floor.sessions)
    ]
    with Server(workers=options.workers) as server:
        answers, seconds = asyncio.run(
            race(server, floor.tokens, bodies, options.copies, options.parallel)
        )
    problems, statuses, won_by = check(answers, options.copies)
    latencies = [ms for results in answers.values() for *_rest, ms in results]
    found = ledger_integrity()
    problems += integrity_problems(found)
    settled = found["rounds"].get("settled", 0)
    if settled != len(answers):
        problems.append(f"{settled} rounds settled, not {len(answers)}")
    passed, output, _seconds = audit_ledger()
    if not passed:
        problems.append(f"audit_ledger: {output}")

    sent = sum(len(results) for results in answers.values())
    print(
        f"{sent} settle requests for {len(answers)} rounds ({options.copies} at once each, "
        f"{options.parallel} rounds at a time) in {seconds:.1f} s through "
        f"{options.workers} gunicorn workers"
    )
    print(f"  answers: {dict(sorted(statuses.items()))}; rounds won by {dict(won_by)}")
    print(
        f"  latency p50 {percentile(latencies, 50):.0f} ms, p99 {percentile(latencies, 99):.0f}"
        f" ms (requests queue behind the round's lock and the workers)"
    )
    print(f"  settled rounds: {settled}; ledger: {found}")
    print(f"  audit_ledger: {output}")
    emit("races", "requests", sent, "requests", options.rounds * options.copies)
    emit("races", "settled_rounds", settled, "rounds", options.rounds)
    emit("races", "answers_200", statuses.get(200, 0), "requests")
    emit("races", "answers_409", statuses.get(409, 0), "requests")
    other = sent - statuses.get(200, 0) - statuses.get(409, 0)
    emit("races", "other_answers", other, "requests", 0)
    emit("races", "problems", len(problems), "problems", 0)
    if problems:
        for problem in problems[:30]:
            print(f"  PROBLEM: {problem}")
        raise SystemExit(f"{len(problems)} problem(s)")
    print("OK: exactly one settlement per round, every ledger sums to zero, audit_ledger passes")


if __name__ == "__main__":
    main()
