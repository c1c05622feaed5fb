"""The periods page: a venue's figures over a day, week, month or year to date or a range of
gaming dates, by dimension, beside the previous period (``casino.reports.periods``), with the
monthly trend (``casino.reports.trends``), and its CSV. Who reads it and how it renders are
the other report pages' rules (``casino.reports.views``).
"""

from __future__ import annotations

from datetime import timedelta
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_GET
from django_htmx.http import push_url

from casino import export_views
from casino.export_views import export_view
from casino.exports import Column, Export, Kind, Sheet, csv_response
from casino.floor.console.readers import date_asked, venue_asked
from casino.kernel.money import currency_places, grouped, venue_money
from casino.kernel.timezones import venue_zone
from casino.reports import periods, trends
from casino.staff.policy import Capability, declare
from casino.venues.models import Venue
from casino.venues.services.gaming_days import gaming_date_of

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

    day = date_asked(request, "date", today, errors)
    date_from = date_asked(request, "from", day, errors)
    date_to = date_asked(request, "to", day, errors)
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


def period_text(key: str, how: str, value: Any, venue: Venue) -> str:
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
        "cells": [period_text(key, how, line.get(key), venue) for key, _h, how in columns],
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
    trend_lines = trends.trend_of(venue, asked["trend"], period.end)
    lines = figures.lines[:PERIOD_LINES_SHOWN]
    context = {
        **asked,
        "venues": venues,
        "venue": venue,
        "kinds": list(periods.KINDS.items()),
        "dimensions": [(d.code, d.label) for d in periods.DIMENSIONS.values()],
        "trend_choices": trends.trend_choices(venue),
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
