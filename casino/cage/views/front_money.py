"""Front money on the screens: the cage window's page of a member's front money (deposit
and return, the cashier's), the table's draw of it for chips (the dealer's or a
supervisor's), and the balances report (supervisors, managers, auditors) with its CSV and
a manager's reversal of a movement entered by mistake.

Each write calls its service (``casino.cage.services.front_money``), which decides who may
and refuses with why; the balance shown is ``casino.cage.selectors.front_money_balance``,
the figure the services check.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from casino.cage import selectors as cash_selectors
from casino.cage.models import FrontMoney
from casino.cage.services.cage_identification import document_posted
from casino.cage.services.cash import player_of
from casino.cage.services.front_money import (
    front_money_deposit,
    front_money_draw,
    front_money_return,
    front_money_reverse,
)
from casino.cage.views.cage import cage_venue
from casino.export_views import export_view, file_language
from casino.exports import Column, Export, Kind, Sheet, csv_response
from casino.floor.console import forms
from casino.floor.console.access import (
    closed,
    console_login_required,
    page,
    refusal,
    session_context,
    with_session,
)
from casino.floor.console.readers import venue_asked
from casino.floor.models import TableSession
from casino.kernel.errors import Forbidden, InvalidInput, ServiceError
from casino.kernel.money import venue_money
from casino.kernel.replicas import replica_reads
from casino.kernel.timezones import venue_zone
from casino.players.models import Player
from casino.staff.policy import Capability, declare
from casino.staff.roles import MANAGE, can
from casino.venues.models import Venue

CAGE_TEMPLATE = "console/front_money.html"
DRAW_TEMPLATE = "console/front_money_draw.html"
REPORT_TEMPLATE = "reports/front_money.html"

#: The cage's two movements, by the form's action.
_AT_THE_CAGE = {"deposit": front_money_deposit, "return": front_money_return}
#: The fields of the cage's form an error is shown beside.
_FIELDS = ("amount", "note", "id_document_type", "id_document_number")


def _holder(venue: Venue, number: str) -> tuple[Player | None, str]:
    """The member a form names by membership number, or why none (empty: nobody asked)."""
    try:
        return player_of(venue, number), ""
    except InvalidInput as error:
        return None, error.message


def _form_errors(
    venue: Venue, data: Any, player: Player | None, player_error: str
) -> tuple[Any, dict[str, str]]:
    """A movement form's amount (read as the console reads amounts) and what is wrong with
    the form: no member, or no readable amount."""
    errors: dict[str, str] = {}
    if player is None:
        errors["player"] = player_error or _("Give the member's membership number.")
    amount = None
    try:
        amount = forms.read_amount(data.get("amount", ""), venue, unit=venue.rounding_unit)
    except ValueError as error:
        errors["amount"] = str(error)
    if amount is None and "amount" not in errors:
        errors["amount"] = _("Give the amount, e.g. 1000000.")
    return amount, errors


def _player_context(player: Player | None) -> dict[str, Any]:
    if player is None:
        return {"player": None, "balance": None, "movements": []}
    return {
        "player": player,
        "balance": cash_selectors.front_money_balance(player),
        "movements": cash_selectors.front_money_movements(player),
    }


def _cage_render(
    request: HttpRequest, venue: Venue, player: Player | None, status: int = 200, **extra: Any
) -> HttpResponse:
    context = {
        "venue": venue,
        "errors": {},
        "data": {},
        "notice": "",
        **_player_context(player),
        **extra,
    }
    with timezone.override(venue_zone(venue)):
        return page(request, CAGE_TEMPLATE, "front-money", context, status=status)


@declare(Capability.CAGE)
@require_http_methods(["GET", "POST"])
@console_login_required
def front_money_cage(request: HttpRequest, venue_id: int) -> HttpResponse:
    """A member's front money at the cage window (``?player=`` their membership number); a
    POST deposits or returns (``action``) an amount."""
    venue = cage_venue(request, venue_id)
    if isinstance(venue, HttpResponse):
        return venue
    data = request.POST if request.method == "POST" else request.GET
    player, player_error = _holder(venue, data.get("player", ""))
    if request.method == "GET":
        errors = {"player": player_error} if player_error else {}
        return _cage_render(request, venue, player, errors=errors, data=data)
    service = _AT_THE_CAGE.get(data.get("action", ""))
    if service is None:
        raise Http404("no such front money movement at the cage")
    amount, errors = _form_errors(venue, data, player, player_error)
    if not errors:
        try:
            id_document_type, id_document_number = document_posted(data)
            movement = service(
                venue=venue,
                player=player,
                user=request.user,
                amount=amount,
                note=data.get("note"),
                id_document_type=id_document_type,
                id_document_number=id_document_number,
            )
        except Forbidden as refused:
            return refusal(request, 403, refused.message)
        except ServiceError as error:
            errors[error.field if error.field in _FIELDS else "amount"] = error.message
    if errors:
        return _cage_render(request, venue, player, status=422, errors=errors, data=data)
    notice = _("%(kind)s of %(amount)s recorded for %(player)s.") % {
        "kind": movement.get_kind_display(),
        "amount": venue_money(abs(movement.amount), venue),
        "player": player.name,
    }
    return _cage_render(request, venue, player, notice=notice, data={"player": data["player"]})


# At the table


def _draw_render(
    request: HttpRequest, session: TableSession, player: Player | None, status: int = 200, **extra
) -> HttpResponse:
    context = {
        **session_context(session, "front-money"),
        "errors": {},
        "data": {},
        "notice": "",
        **_player_context(player),
        **extra,
    }
    return page(request, DRAW_TEMPLATE, "front-money", context, status=status)


@require_http_methods(["GET", "POST"])
@with_session
def front_money_table(request: HttpRequest, session: TableSession) -> HttpResponse:
    """A member draws chips at the table against their front money (``?player=`` shows
    their balance first)."""
    venue = session.table.venue
    data = request.POST if request.method == "POST" else request.GET
    player, player_error = _holder(venue, data.get("player", ""))
    if request.method == "GET":
        errors = {"player": player_error} if player_error else {}
        return _draw_render(request, session, player, errors=errors, data=data)
    if session.status != TableSession.Status.OPEN:
        return closed(request, session, "front-money")
    amount, errors = _form_errors(venue, data, player, player_error)
    if not errors:
        try:
            movement = front_money_draw(
                session=session, player=player, user=request.user, amount=amount
            )
        except Forbidden as refused:
            return refusal(request, 403, refused.message)
        except ServiceError as error:
            errors["amount"] = error.message
    if errors:
        return _draw_render(request, session, player, status=422, errors=errors, data=data)
    notice = _("%(player)s drew %(amount)s of chips against their front money.") % {
        "player": player.name,
        "amount": venue_money(-movement.amount, venue),
    }
    return _draw_render(request, session, player, notice=notice, data={"player": data["player"]})


# The balances report


def _report_context(
    request: HttpRequest, venue: Venue, number: str, **extra: Any
) -> dict[str, Any]:
    """The balances, and the movements of the member ``number`` names (none for "")."""
    with replica_reads():
        lines = cash_selectors.front_money_balances(venue=venue)
    player, _error = _holder(venue, number)
    return {
        "venue": venue,
        "lines": lines,
        "total": cash_selectors.front_money_held(lines),
        "csv_url": reverse("reports:front_money_csv") + f"?venue={venue.code}",
        "can_reverse": can(request.user, MANAGE, venue.pk),
        "errors": {},
        **_player_context(player),
        **extra,
    }


def _report_render(
    request: HttpRequest, venue: Venue, context: dict, status: int = 200
) -> HttpResponse:
    with timezone.override(venue_zone(venue)):
        return render(request, REPORT_TEMPLATE, context, status=status)


@declare(Capability.READ_REPORTS)
@login_required
@require_GET
def front_money_report(request: HttpRequest) -> HttpResponse:
    """The members holding front money at the venue, their balances and the total held
    (``?player=`` a member's movements, which a manager may reverse)."""
    _venues, venue = venue_asked(request)
    context = _report_context(request, venue, request.GET.get("player", ""))
    return _report_render(request, venue, context)


@declare(Capability.READ_REPORTS)
@login_required
@require_GET
@export_view
def front_money_report_csv(request: HttpRequest) -> HttpResponse:
    """The balances as CSV (``casino.exports``)."""
    _venues, venue = venue_asked(request)
    language = file_language(request, venue.language)
    with replica_reads():
        lines = cash_selectors.front_money_balances(venue=venue)
    sheet = Sheet(
        _("Front money balances"),
        [
            Column(_("Membership number")),
            Column(_("Player")),
            Column(_("Balance"), Kind.MONEY),
            Column(_("Last movement")),
        ],
        [
            [line.player.membership_number, line.player.name, line.balance, line.last_movement]
            for line in lines
        ],
    )
    export = Export(
        currency=venue.currency,
        zone=venue_zone(venue),
        heading=[[_("Front money balances"), venue.name, venue.currency]],
        sheets=[sheet],
    )
    return csv_response(export, f"front-money-{venue.code}.csv", language=language)


@declare(Capability.MANAGE_VENUE)
@login_required
@require_POST
def front_money_reverse_view(request: HttpRequest, pk: int) -> HttpResponse:
    """A manager reverses a movement entered by mistake, with a reason."""
    _venues, venue = venue_asked(request)
    movement = FrontMoney.objects.filter(pk=pk, venue=venue).select_related("player").first()
    if movement is None:
        raise Http404("no such front money movement at this venue")
    number = movement.player.membership_number
    try:
        reversal = front_money_reverse(
            movement=movement, user=request.user, reason=request.POST.get("reason", "")
        )
    except Forbidden as refused:
        return refusal(request, 403, refused.message)
    except ServiceError as error:
        context = _report_context(request, venue, number, errors={movement.pk: error.message})
        return _report_render(request, venue, context, status=422)
    notice = _("%(kind)s of %(amount)s reversed.") % {
        "kind": movement.get_kind_display(),
        "amount": venue_money(abs(reversal.amount), venue),
    }
    return _report_render(request, venue, _report_context(request, venue, number, notice=notice))
