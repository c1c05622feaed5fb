"""Mau Binh's part of the API: its ruleset version with its rules, and what its round body
and answers hold."""

from __future__ import annotations

from django.urls import URLPattern
from rest_framework import serializers

from casino.api.serializers.fields import RateField
from casino.rulesets.api.serializers import RulesetVersionSerializer


class RowBonusSerializer(serializers.Serializer):
    row = serializers.CharField(help_text="back, middle or front")
    category = serializers.CharField(help_text="The winning hand in that row.")
    chi = serializers.IntegerField()


class InstantWinSerializer(serializers.Serializer):
    kind = serializers.CharField()
    chi = serializers.IntegerField(help_text="Chi from each other player; 0: not paid.")


class MauBinhRulesetVersionSerializer(RulesetVersionSerializer):
    """A Mau Binh version with its rules: rounding of the fee, scoring switches, the readings
    of the sheet a venue chose, fee rate and basis, quit penalty, row bonuses and instant
    wins."""

    scoop_multiplier = serializers.IntegerField()
    foul_counts_as_scoop = serializers.BooleanField()
    wheel_is_lowest = serializers.BooleanField()
    dragon_flush_counts_as_dragon = serializers.BooleanField()
    foul_pays_row_bonuses = serializers.BooleanField()
    tied_instant_wins = serializers.CharField(help_text="each_in_full or share")
    declaring = serializers.CharField(help_text="automatic or optional")
    instant_win_when_fouled = serializers.BooleanField()
    fee_rate = RateField()
    fee_basis = serializers.CharField(help_text="net_result or each_win")
    quit_penalty = serializers.IntegerField()
    row_bonuses = RowBonusSerializer(many=True)
    instant_wins = InstantWinSerializer(many=True)


class MauBinhApi:
    """The API's hooks for Mau Binh (the schema's help texts are in English, like the rest)."""

    version_serializer = MauBinhRulesetVersionSerializer
    cards_help = (
        'Mau Binh: the rows back / middle / front, e.g. "AS KS QS JS TS / 2H 2D 2C 3S 3D / '
        '4H 4D 5C" (empty for a player who quit).'
    )
    dealer_cards_help = "Empty for Mau Binh (no dealer hand)."
    evaluation_help = (
        "Mau Binh: {label, rows, fouled, foul_reason, instant_win, undeclared_instant_win, quit, "
        "chi, against, scooped, scooped_by}."
    )

    def urls(self) -> list[URLPattern]:
        return []


API = MauBinhApi()
