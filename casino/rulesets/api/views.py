"""Rulesets and their versions (each game's version with its rules, through its
``GameApi``)."""

from __future__ import annotations

from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response

from casino.api.base import ApiView, errors, page, paginated, parse_query
from casino.api.views.common import found
from casino.kernel import registry
from casino.rulesets import selectors
from casino.rulesets.api import serializers as s
from casino.staff.policy import Capability

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
        serializers=[game.api.version_serializer for game in registry.all_games()],
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
        serializer = registry.get(ruleset.game).api.version_serializer
        return Response(serializer(version).data)
