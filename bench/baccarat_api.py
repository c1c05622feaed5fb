"""A Baccarat round dealt and settled through the API against a Niu Niu round: CPU per round.

Both tables have five boxes betting; the Baccarat round is its whole deal (four to six
cards, the seats holding none) with each box on Player or Banker and side bets, the Niu Niu
round six five-card hands (vn-kr-004, every box with its three bets). Each round is posted to
``/api/v1/rounds/`` and settled at ``/api/v1/rounds/<id>/settle/`` (DRF's test client, in
process); the figure is the process CPU time (``time.process_time``) per deal + settle, both
games measured in one run so their ratio is of one machine's state. Target: a Baccarat round
costs no more than a Niu Niu one.

Runs against its own database (``casino_bench_baccarat``, or ``{prefix}_bench_baccarat`` with
``LOADTEST_DB_PREFIX``), created and migrated on each run.
"""

from __future__ import annotations

import os
import random
import sys
import time
from decimal import Decimal
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.common import database_url, django_on_fresh_database, emitter  # noqa: E402 (after the path)

emit = emitter("baccarat_api")

DATABASE_URL = database_url("bench_baccarat")
os.environ.setdefault("ALLOWED_HOSTS", "testserver")  # DRF's test client's host
os.environ.setdefault("API_WRITE_RATE", "off")  # one dealer posting hundreds of rounds a minute

ROUNDS = int(os.environ.get("BENCH_ROUNDS", "200"))
WARMUP = 20
BOXES = 5
#: A Baccarat round may cost at most this many Niu Niu rounds' CPU.
TARGET_RATIO = 1.0


def main() -> None:
    django_on_fresh_database(DATABASE_URL)

    from casino import games
    from casino.floor.services.sessions import session_open
    from casino.staff.roles import DEALER, MANAGER, SUPERVISOR
    from casino.venues.models import Table, TableLimit, Venue
    from tests.casino.api import client_for
    from tests.factories import niuniu_table, staff

    venue = Venue.objects.create(
        code="bench",
        name="Bench",
        currency="VND",
        rounding_unit=Decimal("1000"),
        timezone="Asia/Ho_Chi_Minh",
        language="en",
    )
    dealer = staff("bench-dealer", DEALER, venue)
    supervisor = staff("bench-supervisor", SUPERVISOR, venue)
    manager = staff("bench-manager", MANAGER, venue)
    approver = staff("bench-approver", MANAGER, venue)
    baccarat = games.get("baccarat")
    version = baccarat.demo.ruleset_from_preset(
        venue=venue,
        preset_code="commission",
        editor=manager,
        approver=approver,
        override_reason="the shipped rules",
    )
    bac_table = Table.objects.create(
        venue=venue,
        code="BAC1",
        game="baccarat",
        ruleset=version.ruleset,
        seats=BOXES,
        chip_denominations=["1000000", "100000", "10000", "1000"],
    )
    TableLimit.objects.bulk_create(
        TableLimit(table=bac_table, bet_type=b, min_stake=Decimal(lo), max_stake=Decimal(hi))
        for b, (lo, hi) in baccarat.demo.simulation_limits.items()
    )
    nn_table = niuniu_table(venue)

    def opened(table: Table):
        return session_open(
            table=table,
            counted_by=dealer,
            confirmed_by=supervisor,
            opening_chips={"1000000": 100},
        )

    api = client_for(dealer)

    def money(amount: Decimal) -> str:
        return str(amount.quantize(Decimal("0.01")))  # the API takes two places

    def body(session_id: int, dealer_cards: str, boxes) -> dict:
        return {
            "session": session_id,
            "dealer_cards": dealer_cards,
            "boxes": [
                {
                    "position": box.position,
                    "cards": box.cards,
                    "bets": {bet: money(stake) for bet, stake in box.stakes.items()},
                    "deposits": {bet: money(amount) for bet, amount in box.deposits.items()},
                }
                for box in boxes
            ],
        }

    def rounds_of(table: Table, seed: int):
        """The table's stream of rounds in which every box bets (as many as Niu Niu's)."""
        session = opened(table)
        stream = games.get(table.game).demo.round_stream(session=session, rng=random.Random(seed))
        for dealer_cards, boxes in stream:
            if len(boxes) == BOXES:
                yield session.pk, dealer_cards, boxes

    streams = {"baccarat": rounds_of(bac_table, 1), "niuniu": rounds_of(nn_table, 2)}
    keys = iter(range(10**9))

    def cpu_per_round(game: str, count: int) -> float:
        spent = 0.0
        for _ in range(count):
            session_id, dealer_cards, boxes = next(streams[game])
            start = time.process_time()
            dealt = api.post(
                "/api/v1/rounds/", body(session_id, dealer_cards, boxes), format="json"
            )
            assert dealt.status_code == 201, dealt.content
            settled = api.post(
                f"/api/v1/rounds/{dealt.json()['id']}/settle/",
                HTTP_IDEMPOTENCY_KEY=f"bench-{next(keys)}",
            )
            spent += time.process_time() - start
            assert settled.status_code == 200, settled.content
        return spent / count * 1000

    cpu_per_round("baccarat", WARMUP)
    cpu_per_round("niuniu", WARMUP)
    # interleaved quarters, so a drift of the machine weighs on both games alike
    figures: dict[str, list[float]] = {"baccarat": [], "niuniu": []}
    for _ in range(4):
        for game, spent in figures.items():
            spent.append(cpu_per_round(game, ROUNDS // 4))
    bac_ms = sum(figures["baccarat"]) / 4
    nn_ms = sum(figures["niuniu"]) / 4
    ratio = bac_ms / nn_ms
    print(f"API deal + settle, {BOXES} boxes, {ROUNDS} rounds each, process CPU per round:")
    print(f"  Baccarat {bac_ms:.2f} ms, Niu Niu {nn_ms:.2f} ms: ratio {ratio:.2f}")
    emit("baccarat_cpu_ms_per_round", round(bac_ms, 2), "ms")
    emit("niuniu_cpu_ms_per_round", round(nn_ms, 2), "ms")
    emit("baccarat_to_niuniu_cpu", round(ratio, 3), "ratio", TARGET_RATIO)


if __name__ == "__main__":
    main()
