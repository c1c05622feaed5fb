"""The audit trail through the API: read by the venue's managers and auditors, newest first.
Nothing writes it here: every service appends its own events (``casino.audit.services``)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.exceptions import PermissionDenied
from rest_framework.request import Request
from rest_framework.response import Response

from casino.api.base import ApiView, ListParams, errors, id_field, page, paginated, parse_query
from casino.api.serializers.fields import VenueRefSerializer, person
from casino.api.views.common import found
from casino.ledger import selectors
from casino.staff.policy import Capability, allows
from casino.staff.roles import venue_ids


class AuditEventSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    at = serializers.DateTimeField()
    user = person("user", allow_null=True)
    venue = VenueRefSerializer(allow_null=True)
    action = serializers.CharField()
    object_type = serializers.CharField()
    object_id = serializers.CharField()
    summary = serializers.CharField()
    before = serializers.JSONField(allow_null=True)
    after = serializers.JSONField(allow_null=True)


class AuditEventListParams(ListParams):
    venue = id_field(required=False)
    action = serializers.CharField(
        required=False, max_length=64, help_text='An action ("round.void"), or a prefix ("round.").'
    )
    object_type = serializers.CharField(
        required=False, max_length=64, help_text='e.g. "casino.round".'
    )
    object_id = serializers.CharField(required=False, max_length=64)
    user = serializers.CharField(required=False, max_length=150, help_text="A username.")


def _readers_only(request: Request, venue_id: int | None) -> None:
    """Refuse (403) a venue the user works at without reading its audit trail there: the
    roles held at one venue open nothing at another."""
    user = request.user
    if venue_id in venue_ids(user) and not allows(user, Capability.READ_AUDIT, venue_id):
        raise PermissionDenied("only the venue's managers and auditors read its audit trail")


class AuditEventListView(ApiView):
    read_capability = Capability.READ_AUDIT

    @extend_schema(
        operation_id="audit_list",
        tags=["audit"],
        summary="The audit trail of your venues, newest first",
        parameters=[AuditEventListParams],
        responses={200: paginated(AuditEventSerializer), **errors(400, 401, 403)},
    )
    def get(self, request: Request) -> Response:
        filters = parse_query(AuditEventListParams, request)
        _readers_only(request, filters.get("venue"))
        events = selectors.audit_event_list(
            user=request.user,
            venue_id=filters.get("venue"),
            action=filters.get("action"),
            object_type=filters.get("object_type"),
            object_id=filters.get("object_id"),
            username=filters.get("user"),
        )
        return page(
            queryset=events, serializer_class=AuditEventSerializer, request=request, view=self
        )


class AuditEventDetailView(ApiView):
    read_capability = Capability.READ_AUDIT

    @extend_schema(
        tags=["audit"],
        summary="An audit event",
        responses={200: AuditEventSerializer, **errors(401, 403, 404)},
    )
    def get(self, request: Request, pk: int) -> Response:
        event = selectors.audit_event_get(user=request.user, pk=pk)
        if event is None:
            _readers_only(request, selectors.audit_event_venue(pk=pk))
        event = found(event, "audit event", pk)
        return Response(AuditEventSerializer(event).data)
