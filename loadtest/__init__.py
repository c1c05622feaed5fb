"""Load, races, faults and fuzzing against a real server on loopback.

Each check is a module run by the Makefile (``make loadtest``, ``make loadtest-floor``,
``make races``, ``make faults``, ``make fuzz``) or as ``.venv/bin/python -m
loadtest.<name>``. Each makes its own fresh PostgreSQL database, migrates it, sets up a
venue with tables and staff, starts gunicorn on 127.0.0.1 (a free port) and drives it
with asyncio clients (httpx, or the lean one of ``loadtest/http.py``). Every loop is
bounded in count and in time. Results are printed for people and, like ``bench/``, one
JSON object per figure on its own line. The floor's runs use the shared cache production
has (Redis, ``CACHE_URL``).

The parts that fit in a minute run in ``make test`` (``tests/casino/test_hardening.py``).
"""
