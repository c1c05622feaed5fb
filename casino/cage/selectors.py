"""What the screens read of the players' cash: buy-ins and cash-outs at the tables, and the
cash transaction records (the log and the report candidates) made of them.

The rule is ``casino.cage.services.thresholds``': only the cash instrument counts; per player and
gaming day the cash in (buy-ins) and the cash out (cash-outs) are added up apart, across
all tables, voids left out. A day is judged by the thresholds in force when it ended (for
the day under way, those in force now).
"""

from __future__ import annotations

import zoneinfo
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date, time, timedelta
from decimal import Decimal
from typing import Any

from django.db.models import Max, Sum
from django.utils import timezone

from casino.cage.models import (
    CashAlert,
    CashInstrument,
    CashThresholds,
    CashTransaction,
    FrontMoney,
)
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


@dataclass
class DayTotal:
    """One player's cash of one direction on one gaming day."""

    player: Any
    gaming_date: date
    kind: str
    total: Decimal
    thresholds: CashThresholds
    transactions: list[CashTransaction] = field(default_factory=list)
    alert: CashAlert | None = None

    @property
    def kind_label(self) -> str:
        return str(CashTransaction(kind=self.kind).get_kind_display())


@dataclass
class CashReport:
    venue: Venue
    date_from: date
    date_to: date
    #: Each transaction of a player's day at or above the logging threshold.
    log: list[CashTransaction]
    #: The players' days at or above the reporting threshold.
    candidates: list[DayTotal]
    #: Days of the range judged without thresholds (none were approved yet).
    unjudged: list[date]


def cash_report(*, venue: Venue, date_from: date, date_to: date) -> CashReport:
    """The venue's cash log and report candidates of a range of gaming days."""
    rows = list(
        CashTransaction.objects.filter(
            venue=venue,
            gaming_date__gte=date_from,
            gaming_date__lte=date_to,
            instrument=CashInstrument.CASH,
            player__isnull=False,
            voided_at__isnull=True,
        )
        .select_related("player", "table", "recorded_by")
        .order_by("gaming_date", "recorded_at", "id")
    )
    groups: dict[tuple[int, date, str], list[CashTransaction]] = defaultdict(list)
    for tx in rows:
        groups[(tx.player_id, tx.gaming_date, tx.kind)].append(tx)
    days = sorted({tx.gaming_date for tx in rows})
    thresholds = _day_thresholds(venue, days)
    alerts = {
        (a.player_id, a.gaming_date, a.direction): a
        for a in CashAlert.objects.filter(
            venue=venue, gaming_date__gte=date_from, gaming_date__lte=date_to
        )
    }
    log: list[CashTransaction] = []
    candidates: list[DayTotal] = []
    unjudged: set[date] = set()
    for (player_id, day, kind), txs in groups.items():
        version = thresholds[day]
        if version is None:
            unjudged.add(day)
            continue
        total = sum((tx.amount for tx in txs), Decimal(0))
        if total < version.logging_threshold:
            continue
        running = Decimal(0)
        for tx in txs:
            running += tx.amount
            tx.day_total = running
            log.append(tx)
        if total >= version.reporting_threshold:
            candidates.append(
                DayTotal(
                    player=txs[0].player,
                    gaming_date=day,
                    kind=kind,
                    total=total,
                    thresholds=version,
                    transactions=txs,
                    alert=alerts.get((player_id, day, kind)),
                )
            )
    log.sort(key=lambda tx: (tx.gaming_date, tx.recorded_at, tx.pk))
    candidates.sort(key=lambda c: (c.gaming_date, c.player.membership_number, c.kind))
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
