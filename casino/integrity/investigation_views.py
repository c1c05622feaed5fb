"""The fluctuation investigation pages: the list, one investigation and its steps, the log.

Whoever reads a venue's reports reads its investigations (a venue the user does not work
at is "not found", one where they hold no reader's role "forbidden"); each step is a POST
to one service, which decides who may take it. A refused step shows the investigation
again with the service's message (and its status: 400, 403 or 409), never a 500; a step
done redirects to the page, and the same form posted twice changes nothing.
"""

from __future__ import annotations

import uuid
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_POST

from casino.export_views import export_view, file_language
from casino.exports import Column, Export, Kind, Sheet, csv_response
from casino.floor.console.access import use_venue_language
from casino.floor.console.readers import dates_asked, reader_check, venue_asked
from casino.integrity import investigation_steps as steps
from casino.integrity import selectors as chosen
from casino.integrity.investigations import venue_managers
from casino.integrity.models import FluctuationInvestigation
from casino.integrity.views import READERS as INTEGRITY_READERS
from casino.kernel.errors import ServiceError
from casino.kernel.timezones import venue_today, venue_zone
from casino.staff.policy import Capability, declare
from casino.staff.roles import MANAGE, can

Status = FluctuationInvestigation.Status
LOG_DAYS = 30
MAX_LOG_DAYS = 366
STEPS = ("reassign", "note", "findings", "sign-off", "close")


@declare(Capability.READ_REPORTS)
@login_required
@require_GET
def investigation_list(request: HttpRequest) -> HttpResponse:
    """The investigations of the user's venues, by status, overdue and venue."""
    venues, venue = venue_asked(request, required=False)
    status = request.GET.get("status", "")
    overdue = request.GET.get("overdue") == "1"
    context = {
        "venues": venues,
        "venue": venue,
        "status": status if status in Status.values else "",
        "statuses": Status.choices,
        "overdue": overdue,
        "investigations": chosen.investigations_list(
            user=request.user, venue=venue, status=status, overdue=overdue
        ),
    }
    return render(request, "reports/investigations.html", context)


def _get(request: HttpRequest, pk: int) -> FluctuationInvestigation:
    investigation = chosen.investigation_get(pk=pk)
    if investigation is None:
        raise Http404("no such investigation")
    reader_check(request.user, investigation.venue_id)
    use_venue_language(request, investigation.venue.language)
    return investigation


def _detail(
    request: HttpRequest,
    investigation: FluctuationInvestigation,
    *,
    error: ServiceError | None = None,
    step: str = "",
) -> HttpResponse:
    user = request.user
    manager = can(user, MANAGE, investigation.venue_id)
    assignee = investigation.assigned_to_id == user.pk
    open_ = investigation.status != Status.CLOSED
    context = {
        "inv": investigation,
        "shown": chosen.shown(investigation),
        "notes": chosen.investigation_notes(investigation),
        "managers": list(venue_managers(investigation.venue_id)) if manager and open_ else [],
        "outcomes": FluctuationInvestigation.Outcome.choices,
        "can_reassign": manager and open_,
        "can_note": manager or assignee,
        "can_write_findings": (manager or assignee)
        and investigation.status in (Status.OPEN, Status.FINDINGS),
        "can_sign_off": manager and investigation.status == Status.FINDINGS,
        "can_close": manager and investigation.status == Status.SIGNED_OFF,
        "reads_integrity": can(user, INTEGRITY_READERS, investigation.venue_id),
        "note_key": uuid.uuid4().hex,
        "error": error,
        "error_step": step,
        "done": request.GET.get("done", "") if error is None else "",
        "posted": request.POST if error is not None else {},
    }
    status = error.status if error is not None else 200
    return render(request, "reports/investigations_detail.html", context, status=status)


@declare(Capability.READ_REPORTS)
@login_required
@require_GET
def investigation_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """One investigation: its figures, its notes and the forms of its next steps."""
    return _detail(request, _get(request, pk))


@declare(Capability.MANAGE_VENUE)
@login_required
@require_POST
def investigation_step(request: HttpRequest, pk: int, step: str) -> HttpResponse:
    """One step of an investigation, by the service of that step."""
    if step not in STEPS:
        raise Http404("no such step")
    investigation = _get(request, pk)
    user, data = request.user, request.POST
    try:
        if step == "reassign":
            assignee = (
                get_user_model().objects.filter(pk=data.get("assignee")).first()
                if str(data.get("assignee", "")).isdigit()
                else None
            )
            steps.investigation_reassign(investigation=investigation, user=user, assignee=assignee)
        elif step == "note":
            steps.investigation_note_add(
                investigation=investigation,
                user=user,
                text=data.get("text", ""),
                key=data.get("key", ""),
            )
        elif step == "findings":
            steps.investigation_findings(
                investigation=investigation, user=user, findings=data.get("findings", "")
            )
        elif step == "sign-off":
            steps.investigation_sign_off(investigation=investigation, user=user)
        else:
            steps.investigation_close(
                investigation=investigation, user=user, outcome=data.get("outcome", "")
            )
    except ServiceError as error:
        investigation = chosen.investigation_get(pk=pk)
        return _detail(request, investigation, error=error, step=step)
    return redirect(reverse("reports:investigation", args=[pk]) + f"?done={step}")


@declare(Capability.READ_REPORTS)
@login_required
@require_GET
@export_view
def investigation_log(request: HttpRequest) -> HttpResponse:
    """A venue's investigations opened in a date range, as a page or (``?format=csv``) a CSV."""
    venues, venue = venue_asked(request, required=True)
    date_from, date_to = dates_asked(
        request, today=venue_today(venue), days=LOG_DAYS, longest=MAX_LOG_DAYS
    )
    log = chosen.investigation_log(venue=venue, date_from=date_from, date_to=date_to)
    if request.GET.get("format") == "csv":
        language = file_language(request, venue.language)
        name = f"{venue.code}-investigations-{date_from}-{date_to}.csv"
        return csv_response(log_export(log), name, language=language)
    context = {
        "venues": venues,
        "venue": venue,
        "date_from": date_from,
        "date_to": date_to,
        "log": log,
        "csv_url": reverse("reports:investigation_log")
        + f"?venue={venue.code}&from={date_from.isoformat()}&to={date_to.isoformat()}&format=csv",
    }
    return render(request, "reports/investigations_log.html", context)


def _name(user: Any) -> str:
    return user.get_username() if user is not None else ""


def _log_row(line: chosen.InvestigationLine) -> list[Any]:
    row = line.investigation
    return [
        row.opened_at,
        row.shift.gaming_date if row.shift_id else None,
        row.shift.name if row.shift_id else row.figures.get("period", ""),
        row.line_label,
        row.handle,
        row.house_win,
        row.theoretical_win,
        row.hold_pct,
        row.range_low_pct,
        row.range_high_pct,
        _name(row.assigned_to) or gettext("unassigned"),
        row.due_at,
        row.get_status_display(),
        row.get_outcome_display(),
        _name(row.findings_by),
        _name(row.signed_off_by),
        row.closed_at,
        line.days_taken,
        line.overdue,
    ]


def log_export(log: chosen.Log) -> Export:
    """The log as an export: amounts in the venue's currency, times on its clocks."""
    venue = log.venue
    columns = [
        Column(gettext("Opened")),
        Column(gettext("Gaming date")),
        Column(gettext("Shift")),
        Column(gettext("Table")),
        Column(gettext("Handle"), Kind.MONEY),
        Column(gettext("House win"), Kind.MONEY),
        Column(gettext("Theoretical win"), Kind.COMPUTED),
        Column(gettext("Hold %"), Kind.PERCENT),
        Column(gettext("Range low %"), Kind.PERCENT),
        Column(gettext("Range high %"), Kind.PERCENT),
        Column(gettext("Assigned to")),
        Column(gettext("Due")),
        Column(gettext("Status")),
        Column(gettext("Outcome")),
        Column(gettext("Findings by")),
        Column(gettext("Signed off by")),
        Column(gettext("Closed at")),
        Column(gettext("Days taken"), Kind.COUNT),
        Column(gettext("Overdue")),
    ]
    rows = [_log_row(line) for line in log.rows]
    return Export(
        currency=venue.currency,
        zone=venue_zone(venue),
        heading=[
            [gettext("Investigation log"), venue.name, log.date_from, log.date_to],
            [gettext("Currency"), venue.currency, gettext("Time zone"), venue.timezone],
        ],
        sheets=[Sheet(gettext("Investigations"), columns, rows)],
    )
