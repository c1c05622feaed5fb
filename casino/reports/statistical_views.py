"""The regulators' statistical report (``casino.reports.statistical``): the page, and the
same figures as CSV and XLSX (``casino.exports``) and PDF (WeasyPrint, as the shift
report's). Read by the venue's supervisors, managers and auditors, in the venue's language
unless the reader picked one."""

from __future__ import annotations

from datetime import date
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_GET

from casino import export_views, exports
from casino.exports import Column, Export, Kind, Sheet
from casino.floor.console.readers import date_asked, venue_asked
from casino.kernel.timezones import venue_zone
from casino.reports.period_views import period_text
from casino.reports.statistical import StatisticalReport, statistical_report
from casino.staff.policy import Capability, declare
from casino.venues.models import Venue
from casino.venues.services.gaming_days import gaming_date_of

#: The figures of each line: (key, header, how it is written).
COLUMNS = [
    ("drop", _("Drop"), "money"),
    ("win_by_count", _("Win by count"), "money"),
    ("win_drop_pct", _("Win/drop %"), "pct"),
    ("last_drop", _("Drop, same period last year"), "money"),
    ("last_win_by_count", _("Win by count, same period last year"), "money"),
    ("last_win_drop_pct", _("Win/drop %, same period last year"), "pct"),
]
KINDS = {"money": Kind.MONEY, "pct": Kind.PERCENT}
DEFINITION = _(
    # xgettext:no-python-format ("% is" reads as a format, but nothing is formatted in)
    "Win is the win by count, as the regulators define it: closer − opener + credits − "
    "fills + drop, per table and gaming day; win/drop % is that win over the drop. It is "
    "not the house win of settled bets. A table-day still open has no win yet and is left "
    "out of the win."
)
FILES = exports.REPORT_FILES


def _asked(request: HttpRequest) -> tuple[list[Venue], Venue, date, list[str]]:
    venues, venue = venue_asked(request)
    today = gaming_date_of(venue, timezone.now())
    errors: list[str] = []
    day = date_asked(request, "date", today, errors)
    return venues, venue, day, errors


def _shown(report: StatisticalReport) -> list[dict[str, Any]]:
    """Each span's lines as people read them (the venue's money and grouping)."""
    venue = report.venue

    def cells(line: dict[str, Any]) -> list[str]:
        return [period_text(key, how, line.get(key), venue) for key, _h, how in COLUMNS]

    return [
        {
            "kind": span.kind,
            "label": span.label,
            "start": span.start,
            "end": span.end,
            "last_start": span.last_start,
            "last_end": span.last_end,
            "tables": [{**line, "cells": cells(line)} for line in span.tables],
            "games": [{**line, "cells": cells(line)} for line in span.games],
            "total": cells(span.total),
            "open_days": span.total["open_days"],
        }
        for span in report.spans
    ]


def _context(report: StatisticalReport) -> dict[str, Any]:
    return {
        "venue": report.venue,
        "day": report.day,
        "spans": _shown(report),
        "headers": [header for _k, header, _how in COLUMNS],
        "definition": DEFINITION,
    }


@declare(Capability.READ_REPORTS)
@login_required
@require_GET
def statistical_page(request: HttpRequest) -> HttpResponse:
    """The statistical report of a venue's gaming date (``?date=``, by default today's)."""
    venues, venue, day, errors = _asked(request)
    report = statistical_report(venue=venue, day=day)
    query = f"?venue={venue.code}&date={day.isoformat()}"
    context = {
        **_context(report),
        "venues": venues,
        "errors": errors,
        "files": {
            name: reverse("reports:statistical_file", args=[name]) + query for name in sorted(FILES)
        },
    }
    return render(request, "reports/statistical.html", context)


def export_of(report: StatisticalReport) -> Export:
    """The report as typed rows: a sheet per span, lines per table, per game, the total."""
    venue = report.venue
    columns = [
        Column(_("Line")),
        Column(_("Table or game")),
        Column(_("Game")),
        *(Column(header, KINDS[how]) for _k, header, how in COLUMNS),
    ]

    def row(kind: Any, line: dict[str, Any]) -> list[Any]:
        return [kind, line["label"], line["game"], *(line.get(key) for key, _h, _w in COLUMNS)]

    sheets = [
        Sheet(
            span.label,
            columns,
            [
                *(row(_("Table"), line) for line in span.tables),
                *(row(_("Game"), line) for line in span.games),
                row(_("Total"), {**span.total, "label": venue.name}),
            ],
        )
        for span in report.spans
    ]
    heading = [
        [_("Statistical report"), venue.name],
        [_("Gaming date"), report.day],
        [_("Currency"), venue.currency],
        *(
            [
                span.label,
                span.start,
                span.end,
                _("Same period last year"),
                span.last_start,
                span.last_end,
            ]
            for span in report.spans
        ),
        [_("Note"), DEFINITION],
    ]
    return Export(currency=venue.currency, zone=venue_zone(venue), heading=heading, sheets=sheets)


def render_pdf(report: StatisticalReport) -> bytes:
    """The report as a PDF (WeasyPrint) in the active language."""
    return exports.pdf_bytes("reports/statistical_pdf.html", _context(report))


@declare(Capability.READ_REPORTS)
@login_required
@require_GET
@export_views.export_view
def statistical_file(request: HttpRequest, name: str) -> HttpResponse:
    """The statistical report as ``csv``, ``xlsx`` or ``pdf``."""
    if name not in FILES:
        raise Http404("no such file")
    _venues, venue, day, _errors = _asked(request)
    language = export_views.file_language(request, venue.language)
    report = statistical_report(venue=venue, day=day)
    filename = f"{venue.code}-statistical-{day.isoformat()}.{name}"
    return exports.report_file(
        name, filename, report, export=export_of, pdf=render_pdf, language=language
    )
