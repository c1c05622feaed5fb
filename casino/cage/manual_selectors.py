"""The manual series and their papers as the screens, the API and the count read them
(``casino.cage.manual``; the writes are ``casino.cage.services.manual``).

- ``series_gaps``: a series' gaps, the numbers below the highest used (entered or spoiled)
  that are neither; ``day_gaps``: those of every series of the tables that had a session
  on a gaming day, which the count's close refuses on (``casino.count.services``).
- ``late_entries``: the papers entered for a gaming day's sessions, flagged late (who, when,
  the paper's number and time), with their slip or round.
- ``paper_reconciliation``: each of the day's sessions that took late entries, its figures
  with them (win by ledger, fills and credits, their late part) beside the count's
  (``casino.floor.figures``: win by count with the counted drop, and the variance): the
  paper agrees with the count when the variance is 0.

A ``*_for`` returns ``None`` for a series at another venue as for one that does not exist.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from typing import Any

from django.db.models import Q, QuerySet

from casino.cage.manual import ManualPaper, ManualSeries, PaperStatus
from casino.cage.models import Slip
from casino.floor import figures
from casino.floor.models import TableSession
from casino.staff.roles import venue_ids
from casino.venues.models import Venue

ZERO = Decimal(0)


def numbers_written(numbers: Iterable[int]) -> str:
    """Numbers as a person reads them, runs joined: ``3, 5–7, 9``.

    >>> numbers_written([9, 3, 5, 6, 7])
    '3, 5–7, 9'
    """
    runs: list[list[int]] = []
    for number in sorted(set(numbers)):
        if runs and number == runs[-1][1] + 1:
            runs[-1][1] = number
        else:
            runs.append([number, number])
    return ", ".join(str(a) if a == b else f"{a}–{b}" for a, b in runs)


@dataclass(frozen=True)
class SeriesLine:
    """A series with what is used of it: entered, spoiled, the highest used, its gaps."""

    series: ManualSeries
    entered: int
    spoiled: int
    highest: int | None
    gaps: list[int] = field(default_factory=list)

    @property
    def gaps_written(self) -> str:
        return numbers_written(self.gaps)

    @property
    def next_number(self) -> int | None:
        """The number the table writes next (None once the series is used up)."""
        following = (self.highest or self.series.first - 1) + 1
        return following if following <= self.series.last else None


def _lines(series: list[ManualSeries]) -> list[SeriesLine]:
    """Each series with its papers' numbers read in one query."""
    used: dict[int, dict[int, str]] = defaultdict(dict)
    for series_id, number, status in ManualPaper.objects.filter(
        series__in=[s.pk for s in series]
    ).values_list("series_id", "number", "status"):
        used[series_id][number] = status
    lines = []
    for item in series:
        numbers = used[item.pk]
        highest = max(numbers) if numbers else None
        gaps = [n for n in range(item.first, highest or item.first) if n not in numbers]
        statuses = list(numbers.values())
        lines.append(
            SeriesLine(
                series=item,
                entered=statuses.count(PaperStatus.ENTERED),
                spoiled=statuses.count(PaperStatus.SPOILED),
                highest=highest,
                gaps=gaps,
            )
        )
    return lines


def series_line(series: ManualSeries) -> SeriesLine:
    """One series with its use."""
    return _lines([series])[0]


def series_gaps(series: ManualSeries) -> list[int]:
    """The numbers of ``series`` below the highest used that are neither entered nor spoiled."""
    return _lines([series])[0].gaps


def series_lines(*, venue: Venue, table_id: int | None = None) -> list[SeriesLine]:
    """The venue's series (of one table when ``table_id`` is given), with their use."""
    series = ManualSeries.objects.filter(venue=venue).select_related("table", "issued_by")
    if table_id is not None:
        series = series.filter(table_id=table_id)
    return _lines(list(series))


def series_for(*, user: Any, pk: int) -> ManualSeries | None:
    """The series ``pk`` if it is at one of the user's venues."""
    return (
        ManualSeries.objects.select_related("venue", "table", "issued_by")
        .filter(pk=pk, venue_id__in=venue_ids(user))
        .first()
    )


def _day_sessions(venue: Venue, gaming_date: date) -> QuerySet[TableSession]:
    return TableSession.objects.filter(table__venue=venue, shift__gaming_date=gaming_date)


def day_gaps(*, venue: Venue, gaming_date: date) -> list[SeriesLine]:
    """The series of the tables that had a session on ``gaming_date`` with a gap."""
    tables = _day_sessions(venue, gaming_date).values("table_id")
    series = ManualSeries.objects.filter(venue=venue, table_id__in=tables).select_related("table")
    return [line for line in _lines(list(series.order_by("table__code", "prefix"))) if line.gaps]


def _day_papers(venue: Venue, gaming_date: date) -> QuerySet[ManualPaper]:
    sessions = _day_sessions(venue, gaming_date).values("pk")
    return (
        ManualPaper.objects.filter(series__venue=venue, status=PaperStatus.ENTERED)
        .filter(Q(slip__session__in=sessions) | Q(round__session__in=sessions))
        .select_related(
            "series__table",
            "recorded_by",
            "slip__session",
            "slip__issued_by",
            "slip__dealer_confirmed_by",
            "slip__supervisor_confirmed_by",
            "round__session",
        )
        .order_by("series__table__code", "written_at", "pk")
    )


def late_entries(*, venue: Venue, gaming_date: date) -> list[ManualPaper]:
    """The papers entered late for the sessions of ``gaming_date``, by table and time written."""
    return list(_day_papers(venue, gaming_date))


def spoiled_papers(*, venue: Venue, table_ids: Iterable[int]) -> list[ManualPaper]:
    """The spoiled papers of the series of ``table_ids``, with their reasons."""
    return list(
        ManualPaper.objects.filter(
            series__venue=venue, series__table_id__in=list(table_ids), status=PaperStatus.SPOILED
        )
        .select_related("series__table", "recorded_by")
        .order_by("series__table__code", "series__prefix", "number")
    )


@dataclass(frozen=True)
class PaperLine:
    """A session's figures with its late entries, beside the count's."""

    session: TableSession
    late_rounds: int
    late_house: Decimal
    late_fills: Decimal
    late_credits: Decimal
    win_by_ledger: Decimal
    counted: figures.Counted | None

    @property
    def agrees(self) -> bool:
        """The paper agrees with the count: the box counted and no variance left."""
        return self.counted is not None and self.counted.counted and self.counted.variance == 0


def paper_reconciliation(*, venue: Venue, gaming_date: date) -> list[PaperLine]:
    """Each session of ``gaming_date`` that took late entries, with its figures and the
    count's (``casino.floor.figures``: win by count with the counted drop, the variance)."""
    late: dict[int, dict[str, Any]] = defaultdict(
        lambda: {"rounds": 0, "house": ZERO, "fill": ZERO, "credit": ZERO}
    )
    for paper in _day_papers(venue, gaming_date):
        if paper.round is not None:
            sums = late[paper.round.session_id]
            sums["rounds"] += 1
            sums["house"] += paper.round.house_net or ZERO
        elif paper.slip is not None:
            kind = "fill" if paper.slip.kind == Slip.Kind.FILL else "credit"
            late[paper.slip.session_id][kind] += paper.slip.amount
    sessions = list(
        TableSession.objects.filter(pk__in=list(late))
        .select_related("table")
        .order_by("table__code", "opened_at")
    )
    counted = figures.sessions_counted(sessions)
    won = figures.wins_by_ledger([s.pk for s in sessions])
    return [
        PaperLine(
            session=session,
            late_rounds=late[session.pk]["rounds"],
            late_house=late[session.pk]["house"],
            late_fills=late[session.pk]["fill"],
            late_credits=late[session.pk]["credit"],
            win_by_ledger=won.get(session.pk, ZERO),
            counted=counted[session.pk],
        )
        for session in sessions
    ]
