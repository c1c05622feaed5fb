"""Where a table-minute's CPU goes: the floor run's requests in-process, one at a time.

Builds a pit of ``--tables`` tables (``loadtest.floor_setup``), settles ``--rounds`` rounds
at each through the console's preview and Confirm, then asks each kind of request the
floor run makes ``--repeat`` times through Django's test client with the person's session
cookie (the whole stack: middleware, session, views, templates, ORM), and prints each
kind's median CPU (this process) and wall time and its statements, then a cProfile of each
by cumulative time. A table-minute is about 30 hand partials, a preview, a Confirm, half
a stakes partial and 12/``pit-size`` floor views: the figures say which to cut.

    DJANGO_SETTINGS_MODULE=loadtest.settings .venv/bin/python -m loadtest.floor_profile \\
        [--tables 20] [--rounds 3] [--repeat 200] [--kinds hand,preview,floor,stakes]

The Confirms are measured as the rounds are settled (a Confirm is a new round each time):
their median CPU is printed first. Works on its own fresh database (``casino_floorprofile``)
and Redis database 10 as the shared cache production has (``LOADTEST_CACHE_URL``), emptied
first.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import statistics
import time
from typing import Any

from loadtest.common import (
    database_name,
    emit,
    fresh_database,
    use_database,
    use_shared_cache,
)
from loadtest.floor_model import typed

DATABASE = database_name("floorprofile")
CACHE = os.environ.get("LOADTEST_CACHE_URL", "redis://127.0.0.1:6379/10")


def requests(floor: Any) -> dict[str, tuple[str, str, dict[str, str]]]:
    """Each kind: (method, path, data) as the floor run sends it."""
    desk = floor.desks[0]
    base = f"/console/sessions/{desk.session_id}"
    form = floor.forms[0]
    stakes = {k: v for k, v in form.items() if k.count("-") == 2 and not k.endswith("-cards")}
    pit_id = floor.pits[desk.pit][0]
    return {
        "hand": ("GET", f"{base}/hand/", {**typed(form, 30), "box": "dealer"}),
        "hand_partial": ("GET", f"{base}/hand/", {**typed(form, 13), "box": "3"}),
        "preview": ("POST", f"{base}/preview/", {**form, "key": "profile-preview"}),
        "stakes": ("GET", f"{base}/stakes/", {**stakes, "box": "1"}),
        "floor": ("GET", f"/console/pits/{pit_id}/", {}),
        "screen": ("GET", f"{base}/", {}),
    }


def cookie_of(floor: Any, kind: str) -> str:
    """The login that asks ``kind``: the pit's supervisor the floor view, the first table's
    dealer every other kind."""
    return floor.pits[0][2] if kind == "floor" else floor.desks[0].cookie


def settle_rounds(
    floor: Any, rounds: int, profiler: cProfile.Profile | None = None
) -> tuple[list[float], list[str], list[float]]:
    """``rounds`` rounds at every table through the preview and the Confirm; each Confirm's
    CPU (ms) but the first table's (its first requests compile the templates), the
    statements of the last Confirm, and each Confirm's CPU in its PostgreSQL backend (ms,
    the same Confirms). ``profiler`` profiles those Confirms (a second round of them, not
    timed: cProfile's cost would be in the figures)."""
    import re

    from django.db import connection

    from loadtest.common import cpu_seconds

    confirms: list[float] = []
    statements: list[str] = []
    database: list[float] = []
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        (backend,) = cursor.fetchone()

    def counted(execute: Any, sql: str, *args: Any) -> Any:
        statements.append(sql)
        return execute(sql, *args)

    for n, desk in enumerate(floor.desks):
        client = client_for(desk.cookie)
        base = f"/console/sessions/{desk.session_id}"
        for r in range(rounds):
            form = {**floor.forms[(n + r) % len(floor.forms)], "key": f"p-{n}-{r}"}
            preview = post_form(client, f"{base}/preview/", form)
            assert preview.status_code == 200, preview.content[:300]
            text = preview.content.decode()
            for name in ("digest", "rules_version", "round_number"):
                form[name] = re.search(rf'name="{name}" value="([^"]*)"', text).group(1)
            statements.clear()
            with connection.execute_wrapper(counted):
                backend_started = cpu_seconds(backend)
                started = time.process_time()
                answer = post_form(client, f"{base}/confirm/", form)
                cpu = (time.process_time() - started) * 1000
                backend_cpu = (cpu_seconds(backend) - backend_started) * 1000
            if n:
                confirms.append(cpu)
                database.append(backend_cpu)
            assert answer.status_code == 200, answer.content[:300]
            if profiler is not None and n:  # the next round, profiled
                form = {**floor.forms[(n + r + 1) % len(floor.forms)], "key": f"q-{n}-{r}"}
                preview = post_form(client, f"{base}/preview/", form)
                text = preview.content.decode()
                for name in ("digest", "rules_version", "round_number"):
                    form[name] = re.search(rf'name="{name}" value="([^"]*)"', text).group(1)
                profiler.enable()
                answer = post_form(client, f"{base}/confirm/", form)
                profiler.disable()
                assert answer.status_code == 200, answer.content[:300]
    return confirms, statements, database


def post_form(client: Any, path: str, form: dict[str, str], **headers: str) -> Any:
    """A form posted as the browser posts the round screen's (urlencoded, as htmx sends
    it; the test client's default, multipart, costs the server more to read)."""
    from urllib.parse import urlencode

    return client.post(
        path,
        urlencode(form),
        content_type="application/x-www-form-urlencoded",
        **{"HTTP_HX_REQUEST": "true", **headers},
    )


def client_for(cookie: str) -> Any:
    from django.conf import settings
    from django.test import Client

    client = Client()
    client.cookies[settings.SESSION_COOKIE_NAME] = cookie
    return client


def measure(
    client: Any, method: str, path: str, data: dict[str, str], repeat: int, htmx: bool = True
) -> Any:
    from functools import partial

    from django.db import connection

    call = client.get if method == "GET" else partial(post_form, client)
    if htmx:  # a partial, as htmx asks it; else the whole page
        call = partial(call, HTTP_HX_REQUEST="true")
    for _n in range(5):  # warm: imports, the template's first compile
        answer = call(path, data)
        assert answer.status_code == 200, (path, answer.status_code, answer.content[:300])
    cpu, wall = [], []
    queries: list[str] = []

    def counted(execute: Any, sql: str, *args: Any) -> Any:
        queries.append(sql)
        return execute(sql, *args)

    with connection.execute_wrapper(counted):
        call(path, data)
    for _n in range(repeat):
        started, process = time.perf_counter(), time.process_time()
        call(path, data)
        cpu.append((time.process_time() - process) * 1000)
        wall.append((time.perf_counter() - started) * 1000)
    profiler = cProfile.Profile()
    profiler.enable()
    for _n in range(max(20, repeat // 4)):
        call(path, data)
    profiler.disable()
    return statistics.median(cpu), statistics.median(wall), len(queries), profiler


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--repeat", type=int, default=200)
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--kinds", default="hand,hand_partial,preview,stakes,floor,screen")
    parser.add_argument("--statements", action="store_true", help="print the Confirm's SQL")
    options = parser.parse_args()

    use_shared_cache(CACHE)
    use_database(DATABASE)
    fresh_database(DATABASE)
    from loadtest.floor_setup import build_big_floor, round_forms

    floor = build_big_floor(tables=options.tables, pit_size=options.tables, code="prof")
    floor.forms = round_forms(floor.desks[0].session_id, count=20, seed=1)
    profiles: dict[str, cProfile.Profile] = {}
    if options.top:
        profiles["confirm"] = cProfile.Profile()
    confirms, confirm_statements, database = settle_rounds(
        floor, options.rounds, profiles.get("confirm")
    )
    found = requests(floor)
    print(f"one pit of {options.tables} tables, {options.rounds} rounds each; in-process:")
    if confirms:  # a write: each is a new round, measured as the rounds were settled
        confirm, in_database = statistics.median(confirms), statistics.mean(database)
        print(
            f"  {'confirm':>12}: CPU {confirm:6.2f} ms (median of {len(confirms)} rounds), "
            f"database {in_database:6.2f} ms (mean), {len(confirm_statements)} statements"
        )
        emit("floor-profile", "confirm_cpu_ms", round(confirm, 2), "ms")
        # PostgreSQL's CPU for the Confirm (its backend's, read from /proc in ticks of 10 ms:
        # a mean of the rounds, not a median).
        emit("floor-profile", "confirm_database_cpu_ms", round(in_database, 2), "ms")
        emit("floor-profile", "confirm_statements", len(confirm_statements), "statements")
        if options.statements:
            print("\n".join(f"    {sql[:160]}" for sql in confirm_statements))
    kinds = list(filter(None, options.kinds.split(",")))
    if unknown := [kind for kind in kinds if kind not in found]:  # the Confirm is measured above
        parser.error(f"--kinds: no {', '.join(unknown)}; one of {', '.join(found)}")
    for kind in kinds:
        method, path, data = found[kind]
        cpu, wall, queries, profiles[kind] = measure(
            client_for(cookie_of(floor, kind)),
            method,
            path,
            data,
            options.repeat,
            htmx=kind != "screen",
        )
        print(f"  {kind:>12}: CPU {cpu:6.2f} ms, wall {wall:6.2f} ms, {queries} statements")
        emit("floor-profile", f"{kind}_cpu_ms", round(cpu, 2), "ms")
        # The wall time holds the database's share too (a statement's time on the server).
        emit("floor-profile", f"{kind}_wall_ms", round(wall, 2), "ms")
        emit("floor-profile", f"{kind}_statements", queries, "statements")
    for kind, profiler in profiles.items():
        out = io.StringIO()
        stats = pstats.Stats(profiler, stream=out).strip_dirs().sort_stats("cumulative")
        stats.print_stats(options.top)
        print(f"\ncProfile of {kind}, by cumulative time:")
        print(out.getvalue())


if __name__ == "__main__":
    main()
