"""Suspicious-activity cases through the API, read only: a venue's cases
(``/api/v1/venues/<id>/compliance/cases/``, ``?status=``, ``?overdue=1``) and a case with its
steps and evidence (``/api/v1/compliance/cases/<id>/``), whose every reading is audited as its
page's is. The venue's compliance staff only (``Capability.COMPLIANCE``: 403 to any other
role before any lookup); the cases' steps are taken on the screens
(``casino.compliance.views``)."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.exceptions import PermissionDenied
from rest_framework.request import Request
from rest_framework.response import Response

from casino.api.base import ApiView, errors, not_found, page, paginated
from casino.api.serializers.fields import person
from casino.compliance import selectors
from casino.compliance.conflicts import case_read_refusal, cases_hidden_from
from casino.compliance.services import case_viewed, compliance_refusal
from casino.staff.policy import Capability

REFUSED = "only the venue's compliance staff read its suspicious-activity cases"


class CaseSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    label = serializers.CharField()
    venue = serializers.IntegerField(source="venue_id")
    player = serializers.IntegerField(source="player_id", allow_null=True)
    subject_description = serializers.CharField()
    status = serializers.CharField()
    source = serializers.CharField()
    decision = serializers.CharField()
    detected_at = serializers.DateTimeField()
    opened_at = serializers.DateTimeField()
    opened_by = person("opened_by", allow_null=True, default=None)
    deadline = serializers.DateTimeField()
    overdue = serializers.SerializerMethodField()
    filing_reference = serializers.CharField()

    def get_overdue(self, case) -> bool:
        return selectors.is_overdue(case)


class StepSerializer(serializers.Serializer):
    step = serializers.CharField()
    by = person("by", allow_null=True, default=None)
    at = serializers.DateTimeField()
    note = serializers.CharField()


class CaseDetailSerializer(CaseSerializer):
    grounds = serializers.CharField()
    evidence = serializers.ListField(child=serializers.DictField())
    decision_reasons = serializers.CharField()
    steps = StepSerializer(many=True, source="steps.all")


class VenueCaseListView(ApiView):
    read_capability = Capability.COMPLIANCE

    @extend_schema(
        tags=["compliance"],
        summary="A venue's suspicious-activity cases, newest first",
        parameters=[
            OpenApiParameter("status", str, OpenApiParameter.QUERY),
            OpenApiParameter("overdue", bool, OpenApiParameter.QUERY),
        ],
        responses={200: paginated(CaseSerializer), **errors(401, 403, 404)},
    )
    def get(self, request: Request, pk: int) -> Response:
        venue = selectors.venue_for(user=request.user, pk=pk)
        if venue is None:
            not_found("venue", pk)
        if compliance_refusal(request.user, venue.pk) is not None:
            raise PermissionDenied(REFUSED)
        found = selectors.cases(
            venue=venue,
            status=request.query_params.get("status", ""),
            overdue=request.query_params.get("overdue") in ("1", "true"),
        )
        found = found.exclude(pk__in=cases_hidden_from(request.user, venue.pk, found))
        return page(queryset=found, serializer_class=CaseSerializer, request=request, view=self)


class CaseDetailView(ApiView):
    read_capability = Capability.COMPLIANCE

    @extend_schema(
        tags=["compliance"],
        summary="A suspicious-activity case with its evidence and steps (its reading audited)",
        responses={200: CaseDetailSerializer, **errors(401, 403, 404)},
    )
    def get(self, request: Request, pk: int) -> Response:
        case = selectors.case_for(user=request.user, pk=pk)
        if case is None:
            not_found("case", pk)
        if compliance_refusal(request.user, case.venue_id) is not None:
            raise PermissionDenied(REFUSED)
        too_close = case_read_refusal(user=request.user, case=case)
        if too_close is not None:
            raise PermissionDenied(too_close.message)
        case_viewed(case=case, user=request.user, where="api")
        return Response(CaseDetailSerializer(case).data)
