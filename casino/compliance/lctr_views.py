"""The large-cash-transaction report: its page (the venue's gaming days asked, the lines
they hold, the files offered) and its files, CSV and XML in the neutral layout of
docs/compliance/LCTR-layout.md. The venue's compliance staff's only (like the cases:
``casino.compliance.views``); every file built is audited (``compliance.lctr.build``)."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from casino.compliance import lctr, selectors
from casino.compliance.services import lctr_built
from casino.compliance.views import compliance_venue
from casino.export_views import export_view, file_language
from casino.exports import csv_response, download
from casino.floor.console.access import console_login_required
from casino.kernel.timezones import venue_today
from casino.staff.policy import Capability, declare
from casino.venues.models import Venue


def asked_days(request: HttpRequest, venue: Venue) -> tuple[date, date, str]:
    """The gaming days ``?from=`` to ``?to=`` (each a date; by default the venue's
    yesterday to today), and what is wrong with them ("" when nothing)."""
    today = venue_today(venue)
    try:
        date_from = date.fromisoformat(request.GET.get("from") or str(today - timedelta(days=1)))
        date_to = date.fromisoformat(request.GET.get("to") or str(today))
    except ValueError:
        return today, today, _("Give the gaming days as dates, e.g. 2026-12-01.")
    if date_to < date_from:
        return date_from, date_from, _("The last gaming day is before the first.")
    if (date_to - date_from).days >= selectors.MAX_LCTR_DAYS:
        return (
            date_from,
            date_from,
            _("One file covers at most %(days)s gaming days.") % {"days": selectors.MAX_LCTR_DAYS},
        )
    return date_from, date_to, ""


@declare(Capability.COMPLIANCE)
@require_GET
@console_login_required
def lctr_page(request: HttpRequest, venue_id: int) -> HttpResponse:
    """The report's lines of the days asked, with links to its files."""
    venue = compliance_venue(request, venue_id)
    if isinstance(venue, HttpResponse):
        return venue
    date_from, date_to, problem = asked_days(request, venue)
    lines = (
        [] if problem else selectors.lctr_lines(venue=venue, date_from=date_from, date_to=date_to)
    )
    context: dict[str, Any] = {
        "venue": venue,
        "date_from": date_from,
        "date_to": date_to,
        "problem": problem,
        "lines": lines,
        "layouts": lctr.LAYOUTS,
    }
    return render(request, "compliance/lctr.html", context, status=422 if problem else 200)


@export_view
@declare(Capability.COMPLIANCE)
@require_GET
@console_login_required
def lctr_file(request: HttpRequest, venue_id: int, layout: str) -> HttpResponse:
    """The report's file of the days asked, ``layout`` ``csv`` or ``xml``; the build is
    audited."""
    venue = compliance_venue(request, venue_id)
    if isinstance(venue, HttpResponse):
        return venue
    if layout not in lctr.LAYOUTS:
        raise Http404("no such layout")
    date_from, date_to, problem = asked_days(request, venue)
    if problem:
        return render(
            request,
            "compliance/lctr.html",
            {"venue": venue, "date_from": date_from, "date_to": date_to, "problem": problem},
            status=400,
        )
    language = file_language(request, venue.language)
    lines = selectors.lctr_lines(venue=venue, date_from=date_from, date_to=date_to)
    lctr_built(
        venue=venue,
        user=request.user,
        layout=layout,
        date_from=date_from,
        date_to=date_to,
        lines=len(lines),
    )
    largest = selectors.largest_movements(lines)
    name = f"lctr-{venue.code}-{date_from.isoformat()}-{date_to.isoformat()}.{layout}"
    if layout == "csv":
        return csv_response(lctr.lctr_export(venue, lines, largest), name, language=language)
    content = lctr.lctr_xml(
        venue, lines, largest, date_from=date_from, date_to=date_to, built_at=timezone.now()
    )
    return download(content, name, "application/xml; charset=utf-8", language=language)
