"""The compliance screens, under ``/compliance/``: the venues whose cases one works on, a
venue's cases (by status, overdue), a case opened, a case's page (its subject, grounds,
evidence, steps, deadline, who read it, and the steps the reader may take: submit, decide,
file), and the large-cash-transaction report page (its files: ``lctr_views.py``).

Every page is the venue's compliance staff's (``Capability.COMPLIANCE``): a venue or case
the reader does not work at is not found (404), anyone else there is refused (403) with
why, the player's dealer and supervisor and the venue's managers included. Every reading of
a case's page is audited (``compliance.case.view``). Each form calls one service.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from casino.cage.services.cash import player_of
from casino.compliance import selectors
from casino.compliance.conflicts import (
    case_conflict_refusal,
    case_read_refusal,
    cases_hidden_from,
)
from casino.compliance.models import CaseStatus, Decision, SuspicionCase
from casino.compliance.services import (
    case_decide,
    case_file,
    case_open,
    case_submit,
    case_viewed,
    compliance_refusal,
)
from casino.floor.console.access import (
    console_login_required,
    go,
    page,
    refusal,
    use_venue_language,
)
from casino.kernel.errors import Forbidden, ServiceError
from casino.staff.policy import Capability, declare
from casino.venues.models import Venue

STEPS = ("submit", "decide", "file")


def not_compliance(request: HttpRequest) -> HttpResponse:
    return refusal(
        request,
        403,
        _("Only the venue's compliance staff see suspicious-activity cases and their reports."),
    )


def compliance_venue(request: HttpRequest, venue_id: int) -> Venue | HttpResponse:
    """The venue (404 if the reader does not work there), or the refusal (403)."""
    venue = selectors.venue_for(user=request.user, pk=venue_id)
    if venue is None:
        raise Http404("no such venue among yours")
    use_venue_language(request, venue.language)
    if compliance_refusal(request.user, venue.pk) is not None:
        return not_compliance(request)
    return venue


def _case(request: HttpRequest, case_id: int) -> SuspicionCase | HttpResponse:
    case = selectors.case_for(user=request.user, pk=case_id)
    if case is None:
        raise Http404("no such case at your venues")
    use_venue_language(request, case.venue.language)
    if compliance_refusal(request.user, case.venue_id) is not None:
        return not_compliance(request)
    too_close = case_read_refusal(user=request.user, case=case)
    if too_close is not None:
        return refusal(request, 403, too_close.message)
    return case


@declare(Capability.COMPLIANCE)
@require_GET
@console_login_required
def compliance_home(request: HttpRequest) -> HttpResponse:
    """The venues whose cases the reader works on."""
    venues = selectors.compliance_venues(user=request.user)
    if not venues:
        return not_compliance(request)
    if len({venue.language for venue in venues}) == 1:
        use_venue_language(request, venues[0].language)
    counts = selectors.open_counts(venues)
    lines = [(venue, *counts.get(venue.pk, (0, 0))) for venue in venues]
    return render(request, "compliance/home.html", {"lines": lines})


@declare(Capability.COMPLIANCE)
@require_GET
@console_login_required
def case_list(request: HttpRequest, venue_id: int) -> HttpResponse:
    """The venue's cases; ``?status=`` one status, ``?overdue=1`` the overdue only."""
    venue = compliance_venue(request, venue_id)
    if isinstance(venue, HttpResponse):
        return venue
    status = request.GET.get("status", "")
    overdue = request.GET.get("overdue") == "1"
    found = list(
        selectors.cases(venue=venue, status=status, overdue=overdue)[: selectors.LIST_LIMIT]
    )
    hidden = cases_hidden_from(request.user, venue.pk, found)
    found = [case for case in found if case.pk not in hidden]
    context = {
        "venue": venue,
        "cases": [(case, selectors.is_overdue(case)) for case in found],
        "statuses": CaseStatus.choices,
        "status": status,
        "overdue": overdue,
    }
    return page(request, "compliance/cases.html", "case-rows", context)


def _evidence_of(data: Any) -> list[dict[str, Any]]:
    lines: list[dict[str, Any]] = [
        {"kind": "cash_alert", "ref": ref, "note": ""} for ref in data.getlist("alerts")
    ]
    lines += [
        {"kind": "note", "ref": "", "note": line} for line in data.get("notes", "").splitlines()
    ]
    return lines


def _opened(request: HttpRequest, venue: Venue) -> tuple[SuspicionCase | None, dict[str, str]]:
    data = request.POST
    try:
        player = player_of(venue, data.get("player", ""))
        case = case_open(
            venue=venue,
            user=request.user,
            player=player,
            subject_description=data.get("subject_description", ""),
            grounds=data.get("grounds", ""),
            evidence=_evidence_of(data),
        )
    except Forbidden:
        raise
    except ServiceError as error:
        return None, {error.field or "grounds": error.message}
    return case, {}


@declare(Capability.COMPLIANCE)
@require_http_methods(["GET", "POST"])
@console_login_required
def case_new(request: HttpRequest, venue_id: int) -> HttpResponse:
    """The form to open a case; its POST opens a draft and goes to its page."""
    venue = compliance_venue(request, venue_id)
    if isinstance(venue, HttpResponse):
        return venue
    context: dict[str, Any] = {
        "venue": venue,
        "alerts": selectors.recent_alerts(venue=venue),
        "errors": {},
        "data": {},
    }
    if request.method == "GET":
        return render(request, "compliance/case_new.html", context)
    try:
        case, errors = _opened(request, venue)
    except Forbidden as refused:
        return refusal(request, 403, refused.message)
    if case is None:
        context.update(errors=errors, data=request.POST)
        return render(request, "compliance/case_new.html", context, status=422)
    return go(request, reverse("compliance:case", args=[case.pk]))


def case_context(case: SuspicionCase, user: Any, **extra: Any) -> dict[str, Any]:
    author = {case.opened_by_id, case.submitted_by_id} - {None}
    to_file = case.status == CaseStatus.DECIDED and case.decision == Decision.FILE
    # the services' own rule, asked before a form is offered
    too_close = (
        case_conflict_refusal(user=user, case=case)
        if case.status == CaseStatus.IN_REVIEW or to_file
        else None
    )
    return {
        "venue": case.venue,
        "case": case,
        "overdue": selectors.is_overdue(case),
        "steps": selectors.case_steps(case),
        "evidence": selectors.case_evidence(case),
        "readers": selectors.case_readers(case),
        "may_submit": case.status == CaseStatus.DRAFT and case.opened_by_id in (None, user.pk),
        "may_decide": case.status == CaseStatus.IN_REVIEW
        and user.pk not in author
        and too_close is None,
        "may_file": to_file and too_close is None,
        "too_close": too_close.message if too_close is not None else "",
        "decisions": Decision.choices,
        "errors": {},
        "data": {},
        "notice": "",
        "message": "",
        **extra,
    }


@declare(Capability.COMPLIANCE)
@require_GET
@console_login_required
def case_detail(request: HttpRequest, case_id: int) -> HttpResponse:
    """A case's page; reading it is recorded."""
    case = _case(request, case_id)
    if isinstance(case, HttpResponse):
        return case
    case_viewed(case=case, user=request.user, where="page")
    return page(request, "compliance/case.html", "case", case_context(case, request.user))


def _take(step: str, case: SuspicionCase, request: HttpRequest) -> tuple[SuspicionCase, str]:
    data = request.POST
    if step == "submit":
        done = case_submit(case=case, user=request.user, note=data.get("note", ""))
        return done, _("%(case)s submitted for review.") % {"case": done.label}
    if step == "decide":
        done = case_decide(
            case=case,
            user=request.user,
            decision=data.get("decision", ""),
            reasons=data.get("reasons", ""),
        )
        return done, _("%(case)s decided: %(decision)s.") % {
            "case": done.label,
            "decision": done.get_decision_display(),
        }
    done = case_file(case=case, user=request.user, reference=data.get("reference", ""))
    return done, _("%(case)s filed as %(reference)s.") % {
        "case": done.label,
        "reference": done.filing_reference,
    }


@declare(Capability.COMPLIANCE)
@require_POST
@console_login_required
def case_step(request: HttpRequest, case_id: int, step: str) -> HttpResponse:
    """Submit, decide or file the case; refused (403) with why when the service refuses."""
    case = _case(request, case_id)
    if isinstance(case, HttpResponse):
        return case
    if step not in STEPS:
        raise Http404("no such step")
    try:
        case, notice = _take(step, case, request)
    except Forbidden as refused:
        return refusal(request, 403, refused.message)
    except ServiceError as error:
        case = selectors.case_for(user=request.user, pk=case.pk) or case
        context = case_context(
            case,
            request.user,
            errors={error.field or step: error.message},
            message=error.message,
            data=request.POST,
        )
        return page(request, "compliance/case.html", "case", context, status=422)
    case_viewed(case=case, user=request.user, where="page")
    context = case_context(case, request.user, notice=notice)
    return page(request, "compliance/case.html", "case", context)
