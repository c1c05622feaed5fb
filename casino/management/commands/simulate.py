"""Fill a shift with simulated rounds of a game, for load tests and reports.

Two ways to write the rounds, the same rows either way:

- ``--via services``: each round is dealt and settled through ``round_create_written`` and
  ``round_settle_written``, the settle handed what the deal answered (now and then voided
  through ``round_void``), exactly as the console does; a few hundred rounds a second.
  Rounds carry the time they were played.
- ``--via bulk`` (PostgreSQL): ``casino.simulation.bulk``: the same engine settles each
  round through the game's adapter and the same adapter turns the result into ledger
  lines, written with COPY a batch of whole rounds per statement, the entries checked to
  balance before they are sent. Rounds are spread over the shift's hours. Only the audit
  trail of each round is left out; voids, sessions, fills and closing go through the
  services as usual.

The game (``--game``, the first installed by default) deals the rounds and gives the
preset the venue's ruleset is copied from and its tables' limits (its ``GameDemo``).

``--via auto`` (the default) uses the services up to 5,000 rounds and bulk above that
on PostgreSQL. Tables are opened with a fill and closed with a count that matches the
ledger, so the shift reconciles (unless ``--short`` leaves a variance on the first table).
"""

from __future__ import annotations

import time
from datetime import timedelta
from decimal import Decimal
from typing import Any
from zoneinfo import ZoneInfo

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import connection, transaction
from django.utils import timezone

from casino import games
from casino.cage.services.slips import (
    slip_confirm_dealer,
    slip_confirm_supervisor,
    slip_issue,
    slip_request,
)
from casino.floor.models import TableSession
from casino.floor.services.closing import session_close, session_figures
from casino.floor.services.sessions import session_open
from casino.games import GameAdapter
from casino.kernel.progress import command_progress
from casino.players.models import Player
from casino.rulesets.models import Ruleset
from casino.simulation import chips_for, play
from casino.simulation.bulk import BulkWriter, analyze
from casino.staff.roles import AUDITOR, CAGE, DEALER, MANAGER, SUPERVISOR, grant
from casino.venues.models import Shift, Table, TableLimit, Venue
from casino.venues.services.gaming_days import gaming_date_of

D = Decimal
SERVICES_UP_TO = 5_000
BATCH_ROUNDS = 2_000
DENOMINATIONS = ["5000000", "1000000", "500000", "100000", "50000", "10000", "5000", "1000"]
OPENING = {"5000000": 40, "1000000": 40, "500000": 40, "100000": 40}
FILL = {"1000000": 20}
PLAYERS = 40
#: Why a table reopens with OPENING when its last count left another tray.
SIMULATED_OPENING = "a simulated opening: the tray is made up to the same opener each run"


class Command(BaseCommand):
    help = "Fill a shift with simulated rounds of a game (through the services, or in bulk)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--rounds", type=int, default=1000, help="rounds in the shift")
        parser.add_argument("--tables", type=int, default=4, help="tables sharing the rounds")
        parser.add_argument("--venue", default="sim", help="venue code (created if missing)")
        parser.add_argument(
            "--game", default="", help="the game's code (default: the first installed game)"
        )
        parser.add_argument("--via", choices=["auto", "services", "bulk"], default="auto")
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--void-rate", type=float, default=0.01)
        parser.add_argument("--hours", type=float, default=8, help="length of the shift")
        parser.add_argument("--shift", default="", help="shift name (default: sim HH:MM)")
        parser.add_argument("--batch", type=int, default=BATCH_ROUNDS, help="rounds per COPY")
        parser.add_argument(
            "--short", default="0", help="leave the first table's closing count short by this"
        )
        parser.add_argument(
            "--report", action="store_true", help="build the shift's report when done"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        rounds: int = options["rounds"]
        via: str = options["via"]
        if rounds < 1 or options["tables"] < 1:
            raise CommandError("--rounds and --tables must be at least 1")
        if via == "auto":
            bulk_possible = connection.vendor == "postgresql"
            via = "bulk" if rounds > SERVICES_UP_TO and bulk_possible else "services"
        if via == "bulk" and connection.vendor != "postgresql":
            raise CommandError("--via bulk writes with COPY and needs PostgreSQL")
        try:
            game = games.get(options["game"]) if options["game"] else games.all_games()[0]
        except LookupError as error:
            raise CommandError(str(error)) from None
        if not game.settles_rounds:
            raise CommandError(f"{game.code} deals no rounds on the system: nothing to simulate")
        started = time.perf_counter()
        floor = _floor(options["venue"], options["tables"], game)
        shift = _shift(floor.venue, options["shift"], options["hours"], ended=via == "bulk")
        sessions = _open_sessions(floor, shift)
        per_table = _split(rounds, len(sessions))
        voided = 0
        progress = command_progress(
            self, rounds, verbosity=options["verbosity"], label="simulate", unit="rounds"
        )
        for index, (session, count) in enumerate(zip(sessions, per_table, strict=True)):
            seed = options["seed"] * 1000 + index
            if via == "services":
                voided += play(
                    session=session,
                    rounds=count,
                    dealer=floor.dealer,
                    supervisor=floor.supervisor,
                    seed=seed,
                    void_rate=options["void_rate"],
                    progress=progress.advance,
                )
            else:
                writer = BulkWriter(
                    session,
                    shift,
                    dealer=floor.dealer,
                    supervisor=floor.supervisor,
                    batch=options["batch"],
                )
                voided += writer.write(
                    count, seed=seed, void_rate=options["void_rate"], progress=progress.advance
                )
            self.stdout.write(f"  {session.table.code}: {count} rounds")
        progress.finish()
        if via == "bulk":
            # Fresh statistics, so the report's queries are planned for the rows just added.
            analyze()
        short = D(options["short"])
        for index, session in enumerate(sessions):
            figures = session_figures(session)
            tray = session.opening_total + figures["fills"] + figures["win_by_ledger"]
            if tray <= short:  # the players won the tray: a fill before the count
                millions = int((short - tray) // D("1000000")) + 10
                _fill(session, floor, {"1000000": millions})
                tray += millions * D("1000000")
            if index == 0:
                tray -= short
            session_close(
                session=session,
                counted_by=floor.dealer,
                confirmed_by=floor.supervisor,
                closing_chips=chips_for(tray, DENOMINATIONS),
                variance_reason="a simulated count (the first table is short on purpose)",
            )
        seconds = time.perf_counter() - started
        self.stdout.write(
            self.style.SUCCESS(
                f"shift {shift.pk} ({shift}): {rounds} rounds via {via} at {len(sessions)} "
                f"tables, {voided} voided, in {seconds:.1f} s"
            )
        )
        if options["report"]:
            from casino.reports.services import report_build, report_request

            report = report_request(shift_id=shift.pk, send=False)
            report = report_build(report_id=report.pk, email=False)
            self.stdout.write(
                f"report {report.pk}: {report.status} in {report.build_seconds:.1f} s"
            )


class _Floor:
    def __init__(self, venue: Venue, tables: list[Table], users: dict[str, Any]) -> None:
        self.venue = venue
        self.tables = tables
        self.dealer = users["sim-dealer"]
        self.supervisor = users["sim-supervisor"]
        self.pitboss = users["sim-pitboss"]
        self.cashier = users["sim-cashier"]


@transaction.atomic
def _floor(code: str, tables: int, game: GameAdapter) -> _Floor:
    """The venue, its staff, the game's ruleset and tables, and players (created once, then
    reused). The first installed game's tables are S1, S2, ...; another's are named after it."""
    venue, _created = Venue.objects.get_or_create(
        code=code,
        defaults={
            "name": f"Simulated venue {code}",
            "currency": "VND",
            "rounding_unit": D("1000"),
            "timezone": "Asia/Ho_Chi_Minh",
            "language": "en",
        },
    )
    users = {}
    for username, role in [
        ("sim-dealer", DEALER),
        ("sim-supervisor", SUPERVISOR),
        ("sim-pitboss", SUPERVISOR),
        ("sim-cashier", CAGE),
        ("sim-manager", MANAGER),
        ("sim-ruleset-editor", MANAGER),
        ("sim-auditor", AUDITOR),
    ]:
        user, _created = get_user_model().objects.get_or_create(
            username=username, defaults={"email": f"{username}@example.com"}
        )
        grant(user, venue, role)
        users[username] = user
    ruleset = Ruleset.objects.filter(venue=venue, game=game.code).first()
    if ruleset is None:
        ruleset = game.demo.ruleset_from_preset(
            venue=venue,
            preset_code=game.demo.simulation_preset,
            editor=users["sim-ruleset-editor"],
            approver=users["sim-manager"],
        ).ruleset
    prefix = "S" if game is games.all_games()[0] else f"S-{game.code}-"
    made = []
    for number in range(1, tables + 1):
        table, created = Table.objects.get_or_create(
            venue=venue,
            code=f"{prefix}{number}",
            defaults={
                "game": game.code,
                "ruleset": ruleset,
                "seats": 5,
                "chip_denominations": DENOMINATIONS,
            },
        )
        if created:
            TableLimit.objects.bulk_create(
                TableLimit(table=table, bet_type=b, min_stake=D(lo), max_stake=D(hi))
                for b, (lo, hi) in game.demo.simulation_limits.items()
            )
        made.append(table)
    if not Player.objects.filter(venue=venue).exists():
        Player.objects.bulk_create(
            Player(venue=venue, membership_number=f"SIM-{n:04d}", name=f"Player {n}")
            for n in range(1, PLAYERS + 1)
        )
    return _Floor(venue, made, users)


def _shift(venue: Venue, name: str, hours: float, *, ended: bool) -> Shift:
    """A new shift: one that ended just now (bulk rounds fill its hours), or one starting now."""
    now = timezone.now().replace(second=0, microsecond=0)
    length = timedelta(hours=hours)
    starts = now - length if ended else now
    local = starts.astimezone(ZoneInfo(venue.timezone))
    gaming_date = gaming_date_of(venue, starts)  # under the venue's own gaming day start
    taken = Shift.objects.filter(venue=venue, gaming_date=gaming_date)
    if name and taken.filter(name=name).exists():
        raise CommandError(f"{venue.code} already has a shift '{name}' on {gaming_date}")
    if not name:
        name = f"sim {local:%H:%M}"
        if taken.filter(name__startswith=name).exists():
            name = f"{name} #{taken.filter(name__startswith=name).count() + 1}"
    return Shift.objects.create(
        venue=venue, gaming_date=gaming_date, name=name, starts_at=starts, ends_at=starts + length
    )


def _open_sessions(floor: _Floor, shift: Shift) -> list[TableSession]:
    sessions = []
    for table in floor.tables:
        open_session = TableSession.objects.filter(table=table, status="open").first()
        if open_session is not None:
            raise CommandError(f"table {table} is open (session {open_session.pk}); close it")
        session = session_open(
            table=table,
            counted_by=floor.dealer,
            confirmed_by=floor.supervisor,
            opening_chips=OPENING,
            discrepancy_reason=SIMULATED_OPENING,
            shift=shift,
        )
        _fill(session, floor, FILL)
        sessions.append(session)
    return sessions


def _fill(session: TableSession, floor: _Floor, chips: dict[str, int]) -> None:
    """A fill slip requested at the table, issued by the cage's cashier, and signed for at
    the table by its dealer and a supervisor, which posts it (the services')."""
    slip = slip_request(session=session, user=floor.supervisor, kind="fill", chips=chips)
    slip = slip_issue(slip=slip, user=floor.cashier, runner="sim runner")
    slip = slip_confirm_dealer(slip=slip, user=floor.dealer)
    slip_confirm_supervisor(slip=slip, user=floor.supervisor)


def _split(total: int, parts: int) -> list[int]:
    return [total // parts + (1 if n < total % parts else 0) for n in range(parts)]
