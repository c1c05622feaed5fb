"""The same figures of a gaming day as every other surface shows them, beside the
reconciliation's (``casino.reports.reconciliation``), with each one that disagrees marked.

Each surface's numbers are read by calling what that surface itself calls, never worked
out again here, so a surface that came to disagree (a stale stored report, a selector
changed apart from the others) shows up on the reconciliation page:

- the count's win per table (``console:count-figures``): ``count_selectors.win_figures``;
- each session's figures with the count's drop (the console's closed-session summary,
  the API's session figures): ``casino.floor.figures.sessions_counted``;
- the shift reports of the day (their count-against-ledger lines): the figures each
  stored when it was built (``ShiftReport.figures``), as the report page shows them;
- the dashboard of the day: ``reports.selectors.dashboard``;
- the periods page, the day by table: ``reports.periods.period_figures``;
- the statistical report, its gaming day: ``reports.statistical.statistical_report``;
- the API's day figures: ``casino.reports.api.day.day_figures``.

The reference is the reconciliation's own row of each table: its win by ledger (tables
that settle rounds) and its win by count (once the table's sessions are closed).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Any

from django.urls import reverse
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from casino.count import selectors as count_selectors
from casino.floor import figures
from casino.floor.models import TableSession
from casino.reports import periods, selectors, statistical
from casino.reports.api import day as api_day
from casino.reports.models import ShiftReport
from casino.venues.models import Venue

ZERO = Decimal(0)
#: The figures compared: the reconciliation row's name of each.
FIGURES = ("win_by_ledger", "win_by_count")
#: What the dashboard and the periods show: the house win of the settled bets of a table
#: that settles rounds, the win by count of one kept for its accounting only.
LEDGER, COUNT = ("win_by_ledger",), ("win_by_count",)

#: Per table code, the figures a surface shows (a figure it does not show: absent).
Read = dict[str, dict[str, Decimal | None]]


@dataclass(frozen=True)
class Surface:
    key: str
    label: Promise
    #: Which of ``FIGURES`` it shows of a table that settles rounds, and of one kept for
    #: its accounting only.
    shows: tuple[str, ...]
    shows_accounting: tuple[str, ...]
    read: Callable[[Venue, date], Read | None]  # None: nothing to show yet
    url: Callable[[Venue, date], str]  # "": no page of its own to link


def _decimal(value: Any) -> Decimal | None:
    return None if value is None else Decimal(str(value))


def _count_page(venue: Venue, day: date) -> Read:
    return {
        row["table"].code: {"win_by_ledger": row["house_win"], "win_by_count": row["win"]}
        for row in count_selectors.win_figures(venue, day)["rows"]
    }


def _sessions(venue: Venue, day: date) -> Read:
    sessions = list(
        TableSession.objects.filter(table__venue=venue, shift__gaming_date=day)
        .select_related("table")
        .order_by("table__code", "opened_at", "pk")
    )
    counted = figures.sessions_counted(sessions)
    found: Read = {}
    for session in sessions:
        line = found.setdefault(session.table.code, {"win_by_ledger": ZERO, "win_by_count": ZERO})
        with_count = counted[session.pk]
        line["win_by_ledger"] = _plus(line["win_by_ledger"], session.win_by_ledger)
        line["win_by_count"] = _plus(
            line["win_by_count"], with_count.win_by_count if with_count else None
        )
    return found


def _plus(total: Decimal | None, value: Decimal | None) -> Decimal | None:
    return None if total is None or value is None else total + value


def _shift_reports(venue: Venue, day: date) -> Read | None:
    reports = list(
        ShiftReport.objects.filter(
            venue=venue,
            kind=ShiftReport.Kind.SHIFT,
            status=ShiftReport.Status.DONE,
            shift__gaming_date=day,
        ).order_by("shift__starts_at", "pk")
    )
    if not reports:
        return None
    found: Read = {}
    for report in reports:
        for line in (report.figures or {}).get("count", {}).get("sessions", []):
            shown = found.setdefault(line["table"], {"win_by_ledger": ZERO, "win_by_count": ZERO})
            # The count's win once the box is counted, the close's until then.
            win = line.get("win_with_count") if line.get("counted") else line.get("win_by_count")
            shown["win_by_ledger"] = _plus(shown["win_by_ledger"], _decimal(line["win_by_ledger"]))
            shown["win_by_count"] = _plus(shown["win_by_count"], _decimal(win))
    return found


def _dashboard(venue: Venue, day: date) -> Read | None:
    board = selectors.dashboard(venue=venue, date_from=day, date_to=day)
    if not board.reports:  # it sums the finished shift reports: none yet
        return None
    found: Read = {line["key"]: {"win_by_ledger": line["house_win"]} for line in board.tables}
    for line in board.accounting["tables"]:
        found.setdefault(line["key"], {})["win_by_count"] = line["win_by_count"]
    return found


def _periods(venue: Venue, day: date) -> Read:
    period = periods.period_figures(
        venue=venue, period=periods.period_of(periods.DAY, day), dimension="table"
    )
    found: Read = {line["key"]: {"win_by_ledger": line["house_win"]} for line in period.lines}
    for line in period.accounting:
        found.setdefault(line["key"], {})["win_by_count"] = line["win_by_count"]
    return found


def _statistical(venue: Venue, day: date) -> Read:
    report = statistical.statistical_report(venue=venue, day=day)
    (span,) = [span for span in report.spans if span.kind == periods.DAY]
    return {
        line["label"]: {"win_by_count": line["win_by_count"] if not line["open_days"] else None}
        for line in span.tables
    }


def _api(venue: Venue, day: date) -> Read:
    return {
        row["table"]["code"]: {
            "win_by_ledger": _decimal(row["win_by_ledger"]),
            "win_by_count": _decimal(row["win_by_count"]),
        }
        for row in api_day.day_figures(venue, day)["rows"]
    }


def _on(name: str) -> Callable[[Venue, date], str]:
    return lambda venue, day: reverse(name, args=[venue.pk, day.isoformat()])


def _reports(name: str, **query: str) -> Callable[[Venue, date], str]:
    def url(venue: Venue, day: date) -> str:
        asked = "".join(f"&{key}={value}" for key, value in query.items())
        return f"{reverse(name)}?venue={venue.code}&date={day.isoformat()}{asked}"

    return url


def _first_report(venue: Venue, day: date) -> str:
    report = (
        ShiftReport.objects.filter(venue=venue, shift__gaming_date=day)
        .order_by("shift__starts_at", "pk")
        .first()
    )
    return reverse("reports:report", args=[report.pk]) if report else ""


def _dashboard_url(venue: Venue, day: date) -> str:
    on = day.isoformat()
    return f"{reverse('reports:dashboard')}?venue={venue.code}&from={on}&to={on}"


def _no_page(venue: Venue, day: date) -> str:
    return ""


SURFACES = [
    Surface(
        "count",
        _("The count's win per table"),
        FIGURES,
        FIGURES,
        _count_page,
        _on("console:count-figures"),
    ),
    Surface(
        "sessions",
        _("Each session's figures with the count's drop (console, API)"),
        FIGURES,
        FIGURES,
        _sessions,
        _no_page,
    ),
    Surface(
        "shift_reports",
        _("The shift reports: win by count against win by ledger"),
        FIGURES,
        FIGURES,
        _shift_reports,
        _first_report,
    ),
    Surface("dashboard", _("Dashboard of the day"), LEDGER, COUNT, _dashboard, _dashboard_url),
    Surface(
        "periods",
        _("Periods: the day by table"),
        LEDGER,
        COUNT,
        _periods,
        _reports("reports:periods", kind="day", dimension="table"),
    ),
    Surface(
        "statistical",
        _("Statistical report: the gaming day"),
        COUNT,
        COUNT,
        _statistical,
        _reports("reports:statistical"),
    ),
    Surface("api", _("API: the day's figures"), FIGURES, FIGURES, _api, _on("api:day-figures")),
]


def _agrees(reference: Decimal | None, shown: Decimal | None, missing: bool) -> bool | None:
    """Whether a surface's figure is the reconciliation's (None: nothing to compare, as
    while a table is open). A table a surface leaves out agrees only with a zero."""
    if reference is None:
        return None
    if missing or shown is None:
        return reference == ZERO if missing else False
    return shown == reference


def surface_lines(found: dict[str, Any]) -> dict[str, Any]:
    """Per surface, per table of the reconciliation ``found``: each figure as the surface
    shows it, and whether it agrees; how many disagree."""
    venue, day = found["venue"], found["day"]
    lines = []
    disagreeing = 0
    for surface in SURFACES:
        read = surface.read(venue, day)
        tables = []
        for row in found["rows"]:
            shown = None if read is None else read.get(row["table"].code)
            cells = []
            for name in FIGURES:
                shows = surface.shows if row["settles"] else surface.shows_accounting
                if name not in shows or read is None:
                    cells.append({"figure": name, "shown": False})
                    continue
                reference = row["win_by_ledger"] if name == "win_by_ledger" else row["win"]
                value = None if shown is None else shown.get(name)
                missing = shown is None
                agrees = _agrees(reference, value, missing)
                disagreeing += agrees is False
                cells.append({"figure": name, "shown": True, "value": value, "agrees": agrees})
            compared = [cell["agrees"] for cell in cells if cell.get("agrees") is not None]
            tables.append(
                {
                    "table": row["table"],
                    "cells": cells,
                    "agrees": all(compared) if compared else None,
                }
            )
        lines.append(
            {
                "key": surface.key,
                "label": surface.label,
                "url": surface.url(venue, day),
                "built": read is not None,
                "tables": tables,
                "agrees": all(table["agrees"] is not False for table in tables),
            }
        )
    return {"surfaces": lines, "disagreeing": disagreeing}
