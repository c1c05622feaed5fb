"""What the floor view reads: the pits a supervisor runs and each table of a pit live.

A pit's tables cost the same few queries however many there are (``pit_floor``): the
tables with their open sessions, then one GROUP BY each for the rounds, the win by ledger,
the slips waiting for the cage and the cash that reached the reporting threshold, and one
each for the limits in force and those scheduled. Nothing here writes.

A table kept for its accounting only deals no round (its game's ``settles_rounds`` is
False): it has no win by ledger and is never idle for want of rounds; the floor shows
the drop entered at it so far instead (its win is the win by count, known at the count),
one more GROUP BY when such a table is open.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Count, Max, Q
from django.utils import timezone

from casino import games
from casino.compiled import SAMPLE_KEY, Compiled
from casino.floor import answers, figures
from casino.floor.models import Round, RoundStatus, TableSession
from casino.staff.roles import MANAGE, SUPERVISE, can, venue_ids
from casino.venues.limits import (
    TABLE_SAMPLES,
    Limit,
    limits_in_force,
    upcoming_changes,
)
from casino.venues.models import Pit, Table, TableLimitChange

IDLE, VOID_PENDING, SLIP_WAITING, OPENING_DISCREPANCY, CASH_REPORTED = (
    "idle",
    "void_pending",
    "slip_waiting",
    "opening_discrepancy",
    "cash_reported",
)


def dealer_on_duty(session: TableSession) -> AbstractBaseUser:
    """The dealer dealing at the session's table now: the one place the floor view asks."""
    return session.dealer


def runs_pit(user: Any, pit: Pit) -> bool:
    """A manager of the venue runs every pit of it; a supervisor, the pits they are named to."""
    if can(user, MANAGE, pit.venue_id):
        return True
    if not can(user, SUPERVISE, pit.venue_id):
        return False
    return pit.supervisors.filter(pk=user.pk).exists()


def pits_for(*, user: Any) -> list[Pit]:
    """The pits the user runs at their venues, with how many tables each has (one query)."""
    venues = [v for v in venue_ids(user) if can(user, SUPERVISE, v)]
    managed = [v for v in venues if can(user, MANAGE, v)]
    run = Q(venue_id__in=managed) | Q(venue_id__in=venues, supervisors=user)
    return list(
        Pit.objects.filter(run)
        .select_related("venue")
        .annotate(
            table_count=Count("tables", distinct=True),
            open_count=Count(
                "tables__sessions",
                filter=Q(tables__sessions__status=TableSession.Status.OPEN),
                distinct=True,
            ),
        )
        .order_by("venue__code", "code")
    )


def pit_for(*, user: Any, pk: int) -> Pit | None:
    """The pit at one of the user's venues (``None`` for another venue's, as for none)."""
    return Pit.objects.filter(pk=pk, venue_id__in=venue_ids(user)).select_related("venue").first()


@dataclass
class FloorTable:
    """One table as the floor view shows it."""

    table: Table
    session: TableSession | None
    dealer: Any = None
    limits: list[Limit] = field(default_factory=list)
    upcoming: list[TableLimitChange] = field(default_factory=list)
    rounds: int = 0
    win: Decimal = Decimal(0)
    last_round_at: datetime | None = None
    fills_pending: int = 0
    credits_pending: int = 0
    voids_pending: int = 0
    #: The session's buy-ins and cash-outs that reached the reporting threshold.
    cash_reported: int = 0
    alerts: list[str] = field(default_factory=list)
    #: False at a table kept for its accounting only: no rounds, no win by ledger.
    deals_rounds: bool = True
    #: The drop entered so far at an accounting-only table's open session.
    drop: Decimal = Decimal(0)

    @property
    def is_open(self) -> bool:
        return self.session is not None


@dataclass(frozen=True)
class Floor:
    pit: Pit
    tables: list[FloorTable]
    now: datetime
    idle_minutes: float
    slip_wait_minutes: float


#: A pit's tables by code, and the open sessions of up to ``TABLES_AT_ONCE`` tables with
#: their dealers: the floor view's first reads, asked every few seconds by every
#: supervisor's screen, their SQL built once (``casino.compiled``).
_TABLES_OF_PIT = Compiled(
    lambda pit: Table.objects.filter(pit_id=pit).order_by("code"), samples=(SAMPLE_KEY,)
)
_OPEN_SESSIONS_OF_TABLES = Compiled(
    lambda *tables: (
        TableSession.objects.filter(status=TableSession.Status.OPEN, table_id__in=tables)
        .select_related("dealer")
        .order_by()
    ),
    samples=TABLE_SAMPLES,
)


def pit_floor(*, pit: Pit, now: datetime | None = None) -> Floor:
    """Every table of ``pit`` live, with its alerts (``alerts_of``), in eight queries (a
    pit of more than ``TABLES_AT_ONCE`` tables reads their sessions and limits in turns)."""
    now = now or timezone.now()
    tables = _TABLES_OF_PIT(pit.pk)
    by_id = {table.pk: table for table in tables}
    sessions = {}
    for session in _OPEN_SESSIONS_OF_TABLES.in_turns((), sorted(by_id)):
        session.table = by_id[session.table_id]
        sessions[session.table_id] = session
    sums = _sums_of(tables, sessions)
    table_ids = [t.pk for t in tables]
    limits = limits_in_force(table_ids, now)
    upcoming = upcoming_changes(table_ids, now)
    idle = timedelta(minutes=settings.FLOOR_IDLE_MINUTES)
    slip_wait = timedelta(minutes=settings.FLOOR_SLIP_WAIT_MINUTES)
    shown = []
    for table in tables:
        session = sessions.get(table.pk)
        row = FloorTable(
            table=table,
            session=session,
            limits=sorted(limits.get(table.pk, {}).values(), key=lambda limit: limit.bet_type),
            upcoming=upcoming.get(table.pk, []),
        )
        if session is not None:
            _show_live(row, session, sums, now=now, idle=idle, slip_wait=slip_wait)
        shown.append(row)
    return Floor(
        pit=pit,
        tables=shown,
        now=now,
        idle_minutes=settings.FLOOR_IDLE_MINUTES,
        slip_wait_minutes=settings.FLOOR_SLIP_WAIT_MINUTES,
    )


@dataclass
class _Sums:
    """What a pit's open sessions did so far, each by session id."""

    rounds: dict[int, dict[str, Any]] = field(default_factory=dict)
    wins: dict[int, Decimal] = field(default_factory=dict)
    slips: dict[int, dict[str, Any]] = field(default_factory=dict)
    reported: dict[int, int] = field(default_factory=dict)
    #: The sessions of tables kept for their accounting only, and the drop entered at each.
    counted_only: set[int] = field(default_factory=set)
    drops: dict[int, Decimal] = field(default_factory=dict)


def _sums_of(tables: list[Table], sessions: dict[int, TableSession]) -> _Sums:
    """The open sessions' rounds, win by ledger, waiting slips, reported cash and drops: one
    GROUP BY each, none when no table is open (the drops only when a counted-only one is)."""
    sums = _Sums()
    session_ids = [s.pk for s in sessions.values()]
    if session_ids:
        sums.rounds = {
            row["session_id"]: row
            for row in Round.objects.filter(session_id__in=session_ids)
            .order_by()
            .values("session_id")
            .annotate(
                settled=Count("pk", filter=Q(status=RoundStatus.SETTLED)),
                last_at=Max("created_at"),
                voids=Count(
                    "pk",
                    filter=Q(void_requested_by__isnull=False) & ~Q(status=RoundStatus.VOIDED),
                ),
            )
        }
        sums.wins = figures.wins_by_ledger(session_ids)
        sums.slips = answers.slips_waiting_by_session(session_ids)
        sums.reported = answers.cash_reported_by_session(session_ids)
    sums.counted_only = {
        sessions[t.pk].pk for t in tables if t.pk in sessions and not _deals_rounds(t.game)
    }
    if sums.counted_only:
        sums.drops = figures.drops_by_session(sums.counted_only)
    return sums


def _show_live(
    row: FloorTable,
    session: TableSession,
    sums: _Sums,
    *,
    now: datetime,
    idle: timedelta,
    slip_wait: timedelta,
) -> None:
    """Fill an open table's row with its session's sums and the alerts they raise."""
    counted = sums.rounds.get(session.pk, {})
    waiting = sums.slips.get(session.pk, {})
    row.dealer = dealer_on_duty(session)
    row.rounds = counted.get("settled", 0)
    row.last_round_at = counted.get("last_at")
    row.voids_pending = counted.get("voids", 0)
    row.win = sums.wins.get(session.pk) or Decimal(0)
    row.fills_pending = waiting.get("fills", 0)
    row.credits_pending = waiting.get("credits", 0)
    row.cash_reported = sums.reported.get(session.pk, 0)
    row.deals_rounds = session.pk not in sums.counted_only
    row.drop = sums.drops.get(session.pk) or Decimal(0)
    row.alerts = alerts_of(
        session=session,
        cash_reported=row.cash_reported,
        last_round_at=row.last_round_at,
        voids_pending=row.voids_pending,
        oldest_slip=waiting.get("oldest"),
        now=now,
        idle=idle,
        slip_wait=slip_wait,
        deals_rounds=row.deals_rounds,
    )


def _deals_rounds(game: str) -> bool:
    try:
        return games.get(game).settles_rounds
    except LookupError:  # a game no longer installed: as it was, a dealt one
        return True


def alerts_of(
    *,
    session: TableSession,
    last_round_at: datetime | None,
    voids_pending: int,
    oldest_slip: datetime | None,
    now: datetime,
    idle: timedelta,
    slip_wait: timedelta,
    cash_reported: int = 0,
    deals_rounds: bool = True,
) -> list[str]:
    """What a supervisor should look at on an open table, most urgent first:

    - ``cash_reported``: a buy-in or cash-out reached the venue's reporting threshold
      (``casino.cage.services.thresholds.threshold_crossing``), as the dealer was told;
    - ``void_pending``: a round's void waits for a supervisor's approval;
    - ``slip_waiting``: a fill or credit has waited for the cage longer than ``slip_wait``;
    - ``opening_discrepancy``: the opener differed from the table's last closing count and
      the session is still open on it (the variance the floor can see before the close);
    - ``idle``: no round for ``idle`` (since the last round, or since opening), at a
      table that deals rounds (``deals_rounds``).
    """
    alerts = []
    if cash_reported:
        alerts.append(CASH_REPORTED)
    if voids_pending:
        alerts.append(VOID_PENDING)
    if oldest_slip is not None and now - oldest_slip >= slip_wait:
        alerts.append(SLIP_WAITING)
    if session.opening_discrepancy_total:
        alerts.append(OPENING_DISCREPANCY)
    if deals_rounds and now - (last_round_at or session.opened_at) >= idle:
        alerts.append(IDLE)
    return alerts
