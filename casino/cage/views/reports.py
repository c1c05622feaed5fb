"""The cash transaction records of a venue: the log and the report candidates of a range of
gaming days (a page and its CSV), and the venue's thresholds (a manager proposes a
version, a second manager approves it).

Read by the venue's supervisors, managers and auditors (another venue: 404, another role:
403, as the other report pages); the thresholds are written by its managers.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from casino.cage import selectors as cash_selectors
from casino.cage.cash_log import person_name
from casino.cage.models import CashThresholds
from casino.cage.services.threshold_presets import comparable_law, preset_figures
from casino.cage.services.thresholds import gaming_date_at, thresholds_approve, thresholds_propose
from casino.export_views import export_view, file_language
from casino.exports import Column, Export, Kind, Sheet, csv_response
from casino.floor.console.readers import dates_asked, venue_asked
from casino.kernel.amounts import read_amount
from casino.kernel.errors import ServiceError
from casino.kernel.replicas import replica_reads
from casino.kernel.timezones import venue_zone
from casino.staff.policy import Capability, declare
from casino.staff.roles import MANAGE, can
from casino.venues.jurisdictions import jurisdiction_of
from casino.venues.models import Venue


def _venue(request: HttpRequest) -> Venue:
    _venues, venue = venue_asked(request)
    return venue


def _dates(request: HttpRequest, venue: Venue) -> tuple[date, date]:
    """The gaming dates asked for: by default today's alone."""
    return dates_asked(
        request,
        today=gaming_date_at(venue, timezone.now()),
        days=1,
        longest=cash_selectors.MAX_REPORT_DAYS,
    )


def _context(request: HttpRequest, venue: Venue, **extra: Any) -> dict[str, Any]:
    date_from, date_to = _dates(request, venue)
    with replica_reads():
        report = cash_selectors.cash_report(venue=venue, date_from=date_from, date_to=date_to)
        versions = cash_selectors.threshold_versions(venue=venue)
    in_force = next((v for v in versions if v.status == CashThresholds.Status.APPROVED), None)
    return {
        "venue": venue,
        "report": report,
        "versions": versions,
        "in_force": in_force,
        "csv_url": reverse("reports:cash_csv")
        + f"?venue={venue.code}&from={date_from.isoformat()}&to={date_to.isoformat()}",
        "can_manage": can(request.user, MANAGE, venue.pk),
        # The law beside the form: its threshold and sources (docs/compliance/), and the
        # figures proposing from it gives where they apply as they are.
        "law": jurisdiction_of(venue),
        "law_figures": preset_figures(venue) if comparable_law(venue) else None,
        "errors": {},
        "data": {},
        **extra,
    }


def _render(request: HttpRequest, venue: Venue, context: dict, status: int = 200) -> HttpResponse:
    with timezone.override(venue_zone(venue)):
        return render(request, "reports/cash.html", context, status=status)


@declare(Capability.READ_REPORTS)
@login_required
@require_GET
def cash_report(request: HttpRequest) -> HttpResponse:
    """The venue's cash log and report candidates of a range of gaming days."""
    venue = _venue(request)
    return _render(request, venue, _context(request, venue))


@declare(Capability.READ_REPORTS)
@login_required
@require_GET
@export_view
def cash_report_csv(request: HttpRequest) -> HttpResponse:
    """The log entries, then the report candidates, as CSV (``casino.exports``)."""
    venue = _venue(request)
    language = file_language(request, venue.language)
    date_from, date_to = _dates(request, venue)
    with replica_reads():
        report = cash_selectors.cash_report(venue=venue, date_from=date_from, date_to=date_to)
    heading = [
        [_("Cash transaction records"), venue.name, venue.currency],
        [_("Gaming dates"), date_from, date_to],
    ]
    heading += [
        [_("Note"), _("%(day)s: no thresholds were approved") % {"day": day.isoformat()}]
        for day in report.unjudged
    ]
    log = Sheet(
        _("Log"),
        [
            Column(_("Gaming date")),
            Column(_("Recorded at")),
            Column(_("Person")),
            Column(_("Name or description")),
            Column(_("Where")),
            Column(_("Kind")),
            Column(_("Direction")),
            Column(_("Amount"), Kind.MONEY),
            Column(_("Day's total"), Kind.MONEY),
            Column(_("Recorded by")),
            Column(_("Source")),
        ],
        [
            [
                line.row.gaming_date,
                line.row.at,
                line.row.person,
                person_name(line.row),
                line.row.where,
                line.row.kind_label,
                line.row.direction_label,
                line.row.amount,
                line.day_total,
                line.row.recorded_by.get_username(),
                f"{line.row.source} {line.row.source_id}",
            ]
            for line in report.log
        ],
    )
    candidates = Sheet(
        _("Report candidates"),
        [
            Column(_("Gaming date")),
            Column(_("Person")),
            Column(_("Name or description")),
            Column(_("Direction")),
            Column(_("Total"), Kind.MONEY),
            Column(_("Movements"), Kind.COUNT),
            Column(_("Reporting threshold"), Kind.MONEY),
            Column(_("Alert raised at")),
        ],
        [
            [
                candidate.gaming_date,
                candidate.person,
                candidate.name,
                candidate.kind_label,
                candidate.total,
                len(candidate.rows),
                candidate.thresholds.reporting_threshold,
                candidate.alert.raised_at if candidate.alert else None,
            ]
            for candidate in report.candidates
        ],
    )
    export = Export(
        currency=venue.currency, zone=venue_zone(venue), heading=heading, sheets=[log, candidates]
    )
    return csv_response(
        export,
        f"cash-{venue.code}-{date_from.isoformat()}-{date_to.isoformat()}.csv",
        language=language,
    )


def _managed_venue(request: HttpRequest) -> Venue:
    venue = _venue(request)
    if not can(request.user, MANAGE, venue.pk):
        raise PermissionDenied("only the venue's managers set its cash thresholds")
    return venue


def _back(venue: Venue) -> HttpResponse:
    return redirect(f"{reverse('reports:cash')}?venue={venue.code}", permanent=False)


@declare(Capability.MANAGE_VENUE)
@login_required
@require_POST
def thresholds_propose_view(request: HttpRequest) -> HttpResponse:
    """A manager proposes a version of the venue's thresholds: those typed, or the venue's
    law's figures (``from_jurisdiction``)."""
    venue = _managed_venue(request)
    errors: dict[str, str] = {}
    values: dict[str, Any] = {"from_jurisdiction": bool(request.POST.get("from_jurisdiction"))}
    for name in ("logging_threshold", "reporting_threshold"):
        if values["from_jurisdiction"] and not request.POST.get(name, "").strip():
            continue
        try:
            values[name] = read_amount(request.POST.get(name, ""), venue)
        except ValueError as error:
            errors[name] = str(error)
    if not errors:
        try:
            thresholds_propose(venue=venue, user=request.user, **values)
        except ServiceError as error:
            errors[error.field or "logging_threshold"] = error.message
    if errors:
        context = _context(request, venue, errors=errors, data=request.POST)
        return _render(request, venue, context, status=422)
    return _back(venue)


@declare(Capability.APPROVE)
@login_required
@require_POST
def thresholds_approve_view(request: HttpRequest, pk: int) -> HttpResponse:
    """A second manager approves a proposed version."""
    venue = _managed_venue(request)
    version = CashThresholds.objects.filter(venue=venue, pk=pk).first()
    if version is None:
        raise Http404("no such thresholds at this venue")
    try:
        thresholds_approve(version=version, user=request.user)
    except ServiceError as refused:
        context = _context(request, venue, errors={"approve": refused.message})
        return _render(request, venue, context, status=refused.status)
    return _back(venue)
