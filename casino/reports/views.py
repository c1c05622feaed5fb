"""The report pages: the dashboard, a shift report (polled while it builds), downloads.

Supervisors, managers and auditors of a venue read its reports; a venue the user does not work at is
"not found" and one they work at in another role "forbidden". Managers rebuild reports.
Each view parses its input, calls one selector or service and renders; with HTMX a view
renders the named partial of the same template. Pages render in the venue's time zone
(``_render``): a time on them is what the venue's clocks showed, and says which zone.
"""

from __future__ import annotations

import zoneinfo
from datetime import date, timedelta
from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HttpResponseClientRefresh, push_url

from casino.errors import Forbidden
from casino.models import Shift, ShiftReport, Venue
from casino.reports import outputs, selectors, services
from casino.reports.figures import jsonable
from casino.reports.listings import LIST_LIMIT
from casino.timezones import venue_today, venue_zone

DEFAULT_DAYS = 30
MAX_DAYS = 366
POLL_SECONDS = 2
UNRATED_RANGE = "n/a (house edge not computed for a ruleset version played in the range)"


def _check(user: Any, venue_id: int) -> None:
    status = selectors.report_access(user=user, venue_id=venue_id)
    if status == 404:
        raise Http404("no such report")
    if status == 403:
        raise PermissionDenied(
            "only the venue's supervisors, managers and auditors read its reports"
        )


def _render(request: HttpRequest, venue: Venue, template: str, context: dict) -> HttpResponse:
    """The page in the venue's time zone: the ``date`` filter writes times on its clocks."""
    with timezone.override(venue_zone(venue)):
        return render(request, template, context)


def _date(text: str | None, default: date) -> date:
    try:
        return date.fromisoformat(text) if text else default
    except ValueError:
        return default


@login_required
@require_GET
def dashboard(request: HttpRequest) -> HttpResponse:
    """A venue over a date range: win and hold trend, actual against theoretical, top
    players, fluctuation alerts, and the shift reports of the range."""
    venues = list(selectors.report_venues(user=request.user))
    code = request.GET.get("venue")
    if code:
        venue = next((v for v in venues if v.code == code), None)
        if venue is None:
            wanted = Venue.objects.filter(code=code).first()
            if wanted is None:
                raise Http404("no such venue")
            _check(request.user, wanted.pk)
    elif venues:
        venue = venues[0]
    else:
        raise PermissionDenied("only supervisors, managers and auditors read reports")
    today = venue_today(venue)
    date_to = _date(request.GET.get("to"), today)
    date_from = _date(request.GET.get("from"), date_to - timedelta(days=DEFAULT_DAYS - 1))
    if date_from > date_to:
        date_from, date_to = date_to, date_from
    date_from = max(date_from, date_to - timedelta(days=MAX_DAYS - 1))
    from casino.reports.charts import trend  # matplotlib: loaded on the first dashboard

    board = selectors.dashboard(venue=venue, date_from=date_from, date_to=date_to)
    data = jsonable(
        {
            "total": board.total,
            "days": board.days,
            "tables": board.tables,
            "players": board.players,
        },
        zoneinfo.ZoneInfo(venue.timezone),
    )
    context = {
        "venues": venues,
        "venue": venue,
        "date_from": date_from,
        "date_to": date_to,
        "reports": board.reports,
        "d": outputs.present(
            data, note=UNRATED_RANGE, currency=venue.currency, grouping=venue.amount_grouping
        ),
        "trend_svg": trend(data["days"], venue.currency, venue.amount_grouping),
        "shifts": selectors.shifts_with_reports(venue=venue, date_from=date_from, date_to=date_to),
        "can_rebuild": selectors.can_rebuild(user=request.user, venue_id=venue.pk),
    }
    if request.htmx:
        response = _render(request, venue, "reports/dashboard.html#dashboard", context)
        return push_url(response, request.get_full_path())
    return _render(request, venue, "reports/dashboard.html", context)


@login_required
@require_GET
def report_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """A shift report; while it builds, its status partial polls this URL (HTMX) and the
    page reloads itself when the report is ready."""
    report = selectors.report_get(pk=pk)
    if report is None:
        raise Http404("no such report")
    _check(request.user, report.venue_id)
    ready = report.status == ShiftReport.Status.DONE
    if request.htmx and request.GET.get("poll"):
        if ready:
            return HttpResponseClientRefresh()
        return _render(
            request, report.venue, "reports/shift_report.html#report-status", _status(report)
        )
    context = {
        **_status(report),
        "f": _presented(report),
        "files": selectors.report_files(report),
        "can_rebuild": selectors.can_rebuild(user=request.user, venue_id=report.venue_id),
        "voids_shown": f":{LIST_LIMIT}",
        "voids_shown_count": LIST_LIMIT,
        "downloads": [
            ("CSV", outputs.CSV_NAME),
            ("XLSX", outputs.XLSX_NAME),
            ("PDF", outputs.PDF_NAME),
        ],
    }
    return _render(request, report.venue, "reports/shift_report.html", context)


def _presented(report: ShiftReport) -> dict[str, Any] | None:
    """The report's figures as display text, amounts in the venue's grouping as it is now
    (the grouping decides no money, so a report reads as the venue writes amounts today)."""
    if not report.figures:
        return None
    return outputs.present(report.figures, grouping=report.venue.amount_grouping)


def _status(report: ShiftReport) -> dict[str, Any]:
    building = report.status in (ShiftReport.Status.PENDING, ShiftReport.Status.RUNNING)
    return {
        "report": report,
        "building": building,
        "poll_url": reverse("reports:report", args=[report.pk]) + "?poll=1",
        "poll_seconds": POLL_SECONDS,
    }


@login_required
@require_POST
def report_rebuild(request: HttpRequest, pk: int) -> HttpResponse:
    """Managers: build the report again (in place)."""
    report = selectors.report_get(pk=pk)
    if report is None:
        raise Http404("no such report")
    _check(request.user, report.venue_id)
    return _request(request, report.shift_id)


@login_required
@require_POST
def shift_build(request: HttpRequest, shift_id: int) -> HttpResponse:
    """Managers: build the report of a shift that has none yet."""
    shift = Shift.objects.filter(pk=shift_id).first()
    if shift is None:
        raise Http404("no such shift")
    _check(request.user, shift.venue_id)
    return _request(request, shift.pk)


def _request(request: HttpRequest, shift_id: int) -> HttpResponse:
    try:
        report = services.report_request(shift_id=shift_id, user=request.user)
    except Forbidden as error:
        raise PermissionDenied(error.message) from None
    report.refresh_from_db()
    if request.htmx:
        return _render(
            request, report.venue, "reports/shift_report.html#report-status", _status(report)
        )
    return redirect("reports:report", pk=report.pk)


@login_required
@require_GET
def report_download(request: HttpRequest, pk: int, name: str) -> HttpResponse:
    """One of the report's files (CSV, XLSX, PDF, chart SVG)."""
    report = selectors.report_get(pk=pk)
    if report is None:
        raise Http404("no such report")
    _check(request.user, report.venue_id)
    stored = selectors.report_file_content(report=report, name=name)
    if stored is None:
        raise Http404("no such file (yet)")
    content_type, content = stored
    response = HttpResponse(content, content_type=content_type)
    shift = report.shift
    if not name.endswith(".svg"):
        stem, _dot, extension = name.rpartition(".")
        filename = f"{report.venue.code}-{shift.gaming_date}-{shift.name}-{stem}.{extension}"
        response["Content-Disposition"] = f'attachment; filename="{_safe(filename)}"'
    response["Cache-Control"] = "private, no-cache"
    return response


def _safe(name: str) -> str:
    return "".join(c if c.isalnum() or c in "-_." else "-" for c in name)
