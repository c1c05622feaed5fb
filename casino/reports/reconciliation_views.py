"""The reconciliation of a gaming day (``casino.reports.reconciliation``): per table the
win by ledger and the win by count side by side, what explains their difference, and the
same figures as every other surface shows them (``reconciliation_surfaces``); the same as
CSV and XLSX (``casino.exports``) and PDF (WeasyPrint, as the statistical report's).
Read by those who read the venue's reports (supervisors, managers and auditors), in the
venue's language unless the reader picked one."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_GET

from casino import export_views, exports
from casino.reports.reconciliation import SHOWN, reconciliation
from casino.reports.reconciliation_export import export_of
from casino.reports.reconciliation_surfaces import surface_lines
from casino.reports.statistical_views import _asked
from casino.staff.policy import Capability, declare

FILES = exports.REPORT_FILES


def _context(found: dict[str, Any]) -> dict[str, Any]:
    return {**found, "definitions": SHOWN, **surface_lines(found)}


@declare(Capability.READ_REPORTS)
@login_required
@require_GET
def reconciliation_page(request: HttpRequest) -> HttpResponse:
    """The reconciliation of a venue's gaming date (``?date=``, by default today's)."""
    venues, venue, day, errors = _asked(request)
    query = f"?venue={venue.code}&date={day.isoformat()}"
    context = {
        **_context(reconciliation(venue, day)),
        "venues": venues,
        "errors": errors,
        "files": {
            name: reverse("reports:reconciliation_file", args=[name]) + query
            for name in sorted(FILES)
        },
    }
    return render(request, "reports/reconciliation.html", context)


def render_pdf(found: dict[str, Any]) -> bytes:
    """The reconciliation as a PDF (WeasyPrint) in the active language."""
    return exports.pdf_bytes("reports/reconciliation_pdf.html", _context(found))


@declare(Capability.READ_REPORTS)
@login_required
@require_GET
@export_views.export_view
def reconciliation_file(request: HttpRequest, name: str) -> HttpResponse:
    """The reconciliation as ``csv``, ``xlsx`` or ``pdf``."""
    if name not in FILES:
        raise Http404("no such file")
    _venues, venue, day, _errors = _asked(request)
    language = export_views.file_language(request, venue.language)
    found = reconciliation(venue, day)
    filename = f"{venue.code}-reconciliation-{day.isoformat()}.{name}"
    return exports.report_file(
        name, filename, found, export=export_of, pdf=render_pdf, language=language
    )
