"""The report pages: the dashboard, a shift report (polled while it builds), downloads (the
periods page: ``casino.reports.period_views``).

Supervisors, managers and auditors of a venue read its reports; a venue the user does not work at is
"not found" and one they work at in another role "forbidden". Managers rebuild reports.
Each view parses its input, calls one selector or service and renders; with HTMX a view
renders the named partial of the same template. Pages render in the venue's time zone
(``render_at_venue``): a time on them is what the venue's clocks showed, and says which zone.
"""

from __future__ import annotations

import zoneinfo
from typing import Any

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HttpResponseClientRefresh, push_url

from casino import export_views, exports
from casino.cage import selectors as cash_selectors
from casino.export_views import export_view
from casino.floor.console.access import use_venue_language
from casino.floor.console.readers import dates_asked, reader_check, render_at_venue, venue_asked
from casino.integrity import selectors as investigation_selectors
from casino.kernel.errors import Forbidden
from casino.kernel.logs import log_venue
from casino.kernel.replicas import replica_reads
from casino.kernel.timezones import venue_today
from casino.reports import outputs, selectors, services
from casino.reports.figures import jsonable
from casino.reports.listings import LIST_LIMIT
from casino.reports.models import ShiftReport
from casino.staff.policy import Capability, declare
from casino.venues.models import Shift

DEFAULT_DAYS = 30
POLL_SECONDS = 2
UNRATED_RANGE = _("n/a (house edge not computed for a ruleset version played in the range)")
#: A cached trend chart is dropped by its key changing (a report of its range finished);
#: this only bounds how long an entry nobody asks for again stays in the cache.
TREND_CACHE_SECONDS = 24 * 3600
#: Changed with the chart's drawing, so a deployment does not serve charts drawn before it.
TREND_CHART_LAYOUT = "2"


@declare(Capability.READ_REPORTS)
@login_required
@require_GET
def dashboard(request: HttpRequest) -> HttpResponse:
    """A venue over a date range: win and hold trend, actual against theoretical, top
    players, fluctuation alerts, and the shift reports of the range."""
    venues, venue = venue_asked(request)
    today = venue_today(venue)
    date_from, date_to = dates_asked(request, today=today, days=DEFAULT_DAYS)
    with replica_reads():
        board = selectors.dashboard(venue=venue, date_from=date_from, date_to=date_to)
        shifts = selectors.shifts_with_reports(venue=venue, date_from=date_from, date_to=date_to)
        overdue = investigation_selectors.overdue_investigations(venue=venue)
        cash_alerts = cash_selectors.recent_alerts(venue=venue)
    data = jsonable(
        {
            "total": board.total,
            "days": board.days,
            "tables": board.tables,
            "players": board.players,
            "accounting": board.accounting,
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
            data, note=str(UNRATED_RANGE), currency=venue.currency, grouping=venue.amount_grouping
        ),
        "trend_svg": _trend(board, data["days"]),
        "shifts": shifts,
        "can_rebuild": selectors.can_rebuild(user=request.user, venue_id=venue.pk),
        "overdue_investigations": overdue,
        "cash_alerts": cash_alerts,
        "show_cash_report": True,
    }
    if request.htmx:
        response = render_at_venue(request, venue, "reports/dashboard.html#dashboard", context)
        return push_url(response, request.get_full_path())
    return render_at_venue(request, venue, "reports/dashboard.html", context)


def trend_cache_key(board: selectors.Dashboard) -> str:
    """The trend chart's cache key: the venue and its range, how the chart is written
    (language, amounts' grouping, currency) and the version of the figures it draws."""
    venue = board.venue
    return ":".join(
        [
            "reports-trend",
            TREND_CHART_LAYOUT,
            str(venue.pk),
            board.date_from.isoformat(),
            board.date_to.isoformat(),
            translation.get_language() or "",
            str(venue.amount_grouping),
            venue.currency,
            board.version,
        ]
    )


def _trend(board: selectors.Dashboard, days: list[dict[str, Any]]) -> str:
    """The dashboard's trend SVG, drawn once per range until a report of it finishes."""
    key = trend_cache_key(board)
    svg = cache.get(key)
    if svg is None:
        from casino.kernel.charts import trend  # matplotlib: loaded on the first chart

        venue = board.venue
        svg = trend(days, venue.currency, venue.amount_grouping)
        cache.set(key, svg, TREND_CACHE_SECONDS)
    return svg


@declare(Capability.READ_REPORTS)
@login_required
@require_GET
def report_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """A shift report; while it builds, its status partial polls this URL (HTMX) and the
    page reloads itself when the report is ready."""
    report = selectors.report_get(pk=pk)
    if report is None:
        raise Http404("no such report")
    log_venue(report.venue)
    reader_check(request.user, report.venue_id)
    use_venue_language(request, report.venue.language)
    ready = report.status == ShiftReport.Status.DONE
    if request.htmx and request.GET.get("poll"):
        if ready:
            return HttpResponseClientRefresh()
        return render_at_venue(
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
    return render_at_venue(request, report.venue, "reports/shift_report.html", context)


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


@declare(Capability.MANAGE_VENUE)
@login_required
@require_POST
def report_rebuild(request: HttpRequest, pk: int) -> HttpResponse:
    """Managers: build the report again (in place)."""
    report = selectors.report_get(pk=pk)
    if report is None:
        raise Http404("no such report")
    log_venue(report.venue)
    reader_check(request.user, report.venue_id)
    return _request(request, report.shift_id)


@declare(Capability.MANAGE_VENUE)
@login_required
@require_POST
def shift_build(request: HttpRequest, shift_id: int) -> HttpResponse:
    """Managers: build the report of a shift that has none yet."""
    shift = Shift.objects.select_related("venue").filter(pk=shift_id).first()
    if shift is None:
        raise Http404("no such shift")
    log_venue(shift.venue)
    reader_check(request.user, shift.venue_id)
    return _request(request, shift.pk)


def _request(request: HttpRequest, shift_id: int) -> HttpResponse:
    try:
        report = services.report_request(shift_id=shift_id, user=request.user)
    except Forbidden as error:
        raise PermissionDenied(error.message) from None
    report.refresh_from_db()
    if request.htmx:
        return render_at_venue(
            request, report.venue, "reports/shift_report.html#report-status", _status(report)
        )
    return redirect("reports:report", pk=report.pk)


@declare(Capability.READ_REPORTS)
@login_required
@require_GET
@export_view
def report_download(request: HttpRequest, pk: int, name: str) -> HttpResponse:
    """One of the report's files (CSV, XLSX, PDF, chart SVG)."""
    report = selectors.report_get(pk=pk)
    if report is None:
        raise Http404("no such report")
    log_venue(report.venue)
    reader_check(request.user, report.venue_id)
    stored = selectors.report_file_content(report=report, name=name)
    if stored is None:
        raise Http404("no such file (yet)")
    content_type, content = stored
    if name.endswith(".svg"):  # a chart, shown in the page
        response = HttpResponse(content, content_type=content_type)
        response["Cache-Control"] = "private, no-cache"
        return response
    venue_language = report.venue.language or settings.LANGUAGE_CODE
    figures = report.figures or {}
    built_in = figures.get("shift", {}).get("language") or venue_language
    language = export_views.file_language(request, venue_language, filed=True)
    if language != built_in and figures:
        # the stored files are the filed copies, in the language they were built in:
        # another is written now
        content = outputs.render_one(figures, name) or content
    shift = report.shift
    stem, _dot, extension = name.rpartition(".")
    filename = f"{report.venue.code}-{shift.gaming_date}-{shift.name}-{stem}.{extension}"
    return exports.download(content, filename, content_type, language=language)
