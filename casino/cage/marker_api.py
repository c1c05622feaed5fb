"""Markers through the API (docs/MARKERS.md): a member's credit (limit, outstanding,
available, the credit line's versions and the markers), a credit limit proposed and
approved, a marker issued at a table or at the cage, a payment taken and one reversed, the
venue's marker aging and its marker terms. Each write calls the service the cage's and the
table's screens call (``casino.cage.services.markers``, ``casino.cage.services.credit_lines``)."""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.exceptions import PermissionDenied
from rest_framework.request import Request
from rest_framework.response import Response

from casino.api.base import ApiView, errors
from casino.api.views.common import found, parse
from casino.cage import marker_selectors as markers
from casino.cage import marker_serializers as s
from casino.cage.marker_dates import today_of
from casino.cage.models import CreditLine, MarkerPayment
from casino.cage.services.credit_lines import (
    credit_line_approve,
    credit_line_propose,
    marker_terms_set,
)
from casino.cage.services.markers import (
    marker_issue_at_cage,
    marker_issue_at_table,
    marker_pay,
    marker_payment_reverse,
)
from casino.floor import selectors
from casino.floor.api.sessions import co_signer
from casino.kernel.timezones import venue_zone
from casino.players.models import Player
from casino.staff.policy import Capability, allows
from casino.staff.roles import venue_ids
from casino.venues.selectors import venue_get


def _player(request: Request, pk: Any, *, field: str | None = None) -> Player:
    player = Player.objects.filter(pk=pk, venue_id__in=venue_ids(request.user)).first()
    return found(player, "player", pk, field=field)


def _credit(player: Player, code: int = status.HTTP_200_OK) -> Response:
    limit, owed, available = markers.available_credit(player)
    body = {
        "player": player.pk,
        "limit": limit,
        "outstanding": owed,
        "available": available,
        "credit_lines": markers.credit_lines(player),
        "markers": markers.player_markers(player),
    }
    with timezone.override(venue_zone(player.venue)):
        return Response(s.PlayerCreditSerializer(body).data, status=code)


def _marker(request: Request, marker: Any) -> Response:
    marker = markers.marker_for(venue_ids=venue_ids(request.user), pk=marker.pk)
    with timezone.override(venue_zone(marker.venue)):
        return Response(s.MarkerSerializer(marker).data, status=status.HTTP_201_CREATED)


def _issued(request: Request, issue: Any, **where: Any) -> Response:
    """A marker issued by ``issue`` (at a table or at the cage, ``where``) from the body:
    the member, the supervisor who signs with their own password, the amount."""
    data = parse(s.MarkerInputSerializer, request)
    if issue is marker_issue_at_cage:  # the chips the cage counts out
        where["chips"] = data.get("chips")
    marker = issue(
        **where,
        player=_player(request, data["player"], field="player"),
        user=request.user,
        supervisor=co_signer(request, data["supervisor"], field="supervisor"),
        amount=data["amount"],
        player_signed=data["player_signed"],
        note=data.get("note", ""),
    )
    return _marker(request, marker)


class PlayerCreditView(ApiView):
    read_capability = Capability.READ_SLIP_REPORT

    @extend_schema(
        tags=["markers"],
        summary="A member's credit: the limit in force, outstanding, available, the credit "
        "line's versions and the markers with their balances",
        responses={200: s.PlayerCreditSerializer, **errors(401, 403, 404)},
    )
    def get(self, request: Request, pk: int) -> Response:
        player = _player(request, pk)
        if not allows(request.user, Capability.READ_SLIP_REPORT, player.venue_id):
            raise PermissionDenied("only the venue's cage, supervisors, managers and auditors")
        return _credit(player)


class CreditLineProposeView(ApiView):
    write_capability = Capability.MANAGE_VENUE

    @extend_schema(
        tags=["markers"],
        summary="Propose a member's credit limit (a manager); a second manager approves it",
        request=s.CreditLineInputSerializer,
        responses={201: s.CreditLineSerializer, **errors(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, pk: int) -> Response:
        player = _player(request, pk)
        data = parse(s.CreditLineInputSerializer, request)
        line = credit_line_propose(
            venue=player.venue,
            player=player,
            user=request.user,
            limit=data["limit"],
            reason=data.get("reason", ""),
        )
        return Response(s.CreditLineSerializer(line).data, status=status.HTTP_201_CREATED)


class CreditLineApproveView(ApiView):
    write_capability = Capability.APPROVE

    @extend_schema(
        tags=["markers"],
        summary="Approve a proposed credit limit (a second manager, not the proposer)",
        request=None,
        responses={200: s.CreditLineSerializer, **errors(401, 403, 404, 409)},
    )
    def post(self, request: Request, pk: int) -> Response:
        line = CreditLine.objects.filter(pk=pk, venue_id__in=venue_ids(request.user)).first()
        line = credit_line_approve(line=found(line, "credit line", pk), user=request.user)
        return Response(s.CreditLineSerializer(line).data)


class SessionMarkerView(ApiView):
    write_capability = Capability.PLAY_ROUND

    @extend_schema(
        tags=["markers"],
        summary="Issue a marker at an open session: chips from the tray, signed by the "
        "player and a supervisor (dealers, supervisors, managers)",
        description="Refused (409, reason credit_limit) beyond the member's available "
        "credit, with the limit, the outstanding and what is available in words.",
        request=s.MarkerInputSerializer,
        responses={201: s.MarkerSerializer, **errors(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, pk: int) -> Response:
        session = found(selectors.session_get(user=request.user, pk=pk), "session", pk)
        return _issued(request, marker_issue_at_table, session=session)


class CageMarkerView(ApiView):
    write_capability = Capability.CAGE

    @extend_schema(
        tags=["markers"],
        summary="Issue a marker at the cage: chips from the cage, signed by the player and "
        "a supervisor (the cashier)",
        request=s.MarkerInputSerializer,
        responses={201: s.MarkerSerializer, **errors(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, pk: int) -> Response:
        venue = found(venue_get(user=request.user, pk=pk), "venue", pk)
        return _issued(request, marker_issue_at_cage, venue=venue)


class MarkerPaymentView(ApiView):
    write_capability = Capability.CAGE

    @extend_schema(
        tags=["markers"],
        summary="Take a payment of a marker at the cage, in cash or chips (the cashier); "
        "at most its balance",
        request=s.PaymentInputSerializer,
        responses={201: s.PaymentSerializer, **errors(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, pk: int) -> Response:
        marker = found(markers.marker_for(venue_ids=venue_ids(request.user), pk=pk), "marker", pk)
        data = parse(s.PaymentInputSerializer, request)
        payment = marker_pay(
            marker=marker,
            user=request.user,
            amount=data["amount"],
            method=data["method"],
            counted=data.get("counted"),
            note=data.get("note", ""),
            id_document_type=data.get("id_document_type", ""),
            id_document_number=data.get("id_document_number", ""),
        )
        return Response(s.PaymentSerializer(payment).data, status=status.HTTP_201_CREATED)


class PaymentReverseView(ApiView):
    write_capability = Capability.MANAGE_VENUE

    @extend_schema(
        tags=["markers"],
        summary="Reverse a payment entered by mistake (a manager, with a reason)",
        request=s.ReverseInputSerializer,
        responses={201: s.PaymentSerializer, **errors(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, pk: int) -> Response:
        payment = MarkerPayment.objects.filter(
            pk=pk, marker__venue_id__in=venue_ids(request.user)
        ).first()
        data = parse(s.ReverseInputSerializer, request)
        reversal = marker_payment_reverse(
            payment=found(payment, "marker payment", pk),
            user=request.user,
            reason=data.get("reason", ""),
        )
        return Response(s.PaymentSerializer(reversal).data, status=status.HTTP_201_CREATED)


class MarkerAgingView(ApiView):
    read_capability = Capability.READ_REPORTS

    @extend_schema(
        tags=["markers"],
        summary="A venue's marker aging: each member's outstanding by days past due",
        description="Buckets: current (not yet due), days_1_30, days_31_60, days_61_90, "
        "over_90, on the venue's gaming date today.",
        responses={200: s.AgingSerializer, **errors(401, 403, 404)},
    )
    def get(self, request: Request, pk: int) -> Response:
        venue = found(venue_get(user=request.user, pk=pk), "venue", pk)
        if not allows(request.user, Capability.READ_REPORTS, venue.pk):
            raise PermissionDenied("only the venue's supervisors, managers and auditors")
        aging = markers.marker_aging(venue=venue, as_of=today_of(venue))
        return Response(s.AgingSerializer(aging).data)


class MarkerTermsView(ApiView):
    read_capability = Capability.READ_REPORTS
    write_capability = Capability.MANAGE_VENUE

    @extend_schema(
        tags=["markers"],
        summary="A venue's marker terms in force: days to pay, and whether a table's marker "
        "counts in its drop (the defaults while none are set)",
        responses={200: s.TermsSerializer, **errors(401, 403, 404)},
    )
    def get(self, request: Request, pk: int) -> Response:
        venue = found(venue_get(user=request.user, pk=pk), "venue", pk)
        if not allows(request.user, Capability.READ_REPORTS, venue.pk):
            raise PermissionDenied("only the venue's supervisors, managers and auditors")
        with timezone.override(venue_zone(venue)):
            return Response(s.TermsSerializer(markers.terms_in_force(venue)).data)

    @extend_schema(
        tags=["markers"],
        summary="Set the venue's marker terms (a manager): for the markers issued from now",
        request=s.TermsInputSerializer,
        responses={201: s.TermsSerializer, **errors(400, 401, 403, 404)},
    )
    def post(self, request: Request, pk: int) -> Response:
        venue = found(venue_get(user=request.user, pk=pk), "venue", pk)
        data = parse(s.TermsInputSerializer, request)
        marker_terms_set(
            venue=venue,
            user=request.user,
            term_days=data["term_days"],
            credit_drop=data["credit_drop"],
        )
        with timezone.override(venue_zone(venue)):
            return Response(
                s.TermsSerializer(markers.terms_in_force(venue)).data,
                status=status.HTTP_201_CREATED,
            )
