"""Fills and credits of a session: the dealer requests; supervisors issue, verify (a second
one) or void each slip from the list, which offers a viewer only the steps they may take
(``casino.services.slips.slip_steps``, the rule the services themselves apply)."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from casino.console import forms, selectors
from casino.console.access import closed, page, refusal, session_context, with_session
from casino.console.services import slip_request_once
from casino.errors import Conflict, Forbidden, ServiceError
from casino.models import Slip, SlipStatus, TableSession
from casino.money import venue_money
from casino.services.slips import (
    ISSUE,
    STEPS,
    VERIFY,
    VOID,
    slip_issue,
    slip_refusal,
    slip_steps,
    slip_verify,
    slip_void,
)


def slips_context(session: TableSession, user: Any, **extra: Any) -> dict[str, Any]:
    slips = selectors.session_slips(session=session)
    return {
        **session_context(session, "slips"),
        "slips": slips,
        "seen": len(slips),
        "denominations": session.table.chip_denominations,
        "kinds": Slip.Kind.choices,
        "steps": {slip.pk: slip_steps(slip=slip, user=user) for slip in slips},
        "waiting": _waiting_for_another(slips, user),
        "errors": {},
        "data": {},
        "message": "",
        "notice": "",
        "step_errors": {},
        "void_reason": "",
        **extra,
    }


def _waiting_for_another(slips: list[Slip], user: Any) -> dict[int, str]:
    """Why the viewer is not offered Verify on a slip they issued (a second person counts)."""
    waiting = {}
    for slip in slips:
        if slip.status == SlipStatus.ISSUED:
            refused = slip_refusal(slip=slip, user=user, step=VERIFY)
            if refused is not None and refused.reason == "verify_by_issuer":
                waiting[slip.pk] = _("You issued it: another supervisor verifies it.")
    return waiting


@require_http_methods(["GET", "POST"])
@with_session
def slips(request: HttpRequest, session: TableSession) -> HttpResponse:
    """Fill and credit requests of the session and their status; the dealer requests."""
    if request.method == "GET":
        partial = "slip-list" if request.GET.get("list") else "slips"
        return page(request, "console/slips.html", partial, slips_context(session, request.user))
    if session.status != TableSession.Status.OPEN:
        return closed(request, session, "slips")
    kind = request.POST.get("kind", "")
    chips, errors = forms.read_chips(
        request.POST, session.table.chip_denominations, grouping=session.table.venue.amount_grouping
    )
    seen = request.POST.get("seen", "")
    message = notice = ""
    if kind not in Slip.Kind.values:
        message = _("Choose a fill or a credit.")
    elif not errors and not chips:
        message = _("Count at least one chip.")
    elif not seen.isdecimal():
        message = _("The form is out of date; here it is again.")
    if errors or message:
        context = slips_context(
            session, request.user, errors=errors, data=request.POST, message=message
        )
        return page(request, "console/slips.html", "slips", context, status=422)
    try:
        slip = slip_request_once(
            session=session, user=request.user, kind=kind, chips=chips, seen=int(seen)
        )
    except ServiceError as error:
        context = slips_context(session, request.user, data=request.POST, message=error.message)
        return page(request, "console/slips.html", "slips", context, status=422)
    if slip is None:
        notice = _("That request was already sent; here is the list.")
    else:
        notice = _("%(kind)s %(number)s requested for %(amount)s.") % {
            "kind": slip.get_kind_display(),
            "number": slip.label,
            "amount": venue_money(slip.amount, session.table.venue),
        }
    context = slips_context(session, request.user, notice=notice)
    return page(request, "console/slips.html", "slips", context)


def _step_done(slip: Slip, step: str) -> str:
    done = {
        ISSUE: _("%(kind)s %(number)s issued: another supervisor verifies it."),
        VERIFY: _("%(kind)s %(number)s verified and entered in the ledger."),
        VOID: _("%(kind)s %(number)s voided."),
    }[step]
    return done % {"kind": slip.get_kind_display(), "number": slip.label}


def _take_step(slip: Slip, user: Any, step: str, reason: str) -> Slip:
    if step == ISSUE:
        return slip_issue(slip=slip, user=user)
    if step == VERIFY:
        return slip_verify(slip=slip, user=user)
    return slip_void(slip=slip, user=user, reason=reason)


@require_POST
@with_session
def slip_step(request: HttpRequest, session: TableSession, slip_id: int, step: str) -> HttpResponse:
    """Issue, verify or void a slip of the session as the signed-in supervisor. A step the
    viewer may not take is refused (403) with why, however the request was made."""
    if step not in STEPS:
        raise Http404("no such step of a slip")
    slip = selectors.session_slip_for(session=session, pk=slip_id)
    if slip is None:
        raise Http404("no such slip in this session")
    reason = (request.POST.get("reason") or "").strip()
    try:
        slip = _take_step(slip, request.user, step, reason)
    except Forbidden as refused:
        if refused.reason == "not_supervisor":
            return refusal(
                request,
                403,
                _(
                    "Only a supervisor issues, verifies or voids a fill or a credit; a "
                    "supervisor does it from their own login."
                ),
            )
        return refusal(request, 403, refused.message)
    except ServiceError as refused:
        context = slips_context(
            session, request.user, step_errors={slip.pk: refused.message}, void_reason=reason
        )
        status = 409 if isinstance(refused, Conflict) else 422
        return page(request, "console/slips.html", "slips", context, status=status)
    context = slips_context(session, request.user, notice=_step_done(slip, step))
    return page(request, "console/slips.html", "slips", context)
