"""Fuzzing the API: schemathesis over every operation of ``/api/schema/``, against gunicorn.

A fresh database (``casino_fuzz``) with a venue, two tables with open sessions, rounds
dealt, settled and voided, slips, and a user who is dealer, supervisor and manager at
once (so writes get past the role check and reach the services); schemathesis generates
valid and invalid requests for every operation in the schema (examples, coverage and
fuzzing phases, ``--examples`` per operation) with that user's token, and checks:

- ``not_a_server_error``: no 5xx, ever;
- ``json_error_body`` (``loadtest/fuzz_checks.py``): every 4xx is
  ``{"error", "detail", "field"}`` JSON.

The console's forms and the card and bet parsers are fuzzed by hypothesis in
``tests/casino/test_hardening.py``; ``make fuzz`` runs those with a larger budget after
this (``HARDENING_EXAMPLES``).

    .venv/bin/python -m loadtest.fuzz [--examples 50] [--workers 2] [--seed 1]
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import time

from loadtest.common import (
    ROOT,
    VENV_BIN,
    Server,
    build_floor,
    database_name,
    emit,
    fresh_database,
    use_database,
)

DATABASE = database_name("fuzz")


def seed_floor() -> str:
    """The floor the fuzzer works on; the token of a user with every floor role but auditor."""
    from decimal import Decimal

    from casino.cage.services.slips import slip_request
    from casino.floor.services.settlement import round_settle
    from casino.floor.services.voids import round_void
    from casino.simulation import play
    from casino.staff.logins import token_issue
    from casino.staff.roles import MANAGER, SUPERVISOR, grant
    from tests.factories import staff

    floor = build_floor(tables=2, code="fuzz")
    boss = staff("fuzz-boss", SUPERVISOR, floor.venue)
    grant(boss, floor.venue, MANAGER)
    dealer = floor.dealers[0]
    session = floor.sessions[0]
    play(session=session, rounds=20, dealer=dealer, seed=3)
    from casino.floor.services.rounds import round_create
    from casino.games import BoxInput

    dealt, _ = round_create(
        session=session,
        user=dealer,
        dealer_cards="KS QS 5H 4H TC",
        boxes=[BoxInput(position=1, cards="JS QH JD AC 7H", stakes={"single": Decimal(10000)})],
    )
    round_settle(round_=dealt, user=dealer, key="fuzz-settled")
    voided, _ = round_create(
        session=session,
        user=dealer,
        dealer_cards="KS QS 5H 4H TC",
        boxes=[BoxInput(position=2, cards="JS QH JD AC 7H", stakes={"single": Decimal(10000)})],
    )
    round_void(round_=voided, requested_by=dealer, approved_by=floor.supervisor, reason="fuzz")
    slip_request(session=session, user=dealer, kind="fill", chips={"1000000": 5})
    return token_issue(user=boss, device="fuzz")[1]


def id_dictionary() -> str:
    """Schemathesis config: half the ids in paths and bodies name objects that exist, so
    requests get past the 404 into the services (deal, settle, void, close, verify...)."""
    from casino.audit.models import AuditEvent
    from casino.cage.models import Slip
    from casino.floor.models import Round, TableSession
    from casino.players.models import Player
    from casino.rulesets.models import Ruleset
    from casino.venues.models import Table, Venue

    ids: set[int] = set()
    for model in (AuditEvent, Player, Round, Slip, Table, TableSession, Venue, Ruleset):
        ids.update(model.objects.values_list("pk", flat=True)[:50])
    values = ", ".join(str(pk) for pk in sorted(ids))
    return (
        f"[dictionaries.ids]\nvalues = [{values}]\n\n"
        "[parameters]\n"
        '"path.id" = { dictionary = "ids", probability = 0.5 }\n'
        '"body.session" = { dictionary = "ids", probability = 0.5 }\n'
        '"body.table" = { dictionary = "ids", probability = 0.5 }\n'
        '"body.venue" = { dictionary = "ids", probability = 0.5 }\n'
        '"path.number" = 1\n'
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--examples", type=int, default=50, help="per operation and phase")
    parser.add_argument("--workers", type=int, default=2, help="schemathesis workers")
    parser.add_argument("--gunicorn-workers", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    options = parser.parse_args()

    use_database(DATABASE)
    fresh_database(DATABASE)
    token = seed_floor()
    log = ROOT / "test-artifacts" / "fuzz-schemathesis.log"
    log.parent.mkdir(exist_ok=True)
    config = log.with_suffix(".toml")
    config.write_text(id_dictionary())
    # No rate limits: the fuzzer's requests would be 429s instead of reaching the services.
    unlimited = {"API_WRITE_RATE": "off", "API_LOGIN_RATE": "off"}
    with Server(workers=options.gunicorn_workers, extra_env=unlimited) as server:
        # The schema needs a login like the API: schemathesis sends the token's header when
        # it loads the schema too. Checked first, so a refusal is named, not fuzzed.
        import httpx

        schema = httpx.get(
            f"{server.url}/api/schema/", headers={"Authorization": f"Token {token}"}, timeout=60
        )
        if schema.status_code != 200:
            raise SystemExit(f"the schema answered {schema.status_code}: {schema.text[:300]}")
        command = [
            str(VENV_BIN / "st"),
            "--config-file",
            str(config),
            "run",
            f"{server.url}/api/schema/",
            "--checks",
            "not_a_server_error,json_error_body",
            "--header",
            f"Authorization: Token {token}",
            "--max-examples",
            str(options.examples),
            "--workers",
            str(options.workers),
            "--seed",
            str(options.seed),
            "--request-timeout",
            "30",
            "--phases",
            "examples,coverage,fuzzing",
            # Logging out would revoke the fuzzer's own token for every later request.
            "--exclude-path-regex",
            r"/auth/(logout|tokens/\{id\})",
            "--no-color",
        ]
        env = {
            **os.environ,
            "SCHEMATHESIS_HOOKS": "loadtest.fuzz_checks",
            "PYTHONPATH": str(ROOT),
        }
        started = time.perf_counter()
        with log.open("w") as out:
            result = subprocess.run(  # noqa: S603
                # In test-artifacts/ (ignored by git): schemathesis keeps a cache where it runs.
                command,
                env=env,
                cwd=log.parent,
                stdout=out,
                stderr=subprocess.STDOUT,
                timeout=1800,
            )
        seconds = time.perf_counter() - started
        server_log = server.log_path.read_text(errors="replace")

    text = log.read_text(errors="replace")
    print(text[-6000:])
    operations = re.search(r"(\d+) (?:selected|operations)", text)
    cases = re.findall(r"(\d+) generated", text)
    print(
        f"schemathesis: exit {result.returncode} in {seconds:.0f} s; full output in "
        f"{log.relative_to(ROOT)}; server log: {server_log.count('Traceback')} tracebacks"
    )
    emit("fuzz", "schemathesis_exit", result.returncode, "code", 0)
    emit("fuzz", "schemathesis_seconds", round(seconds), "s")
    if operations:
        emit("fuzz", "operations", int(operations.group(1)), "operations")
    if cases:
        emit("fuzz", "cases", sum(int(n) for n in cases), "cases")
    emit("fuzz", "server_tracebacks", server_log.count("Traceback"), "tracebacks", 0)
    if result.returncode != 0 or "Traceback" in server_log:
        raise SystemExit("schemathesis found failures (see above)")


if __name__ == "__main__":
    main()
