"""Report periods on PostgreSQL: the month to date from the tallies, seconds and peak memory.

The fill stands for a venue of 40 Niu Niu tables dealing 1,000,000 rounds a gaming day (about
5 million bets), three 8-hour shifts a day, each table a session per shift. A tally is one
table session x hour x player x ruleset version x bet type, so a day holds
40 tables x 24 hours x 10 players (9 members and the anonymous boxes) x 3 bet types
= 28,800 tallies, their bets (about 520 a player and hour) and amounts drawn from a hash
of their key.
The measured month to date is 1-30 November 2026 and its previous period 1-30 October: the
fill covers 1 October to 30 November (61 gaming days, 1,756,800 tallies; each period
reads 864,000). Venue, tables, dealers, players, shifts and sessions are real rows (the
tallies' keys); the tallies are written by one ``INSERT ... SELECT generate_series``.

A fresh process then times ``periods.period_figures`` for the month to date of the venue
total and by table (each with the previous period), once to warm up and ``BENCH_RUNS``
times; also by player and the 12-month trend, for information. Its peak resident memory
covers every run. Targets: the summary (venue total and by table) in <= 10 s, <= 500 MB.

``BENCH_REUSE=1`` measures again on a database already filled. Runs against its own
database (``casino_bench_periods``, or ``{prefix}_bench_periods`` with
``LOADTEST_DB_PREFIX``; ``BENCH_DATABASE_URL`` names another).
"""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import time
from datetime import date
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.common import (  # noqa: E402 (after the path)
    bench_env,
    database_url,
    emitter,
    manager,
    recreate_database,
)

emit = emitter("periods")

DATABASE_URL = database_url("bench_periods")
RUNS = int(os.environ.get("BENCH_RUNS", "3"))
REUSE = os.environ.get("BENCH_REUSE", "") not in ("", "0")
VENUE = "bench"
TABLES = 40
DEALERS = 80
PLAYERS = 2000
MEMBERS_AT_A_TABLE_HOUR = 9  # and the anonymous boxes: 10 tallies per bet type
BET_TYPES = ("single", "double", "super")
FIRST, LAST = date(2026, 10, 1), date(2026, 11, 30)
DAYS = (LAST - FIRST).days + 1
TALLIES = DAYS * TABLES * 24 * (MEMBERS_AT_A_TABLE_HOUR + 1) * len(BET_TYPES)
TARGET_S = 10
TARGET_MB = 500

ENV = bench_env(DATABASE_URL)
manage = manager(ENV)


def filled() -> bool:
    """Whether a previous run left the whole fill in the database."""
    import psycopg

    try:
        with psycopg.connect(DATABASE_URL) as conn:
            row = conn.execute(
                "SELECT count(*) FROM casino_bettally t JOIN casino_venue v ON v.id = t.venue_id "
                "JOIN casino_shift s ON s.id = t.shift_id "
                "WHERE v.code = %s AND s.gaming_date BETWEEN %s AND %s",
                [VENUE, FIRST, LAST],
            ).fetchone()
    except psycopg.Error:
        return False
    return bool(row) and row[0] == TALLIES


#: Shifts of every gaming date (06:00 local the day starts), sessions of every table and
#: shift, then the tallies: every session's 8 hours x 10 players x 3 bet types (a stake
#: ``stake`` times 10 to 49, amounts rounded to ``digits``; ``bench/group_periods.py``
#: fills each of its venues with these too, in its currency's scale).
FILL_SQL = [
    """
    INSERT INTO casino_shift (venue_id, gaming_date, name, starts_at, ends_at)
    SELECT %(venue)s, d::date, s.name,
           (d::date + time '06:00' + s.starts) AT TIME ZONE %(tz)s,
           (d::date + time '06:00' + s.starts + interval '8 hours') AT TIME ZONE %(tz)s
    FROM generate_series(%(first)s::date, %(last)s::date, interval '1 day') d
    CROSS JOIN (VALUES ('day', interval '0 hours'), ('swing', interval '8 hours'),
                       ('night', interval '16 hours')) s(name, starts)
    """,
    """
    INSERT INTO casino_tablesession (table_id, shift_id, dealer_id, status, opened_by_id,
        opening_confirmed_by_id, opened_at, opening_chips, opening_total,
        opening_discrepancy_reason, closing_counted_by_id, closed_by_id, closed_at,
        closing_chips, closing_total, next_round_number)
    SELECT t.id, s.id, dealer.id, 'closed', dealer.id, %(supervisor)s, s.starts_at,
           '{"1000000": 40}'::jsonb, 40000000, '', dealer.id, %(supervisor)s, s.ends_at,
           '{"1000000": 40}'::jsonb, 40000000, 1
    FROM casino_shift s
    CROSS JOIN casino_table t
    JOIN LATERAL (
        SELECT u.id FROM auth_user u WHERE u.username = 'bench-dealer-'
            || ((t.id + s.id * 7) %% %(dealers)s + 1)
    ) dealer ON true
    WHERE s.venue_id = %(venue)s AND t.venue_id = %(venue)s
      AND s.gaming_date BETWEEN %(first)s AND %(last)s
    """,
    """
    INSERT INTO casino_bettally (venue_id, shift_id, session_id, table_id, dealer_id, hour,
        player_id, game, ruleset_version_id, bet_type, bets, handle, stake_squared,
        player_result, commission, volume, max_net)
    SELECT %(venue)s, x.shift_id, x.session_id, x.table_id, x.dealer_id, x.hour, x.player_id,
           'niuniu', %(version)s, x.bet_type, x.bets,
           x.bets * x.stake, x.bets * x.stake * x.stake,
           round(-x.bets * x.stake * (0.025 + (x.luck - 0.5) * 0.3), %(digits)s),
           round(x.bets * x.stake * 0.45 * 0.05, %(digits)s),
           round(x.bets * x.stake * 0.45 * 1.95, %(digits)s),
           x.stake * x.multiple
    FROM (
        -- amounts drawn from a hash of the tally's key: the same on every fill
        SELECT y.*, y.base * (60 + abs(hashint8(y.key)::bigint) %% 80) / 100 AS bets,
               (10 + abs(hashint8(y.key + 5)::bigint) %% 40) * %(stake)s AS stake,
               (abs(hashint8(y.key + 7)::bigint) %% 1000) / 1000.0 AS luck
        FROM (
            SELECT s.id AS shift_id, ss.id AS session_id, ss.table_id, ss.dealer_id,
                   s.starts_at + h * interval '1 hour' AS hour,
                   CASE WHEN k = %(members)s THEN NULL ELSE %(first_player)s
                        + (ss.table_id * 37 + s.id * 11 + h * 13 + k) %% %(players)s
                   END AS player_id,
                   b.bet_type, b.multiple, b.bets AS base,
                   ss.id * 1000 + h * 100 + k * 10 + b.n AS key
            FROM casino_tablesession ss
            JOIN casino_shift s ON s.id = ss.shift_id
            CROSS JOIN generate_series(0, 7) h
            CROSS JOIN generate_series(0, %(members)s) k
            CROSS JOIN (VALUES (1, 'single', 380, 1), (2, 'double', 100, 2),
                               (3, 'super', 40, 9)) b(n, bet_type, bets, multiple)
            WHERE s.venue_id = %(venue)s AND s.gaming_date BETWEEN %(first)s AND %(last)s
        ) y
    ) x
    """,
]


def fill() -> None:
    if REUSE and filled():
        manage("migrate", "--noinput", "-v", "0")
        print(f"reusing {TALLIES:,} tallies in {DATABASE_URL}")
        return
    recreate_database(DATABASE_URL)
    manage("migrate", "--noinput", "-v", "0")
    print(f"filling {DAYS} gaming days, {TALLIES:,} tallies (INSERT ... SELECT) ...")
    start = time.perf_counter()
    # The venue, its tables, staff and ruleset, as the simulator makes them (one round).
    manage("simulate", "--venue", VENUE, "--rounds", "1", "--tables", str(TABLES))
    subprocess.run(  # noqa: S603 (this script, with Django set up)
        [sys.executable, __file__, "--fill"], env=ENV, cwd=ROOT, check=True
    )
    seconds = time.perf_counter() - start
    print(f"  filled in {seconds:.0f} s")
    emit("fill_s", round(seconds, 1), "s")


def fill_floor(venue: Any, first: date, last: date, *, stake: int, digits: int) -> list[int]:
    """A venue's members, then its shifts, sessions and tallies from ``first`` to ``last``
    (``FILL_SQL``: a stake ``stake`` times 10 to 49, amounts rounded to ``digits``), its
    dealers already made (``bench-dealer-<n>``); the rows each statement wrote. Called in a
    transaction, after ``django.setup()``."""
    from django.contrib.auth import get_user_model
    from django.db import connection

    from casino import games
    from casino.players.models import Player
    from casino.venues.models import Table

    players = Player.objects.bulk_create(
        Player(venue=venue, membership_number=f"B-{n:05d}", name=f"Member {n}")
        for n in range(1, PLAYERS + 1)
    )
    table = Table.objects.filter(venue=venue).first()
    version = (
        games.get(table.game)
        .version_model.objects.filter(ruleset_id=table.ruleset_id)
        .exclude(figures=None)
        .order_by("-number")
        .first()
    )
    params = {
        "venue": venue.pk,
        "tz": venue.timezone,
        "first": first,
        "last": last,
        "supervisor": get_user_model().objects.get(username="sim-supervisor").pk,
        "dealers": DEALERS,
        "members": MEMBERS_AT_A_TABLE_HOUR,
        "players": PLAYERS,
        "first_player": min(p.pk for p in players),
        "version": version.pk,
        "stake": stake,
        "digits": digits,
    }
    assert max(p.pk for p in players) - params["first_player"] == PLAYERS - 1
    rows = []
    with connection.cursor() as cursor:
        for statement in FILL_SQL:
            cursor.execute(statement, params)
            rows.append(cursor.rowcount)
    return rows


def fill_rows() -> None:
    import django

    os.environ.update(ENV)
    django.setup()
    from django.contrib.auth import get_user_model
    from django.db import connection, transaction

    from casino.staff.roles import DEALER, grant
    from casino.venues.models import Venue

    venue = Venue.objects.get(code=VENUE)
    User = get_user_model()
    with transaction.atomic():
        dealers = User.objects.bulk_create(
            User(username=f"bench-dealer-{n}") for n in range(1, DEALERS + 1)
        )
        for dealer in dealers:
            grant(dealer, venue, DEALER)
        for rows in fill_floor(venue, FIRST, LAST, stake=10000, digits=-3):
            print(f"  {rows:,} rows")
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")


def measure() -> None:
    """In a fresh process: the month to date, warm-up then RUNS timed runs."""
    import django

    os.environ.update(ENV)
    django.setup()
    from django.db import connection
    from django.db.models import Q

    from casino.floor.models import BetTally
    from casino.reports import periods, trends
    from casino.venues.models import Venue

    venue = Venue.objects.get(code=VENUE)
    period = periods.period_of(periods.MONTH, LAST)
    read = BetTally.objects.filter(
        Q(shift__gaming_date__range=(period.start, period.end))
        | Q(shift__gaming_date__range=(period.previous_start, period.previous_end)),
        venue=venue,
    ).count()
    print(
        f"month to date {period.start}..{period.end} beside {period.previous_start}.."
        f"{period.previous_end}: {read:,} tallies in range"
    )

    def timed(run: object) -> tuple[float, object]:
        start = time.perf_counter()
        result = run()
        return time.perf_counter() - start, result

    def summary() -> object:
        total = periods.period_figures(venue=venue, period=period, dimension="venue")
        return total, periods.period_figures(venue=venue, period=period, dimension="table")

    times = []
    for n in range(RUNS + 1):
        seconds, (total, tables) = timed(summary)
        print(f"  summary {'warm-up' if n == 0 else n}: {seconds:.2f} s")
        if n:
            times.append(seconds)
    players_s, players = timed(
        lambda: periods.period_figures(venue=venue, period=period, dimension="player")
    )
    trend_s, trend = timed(lambda: trends.trend(venue=venue, day=LAST))
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    median = statistics.median(times)
    line = total.total
    print(
        f"summary (venue total and {len(tables.lines)} tables, each beside the previous "
        f"period): {median:.2f} s median of {len(times)} (target {TARGET_S} s); by player "
        f"({len(players.lines)} lines) {players_s:.2f} s; 12-month trend {trend_s:.2f} s; "
        f"peak memory {peak_mb:.0f} MB (target {TARGET_MB} MB)"
    )
    print(
        f"  bets {line['bets']:,}, handle {line['handle']:,}, house win {line['house_win']:,} "
        f"({line['hold_pct']}%, theoretical {line['theoretical_hold_pct']}%); previous "
        f"{line['previous_house_win']:,}, change {line['house_win_change_pct']}%"
    )
    assert len(tables.lines) == TABLES and len(trend) == trends.TREND_MONTHS
    emit("tallies", TALLIES, "rows")
    emit("tallies_read", read, "rows")
    emit("summary_s", round(median, 2), "s", TARGET_S)
    emit("players_s", round(players_s, 2), "s")
    emit("trend_s", round(trend_s, 2), "s")
    emit("peak_rss_mb", round(peak_mb), "MB", TARGET_MB)
    connection.close()


def main() -> None:
    if sys.argv[1:] == ["--fill"]:
        fill_rows()
        return
    if sys.argv[1:] == ["--measure"]:
        measure()
        return
    fill()
    subprocess.run(  # noqa: S603 (this script, in a fresh process for its peak memory)
        [sys.executable, __file__, "--measure"], env=ENV, cwd=ROOT, check=True
    )


if __name__ == "__main__":
    main()
