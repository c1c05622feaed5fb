"""The group's pages: its figures for a period in the reporting currency, by venue, country,
game or pit (``casino.group.consolidation``), their CSV, and the exchange rates (proposed
by one group manager, approved by another).

Group managers and group auditors read every venue of the group; one who reads a venue's
reports (its supervisors, managers and auditors) reads that venue's lines only, and the
totals of those lines. Anyone else is told who reads the page.
"""

from __future__ import annotations

import zoneinfo
from datetime import date, timedelta
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_GET, require_POST

from casino import export_views
from casino.export_views import export_view
from casino.exports import Column, Export, Kind, Sheet, csv_response
from casino.floor.console.readers import date_asked
from casino.group import selectors
from casino.group.consolidation import DIMENSIONS, FIGURES, Consolidation, consolidated
from casino.group.models import ExchangeRate, OperatingGroup
from casino.group.services import rate_approve, rate_propose
from casino.kernel.errors import ServiceError
from casino.kernel.money import format_money
from casino.reports import periods
from casino.staff.policy import Capability, allows_group, declare

FIGURE_HEADERS = {
    "handle": _("Handle"),
    "house_win": _("House win"),
    "drop": _("Drop, accounting-only tables"),
    "win_by_count": _("Win by count, accounting-only tables"),
}


#: How a figure is converted, said on the page and in its CSV.
ROUNDING_NOTE = _(
    "Each venue's gaming day is converted at that day's approved rate, rounded half up to the "
    "reporting currency's minor unit; lines and totals add the converted days. A day without "
    "an approved rate is not converted."
)


class Refused(Exception):
    """The page is not the user's: said on a page of its own (403)."""


def _refused(request: HttpRequest, message: str) -> HttpResponse:
    return render(request, "group/refused.html", {"message": message}, status=403)


def _group_asked(request: HttpRequest) -> tuple[list[OperatingGroup], OperatingGroup]:
    groups = selectors.readable_groups(request.user)
    if not groups:
        raise Refused(
            gettext(
                "The group's figures are read by its group managers and group auditors, and "
                "by those who read a venue's reports (that venue's lines). Ask a superuser "
                "for a group role."
            )
        )
    code = request.GET.get("group") or request.POST.get("group")
    group = next((g for g in groups if g.code == code), None) if code else groups[0]
    if group is None:
        raise Http404("no such group")
    return groups, group


def _today(group: OperatingGroup) -> date:
    return timezone.now().astimezone(zoneinfo.ZoneInfo(group.timezone)).date()


def _period_asked(request: HttpRequest, group: OperatingGroup) -> dict[str, Any]:
    """The period and dimension asked (``casino.reports.periods``' kinds); what was wrong
    with the form, said."""
    errors = []
    kind = request.GET.get("kind") or periods.MONTH
    if kind not in periods.KINDS:
        errors.append(
            gettext("Unknown period %(kind)s: showing the month to date.") % {"kind": kind}
        )
        kind = periods.MONTH
    dimension = request.GET.get("dimension") or "venue"
    if dimension not in DIMENSIONS:
        errors.append(
            gettext("Unknown dimension %(dimension)s: by venue.") % {"dimension": dimension}
        )
        dimension = "venue"
    today = _today(group)

    day = date_asked(request, "date", today, errors)
    if kind == periods.RANGE:
        period = periods.period_of(
            kind, date_asked(request, "from", day, errors), date_asked(request, "to", day, errors)
        )
        if period.days > periods.MAX_DAYS:
            start = period.end - timedelta(days=periods.MAX_DAYS - 1)
            errors.append(
                gettext("A range covers at most %(days)s gaming dates: from %(start)s.")
                % {"days": periods.MAX_DAYS, "start": start.isoformat()}
            )
            period = periods.period_of(kind, start, period.end)
    else:
        period = periods.period_of(kind, day)
    return {"period": period, "dimension": dimension, "errors": errors, "day": period.end}


def _figures(request: HttpRequest, group: OperatingGroup, asked: dict[str, Any]) -> Consolidation:
    return consolidated(
        group=group,
        period=asked["period"],
        dimension=asked["dimension"],
        members=selectors.readable_venues(request.user, group),
    )


def _money(amount: Any, group: OperatingGroup) -> str:
    return format_money(amount, group.reporting_currency, grouping=group.amount_grouping)


def _shown(figures: Consolidation) -> dict[str, Any]:
    """The lines, subtotals and total as the page writes them: local amounts in each
    venue's currency and grouping, the others in the group's."""
    group = figures.group
    missing = gettext("missing")

    def reporting(amounts: dict | None) -> list[str]:
        return [_money(amounts[n], group) if amounts else missing for n in FIGURES]

    return {
        "lines": [
            {
                "venue": line.venue,
                "country": line.member.country,
                "key": line.key,
                "label": line.label,
                "currency": line.currency,
                "local": [
                    format_money(line.local[n], line.currency, grouping=line.venue.amount_grouping)
                    for n in FIGURES
                ],
                "rates": [rate.text() for rate in line.rates],
                "missing_days": [day.isoformat() for day in line.missing_days],
                "reporting": reporting(line.reporting),
            }
            for line in figures.lines
        ],
        "subtotals": [
            {"key": s.key, "label": s.label, "reporting": reporting(s.reporting)}
            for s in figures.subtotals
        ],
        "total": reporting(figures.total),
    }


def _context(request: HttpRequest, groups: list, group: OperatingGroup, **extra: Any) -> dict:
    asked = _period_asked(request, group)
    figures = _figures(request, group, asked)
    period = asked["period"]
    may_rate = allows_group(request.user, Capability.GROUP_RATES, group.pk)
    return {
        **asked,
        "groups": groups,
        "group": group,
        "kinds": list(periods.KINDS.items()),
        "dimensions": [(d.code, d.label) for d in DIMENSIONS.values()],
        "figures": figures,
        "shown": _shown(figures),
        "headers": [FIGURE_HEADERS[n] for n in FIGURES],
        "whole_group": allows_group(request.user, Capability.READ_GROUP, group.pk),
        "may_rate": may_rate,
        "currencies": selectors.group_currencies(group),
        "waiting": selectors.waiting_rates(group=group) if may_rate else [],
        "versions": selectors.rate_versions(group=group, start=period.start, end=period.end)
        if allows_group(request.user, Capability.READ_GROUP, group.pk)
        else [],
        "csv_url": reverse("group:dashboard_csv") + "?" + request.GET.urlencode(),
        "rounding_note": ROUNDING_NOTE,
        "errors_form": {},
        "data": {},
        **extra,
    }


def _render(request: HttpRequest, context: dict, status: int = 200) -> HttpResponse:
    with timezone.override(zoneinfo.ZoneInfo(context["group"].timezone)):
        return render(request, "group/dashboard.html", context, status=status)


@declare(Capability.READ_GROUP)
@login_required
@require_GET
def dashboard(request: HttpRequest) -> HttpResponse:
    """The group's figures for a period in its reporting currency, with the rates used."""
    try:
        groups, group = _group_asked(request)
    except Refused as refused:
        return _refused(request, str(refused))
    return _render(request, _context(request, groups, group))


@declare(Capability.READ_GROUP)
@login_required
@require_GET
@export_view
def dashboard_csv(request: HttpRequest) -> HttpResponse:
    """The page's figures as CSV (``casino.exports``), each line with the rates it used.

    Long because the file is the page in rows, column by column in the export's layout (the
    lines, the subtotals, the total, then the rates used and those missing): written in one
    function, its columns cannot drift from one another."""
    try:
        _groups, group = _group_asked(request)
    except Refused as refused:
        return _refused(request, str(refused))
    language = export_views.file_language(request, group.language)
    asked = _period_asked(request, group)
    figures = _figures(request, group, asked)
    period = figures.period
    heading = [
        [_("Group figures"), group.name, periods.KINDS[period.kind]],
        [_("Gaming dates"), period.start, period.end],
        [_("Reporting currency"), group.reporting_currency, _("By"), figures.dimension.label],
        [ROUNDING_NOTE],
        *([_("Missing rate"), missing.text()] for missing in figures.missing),
    ]
    currency = group.reporting_currency
    columns = [
        Column(_("Venue")),
        Column(_("Country")),
        Column(_("Key")),
        Column(figures.dimension.label),
        Column(_("Local currency")),
        *(Column(f"{FIGURE_HEADERS[n]} ({gettext('local')})", Kind.MONEY) for n in FIGURES),
        Column(_("Rates used (gaming dates: rate, source)")),
        Column(_("Missing rates for")),
        *(Column(f"{FIGURE_HEADERS[n]} ({currency})", Kind.MONEY) for n in FIGURES),
    ]
    rows = [
        [
            line.venue.code,
            line.member.country,
            line.key,
            line.label,
            line.currency,
            *(line.local[n] for n in FIGURES),
            line.rates_text(),
            " ".join(day.isoformat() for day in line.missing_days),
            *((line.reporting[n] if line.reporting else None) for n in FIGURES),
        ]
        for line in figures.lines
    ]
    totals_columns = [
        Column(_("Subtotal by")),
        Column(_("Key")),
        Column(_("Name")),
        *(Column(f"{FIGURE_HEADERS[n]} ({currency})", Kind.MONEY) for n in FIGURES),
    ]
    totals = [
        [
            figures.dimension.label,
            s.key,
            s.label,
            *((s.reporting[n] if s.reporting else None) for n in FIGURES),
        ]
        for s in figures.subtotals
    ] + [
        [
            _("Total"),
            group.code,
            group.name,
            *((figures.total[n] if figures.total else None) for n in FIGURES),
        ]
    ]
    rate_columns = [
        Column(_("Gaming date")),
        Column(_("From currency")),
        Column(_("To currency")),
        Column(_("Rate"), Kind.RATE),
        Column(_("Source")),
        Column(_("Version"), Kind.COUNT),
        Column(_("Proposed by")),
        Column(_("Approved by")),
    ]
    rate_rows = [
        [
            rate.day,
            rate.from_currency,
            rate.to_currency,
            rate.rate.normalize(),
            rate.source,
            rate.version,
            rate.proposed_by.get_username(),
            rate.approved_by.get_username() if rate.approved_by else "",
        ]
        for rate in figures.rates
    ]
    export = Export(
        currency=currency,
        zone=zoneinfo.ZoneInfo(group.timezone),
        heading=heading,
        sheets=[
            Sheet(_("Group figures"), columns, rows),
            Sheet(_("Subtotals and total"), totals_columns, totals),
            Sheet(_("Rates used"), rate_columns, rate_rows),
        ],
    )
    name = (
        f"group-{group.code}-{period.kind}-{period.start}-{period.end}-{figures.dimension.code}.csv"
    )
    return csv_response(export, name, language=language)


def _back(request: HttpRequest, group: OperatingGroup) -> HttpResponse:
    return redirect(f"{reverse('group:dashboard')}?group={group.code}", permanent=False)


@declare(Capability.GROUP_RATES)
@login_required
@require_POST
def rate_propose_view(request: HttpRequest) -> HttpResponse:
    """A group manager proposes a gaming day's rate (the service refuses anyone else)."""
    try:
        groups, group = _group_asked(request)
    except Refused as refused:
        return _refused(request, str(refused))
    errors: dict[str, str] = {}
    status = 422
    text = (request.POST.get("day") or "").strip()
    try:
        day = date.fromisoformat(text)
    except ValueError:
        errors["day"] = gettext("Write the gaming date as YYYY-MM-DD, e.g. 2026-12-03.")
    if not errors:
        try:
            rate_propose(
                group=group,
                user=request.user,
                day=day,
                from_currency=request.POST.get("from_currency", ""),
                rate=request.POST.get("rate", ""),
                source=request.POST.get("source", ""),
            )
        except ServiceError as error:
            errors[error.field or "rate"] = error.message
            status = error.status
    if errors:
        context = _context(request, groups, group, errors_form=errors, data=request.POST)
        return _render(request, context, status=status)
    return _back(request, group)


@declare(Capability.GROUP_RATES)
@login_required
@require_POST
def rate_approve_view(request: HttpRequest, pk: int) -> HttpResponse:
    """A second group manager approves a proposed rate (the service refuses the proposer)."""
    try:
        groups, group = _group_asked(request)
    except Refused as refused:
        return _refused(request, str(refused))
    rate = ExchangeRate.objects.filter(group=group, pk=pk).first()
    if rate is None:
        raise Http404("no such rate in this group")
    try:
        rate_approve(rate=rate, user=request.user)
    except ServiceError as error:
        context = _context(request, groups, group, errors_form={"approve": error.message})
        return _render(request, context, status=error.status)
    return _back(request, group)
