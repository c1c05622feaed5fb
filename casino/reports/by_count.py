"""Win by count and drop of a venue's tables over gaming dates.

The count's definition (MICS; ``casino.count.selectors.win_figures`` gives one gaming
day's): a table's win for a gaming day = closer - opener + credits - fills + drop, where the
opener is the day's first session's opening count, the closer its last session's closing
count, the fills and credits the verified slips of its sessions and the drop every drop
of them (the count's and any entered at the table, reversals included). A table-day whose
last session is not closed has no closer yet, so no win: it is left out of a period's win
and counted as open (its drop still counts as drop). Win/drop % = win over drop.

These are the figures of the tables kept for their accounting only (no round is dealt on
the system, so no bet and no house win of settled bets) and of the regulators' statistical
report, which takes every table's win by count. Each figure is one function here
(``win_by_count``, ``win_drop_pct``), each the one definition of ``casino.floor.figures`` read
over table-days; a period's line sums its table-days (``summed``).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Any

from django.db.models import Q, Sum

from casino.cage.marker_selectors import session_markers
from casino.cage.models import Slip, SlipStatus
from casino.floor import figures
from casino.floor.models import TableSession
from casino.ledger.models import Drop
from casino.venues.models import Venue

ZERO = Decimal(0)


def win_by_count(
    *, opener: Decimal, closer: Decimal | None, fills: Decimal, credits: Decimal, drop: Decimal
) -> Decimal | None:
    """``casino.floor.figures.win_by_count`` of a table-day; None while the closer is not counted.

    >>> win_by_count(opener=Decimal(100), closer=Decimal(90), fills=Decimal(20),
    ...              credits=Decimal(5), drop=Decimal(50))
    Decimal('25')
    """
    if closer is None:
        return None
    return figures.win_by_count(
        opener=opener, closer=closer, fills=fills, credits=credits, drop=drop
    )


#: Win/drop %: the one definition (``casino.floor.figures``).
win_drop_pct = figures.win_drop_pct


@dataclass(frozen=True)
class TableDay:
    """One table's gaming day as the count sees it."""

    table_id: int
    table_code: str
    game: str
    pit_id: int | None
    gaming_date: date
    opener: Decimal
    closer: Decimal | None
    fills: Decimal
    credits: Decimal
    drop: Decimal

    @property
    def win(self) -> Decimal | None:
        return win_by_count(
            opener=self.opener,
            closer=self.closer,
            fills=self.fills,
            credits=self.credits,
            drop=self.drop,
        )


def _dates(ranges: Iterable[tuple[date, date]], field: str) -> Q:
    found = Q(pk__in=[])
    for start, end in ranges:
        found |= Q(**{f"{field}__range": (start, end)})
    return found


def table_days(
    *,
    venue: Venue,
    ranges: Iterable[tuple[date, date]],
    games: Collection[str] | None = None,
    table_id: int | None = None,
) -> list[TableDay]:
    """The venue's table-days in any of the ranges of gaming dates (of ``games`` only, or
    one table), in order of gaming date and table: four queries (the sessions, their slips,
    drops and markers), sums in the database."""
    ranges = list(ranges)
    sessions = TableSession.objects.filter(_dates(ranges, "shift__gaming_date"), table__venue=venue)
    if games is not None:
        sessions = sessions.filter(table__game__in=list(games))
    if table_id is not None:
        sessions = sessions.filter(table_id=table_id)
    rows = list(
        sessions.order_by("shift__gaming_date", "table__code", "opened_at", "pk").values(
            "pk",
            "table_id",
            "table__code",
            "table__game",
            "table__pit_id",
            "shift__gaming_date",
            "opening_total",
            "closing_total",
            "status",
        )
    )
    if not rows:
        return []
    ids = [row["pk"] for row in rows]
    day = ("session__table_id", "session__shift__gaming_date")
    slips = {
        (row["session__table_id"], row["session__shift__gaming_date"], row["kind"]): row["total"]
        for row in Slip.objects.filter(session_id__in=ids, status=SlipStatus.VERIFIED)
        .values(*day, "kind")
        .annotate(total=Sum("amount"))
        .order_by()
    }
    drops = {
        (row["session__table_id"], row["session__shift__gaming_date"]): row["total"]
        for row in Drop.objects.filter(session_id__in=ids)
        .values(*day)
        .annotate(total=Sum("amount"))
        .order_by()
    }
    # The markers the cage took on a table's account are its credits (docs/MARKERS.md).
    to_cage: dict[tuple[int, date], Decimal] = defaultdict(Decimal)
    day_of = {row["pk"]: (row["table_id"], row["shift__gaming_date"]) for row in rows}
    for session_id, markers in session_markers(ids).items():
        to_cage[day_of[session_id]] += markers["to_cage"]
    sessions_of: dict[tuple[int, date], list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        sessions_of[(row["table_id"], row["shift__gaming_date"])].append(row)
    days = []
    for (table, gaming_date), found in sessions_of.items():
        first, last = found[0], found[-1]
        closed = last["status"] != TableSession.Status.OPEN
        days.append(
            TableDay(
                table_id=table,
                table_code=first["table__code"],
                game=first["table__game"],
                pit_id=first["table__pit_id"],
                gaming_date=gaming_date,
                opener=first["opening_total"],
                closer=last["closing_total"] if closed else None,
                fills=slips.get((table, gaming_date, Slip.Kind.FILL)) or ZERO,
                credits=(slips.get((table, gaming_date, Slip.Kind.CREDIT)) or ZERO)
                + to_cage[(table, gaming_date)],
                drop=drops.get((table, gaming_date)) or ZERO,
            )
        )
    return days


def summed(days: Iterable[TableDay]) -> dict[str, Any]:
    """A line of table-days: their drop, win by count (of the days with a closer),
    win/drop % (over the drop of those days), and how many days are still open."""
    drop = win = closed_drop = ZERO
    open_days = 0
    for day in days:
        drop += day.drop
        if day.win is None:
            open_days += 1
        else:
            win += day.win
            closed_drop += day.drop
    return {
        "drop": drop,
        "win_by_count": win,
        "win_drop_pct": win_drop_pct(win, closed_drop),
        "open_days": open_days,
    }


def lines_by(days: Iterable[TableDay], key: Callable[[TableDay], Any]) -> dict[Any, dict[str, Any]]:
    """``summed`` per key of the table-days (a table, a game, a pit, a month...)."""
    grouped: dict[Any, list[TableDay]] = defaultdict(list)
    for day in days:
        grouped[key(day)].append(day)
    return {found: summed(group) for found, group in grouped.items()}
