"""The marker aging of a venue (docs/MARKERS.md): each member's outstanding markers by days
past due on today's gaming date, a page under ``/reports/`` and its CSV; on the same page
its managers propose a member's credit limit and a second manager approves it, and set the
venue's marker terms.

Read by the venue's supervisors, managers and auditors (another venue: 404, another role:
403, as the other report pages).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from casino.cage.marker_dates import today_of
from casino.cage.marker_selectors import (
    BUCKETS,
    marker_aging,
    proposed_credit_lines,
    terms_in_force,
)
from casino.cage.models import CreditLine
from casino.cage.services.cash import player_of
from casino.cage.services.credit_lines import (
    credit_line_approve,
    credit_line_propose,
    marker_terms_set,
)
from casino.export_views import export_view, file_language
from casino.exports import Column, Export, Kind, Sheet, csv_response
from casino.floor.console.readers import venue_asked
from casino.kernel.amounts import read_amount
from casino.kernel.errors import InvalidInput, ServiceError
from casino.kernel.timezones import venue_zone
from casino.staff.policy import Capability, declare
from casino.staff.roles import MANAGE, can
from casino.venues.models import Venue


def _render(request: HttpRequest, venue: Venue, status: int = 200, **extra: Any) -> HttpResponse:
    context = {
        "venue": venue,
        "aging": marker_aging(venue=venue, as_of=today_of(venue)),
        "buckets": [(key, label) for key, label, _first, _last in BUCKETS],
        "csv_url": reverse("reports:marker_aging_csv") + f"?venue={venue.code}",
        "can_manage": can(request.user, MANAGE, venue.pk),
        "proposed": proposed_credit_lines(venue),
        "terms": terms_in_force(venue),
        "errors": {},
        "data": {},
        **extra,
    }
    with timezone.override(venue_zone(venue)):
        return render(request, "reports/marker_aging.html", context, status=status)


@declare(Capability.READ_REPORTS)
@login_required
@require_GET
def marker_aging_report(request: HttpRequest) -> HttpResponse:
    """The venue's marker aging on today's gaming date."""
    _venues, venue = venue_asked(request)
    return _render(request, venue)


def _managed_venue(request: HttpRequest) -> Venue:
    _venues, venue = venue_asked(request)
    if not can(request.user, MANAGE, venue.pk):
        raise PermissionDenied("only the venue's managers set credit limits")
    return venue


def _back(venue: Venue) -> HttpResponse:
    return redirect(f"{reverse('reports:marker_aging')}?venue={venue.code}", permanent=False)


@declare(Capability.MANAGE_VENUE)
@login_required
@require_POST
def credit_line_propose_view(request: HttpRequest) -> HttpResponse:
    """A manager proposes a member's credit limit (by membership number)."""
    venue = _managed_venue(request)
    errors: dict[str, str] = {}
    limit = player = None
    try:
        limit = read_amount(request.POST.get("limit", ""), venue)
    except ValueError as error:
        errors["limit"] = str(error)
    try:
        player = player_of(venue, request.POST.get("player", ""))
    except InvalidInput as error:
        errors["player"] = error.message
    if player is None and "player" not in errors:
        errors["player"] = _("Give the member's membership number.")
    if limit is None and "limit" not in errors:
        errors["limit"] = _("Give the credit limit, e.g. 50000000 (0 stops further markers).")
    if not errors:
        try:
            credit_line_propose(
                venue=venue,
                player=player,
                user=request.user,
                limit=limit,
                reason=request.POST.get("reason", ""),
            )
        except ServiceError as error:
            errors[error.field or "limit"] = error.message
    if errors:
        return _render(request, venue, status=422, errors=errors, data=request.POST)
    return _back(venue)


@declare(Capability.APPROVE)
@login_required
@require_POST
def credit_line_approve_view(request: HttpRequest, pk: int) -> HttpResponse:
    """A second manager approves a proposed credit limit."""
    venue = _managed_venue(request)
    line = CreditLine.objects.filter(venue=venue, pk=pk).first()
    if line is None:
        raise Http404("no such credit line at this venue")
    try:
        credit_line_approve(line=line, user=request.user)
    except ServiceError as refused:
        return _render(request, venue, status=refused.status, errors={"approve": refused.message})
    return _back(venue)


@declare(Capability.MANAGE_VENUE)
@login_required
@require_POST
def marker_terms_view(request: HttpRequest) -> HttpResponse:
    """A manager sets the venue's marker terms: the days to pay and whether a table's
    marker counts in its drop."""
    venue = _managed_venue(request)
    try:
        marker_terms_set(
            venue=venue,
            user=request.user,
            term_days=request.POST.get("term_days", ""),
            credit_drop=request.POST.get("credit_drop") == "1",
        )
    except ServiceError as refused:
        errors = {refused.field or "terms": refused.message}
        return _render(request, venue, status=422, errors=errors, data=request.POST)
    return _back(venue)


@declare(Capability.READ_REPORTS)
@login_required
@require_GET
@export_view
def marker_aging_csv(request: HttpRequest) -> HttpResponse:
    """The marker aging as CSV (``casino.exports``): a line per member, then the totals."""
    _venues, venue = venue_asked(request)
    language = file_language(request, venue.language)
    aging = marker_aging(venue=venue, as_of=today_of(venue))
    heading = [
        [_("Marker aging"), venue.name, venue.currency],
        [_("As of gaming date"), aging.as_of],
    ]
    columns = [
        Column(_("Membership number")),
        Column(_("Player")),
        Column(_("Markers"), Kind.COUNT),
        *(Column(str(label), Kind.MONEY) for _key, label, _first, _last in BUCKETS),
        Column(_("Outstanding"), Kind.MONEY),
        Column(_("Overdue"), Kind.MONEY),
    ]
    rows = [
        [
            line.player.membership_number,
            line.player.name,
            line.markers,
            *(line.buckets[key] for key, _label, _first, _last in BUCKETS),
            line.total,
            line.overdue,
        ]
        for line in aging.lines
    ]
    totals = aging.totals
    rows.append(
        [
            _("Total"),
            "",
            sum(line.markers for line in aging.lines),
            *(totals[key] for key, _label, _first, _last in BUCKETS),
            aging.total,
            aging.total - totals["current"],
        ]
    )
    export = Export(
        currency=venue.currency,
        zone=venue_zone(venue),
        heading=heading,
        sheets=[Sheet(_("Marker aging"), columns, rows)],
    )
    return csv_response(
        export, f"marker-aging-{venue.code}-{aging.as_of.isoformat()}.csv", language=language
    )
