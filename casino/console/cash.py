"""Buy-ins and cash-outs at the table: the dealer (or a supervisor) records them in a few
keystrokes (membership number, amount, Enter: a cash buy-in unless another kind or
instrument is chosen), and the session's list shows them; a supervisor voids a mistake
with a reason, and the correction is entered again (``casino.services.cash``)."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from casino import cash_selectors
from casino.console import forms
from casino.console.access import closed, page, refusal, session_context, with_session
from casino.errors import Forbidden, InvalidInput, ServiceError
from casino.models import CashInstrument, CashKind, TableSession
from casino.money import venue_money
from casino.roles import SUPERVISE, can
from casino.services.cash import cash_record, cash_void, player_of

TEMPLATE = "console/cash.html"


def cash_context(session: TableSession, user: Any, **extra: Any) -> dict[str, Any]:
    return {
        **session_context(session, "cash"),
        # The void is a supervisor's (the service refuses anyone else's).
        "can_void": can(user, SUPERVISE, session.table.venue_id),
        "transactions": cash_selectors.session_cash(session=session),
        "kinds": CashKind.choices,
        "instruments": CashInstrument.choices,
        "key": forms.new_key(),
        "errors": {},
        "data": {},
        "notice": "",
        "void_errors": {},
        **extra,
    }


@require_http_methods(["GET", "POST"])
@with_session
def cash(request: HttpRequest, session: TableSession) -> HttpResponse:
    """The session's buy-ins and cash-outs; a POST records one."""
    if request.method == "GET":
        return page(request, TEMPLATE, "cash", cash_context(session, request.user))
    if session.status != TableSession.Status.OPEN:
        return closed(request, session, "cash")
    venue = session.table.venue
    data = request.POST
    errors: dict[str, str] = {}
    amount = None
    try:
        amount = forms.read_amount(data.get("amount", ""), venue, unit=venue.rounding_unit)
    except ValueError as error:
        errors["amount"] = str(error)
    if amount is None and "amount" not in errors:
        errors["amount"] = _("Give the amount, e.g. 1000000.")
    player = None
    try:
        player = player_of(venue, data.get("player", ""))
    except InvalidInput as error:
        errors["player"] = error.message
    if not errors:
        try:
            tx = cash_record(
                session=session,
                user=request.user,
                amount=amount,
                kind=data.get("kind") or CashKind.BUY_IN,
                instrument=data.get("instrument") or CashInstrument.CASH,
                player=player,
                key=forms.read_key(data),
            )
        except Forbidden as refused:
            return refusal(request, 403, refused.message)
        except ServiceError as error:
            errors[error.field or "amount"] = error.message
    if errors:
        context = cash_context(
            session, request.user, errors=errors, data=data, key=forms.read_key(data)
        )
        return page(request, TEMPLATE, "cash", context, status=422)
    notice = _("%(kind)s of %(amount)s (%(instrument)s) recorded for %(player)s.") % {
        "kind": tx.get_kind_display(),
        "amount": venue_money(tx.amount, venue),
        "instrument": tx.get_instrument_display(),
        "player": tx.player.name if tx.player_id else _("an unknown player"),
    }
    return page(request, TEMPLATE, "cash", cash_context(session, request.user, notice=notice))


@require_POST
@with_session
def cash_void_view(request: HttpRequest, session: TableSession, tx_id: int) -> HttpResponse:
    """A supervisor voids one of the session's transactions with a reason."""
    tx = cash_selectors.session_transaction_for(session=session, pk=tx_id)
    if tx is None:
        raise Http404("no such transaction in this session")
    try:
        tx = cash_void(tx=tx, user=request.user, reason=request.POST.get("reason", ""))
    except Forbidden as refused:
        return refusal(request, 403, refused.message)
    except ServiceError as error:
        context = cash_context(session, request.user, void_errors={tx.pk: error.message})
        return page(request, TEMPLATE, "cash", context, status=422)
    notice = _("%(kind)s of %(amount)s voided.") % {
        "kind": tx.get_kind_display(),
        "amount": venue_money(tx.amount, session.table.venue),
    }
    return page(request, TEMPLATE, "cash", cash_context(session, request.user, notice=notice))
