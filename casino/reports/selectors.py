"""What the report pages read: reports a user may see and the dashboard's sums.

Who reads them, and a page's venue and dates, is ``casino.floor.console.readers``.
"""

from __future__ import annotations

import zoneinfo
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from django.db.models import Count, F, IntegerField, Max, Prefetch, Sum
from django.db.models.fields.json import KT
from django.db.models.functions import Cast

from casino.floor import figures
from casino.floor.kinds import accounting_games, fee_games
from casino.floor.lines import figure_line
from casino.reports import by_count
from casino.reports.models import ShiftReport, ShiftReportCell
from casino.reports.sections import cell_sums, fee_sums, player_actual_win
from casino.staff.roles import MANAGE, can
from casino.venues.models import Shift, Venue

TOP_PLAYERS = 10


def can_rebuild(*, user: Any, venue_id: int) -> bool:
    return can(user, MANAGE, venue_id)


def report_get(*, pk: int) -> ShiftReport | None:
    """A report with its shift and venue (the caller checks access with its venue)."""
    return (
        ShiftReport.objects.select_related("shift", "venue", "requested_by").filter(pk=pk).first()
    )


def report_files(report: ShiftReport) -> dict[str, dict[str, Any]]:
    """The report's files without their content: name -> size, content type."""
    return {
        name: {"size": size, "content_type": content_type}
        for name, size, content_type in report.files.values_list("name", "size", "content_type")
    }


def report_file_content(*, report: ShiftReport, name: str) -> tuple[str, bytes] | None:
    stored = report.files.filter(name=name).values_list("content_type", "content").first()
    return (stored[0], bytes(stored[1])) if stored else None


@dataclass(frozen=True)
class ShiftLine:
    """A shift as the dashboard lists it: its shift report (or None) and its hours on the
    venue's clocks (the shift counts its sessions as ``tables``)."""

    shift: Shift
    report: ShiftReport | None
    local_start: datetime
    local_end: datetime


def shifts_with_reports(*, venue: Venue, date_from: date, date_to: date) -> list[ShiftLine]:
    """The venue's shifts in the date range, newest first, each with its report (or None)
    and its hours in the venue's time zone."""
    shifts = list(
        Shift.objects.filter(venue=venue, gaming_date__range=(date_from, date_to))
        .annotate(tables=Count("sessions"))
        .prefetch_related(
            Prefetch(
                "reports",
                queryset=ShiftReport.objects.filter(kind=ShiftReport.Kind.SHIFT).defer("figures"),
                to_attr="shift_reports",
            )
        )
        .order_by("-starts_at")
    )
    tz = zoneinfo.ZoneInfo(venue.timezone)
    return [
        ShiftLine(
            shift=shift,
            report=shift.shift_reports[0] if shift.shift_reports else None,
            local_start=shift.starts_at.astimezone(tz),
            local_end=shift.ends_at.astimezone(tz),
        )
        for shift in shifts
    ]


@dataclass(frozen=True)
class Dashboard:
    venue: Venue
    date_from: date
    date_to: date
    reports: int
    total: dict[str, Any]
    days: list[dict[str, Any]]
    tables: list[dict[str, Any]]
    players: list[dict[str, Any]]
    #: The tables kept for their accounting only (no bets, so in none of the figures
    #: above): their drop and win by count over the range, per table and in total
    #: (``accounting_tables``).
    accounting: dict[str, Any]
    #: When the range's last finished report finished: with ``reports``, what the range's
    #: figures were summed from (a cached chart of the range is good while both hold).
    finished: datetime | None = None

    @property
    def version(self) -> str:
        """Changes whenever a report of the range finishes, is rebuilt or leaves it."""
        return f"{self.reports}:{self.finished.timestamp() if self.finished else 0}"


def dashboard(*, venue: Venue, date_from: date, date_to: date) -> Dashboard:
    """The venue's figures over a date range, summed by the database from the cells of
    the finished shift reports in it (a shift without a finished report counts in none).

    Tables are flagged by the fluctuation test over the whole range: the house win
    outside theoretical +- 1.96 SD, the SD from the summed variance of every bet.
    """
    reports = ShiftReport.objects.filter(
        venue=venue,
        kind=ShiftReport.Kind.SHIFT,
        status=ShiftReport.Status.DONE,
        shift__gaming_date__range=(date_from, date_to),
    )
    cells = ShiftReportCell.objects.filter(report__in=reports)
    rounds = Sum(Cast(KT("figures__total__rounds"), output_field=IntegerField()))
    rounds_by_date = dict(
        reports.values_list("shift__gaming_date").annotate(rounds=rounds).order_by()
    )
    days = [
        {
            "key": row["gaming_date"].isoformat(),
            "label": f"{row['gaming_date']:%d %b}",
            **figure_line(row, rounds=rounds_by_date.get(row["gaming_date"]) or 0),
        }
        for row in cells.values("gaming_date").annotate(**cell_sums()).order_by("gaming_date")
    ]
    tables = [
        {"key": row["table__code"], "label": row["table__code"], **figure_line(row)}
        for row in cells.values("table_id", "table__code")
        .annotate(**cell_sums())
        .order_by("table__code")
    ]
    tables.sort(key=lambda line: (not line["flagged"], line["key"]))
    players = [
        {
            "key": row["player__membership_number"],
            "label": row["player__name"],
            **figure_line(row),
            "actual_win": player_actual_win(row),
        }
        for row in cells.filter(player__isnull=False)
        .values("player_id", "player__membership_number", "player__name")
        .annotate(**cell_sums(), **fee_sums(fee_games()))
        .order_by(
            F("t_theoretical_win").desc(nulls_last=True),
            "-t_handle",
            "player__membership_number",
        )[:TOP_PLAYERS]
    ]
    for line in players:
        line["average_bet"] = figures.average_bet(line["handle"], line["bets"])
    summary = reports.aggregate(count=Count("pk"), rounds=rounds, finished=Max("finished_at"))
    total = figure_line(cells.aggregate(**cell_sums()), rounds=summary["rounds"] or 0)
    return Dashboard(
        venue=venue,
        date_from=date_from,
        date_to=date_to,
        reports=summary["count"],
        finished=summary["finished"],
        total=total,
        days=days,
        tables=tables,
        players=players,
        accounting=accounting_tables(venue=venue, date_from=date_from, date_to=date_to),
    )


def accounting_tables(*, venue: Venue, date_from: date, date_to: date) -> dict[str, Any]:
    """The drop, win by count and win/drop % of the venue's tables kept for their
    accounting only over the gaming dates, per table and in total, read from the count
    (``casino.reports.by_count``), not from the shift reports: they have no bets."""
    days = by_count.table_days(venue=venue, ranges=[(date_from, date_to)], games=accounting_games())
    lines = by_count.lines_by(days, lambda day: day.table_code)
    return {
        "total": by_count.summed(days),
        "tables": [{"key": code, "label": code, **lines[code]} for code in sorted(lines)],
    }
