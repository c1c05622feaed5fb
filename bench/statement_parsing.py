"""What psycopg's parsing of the floor view's reads costs a call, by the keys a statement takes.

psycopg turns a statement's ``%s`` places into PostgreSQL's ``$1, $2...`` at every
``execute`` and keeps the result only for statements of at most
``MAX_CACHED_STATEMENT_PARAMS`` parameters and ``MAX_CACHED_STATEMENT_LENGTH`` bytes
(``psycopg._queries``); a larger one is parsed again each time. The floor view reads a
pit's open sessions, limits in force and scheduled changes through ``casino.compiled``
reads of ``TABLES_AT_ONCE`` keys each (casino/venues/limits.py). This builds those three
statements with each count of ``--keys`` (the SQL the app sends, with as many places), and
times psycopg's conversion of each, as ``execute`` runs it, 2,000 times in this process:
the CPU a floor view spends on it. Counts alternate A B B A over ``--blocks`` blocks;
medians. No database is read (the statements are only built and converted).

    .venv/bin/python bench/statement_parsing.py --keys 128,48
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.common import emitter  # noqa: E402 (after the path)

emit = emitter("statement_parsing")
CALLS = 2000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--keys", default="128,48", help="keys a statement, comma-separated")
    parser.add_argument("--blocks", type=int, default=4)
    options = parser.parse_args()
    counts = [int(n) for n in options.keys.split(",")]

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")
    os.environ.setdefault("ALLOW_INSECURE_SECRET_KEY", "1")
    os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/casino")
    import django

    django.setup()
    from psycopg import _queries
    from psycopg.adapt import Transformer

    from casino.compiled import SAMPLE_TIME, key_samples
    from casino.floor.console import floor_selectors
    from casino.venues import limits

    reads = {
        "sessions": (floor_selectors._OPEN_SESSIONS_OF_TABLES, ()),
        "limits": (limits._LIMITS_OF_TABLES, (SAMPLE_TIME,)),
        "upcoming": (limits._UPCOMING_OF_TABLES, (SAMPLE_TIME,)),
    }
    statements = {}
    for count in counts:
        for name, (read, leading) in reads.items():
            queryset = read._queryset(*leading, *key_samples(count))
            sql, params = queryset.query.get_compiler("default").as_sql()
            statements[(count, name)] = (sql.encode(), list(params))
            cached = (
                len(sql.encode()) <= _queries.MAX_CACHED_STATEMENT_LENGTH
                and len(params) <= _queries.MAX_CACHED_STATEMENT_PARAMS
            )
            print(
                f"{count:4} keys, {name:>8}: {len(params):3} parameters, "
                f"{len(sql.encode()):5} bytes, parsing kept: {'yes' if cached else 'no'}"
            )

    transformer = Transformer()
    times: dict[int, list[float]] = {count: [] for count in counts}
    order = [*counts, *reversed(counts)]
    for _block in range(options.blocks):
        for count in order:
            started = time.process_time()
            for name in reads:
                sql, params = statements[(count, name)]
                query = _queries.PostgresQuery(transformer)
                for _call in range(CALLS):
                    query.convert(sql, params)
            times[count].append((time.process_time() - started) / CALLS * 1e6)
    for count in counts:
        median = statistics.median(times[count])
        print(f"{count:4} keys: {median:8.1f} µs a floor view (the three reads' parsing)")
        emit(f"parse_us_{count}_keys", round(median, 1), "µs")


if __name__ == "__main__":
    main()
