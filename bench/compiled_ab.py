"""A round's CPU with the compiled reads against the same reads as plain querysets.

``casino.compiled`` builds the SQL of a round's hot reads once per process;
``use_compiled(False)`` runs the same reads as their querysets (the inserts are
``bulk_create`` either way). Both ways run here in one process, on one database
connection, with PostgreSQL's prepared statements on (the settings' ``server_side_binding``
and ``prepare_threshold``), on the same deals: blocks of rounds alternate A B B A, so a
drift of the shared machine weighs on both alike. A round is a deal
and its settlement of five boxes (six hands, every box with Single, Double and Super, 70% of
boxes with a member), measured two ways:

- ``services``: ``round_create`` then ``round_settle`` called directly;
- ``api``: ``POST /api/v1/rounds/`` then ``/settle/`` through DRF's test client, token auth
  (the whole request as a gunicorn worker runs it, without the network).

The CPU of a round is this process's (``time.process_time``) plus that of the PostgreSQL
backend serving it (from /proc; skipped when the database is on another machine); each
figure is the median over the blocks. The saving is that of each block over the block of
the other way next to it (1 - compiled / plain, the same deals a moment apart), median of
the blocks; 1 - compiled / plain of the medians is printed beside it.

Runs against its own database (``casino_bench_compiled``, or ``{prefix}_bench_compiled``
with ``LOADTEST_DB_PREFIX``), created and migrated on each run:

    .venv/bin/python bench/compiled_ab.py  # BENCH_BLOCKS=10 BENCH_CHUNK=30
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.common import emitter  # noqa: E402 (after the path)
from loadtest.common import (  # noqa: E402
    build_floor,
    cpu_seconds,
    database_name,
    fresh_database,
    round_bodies,
    use_database,
)

emit = emitter("compiled_ab")

BLOCKS = int(os.environ.get("BENCH_BLOCKS", "10"))
CHUNK = int(os.environ.get("BENCH_CHUNK", "30"))
WARMUP = 20
MODES = ("compiled", "plain")
#: The module is kept only if it saves this share of a round's CPU.
TARGET_SAVING = 0.15


def main() -> None:
    os.environ.setdefault("API_WRITE_RATE", "off")  # one dealer posting rounds back to back
    name = database_name("bench_compiled")
    use_database(name)
    fresh_database(name)

    from django.conf import settings
    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from rest_framework.test import APIClient

    from casino.compiled import use_compiled
    from casino.floor.models import TableSession
    from casino.floor.services.rounds import round_create
    from casino.floor.services.settlement import round_settle
    from niuniu.demo import table_stream

    options = settings.DATABASES["default"].get("OPTIONS", {})
    print(
        f"prepared statements: server_side_binding={options.get('server_side_binding')}, "
        f"prepare_threshold={options.get('prepare_threshold')}"
    )
    floor = build_floor(tables=2, code="ab")
    dealer = floor.dealers[0]
    per_mode = WARMUP + BLOCKS * CHUNK
    # The same deals for both ways: block i of each way deals deals[i].
    stream = table_stream(floor.sessions[0], random.Random(7), boxes=5, side_bet_rate=1.0)
    deals = [next(stream) for _ in range(per_mode)]
    bodies = round_bodies(floor.sessions[1], count=per_mode, seed=8, prefix="ab")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {floor.tokens[1]}")
    keys = iter(range(10**9))

    def service_round(index: int) -> None:
        deal = deals[index]
        session = TableSession(pk=floor.sessions[0].pk)
        round_, _ = round_create(
            session=session,
            user=dealer,
            dealer_cards=deal.dealer_cards,
            boxes=deal.boxes,
            create_key=f"s-{next(keys)}",
        )
        round_settle(round_=round_, user=dealer, key=f"s-{next(keys)}")

    def api_round(index: int) -> None:
        body = {**bodies[index], "create_key": f"a-{next(keys)}"}
        dealt = client.post("/api/v1/rounds/", body, format="json")
        assert dealt.status_code == 201, dealt.content
        settled = client.post(
            f"/api/v1/rounds/{dealt.json()['id']}/settle/", HTTP_IDEMPOTENCY_KEY=f"a-{next(keys)}"
        )
        assert settled.status_code == 200, settled.content

    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        backend = cursor.fetchone()[0]
    on_this_machine = os.path.exists(f"/proc/{backend}/stat")

    def cpu_of(one_round: Callable[[int], None], indexes: range) -> tuple[float, float]:
        """(app, database) CPU ms per round over ``indexes``."""
        app, database = time.process_time(), cpu_seconds(backend)
        for index in indexes:
            one_round(index)
        rounds = len(indexes)
        return (
            (time.process_time() - app) * 1000 / rounds,
            (cpu_seconds(backend) - database) * 1000 / rounds if on_this_machine else 0.0,
        )

    for level, one_round in (("services", service_round), ("api", api_round)):
        queries = {}
        for mode in MODES:
            use_compiled(mode == "compiled")
            cpu_of(one_round, range(WARMUP - 1))  # each way's statements built, prepared
            with CaptureQueriesContext(connection) as captured:
                one_round(WARMUP - 1)
            queries[mode] = len(captured.captured_queries)
        figures: dict[str, list[tuple[float, float]]] = {mode: [] for mode in MODES}
        for block in range(BLOCKS):
            indexes = range(WARMUP + block * CHUNK, WARMUP + (block + 1) * CHUNK)
            for mode in MODES if block % 2 == 0 else MODES[::-1]:
                use_compiled(mode == "compiled")
                figures[mode].append(cpu_of(one_round, indexes))
        use_compiled(True)
        report(level, figures, queries, on_this_machine)


def report(
    level: str,
    figures: dict[str, list[tuple[float, float]]],
    queries: dict[str, int],
    on_this_machine: bool,
) -> None:
    median: dict[str, dict[str, float]] = {}
    for mode, blocks in figures.items():
        median[mode] = {
            "app": statistics.median(app for app, _db in blocks),
            "db": statistics.median(db for _app, db in blocks),
            "total": statistics.median(app + db for app, db in blocks),
        }

    saving = 1 - median["compiled"]["total"] / median["plain"]["total"]
    blocks = [
        1 - sum(compiled) / sum(plain)
        for compiled, plain in zip(figures["compiled"], figures["plain"], strict=True)
    ]

    print(
        f"{level}: a round of 5 boxes, {BLOCKS} blocks of {CHUNK} rounds each way, "
        f"CPU ms per round (medians of the blocks), queries per round:"
    )
    for mode in MODES:
        m = median[mode]
        database = f" + PostgreSQL {m['db']:.2f}" if on_this_machine else ""
        print(
            f"  {mode:8s} app {m['app']:.2f}{database} = {m['total']:.2f} ms, "
            f"{queries[mode]} queries"
        )
    paired = statistics.median(blocks)
    print(
        f"  the compiled reads save {paired:.1%} of a round's CPU, median of the blocks' pairs "
        f"(to be kept: >= {TARGET_SAVING:.0%}); {saving:.1%} between the medians above; "
        f"per block {', '.join(f'{b:.0%}' for b in blocks)}"
    )
    emit(f"{level}_saving", round(paired, 3), "share", TARGET_SAVING)
    emit(f"{level}_saving_of_medians", round(saving, 3), "share")
    for mode in MODES:
        emit(f"{level}_{mode}_app_cpu_ms", round(median[mode]["app"], 2), "ms")
        if on_this_machine:
            emit(f"{level}_{mode}_db_cpu_ms", round(median[mode]["db"], 2), "ms")
        emit(f"{level}_{mode}_cpu_ms", round(median[mode]["total"], 2), "ms")
        emit(f"{level}_{mode}_queries", queries[mode], "queries")


if __name__ == "__main__":
    main()
