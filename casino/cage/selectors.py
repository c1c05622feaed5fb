"""What the screens read of the players' cash: buy-ins and cash-outs at the tables, and the
cash transaction records (the log and the report candidates) made of the multiple
transaction log (``casino.cage.cash_log``).

The rule is ``casino.cage.services.thresholds``': what the venue's law counts (cash, and
Macau's chips and credit); per person (a member or an unknown patron) and gaming day the
cash in and the cash out are added up apart from every row of the log, at the tables and
the cage, voids left out and reversals netted. A day is judged by the thresholds in force
when it ended (for the day under way, those in force now).
"""

from __future__ import annotations

import zoneinfo
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date, time, timedelta
from decimal import Decimal
from typing import Any

from django.db.models import F, Max, Sum
from django.utils import timezone

from casino.cage.cash_log import CashMovement, cash_log, log_total, person_name
from casino.cage.models import (
    CashAlert,
    CashThresholds,
    CashTransaction,
    FrontMoney,
    UnknownPatron,
)
from casino.cage.patrons import CashDirection
from casino.players.models import Player
from casino.venues.models import Venue
from casino.venues.plans import parse_time
from casino.venues.services.gaming_days import local_instant

#: The most gaming days one report covers.
MAX_REPORT_DAYS = 92
#: The most transactions a player's page or a session's list shows.
LIST_LIMIT = 200


def player_cash(*, player: Any) -> list[CashTransaction]:
    """The player's buy-ins and cash-outs, newest first."""
    return list(
        CashTransaction.objects.filter(player=player)
        .select_related("table", "venue", "recorded_by", "voided_by")
        .order_by("-recorded_at", "-id")[:LIST_LIMIT]
    )


def session_cash(*, session: Any) -> list[CashTransaction]:
    """The session's buy-ins and cash-outs, newest first."""
    return list(
        CashTransaction.objects.filter(session=session)
        .select_related("player", "unknown_patron", "recorded_by", "voided_by")
        .order_by("-recorded_at", "-id")[:LIST_LIMIT]
    )


def session_crossings(*, session: Any) -> list[CashTransaction]:
    """The session's transactions that reached a threshold when they were recorded (voids
    left out), newest first: what the pit watching the table is shown."""
    return list(
        CashTransaction.objects.filter(session=session, voided_at__isnull=True)
        .exclude(threshold="")
        .select_related("player")
        .order_by("-recorded_at", "-id")[:LIST_LIMIT]
    )


def session_transaction_for(*, session: Any, pk: int) -> CashTransaction | None:
    return CashTransaction.objects.filter(session=session, pk=pk).first()


def recent_alerts(*, venue: Venue, days: int = 7) -> list[CashAlert]:
    """The venue's cash alerts of the last ``days`` gaming days, newest first."""
    since = timezone.now() - timedelta(days=days)
    return list(
        CashAlert.objects.filter(venue=venue, raised_at__gte=since)
        .select_related("player", "unknown_patron", "transaction__table")
        .order_by("-raised_at", "-id")[:50]
    )


def threshold_versions(*, venue: Venue) -> list[CashThresholds]:
    return list(
        CashThresholds.objects.filter(venue=venue)
        .select_related("proposed_by", "approved_by")
        .order_by("-proposed_at", "-id")[:20]
    )


def _day_thresholds(venue: Venue, days: list[date]) -> dict[date, CashThresholds | None]:
    """The thresholds in force when each gaming day ended (now, for one not ended)."""
    versions = list(
        CashThresholds.objects.filter(venue=venue, status=CashThresholds.Status.APPROVED).order_by(
            "approved_at", "id"
        )
    )
    zone = zoneinfo.ZoneInfo(venue.timezone)
    starts = parse_time(venue.gaming_day_starts) or time(6, 0)
    now = timezone.now()
    found: dict[date, CashThresholds | None] = {}
    for day in days:
        until = min(local_instant(day + timedelta(days=1), starts, zone), now)
        found[day] = next((v for v in reversed(versions) if v.approved_at <= until), None)
    return found


@dataclass(frozen=True)
class LogLine:
    """A row of the cash log (``casino.cage.cash_log``) in a person's day of one direction
    at or above the logging threshold, with the person's day's total with it."""

    row: CashMovement
    day_total: Decimal


@dataclass
class DayTotal:
    """One person's cash of one direction on one gaming day (``log_total`` of their rows)."""

    #: Their label in the log (``CashMovement.person``): a membership number or an unknown
    #: patron's identifier.
    person: str
    player: Player | None
    unknown_patron: UnknownPatron | None
    gaming_date: date
    kind: str  # CashDirection
    total: Decimal
    thresholds: CashThresholds
    rows: list[CashMovement] = field(default_factory=list)
    alert: CashAlert | None = None

    @property
    def kind_label(self) -> str:
        return str(CashDirection(self.kind).label)

    @property
    def name(self) -> str:
        """The member's name, or the unknown patron's description."""
        return person_name(self.rows[0]) if self.rows else ""


@dataclass
class CashReport:
    venue: Venue
    date_from: date
    date_to: date
    #: Each counted row of a person's day of a direction at or above the logging threshold.
    log: list[LogLine]
    #: The people's days at or above the reporting threshold.
    candidates: list[DayTotal]
    #: Days of the range judged without thresholds (none were approved yet).
    unjudged: list[date]


def _alert_person(alert: CashAlert) -> str:
    """Whose day the alert is of, as the log names the person: an unknown patron linked to
    a member since is that member (``CashMovement.person``)."""
    if alert.player is not None:
        return alert.player.membership_number
    patron = alert.unknown_patron
    if patron is None:
        return ""
    return patron.member.membership_number if patron.member is not None else patron.code


def cash_report(*, venue: Venue, date_from: date, date_to: date) -> CashReport:
    """The venue's cash log and report candidates of a range of gaming days: the rows of
    the multiple transaction log (``cash_log``, every source, members and unknown patrons,
    what the venue's law counts), each person's day and direction added up as the log
    page's totals and ``day_total`` add them (``log_total``)."""
    rows = [r for r in cash_log(gaming_date=date_from, date_to=date_to, venue=venue) if r.counts]
    groups: dict[tuple[date, str, str], list[CashMovement]] = defaultdict(list)
    for row in rows:
        if row.person:
            groups[(row.gaming_date, row.person, row.direction)].append(row)
    thresholds = _day_thresholds(venue, sorted({day for day, _p, _d in groups}))
    # a member's own alert before one raised for a patron later linked to them
    alerts = {
        (a.gaming_date, _alert_person(a), a.direction): a
        for a in CashAlert.objects.filter(
            venue=venue, gaming_date__gte=date_from, gaming_date__lte=date_to
        )
        .select_related("player", "unknown_patron__member")
        .order_by(F("unknown_patron_id").asc(nulls_last=True), "id")
    }
    log: list[LogLine] = []
    candidates: list[DayTotal] = []
    unjudged: set[date] = set()
    for (day, person, direction), found in groups.items():
        version = thresholds[day]
        if version is None:
            unjudged.add(day)
            continue
        total = log_total(found, direction)
        if total < version.logging_threshold:
            continue
        running = Decimal(0)
        for row in found:
            running += row.amount
            log.append(LogLine(row, running))
        if total >= version.reporting_threshold:
            first = found[0]
            candidates.append(
                DayTotal(
                    person=person,
                    player=first.player,
                    unknown_patron=first.unknown_patron if first.player is None else None,
                    gaming_date=day,
                    kind=direction,
                    total=total,
                    thresholds=version,
                    rows=found,
                    alert=alerts.get((day, person, direction)),
                )
            )
    log.sort(key=lambda line: (line.row.gaming_date, line.row.at, line.row.source_id))
    candidates.sort(key=lambda c: (c.gaming_date, c.person, c.kind))
    return CashReport(
        venue=venue,
        date_from=date_from,
        date_to=date_to,
        log=log,
        candidates=candidates,
        unjudged=sorted(unjudged),
    )


def front_money_balance(player: Any) -> Decimal:
    """The player's front money: the sum of their movements (the one place it is added up;
    a deposit adds, a draw or a return takes away, a reversal undoes what it names)."""
    total = FrontMoney.objects.filter(player=player).aggregate(total=Sum("amount"))["total"]
    return total if total is not None else Decimal(0)


def front_money_movements(player: Any) -> list[Any]:
    """The player's front money movements, newest first."""
    return list(
        FrontMoney.objects.filter(player=player)
        .select_related("venue", "session__table", "recorded_by", "reverses")
        .order_by("-recorded_at", "-id")[:LIST_LIMIT]
    )


@dataclass(frozen=True)
class FrontMoneyLine:
    """A member's front money at a venue: their balance and when it last moved."""

    player: Any
    balance: Decimal
    last_movement: Any


def front_money_balances(*, venue: Venue) -> list[FrontMoneyLine]:
    """Every member of the venue holding front money (a balance above 0), by membership
    number, with their balances' total the sum of the lines (``front_money_balance`` per
    player, added up in one query)."""
    rows = (
        FrontMoney.objects.filter(venue=venue)
        .values("player")
        .annotate(balance=Sum("amount"), last=Max("recorded_at"))
        .filter(balance__gt=0)
    )
    sums = {row["player"]: (row["balance"], row["last"]) for row in rows}
    players = Player.objects.filter(pk__in=sums).order_by("membership_number")
    return [FrontMoneyLine(p, sums[p.pk][0], sums[p.pk][1]) for p in players]


def front_money_held(lines: list[FrontMoneyLine]) -> Decimal:
    """What the venue holds for its members: the sum of their balances (the total every
    surface of the balances shows)."""
    return sum((line.balance for line in lines), Decimal(0))
