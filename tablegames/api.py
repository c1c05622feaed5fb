"""Rated table games' part of the API: a ruleset version with its rules."""

from __future__ import annotations

from rest_framework import serializers

from casino.api.serializers.fields import RateField
from casino.api.serializers.rulesets import RulesetVersionSerializer


class TableGameRulesetVersionSerializer(RulesetVersionSerializer):
    """A rated table game's version: the game played, its house edge and decisions per
    hour, which rate the players' play."""

    game_name = serializers.CharField()
    house_edge_rate = RateField()
    decisions_per_hour = serializers.IntegerField()


class TableGamesApi:
    version_serializer = TableGameRulesetVersionSerializer
    cards_help = "Rated table games deal no rounds on the system."
    dealer_cards_help = "Rated table games deal no rounds on the system."
    evaluation_help = "Rated table games deal no rounds on the system."


API = TableGamesApi()
