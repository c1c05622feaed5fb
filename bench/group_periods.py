"""The group's month to date over 10 venues on PostgreSQL: seconds and peak memory.

The fill stands for an operating group reporting in USD with 10 venues (4 in Vietnam in
VND, 3 in Korea in KRW, 3 in Macau in MOP: three time zones), each like ``bench/periods.py``'s:
40 Niu Niu tables dealing 1,000,000 rounds a gaming day, three 8-hour shifts a day, each
table a session per shift, and a tally per table session x hour x player (9 of 2,000
members and the anonymous boxes) x bet type: 28,800 tallies a venue and gaming day, their
bets and amounts drawn from a hash of their key (stakes in each currency's own scale).
It covers the month to date of 30 November 2026 (1-30 November; the group's page shows no
previous period): 10 x 30 x 28,800 = 8,640,000 tallies. The group database receives every
site's rows by replication; here one database holds all ten venues' rows. Venues, tables,
dealers, players, shifts and sessions are real rows (the tallies' keys); the tallies are
written by one ``INSERT ... SELECT generate_series`` a venue. The group, its venues and
roles, and an approved rate per currency and gaming date (proposed by one group manager,
approved by another) are made by the group's services, as the demo makes them.

A fresh process then times ``consolidation.consolidated`` for the month to date by venue,
once to warm up and ``BENCH_RUNS`` times; by country and by game once each, and the group
page's CSV (its view, ``casino.group.views.dashboard_csv``), for information; then by venue
again until the connection has read it 12 times (a web worker's connection lives on, its
statements prepared: ``casino.kernel.plans``), the 12th timed. Its peak resident memory
covers every run. Targets: by venue in <= 5 s, <= 500 MB.

``BENCH_BASELINE`` names another copy of the project (``git archive <commit> | tar -x -C
/tmp/old``): the same measuring process runs with that copy's code (this script, its
``casino``) on the same database, in turns with this checkout's, so old and new are timed
side by side (``BENCH_TURNS`` turns, default 1; the baseline without the 12th reading);
figures of the baseline are named ``old_``. ``BENCH_REUSE=1`` measures again
on a database already filled. Runs against its own database (``casino_bench_group_periods``,
or ``{prefix}_bench_group_periods`` with ``LOADTEST_DB_PREFIX``; ``BENCH_DATABASE_URL``
names another).
"""

from __future__ import annotations

import io
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from datetime import date, timedelta
from decimal import Decimal
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: The code measured: this checkout, or the baseline's copy (``BENCH_CODE``, set by ``main``).
CODE = Path(os.environ.get("BENCH_CODE") or ROOT)
sys.path.insert(0, str(ROOT))
if CODE != ROOT:
    sys.path.insert(0, str(CODE))

from bench.common import (  # noqa: E402 (after the path)
    bench_env,
    database_url,
    emitter,
    recreate_database,
)
from bench.periods import (  # noqa: E402 (each venue is filled as the venue's own bench)
    BET_TYPES,
    DEALERS,
    MEMBERS_AT_A_TABLE_HOUR,
    TABLES,
    fill_floor,
)

emit = emitter("group_periods")

DATABASE_URL = database_url("bench_group_periods")
RUNS = int(os.environ.get("BENCH_RUNS", "3"))
REUSE = os.environ.get("BENCH_REUSE", "") not in ("", "0")
BASELINE = os.environ.get("BENCH_BASELINE", "")
GROUP = "bench-group"
#: code, currency, time zone, country, rounding unit, a stake's unit, amounts rounded to 10^-n
VENUES = [
    (f"g{n:02d}", currency, zone, country, unit, stake, digits)
    for n, (currency, zone, country, unit, stake, digits) in enumerate(
        [("VND", "Asia/Ho_Chi_Minh", "VN", "1000", 10000, -3)] * 4
        + [("KRW", "Asia/Seoul", "KR", "100", 1000, -2)] * 3
        + [("MOP", "Asia/Macau", "MO", "1", 10, 0)] * 3,
        start=1,
    )
]
#: One unit of each currency in USD, moved a little each gaming day (a rate a day).
RATES = {
    "VND": (Decimal("0.0000393"), "Vietcombank 16:00 fixing"),
    "KRW": (Decimal("0.00072"), "Bank of Korea reference rate"),
    "MOP": (Decimal("0.1238"), "BNU fixing"),
}
FIRST, LAST = date(2026, 11, 1), date(2026, 11, 30)
DAYS = (LAST - FIRST).days + 1
TALLIES = len(VENUES) * DAYS * TABLES * 24 * (MEMBERS_AT_A_TABLE_HOUR + 1) * len(BET_TYPES)
TARGET_S = 5
TARGET_MB = 500

ENV = bench_env(DATABASE_URL)


def filled() -> bool:
    """Whether a previous run left the whole fill in the database."""
    import psycopg

    try:
        with psycopg.connect(DATABASE_URL) as conn:
            row = conn.execute(
                "SELECT count(*) FROM casino_bettally t JOIN casino_venue v ON v.id = t.venue_id "
                "JOIN casino_shift s ON s.id = t.shift_id "
                "WHERE v.code LIKE 'g__' AND s.gaming_date BETWEEN %s AND %s",
                [FIRST, LAST],
            ).fetchone()
            rates = conn.execute(
                "SELECT count(*) FROM group_exchangerate WHERE status = 'approved'"
            ).fetchone()
    except psycopg.Error:
        return False
    return bool(row) and row[0] == TALLIES and bool(rates) and rates[0] == DAYS * len(RATES)


def run(*args: str, root: Path = ROOT) -> str:
    """This script (with this checkout's code or the baseline's) in a fresh process: what
    it printed; its errors passed on, a failure ending the run."""
    done = subprocess.run(  # noqa: S603 (this script, with Django set up)
        [sys.executable, str(Path(__file__).resolve()), *args],
        env={**ENV, "BENCH_CODE": str(root), "BENCH_LATER": "" if root != ROOT else "1"},
        cwd=root,
        capture_output=True,
        text=True,
    )
    sys.stderr.write(done.stderr)
    if done.returncode:
        sys.exit(f"{' '.join(args)} with the code of {root} failed:\n{done.stdout}")
    return done.stdout


def fill() -> None:
    if REUSE and filled():
        subprocess.run(  # noqa: S603 (our own manage.py)
            [sys.executable, str(ROOT / "manage.py"), "migrate", "--noinput", "-v", "0"],
            env=ENV,
            cwd=ROOT,
            check=True,
        )
        print(f"reusing {TALLIES:,} tallies in {DATABASE_URL}")
        return
    recreate_database(DATABASE_URL)
    print(f"filling {len(VENUES)} venues x {DAYS} gaming days, {TALLIES:,} tallies ...")
    start = time.perf_counter()
    subprocess.run(  # noqa: S603 (this script, with Django set up)
        [sys.executable, __file__, "--fill"], env=ENV, cwd=ROOT, check=True
    )
    seconds = time.perf_counter() - start
    print(f"  filled in {seconds:.0f} s")
    emit("fill_s", round(seconds, 1), "s")


def fill_rows() -> None:
    """Migrate; the venues and their floors (``manage.py simulate``: one round), the group,
    its roles and rates (its services), then the tallies in SQL."""
    import django

    os.environ.update(ENV)
    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connection, transaction

    from casino.group.services import (
        group_create,
        group_role_grant,
        group_venue_add,
        rate_approve,
        rate_propose,
    )
    from casino.staff.roles import DEALER, GROUP_MANAGER, grant
    from casino.venues.models import Venue

    call_command("migrate", verbosity=0)
    User = get_user_model()
    dealers = User.objects.bulk_create(
        User(username=f"bench-dealer-{n}") for n in range(1, DEALERS + 1)
    )
    group = group_create(
        user=None,
        code=GROUP,
        name="Bench group",
        reporting_currency="USD",
        timezone_name="Asia/Macau",
    )
    managers = []
    for username in ("bench-group-manager", "bench-group-approver"):
        manager = User.objects.create(username=username)
        group_role_grant(user=None, group=group, member=manager, role=GROUP_MANAGER)
        managers.append(manager)
    for code, currency, zone, country, unit, stake, digits in VENUES:
        started = time.perf_counter()
        venue = Venue.objects.create(
            code=code,
            name=f"Bench venue {code} ({country})",
            currency=currency,
            rounding_unit=Decimal(unit),
            timezone=zone,
        )
        call_command(
            "simulate", venue=code, rounds=1, tables=TABLES, via="services", stdout=io.StringIO()
        )
        group_venue_add(user=None, group=group, venue=venue, country=country)
        with transaction.atomic():
            for dealer in dealers:
                grant(dealer, venue, DEALER)
            rows = [f"{n:,}" for n in fill_floor(venue, FIRST, LAST, stake=stake, digits=digits)]
        print(
            f"  {code} ({currency}, {zone}): {' / '.join(rows)} shifts / sessions / tallies "
            f"in {time.perf_counter() - started:.0f} s",
            flush=True,
        )
    for n in range(DAYS):
        day = FIRST + timedelta(days=n)
        for currency, (rate, source) in RATES.items():
            moved = (rate * (1 + Decimal(n % 7 - 3) / 1000)).quantize(Decimal("1E-12"))
            proposed = rate_propose(
                group=group,
                user=managers[0],
                day=day,
                from_currency=currency,
                rate=moved,
                source=source,
            )
            rate_approve(rate=proposed, user=managers[1])
    print(f"  {DAYS * len(RATES)} rates proposed and approved")
    with connection.cursor() as cursor:
        # The steady state of a table only added to: autovacuum has been by.
        cursor.execute("VACUUM (ANALYZE) casino_bettally")
        cursor.execute("ANALYZE")


def measure() -> None:
    """In a fresh process: the month to date by venue, warm-up then RUNS timed runs; by
    country, by game and the CSV once each."""
    os.environ.update(ENV)
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.test import RequestFactory

    from casino.group import views
    from casino.group.consolidation import consolidated
    from casino.group.models import OperatingGroup
    from casino.reports import periods

    group = OperatingGroup.objects.get(code=GROUP)
    period = periods.period_of(periods.MONTH, LAST)

    def timed(call: object) -> tuple[float, object]:
        start = time.perf_counter()
        result = call()
        return time.perf_counter() - start, result

    times = []
    for n in range(RUNS + 1):
        seconds, figures = timed(
            lambda: consolidated(group=group, period=period, dimension="venue")
        )
        print(f"  by venue {'warm-up' if n == 0 else n}: {seconds:.2f} s", file=sys.stderr)
        if n:
            times.append(seconds)
    country_s, by_country = timed(
        lambda: consolidated(group=group, period=period, dimension="country")
    )
    game_s, by_game = timed(lambda: consolidated(group=group, period=period, dimension="game"))
    # The page's CSV: its view, past the login and second-factor gates (those are not timed).
    request = RequestFactory().get(
        "/group/csv/", {"group": GROUP, "kind": "mtd", "date": LAST.isoformat(), "lang": "venue"}
    )
    request.user = get_user_model().objects.get(username="bench-group-manager")
    csv_s, response = timed(lambda: views.dashboard_csv(request))
    assert response.status_code == 200, response.status_code
    later = []
    if os.environ.get("BENCH_LATER"):
        # A web worker's connection lives on (CONN_MAX_AGE): the 12th reading on it, once its
        # statements are prepared and PostgreSQL may have taken a generic plan
        # (casino.kernel.plans).
        for _n in range(RUNS + 4, 12):
            later.append(timed(lambda: consolidated(group=group, period=period))[0])
            print(f"  by venue later: {later[-1]:.2f} s", file=sys.stderr)
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    assert len(figures.lines) == len(VENUES) and not figures.missing, figures.missing
    assert len(by_country.lines) == len(VENUES) and len(by_game.lines) == len(VENUES)
    emit("tallies", TALLIES, "rows")
    emit("by_venue_s", round(statistics.median(times), 2), "s", TARGET_S)
    emit("by_country_s", round(country_s, 2), "s")
    emit("by_game_s", round(game_s, 2), "s")
    emit("csv_s", round(csv_s, 2), "s")
    emit("csv_bytes", len(response.content), "B")
    if later:
        emit("by_venue_12th_s", round(later[-1], 2), "s", TARGET_S)
    emit("peak_rss_mb", round(peak_mb), "MB", TARGET_MB)
    total = figures.total
    print(
        json.dumps(
            {
                "total": {name: str(value) for name, value in total.items()},
                "rates": len(figures.rates),
            }
        )
    )
    connection.close()


def main() -> None:
    if sys.argv[1:] == ["--fill"]:
        fill_rows()
        return
    if sys.argv[1:] == ["--measure"]:
        measure()
        return
    fill()
    sides = [("", ROOT)]
    if BASELINE:
        sides.insert(0, ("old_", Path(BASELINE).resolve()))
    taken: dict[str, dict[str, list[float]]] = {name: {} for name, _root in sides}
    totals: dict[str, set[str]] = {name: set() for name, _root in sides}
    turns = int(os.environ.get("BENCH_TURNS", "1"))
    for number in range(turns):  # in turns: a load on the machine weighs on every side
        for name, root in sides:
            for line in run("--measure", root=root).splitlines():
                record = json.loads(line) if line.startswith("{") else None
                if record is None:
                    print(line)
                elif "total" in record:
                    totals[name].add(json.dumps(record, sort_keys=True))
                else:
                    taken[name].setdefault(record["figure"], []).append(record["value"])
        if BASELINE:
            print(f"  turn {number + 1} of {turns} done")
    for name, _root in sides:
        figures = taken[name]
        (total,) = totals[name]  # every run gives the same figures
        print(f"{name or 'new_'}figures: {total}")
        for figure, values in figures.items():
            value = statistics.median(values) if figure.endswith("_s") else max(values)
            target = {
                "by_venue_s": TARGET_S,
                "by_venue_12th_s": TARGET_S,
                "peak_rss_mb": TARGET_MB,
            }.get(figure)
            unit = {"tallies": "rows", "csv_bytes": "B", "peak_rss_mb": "MB"}.get(figure, "s")
            emit(f"{name}{figure}", value, unit, target)
    if BASELINE:
        assert len(set.union(*totals.values())) == 1, "the old and new figures differ"


if __name__ == "__main__":
    main()
