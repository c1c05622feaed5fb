"""Fills and credits of a session, the table's side: the dealer (or a supervisor) requests by
denomination; once the cage has issued a slip, the dealer and a supervisor each sign for its
chips from their own login on this page (a fill's received, a credit's sent); a supervisor
voids. The list offers a viewer only the steps they may take
(``casino.cage.services.slips.slip_steps``, the rule the services themselves apply); the cage's
side is ``casino/cage/views/cage.py``."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from casino.cage import slip_selectors
from casino.cage.models import Slip, SlipStatus
from casino.cage.services.slips import (
    CONFIRM_DEALER,
    CONFIRM_SUPERVISOR,
    TABLE_STEPS,
    VOID,
    slip_confirm_dealer,
    slip_confirm_supervisor,
    slip_request_once,
    slip_steps,
    slip_void,
)
from casino.cage.slip_selectors import tray_inventory
from casino.floor.console import forms
from casino.floor.console.access import closed, page, refusal, session_context, with_session
from casino.floor.models import TableSession
from casino.kernel.errors import Conflict, Forbidden, ServiceError
from casino.kernel.money import venue_money


def slips_context(session: TableSession, user: Any, **extra: Any) -> dict[str, Any]:
    slips = slip_selectors.session_slips(session=session)
    return {
        **session_context(session, "slips"),
        "slips": slips,
        "seen": len(slips),
        "denominations": session.table.chip_denominations,
        "tray": _tray_rows(session),
        "kinds": Slip.Kind.choices,
        "steps": {slip.pk: slip_steps(slip=slip, user=user) for slip in slips},
        "waiting": {slip.pk: waiting_for(slip) for slip in slips},
        "errors": {},
        "data": {},
        "message": "",
        "notice": "",
        "step_errors": {},
        "void_reason": "",
        **extra,
    }


def _tray_rows(session: TableSession) -> list[tuple[str, int, int]]:
    """The tray by denomination, the table's order: the opener's chips, and with the
    posted fills and credits (``tray_inventory``)."""
    tray = tray_inventory(session=session)
    opener = session.opening_chips
    return [
        (denomination, int(opener.get(denomination, 0)), tray.get(denomination, 0))
        for denomination in session.table.chip_denominations
        if opener.get(denomination) or tray.get(denomination)
    ]


def waiting_for(slip: Slip) -> str:
    """What the slip waits for, in the reader's language ("" once posted or voided)."""
    if slip.status == SlipStatus.REQUESTED:
        return _("At the cage: waiting to be issued.")
    if slip.status != SlipStatus.ISSUED:
        return ""
    dealer = slip.dealer_confirmed_by_id is not None
    supervisor = slip.supervisor_confirmed_by_id is not None
    if dealer and supervisor:
        return _("Signed out: the chips are on their way to the cage.")
    if slip.kind == Slip.Kind.FILL:
        if dealer:
            return _("Chips received by the dealer: a supervisor signs for them too.")
        if supervisor:
            return _("Chips received by a supervisor: the dealer signs for them too.")
        return _(
            "Chips on their way: the dealer and a supervisor sign for their receipt at the table."
        )
    if dealer:
        return _("Signed out by the dealer: a supervisor signs the chips out too.")
    if supervisor:
        return _("Signed out by a supervisor: the dealer signs the chips out too.")
    return _("Issued: the dealer and a supervisor sign the chips out at the table.")


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
    if slip.status == SlipStatus.VERIFIED:
        done = _(
            "%(kind)s %(number)s signed by the dealer and a supervisor: entered in the ledger."
        )
    elif step == VOID:
        done = _("%(kind)s %(number)s voided.")
    else:
        done = _("%(kind)s %(number)s signed at the table.")
    return done % {"kind": slip.get_kind_display(), "number": slip.label}


def _take_step(slip: Slip, user: Any, step: str, reason: str) -> Slip:
    if step == CONFIRM_DEALER:
        return slip_confirm_dealer(slip=slip, user=user)
    if step == CONFIRM_SUPERVISOR:
        return slip_confirm_supervisor(slip=slip, user=user)
    return slip_void(slip=slip, user=user, reason=reason)


@require_POST
@with_session
def slip_step(request: HttpRequest, session: TableSession, slip_id: int, step: str) -> HttpResponse:
    """Sign for a slip's chips at the table (as its dealer or as a supervisor) or void it,
    as the signed-in user. A step the viewer may not take is refused (403) with why, however
    the request was made; the cage's steps are not this page's (404)."""
    if step not in (*TABLE_STEPS, VOID):
        raise Http404("no such step of a slip at the table")
    slip = slip_selectors.session_slip_for(session=session, pk=slip_id)
    if slip is None:
        raise Http404("no such slip in this session")
    reason = (request.POST.get("reason") or "").strip()
    try:
        slip = _take_step(slip, request.user, step, reason)
    except Forbidden as refused:
        return refusal(request, 403, refused.message)
    except ServiceError as refused:
        context = slips_context(
            session, request.user, step_errors={slip.pk: refused.message}, void_reason=reason
        )
        status = 409 if isinstance(refused, Conflict) else 422
        return page(request, "console/slips.html", "slips", context, status=status)
    context = slips_context(session, request.user, notice=_step_done(slip, step))
    return page(request, "console/slips.html", "slips", context)
