"""What serving costs a floor request: one gunicorn worker's CPU per request, one at a time.

``loadtest.floor_profile`` measures a request in-process (Django's test client), and the
floor run the app's CPU per table-minute under gunicorn, about a third more. This asks one
kind of the floor's requests ``--repeat`` times, one after another, of a single gunicorn
worker and reads the worker's CPU from /proc before and after each batch: the request's
whole cost as served (gunicorn reading it, WSGI, the connection the sync worker closes
after each answer), without the floor's concurrency or the generator in the figure. Beside
it the same worker serves a bare WSGI app (no Django; every path answered 404): the
server's own share of a request. The host's speed moves these figures as it moves every
other (by up to 2x between runs minutes apart on a shared machine): compare two servers or
worker classes only over many turns (``loadtest.floor_compare`` runs it in turns).

    DJANGO_SETTINGS_MODULE=loadtest.settings .venv/bin/python -m loadtest.floor_served \\
        [--kinds hand,stakes,floor] [--repeat 400] [--batches 5] [--threads 1]

Prints each kind's median over the batches of the worker's CPU per request (and the wall
time, the generator's share in it). The GETs only: a preview or a Confirm served needs
the form's CSRF token, and ``floor_profile`` measures them. Works on its own fresh
database (``casino_floorserved``) and ``floor_profile``'s shared cache (Redis database 10).
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable, Iterable
from typing import Any

from loadtest.common import (
    Server,
    cpu_seconds,
    database_name,
    emit,
    fresh_database,
    use_database,
    use_shared_cache,
)
from loadtest.floor_profile import CACHE, cookie_of, requests, settle_rounds

DATABASE = database_name("floorserved")
GETS = ("hand", "hand_partial", "stakes", "floor", "screen")
BARE = "loadtest.floor_served:bare"


def bare(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
    """A WSGI app of nothing: 404 to every path (the readiness probe's answer too)."""
    start_response("404 Not Found", [("Content-Type", "text/plain"), ("Content-Length", "2")])
    return [b"no"]


def served(
    server: Server,
    path: str,
    *,
    params: dict[str, str],
    cookie: str | None,
    htmx: bool,
    status: int = 200,
    repeat: int,
    batches: int,
) -> tuple[float, float]:
    """The median over ``batches`` of the worker's CPU (ms) per request of ``repeat`` asked
    one after another, and of the wall time per request (the first answers, not counted,
    must have ``status``)."""
    import httpx
    from django.conf import settings

    (worker,) = server.worker_pids()
    cookies = {settings.SESSION_COOKIE_NAME: cookie} if cookie else {}
    headers = {"HX-Request": "true"} if htmx else {}
    cpu, wall = [], []
    with httpx.Client(base_url=server.url, cookies=cookies, headers=headers) as client:
        for _n in range(20):  # warm: the worker's first answers compile the templates
            answer = client.get(path, params=params)
            assert answer.status_code == status, (path, answer.status_code, answer.text[:300])
        for _batch in range(batches):
            before, started = cpu_seconds(worker), time.perf_counter()
            for _n in range(repeat):
                client.get(path, params=params)
            cpu.append((cpu_seconds(worker) - before) * 1000 / repeat)
            wall.append((time.perf_counter() - started) * 1000 / repeat)
    return statistics.median(cpu), statistics.median(wall)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--repeat", type=int, default=400)
    parser.add_argument("--batches", type=int, default=5)
    parser.add_argument("--threads", type=int, default=1, help="gthread threads; 1: sync")
    parser.add_argument("--kinds", default="hand,stakes,floor")
    options = parser.parse_args()
    kinds = [kind for kind in options.kinds.split(",") if kind]
    if unknown := set(kinds) - set(GETS):
        parser.error(f"no such GET: {', '.join(sorted(unknown))} (one of {', '.join(GETS)})")

    use_shared_cache(CACHE)
    use_database(DATABASE)
    fresh_database(DATABASE)
    from loadtest.floor_setup import build_big_floor, round_forms

    floor = build_big_floor(tables=options.tables, pit_size=options.tables, code="srv")
    floor.forms = round_forms(floor.desks[0].session_id, count=20, seed=1)
    settle_rounds(floor, options.rounds)
    found = requests(floor)
    worker = {"worker_class": "gthread" if options.threads > 1 else "sync"}
    worker["threads"] = options.threads
    each = {"repeat": options.repeat, "batches": options.batches}
    print(f"one {worker['worker_class']} worker ({options.threads} thread(s)), one at a time:")
    with Server(workers=1, app=BARE, **worker) as server:
        cpu, wall = served(server, "/", params={}, cookie=None, htmx=False, status=404, **each)
    print(f"  {'bare WSGI':>12}: worker CPU {cpu:6.3f} ms a request, wall {wall:6.3f} ms")
    emit("floor-served", "bare_cpu_ms", round(cpu, 3), "ms")
    with Server(workers=1, **worker) as server:
        for kind in kinds:
            _method, path, params = found[kind]
            cookie, htmx = cookie_of(floor, kind), kind != "screen"
            cpu, wall = served(server, path, params=params, cookie=cookie, htmx=htmx, **each)
            print(f"  {kind:>12}: worker CPU {cpu:6.3f} ms a request, wall {wall:6.3f} ms")
            emit("floor-served", f"{kind}_cpu_ms", round(cpu, 3), "ms")
            emit("floor-served", f"{kind}_wall_ms", round(wall, 3), "ms")


if __name__ == "__main__":
    main()
