"""Rounds: dealt, settled (idempotently), voided by two people, and their ledger."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response

from casino.api.base import ApiView, errors, page, paginated, parse_query, rendered
from casino.api.views.common import found, parse
from casino.floor import selectors
from casino.floor.api import round_serializers as s
from casino.floor.api.session_serializers import LedgerSerializer
from casino.floor.models import Round, TableSession
from casino.floor.services.rounds import round_create_written
from casino.floor.services.settlement import round_settle_written
from casino.floor.services.voids import round_void_approve, round_void_request
from casino.games import BoxInput
from casino.ledger import selectors as ledger_selectors
from casino.staff.policy import Capability

# Rounds


class RoundListView(ApiView):
    read_capability = Capability.READ_FLOOR
    write_capability = Capability.PLAY_ROUND

    @extend_schema(
        operation_id="rounds_list",
        tags=["rounds"],
        summary="Rounds at your venues",
        parameters=[s.RoundListParams],
        responses={200: paginated(s.RoundSummarySerializer), **errors(400, 401, 403)},
    )
    def get(self, request: Request) -> Response:
        filters = parse_query(s.RoundListParams, request)
        rounds = selectors.round_list(
            user=request.user, session_id=filters.get("session"), status=filters.get("status")
        )
        return page(
            queryset=rounds, serializer_class=s.RoundSummarySerializer, request=request, view=self
        )

    @extend_schema(
        tags=["rounds"],
        summary="Deal a round: bets and cards, checked together",
        description="Answers every hand's evaluation, the deal and payment order and the "
        "settlement each bet will get (a preview until the round is settled). With "
        "expected_number, a table that recorded another round since refuses it (409).",
        request=s.RoundCreateInputSerializer,
        responses={201: s.RoundSerializer, **errors(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request) -> Response:
        data = parse(s.RoundCreateInputSerializer, request)
        boxes = [
            BoxInput(
                position=box["position"],
                cards=box["cards"],
                stakes=box["bets"],
                deposits=box.get("deposits") or {},
                player_id=box.get("player"),
                quit=box.get("quit", False),
                declared=box.get("declared"),
            )
            for box in data["boxes"]
        ]
        # The service locks the session and answers 404 for one at none of the user's venues.
        written = round_create_written(
            session=TableSession(pk=data["session"]),
            user=request.user,
            dealer_cards=data["dealer_cards"],
            boxes=boxes,
            create_key=data.get("create_key"),
            expected_number=data.get("expected_number"),
        )
        view = selectors.round_answer(
            round_=written.round, result=written.result, boxes=written.boxes, bets=written.bets
        )
        return Response(rendered(s.RoundSerializer, view), status=status.HTTP_201_CREATED)


class RoundDetailView(ApiView):
    read_capability = Capability.READ_FLOOR

    @extend_schema(
        tags=["rounds"],
        summary="A round with its hands and settlement",
        responses={200: s.RoundSerializer, **errors(401, 403, 404)},
    )
    def get(self, request: Request, pk: int) -> Response:
        round_ = found(selectors.round_get(user=request.user, pk=pk), "round", pk)
        return Response(rendered(s.RoundSerializer, selectors.round_view(round_id=round_.pk)))


IDEMPOTENCY_KEY = OpenApiParameter(
    "Idempotency-Key",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    required=True,
    description="1 to 64 characters; the same key again answers the same settlement.",
)


class RoundSettleView(ApiView):
    write_capability = Capability.PLAY_ROUND

    @extend_schema(
        tags=["rounds"],
        summary="Settle a dealt round once",
        description="Posts the bets' results to the ledger. The same Idempotency-Key again "
        "answers the same settlement (200, nothing posted twice); another key on a settled "
        "round, or settling a voided round, is a conflict (409).",
        request=None,
        parameters=[IDEMPOTENCY_KEY],
        responses={200: s.RoundSerializer, **errors(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, pk: int) -> Response:
        # The service locks the round and answers 404 for one at none of the user's venues.
        written = round_settle_written(
            round_=Round(pk=pk), user=request.user, key=request.headers.get("Idempotency-Key")
        )
        view = selectors.round_answer(
            round_=written.round, result=written.result, boxes=written.boxes, bets=written.bets
        )
        return Response(rendered(s.RoundSerializer, view))


class RoundVoidView(ApiView):
    write_capability = Capability.PLAY_ROUND

    @extend_schema(
        tags=["rounds"],
        summary="Request a void, or approve the one requested",
        description="The first call records the request with its reason (202: the round is "
        "still dealt or settled, with void_requested_by). A call by a supervisor other than "
        "the requester approves it (200: voided; a settled round's entries are reversed, "
        "never deleted).",
        request=s.RoundVoidInputSerializer,
        responses={
            200: OpenApiResponse(s.RoundSerializer, description="Voided."),
            202: OpenApiResponse(s.RoundSerializer, description="Void requested."),
            **errors(400, 401, 403, 404, 409),
        },
    )
    def post(self, request: Request, pk: int) -> Response:
        round_ = found(selectors.round_get(user=request.user, pk=pk), "round", pk)
        data = parse(s.RoundVoidInputSerializer, request)
        if round_.void_requested_by_id is None:
            round_void_request(round_=round_, user=request.user, reason=data.get("reason", ""))
            answer = status.HTTP_202_ACCEPTED
        else:
            round_void_approve(round_=round_, user=request.user)
            answer = status.HTTP_200_OK
        view = selectors.round_view(round_id=round_.pk)
        return Response(rendered(s.RoundSerializer, view), status=answer)


class RoundLedgerView(ApiView):
    read_capability = Capability.READ_FLOOR

    @extend_schema(
        tags=["rounds"],
        summary="A round's ledger entries and their sum",
        responses={200: LedgerSerializer, **errors(401, 403, 404)},
    )
    def get(self, request: Request, pk: int) -> Response:
        round_ = found(selectors.round_get(user=request.user, pk=pk), "round", pk)
        return Response(LedgerSerializer(ledger_selectors.round_ledger(round_=round_)).data)
