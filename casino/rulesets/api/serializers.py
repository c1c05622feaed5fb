"""Rulesets and their versions (each game's ``GameApi.version_serializer`` extends
``RulesetVersionSerializer``)."""

from __future__ import annotations

from rest_framework import serializers

from casino.api.base import ListParams, id_field
from casino.api.serializers.fields import (
    MoneyField,
    RulesetRefSerializer,
    VenueRefSerializer,
    person,
)
from casino.kernel import registry
from casino.rulesets.models import RoundingMode

# Rulesets


class RulesetSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    venue = VenueRefSerializer()
    game = serializers.CharField()
    code = serializers.CharField()
    name = serializers.CharField()


class RulesetVersionSummarySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    number = serializers.IntegerField()
    status = serializers.CharField(help_text="draft, approved, active or retired")
    notes = serializers.CharField()
    created_at = serializers.DateTimeField()
    created_by = person("created_by", allow_null=True)
    approved_at = serializers.DateTimeField(allow_null=True)
    approved_by = person("approved_by", allow_null=True)
    activated_at = serializers.DateTimeField(allow_null=True)
    activated_by = person("activated_by", allow_null=True)
    effective_from = serializers.DateTimeField(allow_null=True)
    retired_at = serializers.DateTimeField(allow_null=True)


class RulesetVersionSerializer(RulesetVersionSummarySerializer):
    """A version with the rules every game's versions have; each game's serializer (its
    ``GameApi.version_serializer``) adds its own."""

    ruleset = RulesetRefSerializer()
    rounding_unit = MoneyField(
        help_text="Commissions are rounded to a multiple of this; stakes must be multiples."
    )
    rounding_mode = serializers.ChoiceField(
        choices=RoundingMode.choices,
        help_text="up (towards +infinity), half_up, down (towards -infinity), or none (to the "
        "cent)",
    )


class RulesetDetailSerializer(RulesetSerializer):
    versions = RulesetVersionSummarySerializer(many=True)


class RulesetListParams(ListParams):
    venue = id_field(required=False)
    game = serializers.ChoiceField(choices=registry.game_choices(), required=False)
