"""Markers on the console (docs/MARKERS.md): the table's step to issue a marker (the
member's number, the amount, the player's signature ticked, a supervisor signing with their
own username and password) and the cage's window for a member's credit (limit,
outstanding, available, the credit line's versions, the markers with their balances, a
marker issued at the cage, a payment in cash or chips), with the venue's overdue markers.

The table's page is its dealer's (``with_session``); the cage's, the cashier's. Each form
calls one service and shows its refusal beside the field it names.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from casino.cage import marker_selectors as markers
from casino.cage.marker_dates import today_of
from casino.cage.models import Marker, MarkerPayment
from casino.cage.services.cash import player_of
from casino.cage.services.markers import marker_issue_at_cage, marker_issue_at_table, marker_pay
from casino.cage.views.cage import cage_venue
from casino.floor.console import forms
from casino.floor.console.access import (
    closed,
    console_login_required,
    page,
    refusal,
    session_context,
    signed_by,
    with_session,
)
from casino.floor.models import TableSession
from casino.kernel.errors import Forbidden, InvalidInput, ServiceError
from casino.kernel.money import venue_money
from casino.staff.policy import Capability, declare
from casino.venues.models import Venue

TABLE_TEMPLATE = "console/markers.html"
CAGE_TEMPLATE = "console/cage_markers.html"


def _credit(player: Any) -> dict[str, Any]:
    if player is None:
        return {}
    limit, owed, available = markers.available_credit(player)
    return {"limit": limit, "outstanding": owed, "available": available}


def _issue(request: HttpRequest, venue: Venue, issue: Any) -> tuple[Marker | None, dict]:
    """Read the marker's form and call ``issue`` (a service, given the player, the
    supervisor, the amount and the player's signature); the errors by field otherwise."""
    data = request.POST
    errors: dict[str, str] = {}
    player = amount = None
    try:
        amount = forms.read_amount(data.get("amount", ""), venue, unit=venue.rounding_unit)
    except ValueError as error:
        errors["amount"] = str(error)
    if amount is None and "amount" not in errors:
        errors["amount"] = _("Give the amount, e.g. 1000000.")
    try:
        player = player_of(venue, data.get("player", ""))
    except InvalidInput as error:
        errors["player"] = error.message
    if player is None and "player" not in errors:
        errors["player"] = _("Give the member's membership number: a marker is a member's.")
    credentials = forms.read_credentials(data)
    if not credentials.given:
        errors["supervisor"] = _("A supervisor signs the marker with their username and password.")
    if errors:
        return None, errors
    supervisor, wrong = signed_by(
        request, credentials, _("Wrong username or password: the marker is not issued.")
    )
    if supervisor is None:
        return None, {"supervisor": wrong}
    try:
        marker = issue(
            player=player,
            supervisor=supervisor,
            amount=amount,
            player_signed=data.get("player_signed") == "on",
            note=data.get("note", ""),
        )
    except Forbidden:
        raise
    except ServiceError as error:
        return None, {error.field or "amount": error.message}
    return marker, {}


def _issued_text(marker: Marker, venue: Venue) -> str:
    return _("Marker %(number)s of %(amount)s issued to %(player)s, due %(due)s.") % {
        "number": marker.label,
        "amount": venue_money(marker.amount, venue),
        "player": marker.player.name,
        "due": marker.due_on.isoformat(),
    }


# The table's step


def table_context(session: TableSession, **extra: Any) -> dict[str, Any]:
    return {
        **session_context(session, "markers"),
        "markers": list(
            Marker.objects.filter(session=session)
            .select_related("player", "supervisor")
            .order_by("-issued_at", "-id")
        ),
        "errors": {},
        "data": {},
        "notice": "",
        **extra,
    }


@require_http_methods(["GET", "POST"])
@with_session
def session_markers(request: HttpRequest, session: TableSession) -> HttpResponse:
    """The session's markers; a POST issues one (chips from the tray)."""
    if request.method == "GET":
        return page(request, TABLE_TEMPLATE, "markers", table_context(session))
    if session.status != TableSession.Status.OPEN:
        return closed(request, session, "markers")
    venue = session.table.venue

    def issue(**kwargs: Any) -> Marker:
        return marker_issue_at_table(session=session, user=request.user, **kwargs)

    try:
        marker, errors = _issue(request, venue, issue)
    except Forbidden as refused:
        return refusal(request, 403, refused.message)
    if marker is None:
        context = table_context(session, errors=errors, data=request.POST)
        return page(request, TABLE_TEMPLATE, "markers", context, status=422)
    context = table_context(session, notice=_issued_text(marker, venue))
    return page(request, TABLE_TEMPLATE, "markers", context)


# The cage's window


def cage_context(venue: Venue, number: str, **extra: Any) -> dict[str, Any]:
    """The cage's page of a member's credit (``number``: their membership number)."""
    player, lookup_error = None, ""
    if number:
        try:
            player = player_of(venue, number)
        except InvalidInput as error:
            lookup_error = error.message
    today = today_of(venue)
    return {
        "venue": venue,
        "number": number,
        "player": player,
        "lookup_error": lookup_error,
        "credit": _credit(player),
        "credit_lines": markers.credit_lines(player) if player else [],
        "markers": markers.player_markers(player) if player else [],
        "overdue": markers.overdue_markers(venue, today=today),
        "today": today,
        "methods": MarkerPayment.Method.choices,
        "errors": {},
        "pay_errors": {},
        "data": {},
        "notice": "",
        "url": reverse("console:cage-markers", args=[venue.pk]),
        **extra,
    }


@declare(Capability.CAGE)
@require_GET
@console_login_required
def cage_markers(request: HttpRequest, venue_id: int) -> HttpResponse:
    """A member's credit at the cage (``?player=`` their membership number)."""
    venue = cage_venue(request, venue_id)
    if isinstance(venue, HttpResponse):
        return venue
    context = cage_context(venue, request.GET.get("player", "").strip())
    return page(request, CAGE_TEMPLATE, "credit", context)


@declare(Capability.CAGE)
@require_POST
@console_login_required
def cage_marker_issue(request: HttpRequest, venue_id: int) -> HttpResponse:
    """The cashier issues a marker at the cage (chips from the cage)."""
    venue = cage_venue(request, venue_id)
    if isinstance(venue, HttpResponse):
        return venue

    def issue(**kwargs: Any) -> Marker:
        return marker_issue_at_cage(venue=venue, user=request.user, **kwargs)

    try:
        marker, errors = _issue(request, venue, issue)
    except Forbidden as refused:
        return refusal(request, 403, refused.message)
    number = request.POST.get("player", "").strip()
    if marker is None:
        context = cage_context(venue, number, errors=errors, data=request.POST)
        return page(request, CAGE_TEMPLATE, "credit", context, status=422)
    context = cage_context(venue, number, notice=_issued_text(marker, venue))
    return page(request, CAGE_TEMPLATE, "credit", context)


@declare(Capability.CAGE)
@require_POST
@console_login_required
def cage_marker_pay(request: HttpRequest, venue_id: int, marker_id: int) -> HttpResponse:
    """The cashier takes a payment of a marker, in cash or chips."""
    venue = cage_venue(request, venue_id)
    if isinstance(venue, HttpResponse):
        return venue
    marker = markers.marker_for(venue_ids=[venue.pk], pk=marker_id)
    if marker is None:
        raise Http404("no such marker at this venue")
    number = marker.player.membership_number
    try:
        amount = forms.read_amount(request.POST.get("amount", ""), venue)
        payment = marker_pay(
            marker=marker,
            user=request.user,
            amount=amount if amount is not None else "",
            method=request.POST.get("method", ""),
            note=request.POST.get("note", ""),
            id_document_type=request.POST.get("id_document_type", ""),
            id_document_number=request.POST.get("id_document_number", ""),
        )
    except Forbidden as refused:
        return refusal(request, 403, refused.message)
    except (ValueError, ServiceError) as error:
        message = error.message if isinstance(error, ServiceError) else str(error)
        context = cage_context(venue, number, pay_errors={marker.pk: message})
        return page(request, CAGE_TEMPLATE, "credit", context, status=422)
    notice = _("Payment of %(amount)s (%(method)s) of marker %(number)s taken.") % {
        "amount": venue_money(payment.amount, venue),
        "method": payment.get_method_display(),
        "number": marker.label,
    }
    return page(request, CAGE_TEMPLATE, "credit", cage_context(venue, number, notice=notice))
