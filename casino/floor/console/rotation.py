"""Dealer rotation at the table: who is on duty, the session's spells, and the relief.

Anyone with a role at the venue reads the page (``READ``); a supervisor records a relief
from it: the incoming dealer chosen from the venue's dealers, and whether the outgoing one
goes on a break or to another table (``casino.floor.services.rotation.dealer_relieve``). A
relief is refused while a round is dealt and not settled; the page then says so.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from casino.floor.console.access import forbidden, page, session_context, session_view
from casino.floor.models import TableSession
from casino.floor.rotation_selectors import session_spells, venue_dealers
from casino.floor.services.rotation import dealer_relieve
from casino.kernel.errors import ServiceError
from casino.staff.policy import Capability
from casino.staff.roles import SUPERVISE, can
from casino.venues.models import DealerSpell


def _context(session: TableSession, **extra: object) -> dict[str, object]:
    return {
        **session_context(session, "dealers"),
        "spells": session_spells(session),
        "dealers": [d for d in venue_dealers(session.table.venue_id) if d.pk != session.dealer_id],
        "reasons": [
            (DealerSpell.End.BREAK, DealerSpell.End.BREAK.label),
            (DealerSpell.End.RELIEF, DealerSpell.End.RELIEF.label),
        ],
        "error": "",
        "chosen": None,
        "reason": DealerSpell.End.BREAK,
        **extra,
    }


@require_http_methods(["GET", "POST"])
def _dealers(request: HttpRequest, session: TableSession) -> HttpResponse:
    supervises = can(request.user, SUPERVISE, session.table.venue_id)
    if request.method == "GET":
        return page(
            request, "console/dealers.html", "dealers", _context(session, supervises=supervises)
        )
    if not supervises:
        return forbidden(request)
    chosen = (request.POST.get("dealer") or "").strip()
    reason = request.POST.get("reason") or DealerSpell.End.BREAK
    by_pk = {str(d.pk): d for d in venue_dealers(session.table.venue_id)}
    error, status = "", 200
    if chosen not in by_pk:
        error, status = _("Choose the incoming dealer from the venue's dealers."), 422
    else:
        try:
            dealer_relieve(session=session, dealer=by_pk[chosen], by=request.user, reason=reason)
        except ServiceError as refused:
            error, status = refused.message, 409 if refused.status == 409 else 422
        else:
            session.refresh_from_db(fields=["dealer", "status"])
    context = _context(
        session,
        supervises=True,
        error=error,
        chosen=chosen if error else None,
        reason=reason,
        done=not error,
    )
    return page(request, "console/dealers.html", "dealers", context, status=status)


#: The dealers' page: read by any role at the venue, a relief recorded by a supervisor.
dealers = session_view(_dealers, capability=Capability.READ_FLOOR)
