"""Fill and credit requests of a session: the dealer requests, the list shows their status."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from casino.console import forms, selectors
from casino.console.access import closed, page, session_context, with_session
from casino.console.labels import format_money
from casino.console.services import slip_request_once
from casino.errors import ServiceError
from casino.models import Slip, TableSession


def slips_context(session: TableSession, **extra: Any) -> dict[str, Any]:
    slips = selectors.session_slips(session=session)
    return {
        **session_context(session, "slips"),
        "slips": slips,
        "seen": len(slips),
        "denominations": session.table.chip_denominations,
        "kinds": Slip.Kind.choices,
        "errors": {},
        "data": {},
        "message": "",
        "notice": "",
        **extra,
    }


@require_http_methods(["GET", "POST"])
@with_session
def slips(request: HttpRequest, session: TableSession) -> HttpResponse:
    """Fill and credit requests of the session and their status; the dealer requests."""
    if request.method == "GET":
        partial = "slip-list" if request.GET.get("list") else "slips"
        return page(request, "console/slips.html", partial, slips_context(session))
    if session.status != TableSession.Status.OPEN:
        return closed(request, session, "slips")
    kind = request.POST.get("kind", "")
    chips, errors = forms.read_chips(request.POST, session.table.chip_denominations)
    seen = request.POST.get("seen", "")
    message = notice = ""
    if kind not in Slip.Kind.values:
        message = _("Choose a fill or a credit.")
    elif not errors and not chips:
        message = _("Count at least one chip.")
    elif not seen.isdecimal():
        message = _("The form is out of date; here it is again.")
    if errors or message:
        context = slips_context(session, errors=errors, data=request.POST, message=message)
        return page(request, "console/slips.html", "slips", context, status=422)
    try:
        slip = slip_request_once(
            session=session, user=request.user, kind=kind, chips=chips, seen=int(seen)
        )
    except ServiceError as error:
        context = slips_context(session, data=request.POST, message=error.message)
        return page(request, "console/slips.html", "slips", context, status=422)
    if slip is None:
        notice = _("That request was already sent; here is the list.")
    else:
        notice = _("%(kind)s %(number)s requested for %(amount)s.") % {
            "kind": slip.get_kind_display(),
            "number": slip.number,
            "amount": format_money(slip.amount, session.table.venue.currency),
        }
    return page(request, "console/slips.html", "slips", slips_context(session, notice=notice))
