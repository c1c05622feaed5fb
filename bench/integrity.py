"""The integrity run on PostgreSQL: a gaming day of 1,000,000 rounds at 200 tables tested.

The fill stands for a venue of 200 Niu Niu tables dealing 5,000 rounds each in a gaming day
(four boxes and the dealer a round), a dealer per table, four members and the anonymous
boxes at each. It writes the integrity tallies in bulk as settlement would have (hand
categories, outcomes, rounds by boxes won, cards) drawn from the exact probabilities with
a fixed seed, and each member's bet tally; the venue, tables, sessions and ruleset are
real rows (``manage.py simulate`` with one round a table).

A fresh process then times ``casino.integrity.runs.integrity_run`` for the day: reading
the tallies, every test per table, dealer, pit and player, Benjamini-Hochberg and storing
the results (and any alert's investigation). Targets: <= 10 s and <= 500 MB peak resident.

Runs against its own database (``casino_bench_integrity``, or ``{prefix}_bench_integrity``
with ``LOADTEST_DB_PREFIX``; ``BENCH_DATABASE_URL`` names another).
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.common import (  # noqa: E402 (after the path)
    bench_env,
    database_url,
    emitter,
    manager,
    recreate_database,
)

emit = emitter("integrity")

DATABASE_URL = database_url("bench_integrity")
VENUE = "bench"
TABLES = 200
ROUNDS_A_TABLE = 5000
BOXES = 4
MEMBERS = 4
TARGET_S = 10
TARGET_MB = 500
SEED = 2026

ENV = bench_env(DATABASE_URL)
manage = manager(ENV)


def fill() -> None:
    recreate_database(DATABASE_URL)
    manage("migrate", "--noinput", "-v", "0")
    start = time.perf_counter()
    manage("simulate", "--venue", VENUE, "--rounds", str(TABLES), "--tables", str(TABLES))
    subprocess.run(  # noqa: S603 (this script, with Django set up)
        [sys.executable, __file__, "--fill"], env=ENV, cwd=ROOT, check=True
    )
    emit("fill_s", round(time.perf_counter() - start, 1), "s")


def fill_rows() -> None:
    import django

    os.environ.update(ENV)
    django.setup()
    from decimal import Decimal

    import numpy as np
    from django.contrib.auth import get_user_model
    from django.db import connection, transaction

    from casino import games
    from casino.floor.models import BetTally, Round, TableSession
    from casino.integrity.models.tallies import CARDS_DEALT
    from casino.integrity.tallies import write_card_tallies, write_category_tallies
    from casino.kernel.cards import DECK
    from casino.players.models import Player
    from casino.staff.roles import DEALER, grant
    from casino.venues.models import Venue

    venue = Venue.objects.get(code=VENUE)
    sessions = list(
        TableSession.objects.filter(table__venue=venue).select_related("table", "shift")
    )
    sessions = list({s.table_id: s for s in sessions}.values())[:TABLES]
    if len(sessions) < TABLES:
        sys.exit(f"simulate made {len(sessions)} table sessions, {TABLES} needed")
    adapter = games.get("niuniu")
    # The version the simulated rounds were dealt under (every table's).
    version = adapter.version_model.objects.get(
        pk=Round.objects.filter(session__table__venue=venue).values_list(
            "ruleset_version_id", flat=True
        )[0]
    )
    rng = np.random.default_rng(SEED)
    User = get_user_model()
    with transaction.atomic():
        dealers = User.objects.bulk_create(
            User(username=f"bench-integrity-dealer-{n}") for n in range(TABLES)
        )
        for dealer in dealers:
            grant(dealer, venue, DEALER)
        players = Player.objects.bulk_create(
            Player(venue=venue, membership_number=f"I-{n:05d}", name=f"Member {n}")
            for n in range(TABLES * MEMBERS)
        )
        categories_rows = []
        card_rows = []
        bets = []
        for index, session in enumerate(sessions):
            rules = adapter.snapshot(version)
            expected = adapter.integrity_expected(rules)
            hands = list(expected["box_hand"])
            p = np.array([float(expected["box_hand"][h]) for h in hands])
            p /= p.sum()
            base = {
                "venue_id": venue.pk,
                "shift_id": session.shift_id,
                "session_id": session.pk,
                "table_id": session.table_id,
                "dealer_id": dealers[index].pk,
                "gaming_date": session.shift.gaming_date,
                "game": "niuniu",
            }
            members = [players[index * MEMBERS + m].pk for m in range(MEMBERS)]
            seats = [*members[: BOXES - 1], None]  # three members and an anonymous box
            n = ROUNDS_A_TABLE
            for category, count in zip(hands, rng.multinomial(n, p), strict=True):
                categories_rows.append(
                    (base, (None, version.pk, "dealer_hand", category), int(count))
                )
            for seat in seats:
                for category, count in zip(hands, rng.multinomial(n, p), strict=True):
                    categories_rows.append(
                        (base, (seat, version.pk, "box_hand", category), int(count))
                    )
                wins = int(rng.binomial(n, 0.5))
                categories_rows.append((base, (seat, version.pk, "box_outcome", "win"), wins))
                categories_rows.append((base, (seat, version.pk, "box_outcome", "lose"), n - wins))
                if seat is not None:
                    bets.append((base, seat, n, wins))
            for won, count in enumerate(
                rng.multinomial(n, [1 / 16, 4 / 16, 6 / 16, 4 / 16, 1 / 16])
            ):
                categories_rows.append(
                    (base, (None, version.pk, "round_outcome", f"{won}/{BOXES}"), int(count))
                )
            cards_a_round = 5 * (BOXES + 1)
            categories_rows.append((base, (None, version.pk, CARDS_DEALT, str(cards_a_round)), n))
            # Each round's cards without replacement from one deck, as a shuffle deals them.
            order = np.argsort(rng.random((n, 52)), axis=1)[:, :cards_a_round]
            counts = np.bincount(order.ravel(), minlength=52)
            for card, count in zip(DECK, counts, strict=True):
                card_rows.append((base, (str(card)[0], str(card)[1]), int(count)))
        write_category_tallies(categories_rows)
        write_card_tallies(card_rows)
        stake = Decimal("100000")
        hour = sessions[0].shift.starts_at
        BetTally.objects.bulk_create(
            BetTally(
                venue_id=base["venue_id"],
                shift_id=base["shift_id"],
                session_id=base["session_id"],
                table_id=base["table_id"],
                dealer_id=base["dealer_id"],
                hour=hour,
                player_id=seat,
                game="niuniu",
                ruleset_version_id=version.pk,
                bet_type="single",
                bets=n,
                handle=stake * n,
                stake_squared=stake * stake * n,
                player_result=stake * (Decimal("0.95") * wins - (n - wins)),
                commission=stake * Decimal("0.05") * wins,
                volume=stake * wins,
                max_net=stake * Decimal("0.95"),
            )
            for base, seat, n, wins in bets
        )
    print(f"  {len(categories_rows):,} category and {len(card_rows):,} card tallies")
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")


def measure() -> None:
    import django

    os.environ.update(ENV)
    django.setup()
    from django.db import connection

    from casino.integrity.models import CategoryTally
    from casino.integrity.runs import integrity_run
    from casino.integrity.statistics import load_for_runs
    from casino.venues.models import Venue

    # As the worker does when it starts (casino/celery.py): the libraries' import is its
    # own figure, once a process, not a run's.
    start = time.perf_counter()
    load_for_runs()
    emit("libraries_load_s", round(time.perf_counter() - start, 2), "s")
    venue = Venue.objects.get(code=VENUE)
    day = CategoryTally.objects.filter(venue=venue).values_list("gaming_date", flat=True).first()
    start = time.perf_counter()
    run = integrity_run(venue=venue, date_from=day, date_to=day)
    seconds = time.perf_counter() - start
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"  {run.tests} tests, {run.alerts} alerts in {seconds:.2f} s")
    emit("rounds", TABLES * ROUNDS_A_TABLE, "rounds")
    emit("tests", run.tests, "tests")
    emit("alerts", run.alerts, "alerts")
    emit("run_s", round(seconds, 2), "s", TARGET_S)
    emit("peak_rss_mb", round(peak_mb), "MB", TARGET_MB)
    connection.close()


def main() -> None:
    if sys.argv[1:] == ["--fill"]:
        fill_rows()
        return
    if sys.argv[1:] == ["--measure"]:
        measure()
        return
    if os.environ.get("BENCH_REUSE", "") in ("", "0"):
        fill()
    subprocess.run(  # noqa: S603 (this script, in a fresh process for its peak memory)
        [sys.executable, __file__, "--measure"], env=ENV, cwd=ROOT, check=True
    )


if __name__ == "__main__":
    main()
