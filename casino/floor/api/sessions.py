"""Table sessions (open, close, reconcile, drops); the slips of their fills and credits are
the cage's (``casino.cage.api``)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import authenticate
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response

from casino.api.base import ApiView, ListParams, errors, page, paginated, parse_query
from casino.api.errors import LockedOut
from casino.api.views.common import found, parse
from casino.floor import selectors
from casino.floor.api import session_serializers as s
from casino.floor.services.closing import session_close, session_reconcile
from casino.floor.services.sessions import drop_record, drop_reverse, session_open
from casino.kernel.errors import InvalidInput
from casino.staff.policy import Capability
from casino.staff.throttling import LoginRefusal, refusal_message
from casino.venues import selectors as venue_selectors

# Sessions


def co_signer(request: Request, credentials: dict[str, str], *, field: str) -> Any:
    """The second person of a count, by their own username and password: checked through
    ``authenticate()``, so the login lockout counts a wrong password (403 ``locked_out``
    once it refuses; 400 on ``field`` for a wrong password)."""
    http_request = request._request
    refusal = LoginRefusal()
    person = authenticate(
        http_request,
        username=credentials["username"],
        password=credentials["password"],
        refusal=refusal,
    )
    if person is not None:
        return person
    locked = refusal_message(refusal)
    if locked is not None:
        raise LockedOut(locked, field=field)
    raise InvalidInput(
        _("wrong username or password of the person who signs the count (%(field)s)")
        % {"field": field},
        field=field,
        reason="wrong_credentials",
    )


class SessionListView(ApiView):
    read_capability = Capability.READ_FLOOR
    write_capability = Capability.PLAY_ROUND

    @extend_schema(
        operation_id="sessions_list",
        tags=["sessions"],
        summary="Table sessions at your venues",
        parameters=[s.SessionListParams],
        responses={200: paginated(s.SessionSerializer), **errors(400, 401, 403)},
    )
    def get(self, request: Request) -> Response:
        filters = parse_query(s.SessionListParams, request)
        sessions = selectors.session_list(
            user=request.user,
            table_id=filters.get("table"),
            venue_id=filters.get("venue"),
            status=filters.get("status"),
        )
        return page(
            queryset=sessions, serializer_class=s.SessionSerializer, request=request, view=self
        )

    @extend_schema(
        tags=["sessions"],
        summary="Open a table with the opening chip count, confirmed by a supervisor",
        description="The caller counted the tray; confirmed_by is the supervisor who "
        "confirms it with their own credentials (another person, a supervisor of the "
        "table's venue: 403 otherwise). The count is compared with the table's inventory, "
        "what its last session counted at close: a difference is recorded per denomination "
        "and in all (opening_discrepancy) and needs a discrepancy_reason (400 without one, "
        "naming the difference). A table's first opening has nothing to compare with "
        "(opening_expected_chips null).",
        request=s.SessionOpenInputSerializer,
        responses={201: s.SessionSerializer, **errors(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request) -> Response:
        data = parse(s.SessionOpenInputSerializer, request)
        table = found(
            venue_selectors.table_get(user=request.user, pk=data["table"]),
            "table",
            data["table"],
            field="table",
        )
        dealer = None
        if data.get("dealer"):
            dealer = selectors.staff_get(user=request.user, username=data["dealer"])
            if dealer is None:
                raise InvalidInput(
                    f"there is no staff member {data['dealer']!r} at your venues", field="dealer"
                )
        supervisor = co_signer(request, data["confirmed_by"], field="confirmed_by")
        session = session_open(
            table=table,
            counted_by=request.user,
            confirmed_by=supervisor,
            opening_chips=data["opening_chips"],
            discrepancy_reason=data.get("discrepancy_reason", ""),
            dealer=dealer,
        )
        session = selectors.session_get(user=request.user, pk=session.pk)
        return Response(s.SessionSerializer(session).data, status=status.HTTP_201_CREATED)


class SessionDetailView(ApiView):
    read_capability = Capability.READ_FLOOR

    @extend_schema(
        tags=["sessions"],
        summary="A table session (with its reconciliation once closed)",
        responses={200: s.SessionSerializer, **errors(401, 403, 404)},
    )
    def get(self, request: Request, pk: int) -> Response:
        session = found(selectors.session_get(user=request.user, pk=pk), "session", pk)
        return Response(s.SessionSerializer(session).data)


class SessionCloseView(ApiView):
    write_capability = Capability.SUPERVISE_TABLES

    @extend_schema(
        tags=["sessions"],
        summary="Close a table with the closing count (supervisors)",
        description="The caller, a supervisor, confirms the count; counted_by is the dealer "
        "who counted it, with their own credentials (another person). The closing count "
        "becomes the table's inventory, which the next opener is compared with. "
        "Answers the session with its reconciliation: win by count = closing - "
        "opening + credits - fills + drop; win by ledger = what the settled rounds moved "
        "to the house; variance = count - ledger. A variance larger than the venue's "
        "variance_reason_over is refused (400, field variance_reason) without a reason.",
        request=s.SessionCloseInputSerializer,
        responses={200: s.SessionSerializer, **errors(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, pk: int) -> Response:
        session = found(selectors.session_get(user=request.user, pk=pk), "session", pk)
        data = parse(s.SessionCloseInputSerializer, request)
        drop = data.get("drop") or None  # an empty drop box is no drop
        counter = co_signer(request, data["counted_by"], field="counted_by")
        session_close(
            session=session,
            counted_by=counter,
            confirmed_by=request.user,
            closing_chips=data["closing_chips"],
            drop=drop,
            variance_reason=data.get("variance_reason", ""),
        )
        session = selectors.session_get(user=request.user, pk=pk)
        return Response(s.SessionSerializer(session).data)


class SessionReconcileView(ApiView):
    write_capability = Capability.SUPERVISE_TABLES

    @extend_schema(
        tags=["sessions"],
        summary="Mark a closed session as reviewed (supervisors)",
        request=None,
        responses={200: s.SessionSerializer, **errors(401, 403, 404, 409)},
    )
    def post(self, request: Request, pk: int) -> Response:
        session = found(selectors.session_get(user=request.user, pk=pk), "session", pk)
        session_reconcile(session=session, user=request.user)
        session = selectors.session_get(user=request.user, pk=pk)
        return Response(s.SessionSerializer(session).data)


class SessionDropView(ApiView):
    read_capability = Capability.READ_FLOOR
    write_capability = Capability.SUPERVISE_TABLES

    @extend_schema(
        operation_id="sessions_drop_list",
        tags=["sessions"],
        summary="The session's drops and their reversals",
        parameters=[ListParams],
        responses={200: paginated(s.DropSerializer), **errors(400, 401, 403, 404)},
    )
    def get(self, request: Request, pk: int) -> Response:
        parse_query(ListParams, request)
        session = found(selectors.session_get(user=request.user, pk=pk), "session", pk)
        drops = selectors.session_drops(session=session)
        return page(queryset=drops, serializer_class=s.DropSerializer, request=request, view=self)

    @extend_schema(
        tags=["sessions"],
        summary="Enter the cash counted in the drop box (supervisors)",
        description="Refused (400) when it would take the session's drop to "
        "1,000,000,000,000,000 or more, so that the session can always be closed.",
        request=s.DropInputSerializer,
        responses={201: s.DropSerializer, **errors(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, pk: int) -> Response:
        session = found(selectors.session_get(user=request.user, pk=pk), "session", pk)
        data = parse(s.DropInputSerializer, request)
        drop = drop_record(session=session, user=request.user, amount=data["amount"])
        return Response(s.DropSerializer(drop).data, status=status.HTTP_201_CREATED)


class SessionDropReverseView(ApiView):
    write_capability = Capability.SUPERVISE_TABLES

    @extend_schema(
        tags=["sessions"],
        summary="Reverse a drop entered by mistake (supervisors, with a reason)",
        description="Answers the reversal: a drop of the opposite amount naming the reversed "
        "one, with reversing ledger entries. Nothing is deleted; the session's drop is the "
        "sum of both. Only while the session is open; a drop is reversed once.",
        request=s.DropReverseInputSerializer,
        responses={201: s.DropSerializer, **errors(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, pk: int, drop_id: int) -> Response:
        session = found(selectors.session_get(user=request.user, pk=pk), "session", pk)
        drop = found(selectors.session_drop_get(session=session, pk=drop_id), "drop", drop_id)
        data = parse(s.DropReverseInputSerializer, request)
        reversal = drop_reverse(drop=drop, user=request.user, reason=data["reason"])
        return Response(s.DropSerializer(reversal).data, status=status.HTTP_201_CREATED)
