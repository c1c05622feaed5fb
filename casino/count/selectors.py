"""What the count's screens read: the venues a user counts at or reads the count of, a
gaming day's drop boxes with their counts, and the win per table and gaming day.

The figures are defined once, in ``casino.floor.figures``. Win per table and gaming day =
closer - opener + credits - fills + drop (win by count), where the opener
is the first session's opening count, the closer the last session's closing count, the
fills and credits the verified slips of the day's sessions, and the drop every drop of
them: the count's (posted from each box's second count) and any the pit entered at the
table, reversals included. Handle and the house's settled win come from the tallies of
the settled rounds (casino.floor.services.tallies), as the shift report takes them; hold % is
the house's settled win over the handle (the shift report's hold), win/drop % the win
over the drop.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from typing import Any

from django.db.models import Exists, OuterRef, Sum

from casino.cage.marker_selectors import session_markers
from casino.cage.models import Slip, SlipStatus
from casino.count.models import BoxCount, CountDay, DropBox
from casino.floor import figures
from casino.floor.models import BetTally, TableSession
from casino.ledger.models import Drop
from casino.staff.policy import Capability, holders_at
from casino.staff.roles import COUNT_FIGURES, COUNT_TEAM, can, venue_ids
from casino.venues.models import Venue

_ZERO = Decimal(0)


def box_counted() -> Exists:
    """Whether the session (``OuterRef("pk")``) has its drop box counted: what the floor's
    figures ask (``casino.floor.answers``), registered when the count is ready."""
    return Exists(
        DropBox.objects.filter(box_sessions__session=OuterRef("pk"), status=DropBox.Status.COUNTED)
    )


def count_venues(user: Any) -> list[dict[str, Any]]:
    """The venues where ``user`` counts or reads the count's figures, with what they may do."""
    rows = []
    for venue in Venue.objects.filter(pk__in=venue_ids(user)).order_by("code"):
        counts = can(user, COUNT_TEAM, venue.pk)
        if counts or can(user, COUNT_FIGURES, venue.pk):
            rows.append({"venue": venue, "counts": counts})
    return rows


def venue_for(*, user: Any, pk: int) -> Venue | None:
    """The venue ``pk`` if the user works there, else None (another venue is not found)."""
    if pk not in venue_ids(user):
        return None
    return Venue.objects.filter(pk=pk).first()


def recent_gaming_dates(venue: Venue, limit: int = 7) -> list[date]:
    """The gaming dates of the venue's latest drop boxes, latest first."""
    return list(
        DropBox.objects.filter(venue=venue)
        .order_by("-gaming_date")
        .values_list("gaming_date", flat=True)
        .distinct()[:limit]
    )


@dataclass
class BoxLine:
    box: DropBox
    sessions: list[TableSession]
    first: BoxCount | None = None
    second: BoxCount | None = None
    counter_ids: set[int] = field(default_factory=set)
    #: For the user reading the day (``casino.count.views``): why they may not count the
    #: box ("" if they may), and whether they may count it now.
    refusal: str = ""
    may_count: bool = False

    @property
    def ready(self) -> bool:
        """Every session of the box is closed (the box may be counted)."""
        return all(s.status != TableSession.Status.OPEN for s in self.sessions)


def count_day(venue: Venue, gaming_date: date) -> dict[str, Any]:
    """The day's count (None until its first count), its boxes with their sessions and
    counts, and whether every box is counted."""
    boxes = list(
        DropBox.objects.filter(venue=venue, gaming_date=gaming_date)
        .select_related("table")
        .order_by("table__code", "number")
    )
    lines = {box.pk: BoxLine(box=box, sessions=[]) for box in boxes}
    for session in (
        TableSession.objects.filter(drop_box_link__box__in=boxes)
        .select_related("dealer", "opened_by", "closed_by", "drop_box_link")
        .order_by("opened_at", "pk")
    ):
        lines[session.drop_box_link.box_id].sessions.append(session)
    for count in BoxCount.objects.filter(box__in=boxes).select_related("counted_by"):
        line = lines[count.box_id]
        setattr(line, "first" if count.ordinal == 1 else "second", count)
    day = CountDay.objects.filter(venue=venue, gaming_date=gaming_date).first()
    return {
        "day": day,
        "closed": day is not None and day.status == CountDay.Status.CLOSED,
        "boxes": list(lines.values()),
        "all_counted": bool(boxes) and all(b.status == DropBox.Status.COUNTED for b in boxes),
    }


def close_help(venue: Venue, gaming_date: date) -> dict[str, Any]:
    """Who to ask about the day's close: the tables still open (each with its dealer) and
    those who close a table (``Capability.SUPERVISE_TABLES``); the boxes a closed count left
    uncounted and those who reopen it (``casino.count.duties.count_reopen_refusal``)."""
    open_sessions = list(
        TableSession.objects.filter(
            table__venue=venue, shift__gaming_date=gaming_date, status=TableSession.Status.OPEN
        )
        .select_related("table", "dealer")
        .order_by("table__code", "pk")
    )
    return {
        "open_sessions": open_sessions,
        "table_closers": holders_at(venue.pk, Capability.SUPERVISE_TABLES),
        "reopeners": count_reopeners(venue),
        "left_out": uncounted_boxes(venue, gaming_date),
    }


def count_reopeners(venue: Venue) -> list[str]:
    """Who reopens the venue's closed count (``casino.count.duties.count_reopen_refusal``)."""
    return holders_at(venue.pk, Capability.MANAGE_VENUE)


def uncounted_boxes(venue: Venue, gaming_date: date) -> list[str]:
    """The labels of the day's boxes not counted (once its count is closed: left out)."""
    return [
        box.label
        for box in DropBox.objects.filter(venue=venue, gaming_date=gaming_date)
        .exclude(status=DropBox.Status.COUNTED)
        .select_related("table")
        .order_by("table__code", "number")
    ]


def box_for(*, venue: Venue, gaming_date: date, pk: int) -> DropBox | None:
    return (
        DropBox.objects.filter(venue=venue, gaming_date=gaming_date, pk=pk)
        .select_related("table", "venue")
        .first()
    )


def _slip_totals(sessions: list[TableSession]) -> dict[tuple[int, str], Decimal]:
    """(table, fill or credit) -> its verified slips' total, the credits with the markers
    the cage took on the table's account (``casino.cage.marker_selectors.session_markers``,
    docs/MARKERS.md)."""
    ids = [s.pk for s in sessions]
    totals: dict[tuple[int, str], Decimal] = defaultdict(Decimal)
    for row in (
        Slip.objects.filter(session_id__in=ids, status=SlipStatus.VERIFIED)
        .values("session__table_id", "kind")
        .annotate(total=Sum("amount"))
        .order_by()
    ):
        totals[(row["session__table_id"], row["kind"])] += row["total"]
    table_of = {s.pk: s.table_id for s in sessions}
    for session_id, markers in session_markers(ids).items():
        totals[(table_of[session_id], Slip.Kind.CREDIT)] += markers["to_cage"]
    return totals


def win_figures(venue: Venue, gaming_date: date) -> dict[str, Any]:
    """Opener, closer, fills, credits, drop, win, handle, hold % and win/drop % per table
    for the venue's gaming day, and the venue's totals (sums in the database)."""
    sessions = list(
        TableSession.objects.filter(table__venue=venue, shift__gaming_date=gaming_date)
        .select_related("table")
        .order_by("table__code", "opened_at", "pk")
    )
    by_table: dict[int, list[TableSession]] = defaultdict(list)
    for session in sessions:
        by_table[session.table_id].append(session)
    ids = [s.pk for s in sessions]
    slips = _slip_totals(sessions)
    drops = dict(
        Drop.objects.filter(session_id__in=ids)
        .values_list("session__table_id")
        .annotate(total=Sum("amount"))
        .order_by()
    )
    counted = dict(
        Drop.objects.filter(session_id__in=ids, drop_box__isnull=False)
        .values_list("session__table_id")
        .annotate(total=Sum("amount"))
        .order_by()
    )
    tallies = {
        row["session__table_id"]: row
        for row in BetTally.objects.filter(session_id__in=ids)
        .values("session__table_id")
        .annotate(handle=Sum("handle"), player_result=Sum("player_result"))
        .order_by()
    }
    rows = []
    summed = ("opener", "fills", "credits", "drop", "counted_drop", "handle", "house_win")
    totals = dict.fromkeys((*summed, "closer", "win"), _ZERO)  # a day with no table: zeros
    complete = True
    for table_sessions in by_table.values():
        table = table_sessions[0].table
        first, last = table_sessions[0], table_sessions[-1]
        opener = first.opening_total
        closer = last.closing_total
        fills = slips.get((table.pk, Slip.Kind.FILL), _ZERO)
        credits = slips.get((table.pk, Slip.Kind.CREDIT), _ZERO)
        drop = drops.get(table.pk) or _ZERO
        tally = tallies.get(table.pk, {})
        handle = tally.get("handle") or _ZERO
        house_win = figures.house_win(tally.get("player_result"))
        win = (
            None
            if closer is None
            else figures.win_by_count(
                opener=opener, closer=closer, fills=fills, credits=credits, drop=drop
            )
        )
        complete = complete and win is not None
        row = {
            "table": table,
            "sessions": len(table_sessions),
            "opener": opener,
            "closer": closer,
            "fills": fills,
            "credits": credits,
            "drop": drop,
            "counted_drop": counted.get(table.pk) or _ZERO,
            "win": win,
            "handle": handle,
            "house_win": house_win,
            "hold_pct": figures.hold_pct(house_win, handle),
            "win_drop_pct": figures.win_drop_pct(win, drop),
        }
        rows.append(row)
        for name in summed:
            totals[name] += row[name]
        if closer is not None:
            totals["closer"] += closer
            totals["win"] += win
    total = {
        **totals,
        "win": totals["win"] if complete and rows else None,
        "closer": totals["closer"] if complete and rows else None,
    }
    total["hold_pct"] = figures.hold_pct(total["house_win"], total["handle"])
    total["win_drop_pct"] = figures.win_drop_pct(total["win"], total["drop"])
    return {"rows": rows, "total": total}
