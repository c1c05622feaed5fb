"""Buy-ins and cash-outs at the table: the dealer (or a supervisor) records them in a few
keystrokes (membership number, amount, Enter: a cash buy-in unless another kind or
instrument is chosen), and the session's list shows them; a supervisor voids a mistake
with a reason, and the correction is entered again (``casino.cage.services.cash``).

Before recording, the form asks the services' own rule (``threshold_crossing``) whether
this one reaches the venue's logging or reporting threshold: when it does, nothing is
recorded yet; the form says so (the patron's cash of the day with it, the threshold) and
asks for the identification the crossing needs, and the next Enter records it (the form
carries the level the dealer was shown; a higher one reached meanwhile is shown again).
After it, the notice and the list say the threshold reached, as the pit's view does."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from casino.cage import selectors as cash_selectors
from casino.cage.models import CashInstrument, CashKind, CashLevel, UnknownPatron
from casino.cage.services.cash import RECORDABLE, cash_record, cash_void, player_of
from casino.cage.services.thresholds import Identification, ThresholdCrossing, threshold_crossing
from casino.floor.console import forms
from casino.floor.console.access import closed, page, refusal, session_context, with_session
from casino.floor.models import TableSession
from casino.kernel.errors import Forbidden, InvalidInput, ServiceError
from casino.kernel.money import venue_money
from casino.players.eligibility import Activity, player_eligibility
from casino.players.models import Player
from casino.staff.roles import SUPERVISE, can
from casino.venues.models import Venue

TEMPLATE = "console/cash.html"


def cash_context(session: TableSession, user: Any, **extra: Any) -> dict[str, Any]:
    return {
        **session_context(session, "cash"),
        # The void is a supervisor's (the service refuses anyone else's).
        "can_void": can(user, SUPERVISE, session.table.venue_id),
        "transactions": cash_selectors.session_cash(session=session),
        "kinds": CashKind.choices,
        "instruments": [(i, CashInstrument(i).label) for i in RECORDABLE],
        "key": forms.new_key(),
        "errors": {},
        "data": {},
        "notice": "",
        "void_errors": {},
        "crossing": None,
        "crossing_text": "",
        **extra,
    }


#: The form's field that carries the threshold level the dealer was shown.
SHOWN = "threshold_shown"


def crossing_text(
    crossing: ThresholdCrossing, player: Player | None, venue: Venue, patron: Any = None
) -> str:
    """What the table is told before recording a transaction that reaches a threshold (of a
    member, an unknown patron or nobody known)."""
    amounts = {
        "threshold": venue_money(crossing.threshold, venue),
        "total": venue_money(crossing.total, venue),
    }
    if player is None and patron is not None:
        player = Player(name=patron.code)
    if player is None:
        return _(
            "This cash of %(total)s reaches the %(level)s of %(threshold)s. The patron is not "
            "a known member: describe them (or give their membership number), then record."
        ) % {**amounts, "level": CashLevel(crossing.level).label.lower()}
    text = _(
        "With this one, %(name)s's cash today comes to %(total)s: it reaches the %(level)s "
        "of %(threshold)s."
    ) % {**amounts, "name": player.name, "level": CashLevel(crossing.level).label.lower()}
    if crossing.identification == Identification.DOCUMENT:
        return (
            text + " " + _("Ask for an identity document, give its type and number, then record.")
        )
    if crossing.reporting:
        return text + " " + _("Record it: the cage and the pit are alerted.")
    return text + " " + _("Record it: it goes in the cash log.")


def recorded_text(tx: Any) -> str:
    """The threshold a transaction reached, said after recording it (empty for none)."""
    if tx.threshold == CashLevel.REPORTING:
        return _("It reached the reporting threshold: the cage and the pit are alerted.")
    if tx.threshold == CashLevel.LOGGING:
        return _("It reached the logging threshold: it goes in the cash log.")
    return ""


def _named(venue: Venue, text: str, errors: dict[str, str]) -> tuple[Any, Any]:
    """The member or unknown patron the member's field names: an unknown patron's
    identifier (U-…), else a membership number (what is wrong with it in ``errors``)."""
    patron = UnknownPatron.objects.filter(venue=venue, code=text.strip().upper()).first()
    if patron is not None:
        return None, patron
    try:
        return player_of(venue, text), None
    except InvalidInput as error:
        errors["player"] = error.message
        return None, None


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
    player, patron = _named(venue, data.get("player", ""), errors)
    who = {"player": player, "unknown_patron": patron}
    kind = data.get("kind") or CashKind.BUY_IN
    instrument = data.get("instrument") or CashInstrument.CASH
    crossing = None
    if not errors:
        crossing = threshold_crossing(
            venue=venue, kind=kind, instrument=instrument, amount=amount, **who
        )
    shown = {"crossing": crossing, "crossing_text": ""}
    if crossing is not None:
        shown["crossing_text"] = crossing_text(crossing, player, venue, patron)
        if data.get(SHOWN) != crossing.level:
            # Said before anything is recorded: the next Enter records it.
            context = cash_context(
                session, request.user, data=data, key=forms.read_key(data), **shown
            )
            return page(request, TEMPLATE, "cash", context)
    if not errors:
        try:
            tx = cash_record(
                session=session,
                user=request.user,
                amount=amount,
                kind=kind,
                instrument=instrument,
                **who,
                key=forms.read_key(data),
                id_document_type=data.get("id_document_type", ""),
                id_document_number=data.get("id_document_number", ""),
                patron_description=data.get("patron_description", ""),
            )
        except Forbidden as refused:
            return refusal(request, 403, refused.message)
        except ServiceError as error:
            errors[error.field or "amount"] = error.message
    if errors:
        context = cash_context(
            session, request.user, errors=errors, data=data, key=forms.read_key(data), **shown
        )
        return page(request, TEMPLATE, "cash", context, status=422)
    notice = _("%(kind)s of %(amount)s (%(instrument)s) recorded for %(player)s.") % {
        "kind": tx.get_kind_display(),
        "amount": venue_money(tx.amount, venue),
        "instrument": tx.get_instrument_display(),
        "player": tx.player.name
        if tx.player_id
        else (tx.unknown_patron.code if tx.unknown_patron_id else _("an unknown player")),
    }
    reached = recorded_text(tx)
    if tx.kind == CashKind.CASH_OUT and tx.player_id:
        # A barred player's cash-out is paid (the house keeps nothing of theirs), and the
        # dealer is told so, as the audit trail and the security log are.
        asked = player_eligibility(
            player=tx.player, venue=venue, activity=Activity.CASH_OUT, at=tx.recorded_at
        )
        if asked.barred:
            reached = " ".join(
                [
                    reached,
                    _(
                        "%(name)s is barred: the cash-out is paid and recorded as a barred "
                        "player's; call the supervisor."
                    )
                    % {"name": tx.player.name},
                ]
            )
    context = cash_context(
        session, request.user, notice=f"{notice} {reached}".strip(), reached=tx.threshold
    )
    return page(request, TEMPLATE, "cash", context)


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
