"""The table's cash through the API: a buy-in or cash-out recorded at an open session, one
voided by a supervisor. Each calls the service the console's cash screen calls
(``casino.cage.services.cash``), so the rules, the thresholds' identification and the audit
trail are the same. The slips of fills and credits, from request to verification, each
step calling its service (``casino.cage.services.slips``)."""

from __future__ import annotations

from django.utils import timezone
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response

from casino.api.base import ApiView, errors, not_found, page, paginated, parse_query
from casino.api.views.common import found, parse
from casino.cage import slip_selectors
from casino.cage.models import CashTransaction
from casino.cage.serializers import (
    CashInputSerializer,
    CashTransactionSerializer,
    CashVoidInputSerializer,
    SlipIssueInputSerializer,
    SlipListParams,
    SlipRequestInputSerializer,
    SlipSerializer,
    SlipVoidInputSerializer,
)
from casino.cage.services.cash import cash_record, cash_void
from casino.cage.services.patrons import unknown_patron_of
from casino.cage.services.slips import (
    slip_confirm_dealer,
    slip_confirm_supervisor,
    slip_issue,
    slip_receive,
    slip_request,
    slip_void,
)
from casino.floor import selectors
from casino.floor.api.session_serializers import LedgerSerializer
from casino.kernel.errors import InvalidInput
from casino.kernel.timezones import venue_zone
from casino.ledger import selectors as ledger_selectors
from casino.players.models import Player
from casino.staff.policy import Capability
from casino.staff.roles import venue_ids

KEY = OpenApiParameter(
    "Idempotency-Key",
    str,
    OpenApiParameter.HEADER,
    required=False,
    description="1 to 64 characters; the same key again records one transaction and answers it.",
)


def _key(request: Request) -> str:
    """The Idempotency-Key header ("" without one), as long as the record keeps."""
    key = request.headers.get("Idempotency-Key", "").strip()
    most = CashTransaction._meta.get_field("key").max_length
    if len(key) > most:
        raise InvalidInput(
            f"the idempotency key must be 1 to {most} characters", field="Idempotency-Key"
        )
    return key


def _answer(tx: CashTransaction, code: int = status.HTTP_200_OK) -> Response:
    tx = CashTransaction.objects.select_related("venue", "table", "recorded_by", "voided_by").get(
        pk=tx.pk
    )
    with timezone.override(venue_zone(tx.venue)):
        return Response(CashTransactionSerializer(tx).data, status=code)


class SessionCashView(ApiView):
    write_capability = Capability.PLAY_ROUND

    @extend_schema(
        tags=["cash"],
        summary="Record a buy-in or cash-out at an open session (dealers, supervisors)",
        description="What the console's cash screen records: a buy-in's chips leave the "
        "tray and its cash goes into the drop box; a cash-out at the table (other than in "
        "chips) buys chips back into the tray with the buy-ins' cash. A cash transaction "
        "that reaches the venue's logging or reporting threshold needs the identification it "
        "asks for (400 naming id_document_type, id_document_number or patron_description); "
        "threshold_reached says which one it reached. A barred player's buy-in is refused "
        "(403); a barred player's cash-out is paid and recorded as such.",
        parameters=[KEY],
        request=CashInputSerializer,
        responses={201: CashTransactionSerializer, **errors(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, pk: int) -> Response:
        session = found(selectors.session_get(user=request.user, pk=pk), "session", pk)
        data = parse(CashInputSerializer, request)
        player = None
        if data.get("player") is not None:
            player = Player.objects.filter(
                pk=data["player"], venue_id=session.table.venue_id
            ).first()
            if player is None:
                not_found("player", data["player"], field="player")
        patron = None
        if data.get("unknown_patron"):
            patron = unknown_patron_of(session.table.venue, data["unknown_patron"])
        tx = cash_record(
            session=session,
            user=request.user,
            amount=data["amount"],
            kind=data["kind"],
            instrument=data["instrument"],
            player=player,
            unknown_patron=patron,
            key=_key(request),
            id_document_type=data.get("id_document_type", ""),
            id_document_number=data.get("id_document_number", ""),
            patron_description=data.get("patron_description", ""),
        )
        return _answer(tx, status.HTTP_201_CREATED)


class CashVoidView(ApiView):
    write_capability = Capability.SUPERVISE_TABLES

    @extend_schema(
        tags=["cash"],
        summary="Void a buy-in or cash-out entered by mistake (supervisors, with a reason)",
        description="Nothing is deleted: the transaction stays on record, marked voided, "
        "and leaves every figure. A void twice changes nothing.",
        request=CashVoidInputSerializer,
        responses={200: CashTransactionSerializer, **errors(400, 401, 403, 404)},
    )
    def post(self, request: Request, pk: int) -> Response:
        tx = CashTransaction.objects.filter(pk=pk, venue_id__in=venue_ids(request.user)).first()
        if tx is None:
            not_found("cash transaction", pk)
        data = parse(CashVoidInputSerializer, request)
        return _answer(cash_void(tx=tx, user=request.user, reason=data["reason"]))


# Slips


class SlipListView(ApiView):
    read_capability = Capability.READ_FLOOR
    write_capability = Capability.PLAY_ROUND

    @extend_schema(
        operation_id="slips_list",
        tags=["slips"],
        summary="Fill and credit slips at your venues",
        parameters=[SlipListParams],
        responses={200: paginated(SlipSerializer), **errors(400, 401, 403)},
    )
    def get(self, request: Request) -> Response:
        filters = parse_query(SlipListParams, request)
        slips = slip_selectors.slip_list(
            user=request.user,
            session_id=filters.get("session"),
            kind=filters.get("kind"),
            status=filters.get("status"),
        )
        return page(queryset=slips, serializer_class=SlipSerializer, request=request, view=self)

    @extend_schema(
        tags=["slips"],
        summary="Request a fill or a credit (the dealer or a supervisor)",
        request=SlipRequestInputSerializer,
        responses={201: SlipSerializer, **errors(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request) -> Response:
        data = parse(SlipRequestInputSerializer, request)
        session = found(
            selectors.session_get(user=request.user, pk=data["session"]),
            "session",
            data["session"],
            field="session",
        )
        slip = slip_request(
            session=session, user=request.user, kind=data["kind"], chips=data["chips"]
        )
        slip = slip_selectors.slip_get(user=request.user, pk=slip.pk)
        return Response(SlipSerializer(slip).data, status=status.HTTP_201_CREATED)


class SlipDetailView(ApiView):
    read_capability = Capability.READ_FLOOR

    @extend_schema(
        tags=["slips"], summary="A slip", responses={200: SlipSerializer, **errors(401, 403, 404)}
    )
    def get(self, request: Request, pk: int) -> Response:
        slip = found(slip_selectors.slip_get(user=request.user, pk=pk), "slip", pk)
        return Response(SlipSerializer(slip).data)


class _SlipStepView(ApiView):
    """A step on a slip with no input: the service decides who may take it, and why not."""

    def step(self, request: Request, pk: int) -> Response:
        slip = found(slip_selectors.slip_get(user=request.user, pk=pk), "slip", pk)
        self.service(slip=slip, user=request.user)
        slip = slip_selectors.slip_get(user=request.user, pk=pk)
        return Response(SlipSerializer(slip).data)


class SlipIssueView(ApiView):
    write_capability = Capability.CAGE

    @extend_schema(
        tags=["slips"],
        summary="The cage's cashier issues a requested slip, naming the runner",
        request=SlipIssueInputSerializer,
        responses={200: SlipSerializer, **errors(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, pk: int) -> Response:
        slip = found(slip_selectors.slip_get(user=request.user, pk=pk), "slip", pk)
        data = parse(SlipIssueInputSerializer, request)
        slip_issue(slip=slip, user=request.user, runner=data.get("runner", ""))
        slip = slip_selectors.slip_get(user=request.user, pk=pk)
        return Response(SlipSerializer(slip).data)


class SlipConfirmDealerView(_SlipStepView):
    write_capability = Capability.SIGN_SLIP_DEALER_LINE

    service = staticmethod(slip_confirm_dealer)

    @extend_schema(
        tags=["slips"],
        summary=(
            "The table's dealer signs for an issued slip's chips (a fill received, a credit "
            "sent); a fill is posted once a supervisor has signed too"
        ),
        request=None,
        responses={200: SlipSerializer, **errors(401, 403, 404, 409)},
    )
    def post(self, request: Request, pk: int) -> Response:
        return self.step(request, pk)


class SlipConfirmSupervisorView(_SlipStepView):
    write_capability = Capability.SIGN_SLIP_SUPERVISOR_LINE

    service = staticmethod(slip_confirm_supervisor)

    @extend_schema(
        tags=["slips"],
        summary=(
            "A supervisor signs for an issued slip's chips at the table; a fill is posted "
            "once the dealer has signed too"
        ),
        request=None,
        responses={200: SlipSerializer, **errors(401, 403, 404, 409)},
    )
    def post(self, request: Request, pk: int) -> Response:
        return self.step(request, pk)


class SlipReceiveView(_SlipStepView):
    write_capability = Capability.CAGE

    service = staticmethod(slip_receive)

    @extend_schema(
        tags=["slips"],
        summary="The cage's cashier receives a credit's chips signed out at the table; posted",
        request=None,
        responses={200: SlipSerializer, **errors(401, 403, 404, 409)},
    )
    def post(self, request: Request, pk: int) -> Response:
        return self.step(request, pk)


class SlipVoidView(ApiView):
    write_capability = Capability.VOID_SLIP

    @extend_schema(
        tags=["slips"],
        summary=(
            "Void a slip not yet posted (a requested one: a supervisor or the cashier; an "
            "issued fill: the cashier; an issued credit: a supervisor)"
        ),
        request=SlipVoidInputSerializer,
        responses={200: SlipSerializer, **errors(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, pk: int) -> Response:
        slip = found(slip_selectors.slip_get(user=request.user, pk=pk), "slip", pk)
        data = parse(SlipVoidInputSerializer, request)
        slip_void(slip=slip, user=request.user, reason=data.get("reason", ""))
        slip = slip_selectors.slip_get(user=request.user, pk=pk)
        return Response(SlipSerializer(slip).data)


class SlipLedgerView(ApiView):
    read_capability = Capability.READ_FLOOR

    @extend_schema(
        tags=["slips"],
        summary="A slip's ledger entries and their sum",
        responses={200: LedgerSerializer, **errors(401, 403, 404)},
    )
    def get(self, request: Request, pk: int) -> Response:
        slip = found(slip_selectors.slip_get(user=request.user, pk=pk), "slip", pk)
        return Response(LedgerSerializer(ledger_selectors.slip_ledger(slip=slip)).data)
