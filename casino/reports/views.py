"""The report pages: the dashboard, a shift report (polled while it builds), downloads.

Supervisors, managers and auditors of a venue read its reports; a venue the user does not work at is
"not found" and one they work at in another role "forbidden". Managers rebuild reports.
Each view parses its input, calls one selector or service and renders; with HTMX a view
renders the named partial of the same template. Pages render in the venue's time zone
(``render_at_venue``): a time on them is what the venue's clocks showed, and says which zone.
"""

from __future__ import annotations

import zoneinfo
from datetime import date, timedelta
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HttpResponseClientRefresh, push_url

from casino import export_views, exports
from casino.cage import selectors as cash_selectors
from casino.export_views import export_view
from casino.exports import Column, Export, Kind, Sheet, csv_response
from casino.floor.console.access import use_venue_language
from casino.floor.console.readers import dates_asked, reader_check, render_at_venue, venue_asked
from casino.integrity import selectors as investigation_selectors
from casino.kernel.errors import Forbidden
from casino.kernel.logs import log_venue
from casino.kernel.money import currency_places, grouped, venue_money
from casino.kernel.replicas import replica_reads
from casino.kernel.timezones import venue_today, venue_zone
from casino.reports import outputs, periods, selectors, services
from casino.reports.figures import jsonable
from casino.reports.listings import LIST_LIMIT
from casino.reports.models import ShiftReport
from casino.staff.policy import Capability, declare
from casino.venues.models import Shift, Venue
from casino.venues.services.gaming_days import gaming_date_of

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


# Periods: a venue's figures over a day, week, month or year to date or a range of gaming
# dates, by dimension, beside the previous period (casino.reports.periods).

#: The columns of a period's lines: (key, header, how it is written).
PERIOD_COLUMNS = [
    ("bets", _("Bets"), "count"),
    ("handle", _("Handle"), "money"),
    ("player_result", _("Player win/loss"), "money"),
    ("commission", _("Commission"), "money"),
    ("house_win", _("House win"), "money"),
    ("hold_pct", _("Hold %"), "pct"),
    ("theoretical_win", _("Theoretical win"), "theoretical"),
    ("theoretical_hold_pct", _("Theoretical hold %"), "theoretical_pct"),
    ("actual_minus_theoretical", _("Actual − theoretical"), "theoretical"),
    ("hold_low_pct", _("95% range low %"), "pct"),
    ("hold_high_pct", _("95% range high %"), "pct"),
    ("flagged", _("Outside the range"), "flag"),
    ("previous_handle", _("Previous handle"), "money"),
    ("previous_house_win", _("Previous house win"), "money"),
    ("previous_hold_pct", _("Previous hold %"), "pct"),
    ("handle_change", _("Handle change"), "change"),
    ("handle_change_pct", _("Handle change %"), "change_pct"),
    ("house_win_change", _("House win change"), "change"),
    ("house_win_change_pct", _("House win change %"), "change_pct"),
    ("hold_change_pts", _("Hold change (points)"), "change_pct"),
]
#: The accounting-only tables' lines: the count's figures, never the settled bets'.
ACCOUNTING_COLUMNS = [
    ("drop", _("Drop"), "money"),
    ("win_by_count", _("Win by count"), "money"),
    ("win_drop_pct", _("Win/drop %"), "pct"),
    ("previous_drop", _("Previous drop"), "money"),
    ("previous_win_by_count", _("Previous win by count"), "money"),
    ("previous_win_drop_pct", _("Previous win/drop %"), "pct"),
    ("win_by_count_change", _("Win by count change"), "change"),
    ("win_by_count_change_pct", _("Win by count change %"), "change_pct"),
]
TREND_COLUMNS = [
    *(
        column
        for column in PERIOD_COLUMNS
        if column[0]
        in {
            "bets",
            "handle",
            "house_win",
            "hold_pct",
            "theoretical_win",
            "actual_minus_theoretical",
        }
    ),
    ("accounting_drop", _("Drop, accounting-only tables"), "money"),
    ("accounting_win_by_count", _("Win by count, accounting-only tables"), "money"),
]
#: Lines shown on the page (the CSV has every line).
PERIOD_LINES_SHOWN = 200


def _period_asked(request: HttpRequest, venue: Venue) -> dict[str, Any]:
    """The period, dimension and trend the form asks for; what was wrong with it, said."""
    errors = []
    today = gaming_date_of(venue, timezone.now())
    kind = request.GET.get("kind") or periods.MONTH
    if kind not in periods.KINDS:
        errors.append(_("Unknown period %(kind)s: showing the month to date.") % {"kind": kind})
        kind = periods.MONTH
    dimension = request.GET.get("dimension") or "table"
    if dimension not in periods.DIMENSIONS:
        errors.append(_("Unknown dimension %(dimension)s: by table.") % {"dimension": dimension})
        dimension = "table"

    def asked_date(name: str, default: date) -> date:
        text = (request.GET.get(name) or "").strip()
        if not text:
            return default
        try:
            return date.fromisoformat(text)
        except ValueError:
            errors.append(
                _("%(text)s is not a date (write it YYYY-MM-DD): %(default)s is shown.")
                % {"text": text, "default": default.isoformat()}
            )
            return default

    day = asked_date("date", today)
    date_from = asked_date("from", day)
    date_to = asked_date("to", day)
    if kind == periods.RANGE:
        period = periods.period_of(kind, date_from, date_to)
        if period.days > periods.MAX_DAYS:
            start = period.end - timedelta(days=periods.MAX_DAYS - 1)
            errors.append(
                _("A range covers at most %(days)s gaming dates: from %(start)s.")
                % {"days": periods.MAX_DAYS, "start": start.isoformat()}
            )
            period = periods.period_of(kind, start, period.end)
    else:
        period = periods.period_of(kind, day)
    return {
        "period": period,
        "dimension": dimension,
        "trend": request.GET.get("trend", ""),
        "errors": errors,
        "day": period.end,
        "date_from": period.start,
        "date_to": period.end,
    }


def _period_text(key: str, how: str, value: Any, venue: Venue) -> str:
    """A period figure as people read it: the venue's money, grouped percentages."""
    if value is None:
        return _("n/a") if how.startswith("theoretical") else "—"
    if how == "theoretical":  # computed: rounded half up to the currency's decimals
        unit = Decimal(1).scaleb(-currency_places(venue.currency))
        return venue_money(value.quantize(unit, rounding=ROUND_HALF_UP), venue)
    if how == "money":
        return venue_money(value, venue)
    if how == "change":
        return venue_money(value, venue, signed=True)
    if how in {"pct", "theoretical_pct", "change_pct"}:
        text = f"{grouped(value, 2, venue.amount_grouping)}%"
        if how == "change_pct":
            text = f"{'+' if value > 0 else ''}{text}"
            return text[:-1] if key == "hold_change_pts" else text
        return text
    if how == "count":
        return grouped(Decimal(value), 0, venue.amount_grouping)
    if how == "flag":
        return str(_("outside")) if value else ""
    return str(value)


def _period_shown(line: dict[str, Any], venue: Venue, columns: list) -> dict[str, Any]:
    return {
        "key": line.get("key", ""),
        "label": line.get("label", ""),
        "flagged": bool(line.get("flagged")),
        "cells": [_period_text(key, how, line.get(key), venue) for key, _h, how in columns],
    }


def _accounting_dimension(figures: periods.PeriodFigures) -> Any:
    """What the accounting-only tables' lines are per: the page's dimension, or the venue."""
    return periods.accounting_dimension(figures.dimension.code).label


@declare(Capability.READ_REPORTS)
@login_required
@require_GET
def period_report(request: HttpRequest) -> HttpResponse:
    """A venue's figures over a period by dimension, beside the previous period, and the
    monthly trend of the venue, a table or a game (read from the tallies)."""
    venues, venue = venue_asked(request)
    asked = _period_asked(request, venue)
    period = asked["period"]
    figures = periods.period_figures(venue=venue, period=period, dimension=asked["dimension"])
    trend_lines = periods.trend_of(venue, asked["trend"], period.end)
    lines = figures.lines[:PERIOD_LINES_SHOWN]
    context = {
        **asked,
        "venues": venues,
        "venue": venue,
        "kinds": list(periods.KINDS.items()),
        "dimensions": [(d.code, d.label) for d in periods.DIMENSIONS.values()],
        "trend_choices": periods.trend_choices(venue),
        "figures": figures,
        "headers": [header for _k, header, _how in PERIOD_COLUMNS],
        "lines": [_period_shown(line, venue, PERIOD_COLUMNS) for line in lines],
        "unshown": len(figures.lines) - len(lines),
        "total": _period_shown(figures.total, venue, PERIOD_COLUMNS),
        "accounting_dimension": _accounting_dimension(figures),
        "accounting_headers": [header for _k, header, _how in ACCOUNTING_COLUMNS],
        "accounting_lines": [
            _period_shown(line, venue, ACCOUNTING_COLUMNS) for line in figures.accounting
        ],
        "accounting_total": _period_shown(figures.accounting_total, venue, ACCOUNTING_COLUMNS),
        "trend_headers": [header for _k, header, _how in TREND_COLUMNS],
        "trend_lines": [_period_shown(line, venue, TREND_COLUMNS) for line in trend_lines],
        "trend_svg": _months_chart(venue, trend_lines),
        "csv_url": reverse("reports:periods_csv") + "?" + request.GET.urlencode(),
    }
    if request.htmx:
        response = render(request, "reports/periods.html#periods", context)
        return push_url(response, request.get_full_path())
    return render(request, "reports/periods.html", context)


def _months_chart(venue: Venue, lines: list[dict[str, Any]]) -> str:
    """The monthly trend as the dashboard draws its days: house win (bars), theoretical
    win and hold % (lines); the table below it has the figures."""
    from casino.kernel import charts  # matplotlib: loaded on the first chart

    months = [
        {
            "label": str(line.get("key", "")),
            "house_win": line.get("house_win") or 0,
            "theoretical_win": line.get("theoretical_win"),
            "hold_pct": line.get("hold_pct"),
        }
        for line in lines
    ]
    title = gettext("House win and hold by month (%(currency)s)") % {"currency": venue.currency}
    svg = charts.trend(months, venue.currency, venue.amount_grouping, title=title)
    return charts.accessible(
        svg,
        ident="period-trend-chart",
        title=title,
        desc=gettext(
            "A bar per month for the house win, green above zero and red below, with the "
            "theoretical win and the hold percentage as lines; the table below gives each figure."
        ),
    )


#: How each way a period figure is written on the page is written in its CSV.
PERIOD_KINDS = {
    "count": Kind.COUNT,
    "money": Kind.MONEY,
    "change": Kind.MONEY,
    "theoretical": Kind.COMPUTED,
    "pct": Kind.PERCENT,
    "theoretical_pct": Kind.PERCENT,
    "change_pct": Kind.PERCENT,
    "flag": Kind.TEXT,
}


@declare(Capability.READ_REPORTS)
@login_required
@require_GET
@export_view
def period_report_csv(request: HttpRequest) -> HttpResponse:
    """The page's lines, every one of them, as CSV (``casino.exports``)."""
    _venues, venue = venue_asked(request)
    language = export_views.file_language(request, venue.language)
    asked = _period_asked(request, venue)
    period = asked["period"]
    figures = periods.period_figures(venue=venue, period=period, dimension=asked["dimension"])
    heading = [
        [_("Period report"), venue.name, periods.KINDS[period.kind]],
        [_("Gaming dates"), period.start, period.end],
        [_("Previous period"), period.previous_start, period.previous_end],
        [_("Currency"), venue.currency, _("Dimension"), figures.dimension.label],
        *([_("Note"), note] for note in figures.notes),
    ]
    columns = [
        Column(_("Key")),
        Column(figures.dimension.label),
        *(Column(header, PERIOD_KINDS[how]) for _k, header, how in PERIOD_COLUMNS),
    ]
    rows = [
        [line["key"], line["label"], *(line.get(key) for key, _h, _how in PERIOD_COLUMNS)]
        for line in [*figures.lines, figures.total]
    ]
    accounting_columns = [
        Column(_("Key")),
        Column(_accounting_dimension(figures)),
        *(Column(header, PERIOD_KINDS[how]) for _k, header, how in ACCOUNTING_COLUMNS),
    ]
    accounting_rows = [
        [line["key"], line["label"], *(line.get(key) for key, _h, _how in ACCOUNTING_COLUMNS)]
        for line in [*figures.accounting, figures.accounting_total]
    ]
    export = Export(
        currency=venue.currency,
        zone=venue_zone(venue),
        heading=heading,
        sheets=[
            Sheet(_("Period report"), columns, rows),
            Sheet(_("Accounting-only tables: win by count"), accounting_columns, accounting_rows),
        ],
    )
    name = f"{venue.code}-{period.kind}-{period.start}-{period.end}-{figures.dimension.code}.csv"
    return csv_response(export, name, language=language)
