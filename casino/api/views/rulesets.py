"""Rulesets and their versions (each game's version with its rules, through its
``GameApi``), and the audit trail."""

from __future__ import annotations

from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema
from rest_framework.exceptions import NotFound, PermissionDenied
from rest_framework.request import Request
from rest_framework.response import Response

from casino import games, selectors
from casino.api import serializers as s
from casino.api.base import ApiView, errors, page, paginated, parse_query
from casino.api.views.common import found
from casino.staff.policy import Capability, allows
from casino.staff.roles import venue_ids

# Rulesets


class RulesetListView(ApiView):
    read_capability = Capability.READ_FLOOR

    @extend_schema(
        operation_id="rulesets_list",
        tags=["rulesets"],
        summary="Rulesets of your venues",
        parameters=[s.RulesetListParams],
        responses={200: paginated(s.RulesetSerializer), **errors(400, 401, 403)},
    )
    def get(self, request: Request) -> Response:
        filters = parse_query(s.RulesetListParams, request)
        rulesets = selectors.ruleset_list(
            user=request.user, venue_id=filters.get("venue"), game=filters.get("game")
        )
        return page(
            queryset=rulesets, serializer_class=s.RulesetSerializer, request=request, view=self
        )


class RulesetDetailView(ApiView):
    read_capability = Capability.READ_FLOOR

    @extend_schema(
        tags=["rulesets"],
        summary="A ruleset with its versions",
        responses={200: s.RulesetDetailSerializer, **errors(401, 403, 404)},
    )
    def get(self, request: Request, pk: int) -> Response:
        ruleset = found(selectors.ruleset_get(user=request.user, pk=pk), "ruleset", pk)
        versions = selectors.ruleset_versions(ruleset=ruleset)
        # The shape of ``RulesetDetailSerializer``: the ruleset, then its versions.
        return Response(
            {
                **s.RulesetSerializer(ruleset).data,
                "versions": s.RulesetVersionSummarySerializer(versions, many=True).data,
            }
        )


def _version_serializers() -> PolymorphicProxySerializer:
    """Each installed game's version serializer, told apart by the ruleset's game."""
    return PolymorphicProxySerializer(
        component_name="RulesetVersionDetail",
        serializers=[game.api.version_serializer for game in games.all_games()],
        resource_type_field_name=None,
    )


class RulesetVersionDetailView(ApiView):
    read_capability = Capability.READ_FLOOR

    @extend_schema(
        tags=["rulesets"],
        summary="A ruleset version with its rules (each game's: a paytable, bonus lines, ...)",
        responses={200: _version_serializers(), **errors(401, 403, 404)},
    )
    def get(self, request: Request, pk: int, number: int) -> Response:
        ruleset = found(selectors.ruleset_get(user=request.user, pk=pk), "ruleset", pk)
        version = selectors.ruleset_version_get(ruleset=ruleset, number=number)
        if version is None:
            raise NotFound(f"ruleset {ruleset.code} has no version {number}")
        serializer = games.get(ruleset.game).api.version_serializer
        return Response(serializer(version).data)


# The audit trail


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
        parameters=[s.AuditEventListParams],
        responses={200: paginated(s.AuditEventSerializer), **errors(400, 401, 403)},
    )
    def get(self, request: Request) -> Response:
        filters = parse_query(s.AuditEventListParams, request)
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
            queryset=events, serializer_class=s.AuditEventSerializer, request=request, view=self
        )


class AuditEventDetailView(ApiView):
    read_capability = Capability.READ_AUDIT

    @extend_schema(
        tags=["audit"],
        summary="An audit event",
        responses={200: s.AuditEventSerializer, **errors(401, 403, 404)},
    )
    def get(self, request: Request, pk: int) -> Response:
        event = selectors.audit_event_get(user=request.user, pk=pk)
        if event is None:
            _readers_only(request, selectors.audit_event_venue(pk=pk))
        event = found(event, "audit event", pk)
        return Response(s.AuditEventSerializer(event).data)
