"""The cage's side of fills and credits: the cashier's screen per venue (requests to issue,
slips out at the tables, the gaming day's finished ones), a slip's printable PDF, and the
slip report of a gaming day.

The cage's pages are the cashier's (``Capability.CAGE`` at the venue, 403 otherwise; another
venue's page is 404). A slip's PDF is read by anyone working at its venue; the slip report
by its cashiers, supervisors, managers and auditors. The steps offered on a row are those
``casino.cage.services.slips.slip_steps`` allows, the rule the services apply.
"""

from __future__ import annotations

import zoneinfo
from datetime import date
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from casino.cage import selectors as cash_selectors
from casino.cage import slip_selectors
from casino.cage.models import Slip
from casino.cage.services.slips import (
    ISSUE,
    RECEIVE,
    VOID,
    slip_issue,
    slip_receive,
    slip_steps,
    slip_void,
)
from casino.cage.views.slips import waiting_for
from casino.export_views import export_view, file_language
from casino.exports import Column, Export, Kind, Sheet, csv_response, pdf_bytes
from casino.floor.console.access import console_login_required, page, refusal, use_venue_language
from casino.floor.console.selectors import venues_where
from casino.kernel.errors import Conflict, Forbidden, ServiceError
from casino.kernel.timezones import venue_zone
from casino.staff.policy import Capability, allows, declare
from casino.venues.models import Venue


def _not_cashier(request: HttpRequest) -> HttpResponse:
    return refusal(request, 403, _("Only the cage's cashier works on this screen."))


@declare(Capability.CAGE)
@require_GET
@console_login_required
def cage_home(request: HttpRequest) -> HttpResponse:
    """The venues where the user is the cage's cashier."""
    venues = venues_where(user=request.user, capability=Capability.CAGE.roles)
    if not venues:
        return _not_cashier(request)
    if len({venue.language for venue in venues}) == 1:
        use_venue_language(request, venues[0].language)
    return render(request, "console/cage_home.html", {"venues": venues})


def cage_venue(request: HttpRequest, venue_id: int) -> Venue | HttpResponse:
    venue = slip_selectors.venue_for(user=request.user, pk=venue_id)
    if venue is None:
        raise Http404("no such venue among yours")
    use_venue_language(request, venue.language)
    if not allows(request.user, Capability.CAGE, venue.pk):
        return _not_cashier(request)
    return venue


def cage_context(venue: Venue, user: Any, **extra: Any) -> dict[str, Any]:
    lists = slip_selectors.cage_lists(venue=venue)
    every = [*lists.waiting, *lists.travelling, *lists.finished]
    return {
        "venue": venue,
        "lists": lists,
        "cash_alerts": cash_selectors.recent_alerts(venue=venue),
        "steps": {slip.pk: slip_steps(slip=slip, user=user) for slip in every},
        "waiting": {slip.pk: waiting_for(slip) for slip in every},
        "step_errors": {},
        "notice": "",
        "void_reason": "",
        **extra,
    }


@declare(Capability.CAGE)
@require_GET
@console_login_required
def cage(request: HttpRequest, venue_id: int) -> HttpResponse:
    """The cashier's screen of the venue (``?list=1``: its lists only, which htmx polls)."""
    venue = cage_venue(request, venue_id)
    if isinstance(venue, HttpResponse):
        return venue
    partial = "cage-lists" if request.GET.get("list") else "cage"
    return page(request, "console/cage.html", partial, cage_context(venue, request.user))


def _cage_done(slip: Slip, step: str) -> str:
    done = {
        ISSUE: _("%(kind)s %(number)s issued: the table signs for its chips."),
        RECEIVE: _("%(kind)s %(number)s received at the cage and entered in the ledger."),
        VOID: _("%(kind)s %(number)s voided."),
    }[step]
    return done % {"kind": slip.get_kind_display(), "number": slip.label}


@declare(Capability.CAGE)
@require_POST
@console_login_required
def cage_step(request: HttpRequest, venue_id: int, slip_id: int, step: str) -> HttpResponse:
    """Issue (naming the runner), receive a credit, or void (with a reason) a slip of the
    venue as the signed-in cashier; refused (403) with why when the service refuses."""
    venue = cage_venue(request, venue_id)
    if isinstance(venue, HttpResponse):
        return venue
    if step not in (ISSUE, RECEIVE, VOID):
        raise Http404("no such step of a slip at the cage")
    slip = slip_selectors.cage_slip_for(venue=venue, pk=slip_id)
    if slip is None:
        raise Http404("no such slip at this venue")
    reason = (request.POST.get("reason") or "").strip()
    try:
        if step == ISSUE:
            slip = slip_issue(slip=slip, user=request.user, runner=request.POST.get("runner", ""))
        elif step == RECEIVE:
            slip = slip_receive(slip=slip, user=request.user)
        else:
            slip = slip_void(slip=slip, user=request.user, reason=reason)
    except Forbidden as refused:
        return refusal(request, 403, refused.message)
    except ServiceError as refused:
        context = cage_context(
            venue, request.user, step_errors={slip.pk: refused.message}, void_reason=reason
        )
        status = 409 if isinstance(refused, Conflict) else 422
        return page(request, "console/cage.html", "cage", context, status=status)
    context = cage_context(venue, request.user, notice=_cage_done(slip, step))
    return page(request, "console/cage.html", "cage", context)


# The slip's PDF


def slip_pdf_bytes(slip: Slip) -> bytes:
    """The printable slip (WeasyPrint): venue, number, kind, table, session, each
    denomination x count = amount, total, times, and the four signature lines."""
    return pdf_bytes("console/slip_pdf.html", {"slip": slip, "venue": slip.venue})


@declare(Capability.READ_FLOOR)
@require_GET
@console_login_required
def slip_pdf(request: HttpRequest, slip_id: int) -> HttpResponse:
    """A slip as a PDF to print and sign, for anyone working at its venue."""
    slip = slip_selectors.slip_for(user=request.user, pk=slip_id)
    if slip is None:
        raise Http404("no such slip at your venues")
    use_venue_language(request, slip.venue.language)
    if not allows(request.user, Capability.READ_FLOOR, slip.venue_id):
        return refusal(request, 403, _("You do not work at this slip's venue."))
    with timezone.override(venue_zone(slip.venue)):  # the slip's times on the venue's clocks
        content = slip_pdf_bytes(slip)
    response = HttpResponse(content, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="slip-{slip.venue.code}-{slip.label}.pdf"'
    return response


# The slip report


def _report_venue(request: HttpRequest, venue_id: int) -> Venue | HttpResponse:
    venue = slip_selectors.venue_for(user=request.user, pk=venue_id)
    if venue is None:
        raise Http404("no such venue among yours")
    use_venue_language(request, venue.language)
    if not allows(request.user, Capability.READ_SLIP_REPORT, venue.pk):
        return refusal(
            request,
            403,
            _("The slip report is read by the cage, the supervisors, managers and auditors."),
        )
    return venue


def _report_day(request: HttpRequest, venue: Venue) -> date:
    try:
        return date.fromisoformat(request.GET.get("day", ""))
    except ValueError:
        current = slip_selectors.current_gaming_date(venue=venue)
        return current or timezone.now().astimezone(zoneinfo.ZoneInfo(venue.timezone)).date()


@declare(Capability.READ_SLIP_REPORT)
@require_GET
@console_login_required
def slip_report(request: HttpRequest, venue_id: int) -> HttpResponse:
    """The venue's slips of a gaming day (``?day=YYYY-MM-DD``, the current one otherwise)."""
    venue = _report_venue(request, venue_id)
    if isinstance(venue, HttpResponse):
        return venue
    day = slip_selectors.slip_day(venue=venue, gaming_date=_report_day(request, venue))
    csv_url = reverse("console:slip-report-csv", args=[venue.pk]) + f"?day={day.gaming_date}"
    context = {"venue": venue, "day": day, "csv_url": csv_url}
    return render(request, "console/slip_report.html", context)


@declare(Capability.READ_SLIP_REPORT)
@require_GET
@console_login_required
@export_view
def slip_report_csv(request: HttpRequest, venue_id: int) -> HttpResponse:
    """The slip report as CSV: one row per slip, then one per missing number."""
    venue = _report_venue(request, venue_id)
    if isinstance(venue, HttpResponse):
        return venue
    language = file_language(request, venue.language)
    day = slip_selectors.slip_day(venue=venue, gaming_date=_report_day(request, venue))
    columns = [
        Column(_("Slip")),
        Column(_("Kind")),
        Column(_("Table")),
        Column(_("Amount"), Kind.MONEY),
        Column(_("Status")),
        Column(_("Issued by")),
        Column(_("Posted at")),
        Column(_("Voided by")),
        Column(_("Reason")),
    ]
    rows = [
        [
            slip.label,
            slip.get_kind_display(),
            slip.session.table.code,
            slip.amount,
            slip.get_status_display(),
            slip.issued_by.get_username() if slip.issued_by else "",
            slip.verified_at,
            slip.voided_by.get_username() if slip.voided_by else "",
            slip.void_reason,
        ]
        for slip in day.slips
    ]
    rows += [[label, "", "", None, _("Missing"), "", None, "", ""] for label in day.missing]
    export = Export(
        currency=venue.currency,
        zone=venue_zone(venue),
        sheets=[Sheet(_("Slips"), columns, rows)],
    )
    name = f"slips-{venue.code}-{day.gaming_date.isoformat()}.csv"
    return csv_response(export, name, language=language)
